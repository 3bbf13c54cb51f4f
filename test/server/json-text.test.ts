import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { listJson, unchanging, type ListEnvelope } from '../../server/http/json-text.ts';
import { mount } from '../../server/http/operation.ts';
import { Recent } from '../../server/http/recent.ts';

describe('listJson', () => {
  test('writes exactly what JSON.stringify writes, from kept text or not', () => {
    const row = unchanging(Object.freeze({ id: 'ctc_1', text: 'quote " tab \t é ✓ \u2028', n: 1.5, none: null, gone: undefined, list: Object.freeze([1, 'a']) }));
    const lists: ListEnvelope[] = [
      { object: 'list', url: '/v1/contacts', has_more: true, data: [row, row] },
      { object: 'list', url: '/v1/x?"', has_more: false, data: [] },
      { object: 'list', url: '/v1/x', has_more: false, data: [{ plain: true }, null, 3, 'text', row] },
    ];
    for (const list of lists) {
      assert.deepEqual(listJson(list), Buffer.from(JSON.stringify(list)));
      assert.deepEqual(listJson(list), Buffer.from(JSON.stringify(list)), 'the second time, from kept bytes');
    }
  });

  test('a page is written from kept text only for an operation that declares keptListJson, whatever its shape', async () => {
    // An unchanging item whose getter counts its serialisations: kept text does not call it again.
    let reads = 0;
    const item = unchanging(Object.freeze(Object.defineProperty({}, 'reads', { enumerable: true, get: () => ++reads })));
    const page = () => ({ object: 'list' as const, url: '/v1/x', has_more: false, data: [item] });
    // One operation of the table mounted twice: with keptListJson on one router, without on the other.
    const handler = (() => page()) as never;
    const kept = new Router();
    mount(kept, 'listContacts', handler, { keptListJson: true });
    const plainRouter = new Router();
    mount(plainRouter, 'listContacts', handler);
    const router = new Router();
    router.use('/kept', kept.routes());
    router.use('/plain', plainRouter.routes());
    const app = new Koa();
    app.use(router.routes());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const get = async (path: string) => {
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        return (await res.json()) as { data: { reads: number }[] };
      };
      const first = (await get('/kept/v1/contacts')).data[0].reads;
      assert.equal((await get('/kept/v1/contacts')).data[0].reads, first, 'the declared list page is written from kept text');
      const plain = (await get('/plain/v1/contacts')).data[0].reads;
      assert.equal((await get('/plain/v1/contacts')).data[0].reads, plain + 1, 'a list-shaped answer of an operation that does not declare it is serialised');
    } finally {
      server.close();
    }
  });

  test('only frozen values can be declared unchanging', () => {
    assert.throws(() => unchanging({ id: 'x' }));
  });

  test('Recent keeps at most twice its size, and what is read stays', () => {
    const recent = new Recent<number, string>(3);
    for (let i = 0; i < 10; i++) {
      recent.set(i, `v${i}`);
      assert.equal(recent.get(0), 'v0', 'read on every round, 0 is never dropped');
    }
    const kept = Array.from({ length: 10 }, (_, i) => recent.get(i)).filter((v) => v !== undefined);
    assert.ok(kept.length <= 6, `${kept.length} kept`);
    assert.equal(recent.get(9), 'v9');
    assert.equal(recent.get(1), undefined);
  });
});
