import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { EmbeddedStore } from '../../server/store/embedded-store.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { embeddedOnly, startTestService, type TestService } from '../helpers/service.ts';

/**
 * A write is visible only once it is durable (the "dirty reads"): on the embedded store, a
 * read that could see a change still on its way to the disk is answered only after that change's
 * fdatasync, so no answer shows state a kill -9 could still lose. The log's append is held open here
 * to make the window as wide as a slow disk's.
 */
let svc: TestService;
let release: () => void = () => {};
let holding = false;
/** Resolve when the held append starts, and when a request waits for the commit under way. */
let appendHeld: () => void = () => {};
let commitAwaited: () => void = () => {};
before(async () => {
  svc = await startTestService({ dataDir: tempDataDir() });
  const store = svc.services.store as EmbeddedStore;
  const log = store.log!;
  const write = log.write.bind(log);
  log.write = async (data) => {
    if (holding) {
      appendHeld();
      await new Promise<void>((resolve) => (release = resolve));
    }
    return write(data);
  };
  const commit = store.commit.bind(store);
  store.commit = () => {
    commitAwaited();
    return commit();
  };
});
const next = (set: (resolve: () => void) => void) => new Promise<void>((resolve) => set(resolve));
after(() => svc.close());

const settled = <T>(promise: Promise<T>) => {
  const state = { done: false };
  promise.then(() => (state.done = true), () => (state.done = true));
  return state;
};

describe('visibility on the embedded store', embeddedOnly, () => {
  test('a new contact is not shown to a reader before its create is durable', async () => {
    const token = svc.credentials.accessToken;
    holding = true;
    const held = next((resolve) => (appendHeld = resolve));
    const create = svc.api('POST', '/v1/contacts', { token, json: { username: 'pending', phone_number: '+441234567' } });
    const createState = settled(create);
    await held;
    assert.equal(createState.done, false, 'the create waits for its append');
    const waiting = next((resolve) => (commitAwaited = resolve));
    const list = svc.api('GET', '/v1/contacts?limit=1', { token });
    const listState = settled(list);
    // The reader has come to wait for the append under way: it is answered only after it.
    await waiting;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(listState.done, false, 'the reader is not answered while the contact it would show may still be lost');
    holding = false;
    release();
    const [created, listed] = await Promise.all([create, list]);
    assert.equal(created.status, 200);
    assert.equal(listed.body.data[0]?.id, created.body.id, 'once durable, it is shown');
  });

  test('reads that see nothing in flight are answered without waiting', async () => {
    const token = svc.credentials.accessToken;
    let waited = 0;
    commitAwaited = () => waited++;
    for (let i = 0; i < 20; i++) assert.equal((await svc.api('GET', '/v1/contacts', { token })).status, 200);
    assert.equal(waited, 0, 'no read waited for a commit');
  });
});
