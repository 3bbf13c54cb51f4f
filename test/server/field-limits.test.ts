/**
 * Form bodies and query strings are parsed by qs, which reads 1,000 fields of a body and 100
 * parameters of a query and drops the rest without a word. Nothing a client sends is silently
 * ignored: past the limit the request is a 400 naming it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(() => svc.close());

const form = (raw: string) => svc.api('POST', '/v1/contacts', { token: svc.credentials.accessToken, raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('field limits of form bodies and query strings', () => {
  test('a form body whose 1,001st field would be dropped is a 400 naming the limit, not a contact without it', async () => {
    // 998 empty pairs (`=`, which qs skips but counts) push avatar_url to field 1,001.
    const raw = `username=bob&phone_number=07700900123&${'=&'.repeat(998)}avatar_url=${encodeURIComponent('https://example.com/bob.png')}`;
    const answer = await form(raw);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, 'too_many_parameters');
    assert.match(answer.body.error.message, /at most 1000 are read/);
    assert.match(answer.body.error.message, /1001 fields/);
  });

  test('1,000 fields are read whole; trailing empty pairs past them lose nothing and pass', async () => {
    const raw = `username=bob&phone_number=07700900123&${'=&'.repeat(997)}avatar_url=${encodeURIComponent('https://example.com/bob.png')}${'&'.repeat(5)}`;
    const answer = await form(raw);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.avatar_url, 'https://example.com/bob.png');
  });

  test('a query string past 100 parameters is a 400 naming the limit, not a list with its default size', async () => {
    await form('username=ada&phone_number=07700900123');
    await form('username=eve&phone_number=07700900123');
    const answer = await svc.api('GET', `/v1/contacts?${'=&'.repeat(100)}limit=1`, { token: svc.credentials.accessToken });
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, 'too_many_parameters');
    assert.match(answer.body.error.message, /at most 100 are read/);
    const read = await svc.api('GET', `/v1/contacts?${'=&'.repeat(99)}limit=1`, { token: svc.credentials.accessToken });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.data.length, 1, 'the 100th parameter is read');
  });
});
