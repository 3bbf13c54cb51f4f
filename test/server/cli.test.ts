import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { rawDatabaseText, readDataFolder, tempDataDir } from '../../testkit/data-folder.ts';
import { apiClient, embeddedOnly } from '../helpers/service.ts';
import { cli, startServiceProcess } from '../helpers/service-process.ts';

describe('CLI', embeddedOnly, () => {
  test('credentials, token and merchant work without a running service', () => {
    const dir = tempDataDir();
    const credentials = JSON.parse(cli(dir, ['credentials']).stdout);
    assert.deepEqual(Object.keys(credentials), ['serviceUrl', 'merchantId', 'licenceKey', 'publicKey', 'accessToken']);
    assert.equal(typeof credentials.merchantId, 'number');
    assert.match(credentials.licenceKey, /^sk_test_/);
    assert.match(credentials.publicKey, /^pk_test_/);
    assert.deepEqual(JSON.parse(cli(dir, ['credentials']).stdout), credentials, 'seeded once');
    assert.match(cli(dir, ['token', '--', 'alice']).stdout, /^cpe_at_\S+$/);
    const merchant = JSON.parse(cli(dir, ['merchant', '--', '--origin', 'https://shop.example']).stdout);
    assert.deepEqual(Object.keys(merchant), ['serviceUrl', 'merchantId', 'licenceKey', 'publicKey']);
    assert.notEqual(merchant.merchantId, credentials.merchantId);
  });

  test('credentials.json is readable by its owner only (mode 0600); --name names the merchant, directly and through the service', async () => {
    const dir = tempDataDir();
    cli(dir, ['credentials']);
    assert.equal(statSync(join(dir, 'credentials.json')).mode & 0o777, 0o600);
    const merchantName = async (id: number) => (await readDataFolder(dir)).collections.merchants[String(id)].name;
    const direct = JSON.parse(cli(dir, ['merchant', '--', '--origin', 'https://a.example', '--name', 'Shop A']).stdout);
    assert.equal(await merchantName(direct.merchantId), 'Shop A');
    const service = await startServiceProcess(dir);
    try {
      const via = JSON.parse(cli(dir, ['merchant', '--', '--origin', 'https://b.example', '--name', 'Shop B']).stdout);
      await service.stop();
      assert.equal(await merchantName(via.merchantId), 'Shop B');
    } finally {
      await service.stop();
    }
  });

  test('bad input: a message and exit code 1', () => {
    const dir = tempDataDir();
    assert.equal(cli(dir, ['token']).status, 1);
    const bad = cli(dir, ['merchant', '--', '--origin', 'ftp://x']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /origin/);
    assert.equal(cli(dir, ['token', '--', 'no spaces']).status, 1);
  });

  test('while the service runs, commands take effect at once and lose nothing', async () => {
    const dir = tempDataDir();
    let service = await startServiceProcess(dir);
    try {
      const api = apiClient(service.url);
      const credentials = JSON.parse(cli(dir, ['credentials']).stdout);
      assert.equal(credentials.serviceUrl.replace('localhost', '127.0.0.1'), service.url);
      const before = (await api('POST', '/v1/contacts', { token: credentials.accessToken, form: { username: 'before', phone_number: '+441234567' } })).body;

      const token = cli(dir, ['token', '--', 'carol']).stdout;
      assert.equal((await api('GET', '/v1/contacts', { token })).status, 200, 'the new token works without a restart');
      const merchant = JSON.parse(cli(dir, ['merchant', '--', '--origin', 'http://localhost:9999']).stdout);
      const after = (await api('POST', '/v1/contacts', { token: credentials.accessToken, form: { username: 'after', phone_number: '+441234567' } })).body;
      await service.stop();

      service = await startServiceProcess(dir);
      const again = apiClient(service.url);
      assert.equal((await again('GET', `/v1/contacts/${before.id}`, { token: credentials.accessToken })).status, 200);
      assert.equal((await again('GET', `/v1/contacts/${after.id}`, { token: credentials.accessToken })).status, 200);
      assert.equal((await again('GET', '/v1/contacts', { token })).status, 200, 'the token survived');
      const data = await readDataFolder(dir);
      assert.ok(data.collections.merchants[String(merchant.merchantId)], 'the merchant survived');
      // Credentials are stored as hashes; the public key (in every merchant page anyway) is also kept whole, for the dashboard to show.
      assert.doesNotMatch(rawDatabaseText(dir), new RegExp(`${token}|${merchant.licenceKey}`), 'only hashes are stored');
    } finally {
      await service.stop();
    }
  });
});
