import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import qs from 'qs';
import { ApiError } from '../../server/http/api-error.ts';
import { inheritedName } from '../../server/http/body.ts';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { errorMapper } from '../../server/http/error-mapper.ts';
import { mount, parseQuery } from '../../server/http/operation.ts';

/**
 * What the query parser did before its plain-query path: a query qs would cut (a pair past the 100th
 * that is not empty) refused, the inherited-name check, then qs.
 */
function reference(querystring: string): unknown {
  const pairs = querystring.split('&');
  if (pairs.slice(100).some((pair) => pair !== '')) return { refused: `The query string has ${pairs.filter(Boolean).length} parameters; at most 100 are read: send fewer.` };
  const inherited = querystring ? inheritedName(querystring) : undefined;
  if (inherited !== undefined) return { refused: `Received unknown parameter: ${inherited}.` };
  return qs.parse(querystring, { depth: 2, parameterLimit: 100 });
}

function actual(querystring: string): unknown {
  try {
    return parseQuery(querystring);
  } catch (error) {
    if (error instanceof ApiError) return { refused: error.message };
    throw error;
  }
}

describe('parseQuery', () => {
  test('gives what qs gives, plain queries and others alike', () => {
    const fixed = [
      '', 'limit=10', 'limit=10&starting_after=ctc_abc', 'limit=', 'limit', 'a=1&a=2', 'a=1&b=2&a=3', 'a+b=c', 'a=b+c', 'a=%41',
      'a[b]=1', 'a%5Bb%5D=1', 'a.b=1', 'toString=1', 'limit=1&constructor=2', 'a[__proto__]=1', 'hasOwnProperty=x&hasOwnProperty=y',
      '0=a', '1=a&0=b', 'a=1&&b=2', '&a=1', 'a=1&', '=1', 'a==1', 'a=~-._', 'a=é', 'x=1&'.repeat(120).slice(0, -1),
      Array.from({ length: 101 }, (_, i) => `k${i}=${i}`).join('&'),
      Array.from({ length: 100 }, (_, i) => `k${i}=${i}`).join('&'),
    ];
    const pieces = ['a', 'b', 'limit', '_', '0', '=', '&', '1', '+', '%20', '[', ']', '.', '__proto__', 'valueOf', '~', '-'];
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const generated = Array.from({ length: 3000 }, () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join(''));
    for (const query of [...fixed, ...generated]) assert.deepEqual(actual(query), reference(query), `query ${JSON.stringify(query)}`);
  });
});

describe("an operation's query", () => {
  test('a plain query string is read once: its parsed query is kept, frozen, and a refused one is refused every time', async () => {
    const seen: unknown[] = [];
    const router = new Router();
    mount(router, 'listContacts', (({ query }: { query: unknown }) => {
      seen.push(query);
      return { object: 'list', url: '/v1/contacts', has_more: false, data: [] };
    }) as never);
    const app = new Koa();
    app.use(errorMapper());
    app.use(router.routes());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const get = (query: string) => fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/contacts${query}`).then(async (res) => ({ status: res.status, body: await res.json() }));
      for (const query of ['?limit=3', '?limit=3', '', '', '?limit=3&active=true']) assert.equal((await get(query)).status, 200);
      assert.deepEqual(seen[0], { limit: 3 });
      assert.equal(seen[1], seen[0], 'the same query string: the same parsed query, not parsed again');
      assert.equal(seen[3], seen[2]);
      assert.ok(Object.isFrozen(seen[0]), 'shared between requests, so it cannot be changed');
      assert.deepEqual(seen[4], { limit: 3, active: true });
      for (let i = 0; i < 2; i++) assert.equal((await get('?limit=0')).body.error.param, 'limit');
    } finally {
      server.close();
    }
  });
});
