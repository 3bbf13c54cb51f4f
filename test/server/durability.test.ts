import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readDataFolder, tempDataDir } from '../../testkit/data-folder.ts';
import { apiClient, embeddedOnly } from '../helpers/service.ts';
import { accessTokenOf, startServiceProcess } from '../helpers/service-process.ts';

const contactBody = (username: string) => ({ form: { username, phone_number: '+441234567' } });

describe('the lowdb file', embeddedOnly, () => {
  test('everything survives a restart', async () => {
    const dir = tempDataDir();
    let service = await startServiceProcess(dir);
    const token = accessTokenOf(dir);
    let api = apiClient(service.url);
    const contact = (await api('POST', '/v1/contacts', { token, ...contactBody('kept') })).body;
    await api('PUT', `/v1/conversations/${contact.conversation_id}`, { token, form: { is_pinned: 'true' } });
    await service.stop();

    service = await startServiceProcess(dir);
    api = apiClient(service.url);
    try {
      assert.deepEqual((await api('GET', `/v1/contacts/${contact.id}`, { token })).body, contact);
      assert.equal((await api('GET', `/v1/conversations/${contact.conversation_id}`, { token })).body.is_pinned, true);
      assert.equal(accessTokenOf(dir), token, 'seeding happens once');
    } finally {
      await service.stop();
    }
  });

  test('kill -9 right after an acknowledged write loses nothing, and never leaves the file half-written', async () => {
    const dir = tempDataDir();
    const token = await (async () => {
      const first = await startServiceProcess(dir);
      await first.stop();
      return accessTokenOf(dir);
    })();
    const acknowledged: string[] = [];
    for (let round = 0; round < 3; round++) {
      const service = await startServiceProcess(dir);
      const api = apiClient(service.url);
      // A burst of concurrent writes; the process dies the moment the first answers arrive.
      const writes = Array.from({ length: 40 }, (_, i) =>
        api('POST', '/v1/contacts', { token, ...contactBody(`r${round}_${i}`) }).then(
          (r) => (r.status === 200 ? r.body.id : undefined),
          () => undefined,
        ),
      );
      await Promise.race(writes);
      service.child.kill('SIGKILL');
      const ids = (await Promise.all(writes)).filter(Boolean) as string[];
      await service.stop();
      acknowledged.push(...ids);

      const data = await readDataFolder(dir); // throws if a snapshot were half-written
      for (const id of acknowledged) assert.ok(data.collections.contacts[id], `acknowledged ${id} is on disk`);
    }
    assert.ok(acknowledged.length > 0, 'some writes were acknowledged before the kill');

    const service = await startServiceProcess(dir);
    try {
      const api = apiClient(service.url);
      for (const id of acknowledged) assert.equal((await api('GET', `/v1/contacts/${id}`, { token })).status, 200);
    } finally {
      await service.stop();
    }
  });
});
