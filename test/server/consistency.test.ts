import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TRANSITIONS } from '../../server/payments/intent-states.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, createIntent, getIntent, tokenise } from './payments-fixtures.ts';

/**
 * Where the README and the service disagreed (issue 13), each decided with the Stripe API's
 * behaviour as the guide; these pin the decision, whichever side moved.
 */

const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
const clock = new ManualClock();
let svc: TestService;
let token: string;
before(async () => {
  svc = await startTestService({ tokeniseRateLimit: { perIp: { perSecond: 0, burst: 0 }, perSession: { perSecond: 0, burst: 0 }, perMerchant: { perSecond: 0, burst: 0 } } }, clock);
  token = svc.credentials.accessToken;
});
after(() => svc.close());

const newContact = async (username = 'bob') => {
  const r = await svc.api('POST', '/v1/contacts', { token, form: { username, phone_number: '+441234567' } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
};

describe('messaging', () => {
  test('last_opened_at may be up to 300 s ahead of the service clock (a fast client clock), not more', async () => {
    const { conversation_id: id } = await newContact();
    const ok = await svc.api('PUT', `/v1/conversations/${id}`, { token, form: { last_opened_at: String(clock.now() + 300) } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.last_opened_at, clock.now() + 300);
    const late = await svc.api('PUT', `/v1/conversations/${id}`, { token, form: { last_opened_at: String(clock.now() + 301) } });
    assert.equal(late.status, 400);
    assert.equal(late.body.error.param, 'last_opened_at');
    assert.match(late.body.error.message, /300 seconds in the future/);
  });

  test('message text may hold line breaks and tabs; other control characters are refused', async () => {
    const { conversation_id: id } = await newContact();
    const multi = await svc.api('POST', `/v1/conversations/${id}/messages`, { token, json: { text: 'line one\r\nline two\n\tindented' } });
    assert.equal(multi.status, 200, JSON.stringify(multi.body));
    assert.equal(multi.body.text, 'line one\r\nline two\n\tindented');
    const bell = await svc.api('POST', `/v1/conversations/${id}/messages`, { token, json: { text: 'ding\u0007' } });
    assert.equal(bell.status, 400);
    assert.equal(bell.body.error.param, 'text');
  });

  test('display_name is one line of at most 100 characters, as the README says', async () => {
    const { id } = await newContact();
    for (const name of ['two\nlines', 'tab\there', 'x'.repeat(101)]) {
      const r = await svc.api('PUT', `/v1/contacts/${id}`, { token, json: { display_name: name } });
      assert.equal(r.status, 400, name);
      assert.equal(r.body.error.param, 'display_name');
    }
    assert.equal((await svc.api('PUT', `/v1/contacts/${id}`, { token, json: { display_name: 'x'.repeat(100) } })).status, 200);
    assert.match(readme, /`display_name` \(1 to 100 characters on one line/);
  });

  test('an id of an unexpected shape in a field names nothing: 404 naming the field, as an absent one', async () => {
    const { conversation_id: id } = await newContact();
    for (const contactId of ['ctc-not-an-id!', "';--", 'ctc_doesnotexist']) {
      const r = await svc.api('POST', '/v1/conversations', { token, form: { contact_id: contactId } });
      assert.equal(r.status, 404, contactId);
      assert.equal(r.body.error.code, 'resource_missing');
      assert.equal(r.body.error.param, 'contact_id');
    }
    const pinned = await svc.api('PUT', `/v1/conversations/${id}`, { token, form: { pinned_message_id: 'msg-bad id' } });
    assert.equal(pinned.status, 404);
    assert.equal(pinned.body.error.param, 'pinned_message_id');
    const long = await svc.api('POST', '/v1/conversations', { token, form: { contact_id: 'c'.repeat(256) } });
    assert.equal(long.status, 400, 'only the length of an id is bounded');
  });

  test("deleting a contact's conversation clears its conversation_id until a new one exists", async () => {
    const contact = await newContact();
    assert.equal((await svc.api('DELETE', `/v1/conversations/${contact.conversation_id}`, { token })).status, 200);
    assert.equal((await svc.api('GET', `/v1/contacts/${contact.id}`, { token })).body.conversation_id, null);
    const listed = (await svc.api('GET', '/v1/contacts?limit=100', { token })).body.data.find((c: { id: string }) => c.id === contact.id);
    assert.equal(listed.conversation_id, null);
    const made = await svc.api('POST', '/v1/conversations', { token, form: { contact_id: contact.id } });
    assert.equal(made.status, 200);
    assert.equal((await svc.api('GET', `/v1/contacts/${contact.id}`, { token })).body.conversation_id, made.body.id);
    assert.equal((await svc.api('POST', '/v1/conversations', { token, form: { contact_id: contact.id } })).status, 409);
  });
});

describe('bodies and idempotency', () => {
  test('a JSON "__proto__" key is parameter_unknown naming it, as the form field is', async () => {
    const json = (raw: string) => svc.api('POST', '/v1/contacts', { token, raw, headers: { 'content-type': 'application/json' } });
    const top = await json('{"username":"a","phone_number":"+441234567","__proto__":{"admin":true}}');
    assert.equal(top.status, 400);
    assert.deepEqual([top.body.error.code, top.body.error.param], ['parameter_unknown', '__proto__']);
    const form = await svc.api('POST', '/v1/contacts', { token, raw: 'username=a&phone_number=1234567&__proto__[admin]=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.deepEqual([form.body.error.code, form.body.error.param], ['parameter_unknown', '__proto__']);
    const nested = await svc.api('POST', '/v1/payment_intents', {
      token: svc.credentials.licenceKey,
      raw: `{"merchantid":${svc.credentials.merchantId},"amount":5,"currency":"GBP","identifier":"o","billTo":{"__proto__":{"x":1}}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.deepEqual([nested.status, nested.body.error.code, nested.body.error.param], [400, 'parameter_unknown', 'billTo[__proto__]']);
    const broken = await json('{"__proto__":');
    assert.equal(broken.body.error.code, 'body_invalid');
  });

  test('the same fields as JSON and then as form fields are the same body: replayed, not a 409', async () => {
    const headers = { 'X-Idempotency-Key': 'json-then-form' };
    const licence = svc.credentials.licenceKey;
    const first = await svc.api('POST', '/v1/payment_intents', {
      token: licence,
      headers,
      json: { merchantid: svc.credentials.merchantId, amount: 1234, currency: 'GBP', identifier: 'o-1', autoCapture: false, billTo: { firstname: 'Ada' } },
    });
    assert.equal(first.status, 200);
    const again = await svc.api('POST', '/v1/payment_intents', {
      token: licence,
      headers,
      form: { merchantid: String(svc.credentials.merchantId), amount: '1234', currency: 'GBP', identifier: 'o-1', autoCapture: 'false', 'billTo[firstname]': 'Ada' },
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.paymentIntentId, first.body.paymentIntentId);
    const other = await svc.api('POST', '/v1/payment_intents', { token: licence, headers, form: { merchantid: String(svc.credentials.merchantId), amount: '1235', currency: 'GBP', identifier: 'o-1' } });
    assert.equal(other.status, 409);
  });

  test('a key whose first answer was a 400 (refused before it ran) is not kept: the fixed request runs', async () => {
    const headers = { 'X-Idempotency-Key': 'fix-and-resend' };
    const refused = await svc.api('POST', '/v1/contacts', { token, headers, form: { username: 'a' } });
    assert.equal(refused.status, 400);
    const fixed = await svc.api('POST', '/v1/contacts', { token, headers, form: { username: 'a', phone_number: '+441234567' } });
    assert.equal(fixed.status, 200);
    assert.equal(fixed.headers.get('idempotent-replayed'), null);
    assert.match(readme, /`400` refusing the request before it ran[^.]*is not\s+kept, as the Stripe API/);
  });
});

describe('payments', () => {
  test("the README's state table is the transition table", () => {
    const rows = new Map<string, { from: string[]; to: string[] }>();
    for (const line of readme.split('\n')) {
      const cells = /^\s*\| `([a-z_]+)`[^|]*\|([^|]+)\|([^|]+)\|\s*$/.exec(line);
      if (!cells || !(cells[1] in TRANSITIONS)) continue;
      const states = (cell: string) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort();
      rows.set(cells[1], { from: states(cells[2]), to: states(cells[3]) });
    }
    for (const [operation, { from, to }] of Object.entries(TRANSITIONS)) {
      assert.deepEqual(rows.get(operation), { from: [...from].sort(), to: [...to].sort() }, operation);
    }
  });

  test('cards tokenise refuses count towards the lock of five failed attempts, as the README says', async () => {
    const session = await createIntent(svc);
    const refused = [{ number: '4242424242424241' }, { number: '12' }, { exp_month: '13' }, { number: '4242424242424241' }];
    for (const card of refused) {
      const r = await tokenise(svc, session, card);
      assert.equal(r.status, 400);
      assert.equal(r.body.error.type, 'card_error');
    }
    assert.equal((await getIntent(svc, session.paymentIntentId)).status, 'requires_payment_method');
    await tokenise(svc, session, { number: '4000000000000000' });
    const intent = await getIntent(svc, session.paymentIntentId);
    assert.deepEqual([intent.status, intent.cancellation_reason], ['cancelled', 'too_many_failed_attempts']);
    const locked = await tokenise(svc, session, { number: CARDS.visa });
    assert.equal(locked.status, 409);
    assert.equal(locked.body.error.code, 'payment_intent_locked');
    assert.match(readme, /card-testing lock\*\* counts every failed card attempt of an intent: a card tokenise refuses/);
  });
});
