import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { assertError, CARDS } from './payments-fixtures.ts';

/**
 * GET /v1/payment_intents (filters by status, created and metadata; cursors while intents are made),
 * intent metadata with the Stripe API's limits, and POST /v1/payment_intents/:id, on the engine
 * under test. Each test has a merchant of its own, so its lists hold only its intents.
 */
const clock = new ManualClock();
let svc: TestService;
before(async () => (svc = await startTestService({}, clock)));
after(() => svc.close());

type Merchant = { merchantId: number; licenceKey: string };
const newMerchant = (): Promise<Merchant> => svc.services.merchants.create({ origins: ['https://list.example'] });

const create = (m: Merchant, extra: Record<string, unknown> = {}) =>
  svc.api('POST', '/v1/payment_intents', { token: m.licenceKey, json: { merchantid: m.merchantId, amount: 1000, currency: 'GBP', identifier: 'o', ...extra } });
const made = async (m: Merchant, extra: Record<string, unknown> = {}): Promise<string> => {
  const r = await create(m, extra);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.paymentIntentId;
};
const list = async (m: Merchant, query: string): Promise<{ ids: string[]; has_more: boolean; status: number; body: any }> => {
  const r = await svc.api('GET', `/v1/payment_intents${query ? `?${query}` : ''}`, { token: m.licenceKey });
  return { ids: r.status === 200 ? r.body.data.map((i: { id: string }) => i.id) : [], has_more: r.body.has_more, status: r.status, body: r.body };
};
const post = (m: Merchant, path: string, json: Record<string, unknown>) => svc.api('POST', path, { token: m.licenceKey, json });

/** Moves an intent to succeeded (4242…) or failed (declined card). */
async function pay(m: Merchant, id: string, card: string = CARDS.visa) {
  const token = await post(m, '/v1/tokens', { card: { number: card, exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'A' } });
  for (const [op, body] of [['attach', { token: token.body.data.cp_card_token }], ['confirm', {}], ['authorise', {}]] as const)
    assert.equal((await post(m, `/v1/payment_intents/${op}`, { payment_intent_id: id, ...body })).status, 200);
}

describe('metadata and description', () => {
  test('set on create (JSON or form fields), shown on the intent and in the list', async () => {
    const m = await newMerchant();
    const id = await made(m, { metadata: { order_id: '6735', n: 3 }, description: 'Two pens' });
    const form = await svc.api('POST', '/v1/payment_intents', {
      token: m.licenceKey,
      form: { merchantid: String(m.merchantId), amount: '100', currency: 'GBP', identifier: 'f', 'metadata[order_id]': '6736', 'metadata[channel]': 'phone' },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const intent = (await svc.api('GET', `/v1/payment_intents/${id}`, { token: m.licenceKey })).body;
    assert.deepEqual([intent.metadata, intent.description, intent.created], [{ order_id: '6735', n: '3' }, 'Two pens', clock.now()]);
    assert.deepEqual((await list(m, '')).body.data[0].metadata, { order_id: '6736', channel: 'phone' });
  });

  test('the Stripe limits: 50 keys, keys of 40 characters without brackets, values of 500; each refusal names the field', async () => {
    const m = await newMerchant();
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    assertError(await create(m, { metadata: many }), 400, 'metadata');
    assert.equal((await create(m, { metadata: Object.fromEntries(Object.entries(many).slice(0, 50)) })).status, 200);
    const long = 'k'.repeat(41);
    const refusedKey = await create(m, { metadata: { [long]: 'v' } });
    assertError(refusedKey, 400, `metadata[${long}]`);
    assert.match(refusedKey.body.error.message, /at most 40 characters/);
    assert.equal((await create(m, { metadata: { ['k'.repeat(40)]: 'v'.repeat(500) } })).status, 200);
    assertError(await create(m, { metadata: { k: 'v'.repeat(501) } }), 400, 'metadata[k]');
    assertError(await create(m, { metadata: { 'a[b]': 'c' } }), 400, 'metadata[a[b]]');
    assertError(await create(m, { metadata: { k: { nested: 'no' } } }), 400, 'metadata[k]');
    assertError(await create(m, { description: 'x'.repeat(1001) }), 400, 'description');
  });

  test('POST /v1/payment_intents/:id merges metadata ("" removes a key, metadata="" all) and sets description, in any status', async () => {
    const m = await newMerchant();
    const id = await made(m, { metadata: { a: '1', b: '2' } });
    const path = `/v1/payment_intents/${id}`;
    let r = await post(m, path, { metadata: { b: '', c: '3' }, description: 'Gift' });
    assert.deepEqual([r.status, r.body.metadata, r.body.description], [200, { a: '1', c: '3' }, 'Gift']);
    assert.equal((await post(m, '/v1/payment_intents/cancel', { payment_intent_id: id })).status, 200);
    r = await svc.api('POST', path, { token: m.licenceKey, form: { 'metadata[d]': '4', description: '' } });
    assert.deepEqual([r.body.status, r.body.metadata, r.body.description], ['cancelled', { a: '1', c: '3', d: '4' }, null]);
    r = await svc.api('POST', path, { token: m.licenceKey, form: { metadata: '' } });
    assert.deepEqual(r.body.metadata, {});
    const full = await post(m, path, { metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'])) });
    assert.equal(full.status, 200);
    const oneMore = await post(m, path, { metadata: { extra: 'v' } });
    assertError(oneMore, 400, 'metadata');
    assert.match(oneMore.body.error.message, /at most 50 keys; this update would make 51/);
    assertError(await post(m, path, { amount: 5 }), 400, 'amount');
    const other = await newMerchant();
    assertError(await post(other, path, { description: 'mine now' }), 404, 'id');
    assert.equal((await post(m, '/v1/payment_intents/attach', { payment_intent_id: id, token: 'tok_x' })).status !== 200, true, 'attach is still attach, not an update');
  });
});

describe('GET /v1/payment_intents', () => {
  test('newest first, only the merchant\'s own, with cursors that hold while intents are created', async () => {
    const m = await newMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await made(m));
    assert.deepEqual((await list(m, 'limit=100')).ids, [...ids].reverse());
    const first = await list(m, 'limit=2');
    assert.deepEqual([first.ids, first.has_more], [[ids[4], ids[3]], true]);
    const newer = await made(m); // made between two pages: the walk goes on from the cursor
    const second = await list(m, `limit=2&starting_after=${ids[3]}`);
    assert.deepEqual(second.ids, [ids[2], ids[1]]);
    const last = await list(m, `limit=2&starting_after=${ids[1]}`);
    assert.deepEqual([last.ids, last.has_more], [[ids[0]], false]);
    assert.deepEqual((await list(m, `limit=3&ending_before=${ids[3]}`)).ids, [newer, ids[4]]);
    const other = await newMerchant();
    assert.deepEqual((await list(other, '')).ids, []);
    assertError(await svc.api('GET', '/v1/payment_intents?starting_after=re_x', { token: m.licenceKey }), 404, 'starting_after');
    assertError(await svc.api('GET', `/v1/payment_intents?starting_after=${ids[1]}&ending_before=${ids[3]}`, { token: m.licenceKey }), 400, 'ending_before');
  });

  test('status: one, or several (comma separated, or status[]); a status that does not exist is a 400', async () => {
    const m = await newMerchant();
    const open = await made(m);
    const succeeded = await made(m);
    await pay(m, succeeded);
    const failed = await made(m);
    await pay(m, failed, CARDS.declined);
    const cancelled = await made(m);
    await post(m, '/v1/payment_intents/cancel', { payment_intent_id: cancelled });
    assert.deepEqual((await list(m, 'status=succeeded')).ids, [succeeded]);
    assert.deepEqual((await list(m, 'status=open')).ids, [open]);
    assert.deepEqual((await list(m, 'status=failed,cancelled')).ids, [cancelled, failed]);
    assert.deepEqual((await list(m, 'status[]=succeeded&status[]=open')).ids, [succeeded, open]);
    assert.deepEqual((await list(m, 'status[0]=failed&status[1]=succeeded&limit=1')).has_more, true);
    assert.deepEqual((await list(m, `status=succeeded,failed,open&limit=1&starting_after=${failed}`)).ids, [succeeded]);
    assertError(await svc.api('GET', '/v1/payment_intents?status=paid', { token: m.licenceKey }), 400, 'status[0]');
  });

  test('created[gte|lte|gt|lt] and created=<second>', async () => {
    const m = await newMerchant();
    const t0 = clock.now();
    const a = await made(m);
    clock.advance(10);
    const b = await made(m);
    clock.advance(10);
    const c = await made(m);
    assert.deepEqual((await list(m, `created[gte]=${t0 + 10}`)).ids, [c, b]);
    assert.deepEqual((await list(m, `created[lte]=${t0 + 10}`)).ids, [b, a]);
    assert.deepEqual((await list(m, `created[gt]=${t0}&created[lt]=${t0 + 20}`)).ids, [b]);
    assert.deepEqual((await list(m, `created=${t0 + 20}`)).ids, [c]);
    assert.deepEqual((await list(m, `created[gte]=${t0 + 10}&limit=1&starting_after=${c}`)).ids, [b]);
    assertError(await svc.api('GET', '/v1/payment_intents?created[after]=1', { token: m.licenceKey }), 400, 'created[after]');
    assertError(await svc.api('GET', '/v1/payment_intents?created[gte]=yesterday', { token: m.licenceKey }), 400, 'created[gte]');
  });

  test('metadata[key]=value, every pair, combined with the other filters', async () => {
    const m = await newMerchant();
    const web1 = await made(m, { metadata: { channel: 'web', order: '1' } });
    const phone = await made(m, { metadata: { channel: 'phone', order: '2' } });
    const web2 = await made(m, { metadata: { channel: 'web', order: '3' } });
    await pay(m, web2);
    await made(m);
    assert.deepEqual((await list(m, 'metadata[channel]=web')).ids, [web2, web1]);
    assert.deepEqual((await list(m, 'metadata[channel]=web&metadata[order]=1')).ids, [web1]);
    assert.deepEqual((await list(m, 'metadata[order]=2')).ids, [phone]);
    assert.deepEqual((await list(m, 'metadata[channel]=web&status=succeeded')).ids, [web2]);
    assert.deepEqual((await list(m, 'metadata[channel]=fax')).ids, []);
    const form = new URLSearchParams({ 'metadata[channel]': 'web', limit: '1' }).toString();
    const page = await list(m, form);
    assert.deepEqual([page.ids, page.has_more], [[web2], true]);
  });
});
