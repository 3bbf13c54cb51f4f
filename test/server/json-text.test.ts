import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listJson, unchanging } from '../../server/http/json-text.ts';
import { Recent } from '../../server/http/recent.ts';

describe('listJson', () => {
  test('writes exactly what JSON.stringify writes, from kept text or not', () => {
    const row = unchanging(Object.freeze({ id: 'ctc_1', text: 'quote " tab \t é ✓ \u2028', n: 1.5, none: null, gone: undefined, list: Object.freeze([1, 'a']) }));
    const lists = [
      { object: 'list', url: '/v1/contacts', has_more: true, data: [row, row] },
      { object: 'list', url: '/v1/x?"', has_more: false, data: [] },
      { object: 'list', url: '/v1/x', has_more: false, data: [{ plain: true }, null, 3, 'text', row] },
    ];
    for (const list of lists) {
      assert.equal(listJson(list), JSON.stringify(list));
      assert.equal(listJson(list), JSON.stringify(list), 'the second time, from kept text');
    }
  });

  test('answers undefined for anything that is not a list envelope in its order', () => {
    for (const value of [null, 'list', [], { object: 'list' }, { url: '/', object: 'list', has_more: false, data: [] }, { object: 'list', url: '/', has_more: 'no', data: [] }, { object: 'list', url: '/', has_more: false, data: [], extra: 1 }])
      assert.equal(listJson(value), undefined);
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
