import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startTestService, type TestService } from '../helpers/service.ts';
import { assertError, backend, CARDS, createIntent, tokenise, tokenOf } from './payments-fixtures.ts';

/** The findings of an outside fuzzer, one test each: every one answered 500, a wrong status or a silent drop. */

let svc: TestService;
let token: string;
before(async () => {
  svc = await startTestService();
  token = svc.credentials.accessToken;
});
after(() => svc.close());

const contactCount = async () => (await svc.api('GET', '/v1/contacts?limit=100', { token })).body.data.length;

describe('bodies that do not decode', () => {
  for (const encoding of ['gzip', 'deflate', 'br']) {
    for (const auth of [true, false]) {
      test(`Content-Encoding: ${encoding} that does not decode (${auth ? 'authenticated' : 'no credential'}): 400 error object`, async () => {
        const r = await fetch(`${svc.url}/v1/contacts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': encoding, ...(auth ? { authorization: `Bearer ${token}` } : {}) },
          body: Buffer.from('this is not compressed at all'),
        });
        assert.equal(r.status, 400);
        const body = await r.json();
        assert.equal(body.error.type, 'invalid_request_error');
        assert.equal(body.error.code, 'body_invalid');
        assert.match(body.error.message, /Content-Encoding/);
      });
    }
  }

  test('a gzip body that does decode is accepted', async () => {
    const before = await contactCount();
    const r = await fetch(`${svc.url}/v1/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${token}` },
      body: gzipSync(JSON.stringify({ username: 'zipped', phone_number: '+441234567' })),
    });
    assert.equal(r.status, 200);
    assert.equal(await contactCount(), before + 1);
  });

  test('an unknown Content-Encoding: 415', async () => {
    const r = await svc.api('POST', '/v1/contacts', { token, raw: '{}', headers: { 'content-type': 'application/json', 'content-encoding': 'zstd-9000' } });
    assert.equal(r.status, 415);
    assert.equal(r.body.error.code, 'unsupported_media_type');
  });
});

describe('nesting depth', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  test('JSON nested 5,000 levels with an idempotency key: 400 body_too_deep, not a stack overflow', async () => {
    const r = await svc.api('POST', '/v1/contacts', { token, raw: deep(5000), headers: { 'content-type': 'application/json', 'x-idempotency-key': 'deep-1' } });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'body_too_deep');
  });

  test('arrays count as levels too; a payment route is bounded the same way', async () => {
    const r = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, raw: '['.repeat(3000) + ']'.repeat(3000), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'body_too_deep');
  });

  test('the deepest body a route takes (three levels) still passes the bound', async () => {
    const r = await svc.api('POST', '/v1/payment_intents', {
      token: svc.credentials.licenceKey,
      json: { merchantid: svc.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'x', account_id: 'a', recurringIntent: { type: 'subscription' } },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });
});

/** fetch refuses TRACE, so this speaks plain node:http. */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; allow: string | undefined; body: any }>((resolve, reject) => {
    const req = request(`${svc.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body: JSON.parse(text) }));
    });
    req.on('error', reject).end();
  });
}

describe('methods', () => {
  for (const method of ['TRACE', 'PROPFIND', 'LINK']) {
    test(`${method} on a route: 405 with Allow`, async () => {
      const r = await rawRequest(method, '/v1/contacts', { authorization: `Bearer ${token}` });
      assert.equal(r.status, 405);
      assert.match(r.allow ?? '', /GET/);
      assert.equal(r.body.error.code, 'method_not_allowed');
    });
  }

  test('TRACE on no route: 404 route_missing', async () => {
    const r = await rawRequest('TRACE', '/v1/nothing-here');
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'route_missing');
  });
});

describe('form fields named after Object.prototype', () => {
  for (const field of ['__proto__', 'constructor[prototype][x]', 'toString', 'valueOf', 'hasOwnProperty', 'billTo[__proto__][x]', 'billTo[toString]']) {
    test(`${field}: 400 parameter_unknown naming it`, async () => {
      const before = await contactCount();
      const r = await svc.api('POST', '/v1/contacts', { token, raw: `username=proto&phone_number=%2B441234567&${field}=1`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assertError(r, 400, field.replace(/\[x\]$/, '').replace(/\[prototype\]$/, ''));
      assert.equal(r.body.error.code, 'parameter_unknown');
      assert.equal(await contactCount(), before);
      assert.equal(({} as Record<string, unknown>).x, undefined);
    });
  }

  test('an unknown JSON field is parameter_unknown too, nested ones named in form notation', async () => {
    const r = await svc.api('POST', '/v1/contacts', { token, json: { username: 'u', phone_number: '+441234567', nickname: 'x' } });
    assertError(r, 400, 'nickname');
    assert.equal(r.body.error.code, 'parameter_unknown');
    const nested = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: { merchantid: svc.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'x', billTo: { nickname: 'Ada' } } });
    assertError(nested, 400, 'billTo[nickname]');
    assert.equal(nested.body.error.code, 'parameter_unknown');
  });

  test('in a query string too', async () => {
    const r = await svc.api('GET', '/v1/contacts?toString=1', { token });
    assertError(r, 400, 'toString');
    assert.equal(r.body.error.code, 'parameter_unknown');
  });
});

describe('bodies of the wrong shape', () => {
  for (const raw of ['[]', '"text"', '42', 'null']) {
    test(`a JSON body ${raw}: parameter_invalid saying it must be an object`, async () => {
      const r = await svc.api('POST', '/v1/contacts', { token, raw, headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 400);
      assert.ok(['parameter_invalid', 'body_invalid'].includes(r.body.error.code), r.body.error.code);
      assert.match(r.body.error.message, /object/);
      assert.doesNotMatch(r.body.error.message, /Missing required param: \./);
    });
  }

  test('a field of the wrong type is parameter_invalid naming it, not parameter_missing', async () => {
    const r = await svc.api('POST', '/v1/contacts', { token, json: { username: 5, phone_number: '+441234567' } });
    assertError(r, 400, 'username');
    assert.equal(r.body.error.code, 'parameter_invalid');
    const nested = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: { merchantid: svc.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'x', billTo: 'Ada' } });
    assertError(nested, 400, 'billTo');
    assert.equal(nested.body.error.code, 'parameter_invalid');
  });

  test('a field that is absent is still parameter_missing', async () => {
    const r = await svc.api('POST', '/v1/contacts', { token, json: { phone_number: '+441234567' } });
    assertError(r, 400, 'username');
    assert.equal(r.body.error.code, 'parameter_missing');
  });
});

describe('unknown ids are 404 resource_missing, as the README says of absent objects', () => {
  test('a cursor naming no object', async () => {
    for (const param of ['starting_after', 'ending_before']) {
      const r = await svc.api('GET', `/v1/contacts?${param}=ctc_unknown`, { token });
      assertError(r, 404, param);
      assert.equal(r.body.error.code, 'resource_missing');
    }
  });

  test('a pinned_message_id naming no message of the conversation', async () => {
    const contact = (await svc.api('POST', '/v1/contacts', { token, json: { username: 'pin', phone_number: '+441234567' } })).body;
    const r = await svc.api('PUT', `/v1/conversations/${contact.conversation_id}`, { token, json: { pinned_message_id: 'msg_unknown' } });
    assertError(r, 404, 'pinned_message_id');
    assert.equal(r.body.error.code, 'resource_missing');
  });

  test('a token naming no token of this intent, and a vaulted card of no account', async () => {
    const s = await createIntent(svc);
    for (const reference of ['tok_unknown', 'card_unknown']) {
      const r = await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: reference });
      assertError(r, 404, 'token');
      assert.equal(r.body.error.code, 'resource_missing');
    }
  });

  test('an unknown payment intent in a body', async () => {
    const r = await backend(svc, 'confirm', { payment_intent_id: 'pi_unknown' });
    assertError(r, 404, 'payment_intent_id');
    assert.equal(r.body.error.code, 'resource_missing');
  });
});

test('tokenising for a cancelled intent names the operation tried', async () => {
  const s = await createIntent(svc);
  await tokenOf(svc, s, CARDS.visa);
  assert.equal((await backend(svc, 'cancel', { payment_intent_id: s.paymentIntentId })).status, 200);
  const r = await tokenise(svc, s);
  assertError(r, 409, 'payment_intent_id');
  assert.match(r.body.error.message, /^You cannot tokenise a card for payment intent pi_\w+: its status is cancelled\.$/);
});
