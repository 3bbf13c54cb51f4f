import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pruneExpired } from '../../server/services.ts';
import { ManualClock, startTestService, testEngine, type ApiResponse, type TestService } from '../helpers/service.ts';
import { answerChallenge, backend, CARDS, createIntent, getIntent, tokenise, tokenOf } from './payments-fixtures.ts';

/**
 * Events (server/events/): every change the API makes is one event, written in the change's
 * transaction, with the object as the API answers it and the request that made it; an owner sees
 * only its own. Runs on the embedded store, and on PostgreSQL with CPE_TEST_ENGINE=postgres.
 */

let svc: TestService;
let clock: ManualClock;
before(async () => {
  clock = new ManualClock(1_900_000_000);
  svc = await startTestService({}, clock);
});
after(() => svc.close());

const licence = () => svc.credentials.licenceKey;

/** Every event of the owner of `token`, newest first (walking every page). */
async function allEvents(token: string, query = ''): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const r = await svc.api('GET', `/v1/events?limit=100${query}${cursor ? `&starting_after=${cursor}` : ''}`, { token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    out.push(...r.body.data);
    if (!r.body.has_more) return out;
    cursor = r.body.data.at(-1).id;
  }
}

/** Runs `change` and answers the events it added (oldest first) with its answer. */
async function eventsOf(token: string, change: () => Promise<ApiResponse>): Promise<{ answer: ApiResponse; events: any[] }> {
  const before = new Set((await allEvents(token)).map((e) => e.id));
  const answer = await change();
  const events = (await allEvents(token)).filter((e) => !before.has(e.id)).reverse();
  return { answer, events };
}

/** Exactly one event, of `type`, about the intent as GET answers it now, made by the request that answered `answer`. */
async function assertOneIntentEvent(answer: ApiResponse, events: any[], type: string, id: string, idempotencyKey: string | null = null) {
  assert.deepEqual(
    events.map((e) => e.type),
    [type],
    `one ${type} event for ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
  );
  const [event] = events;
  assert.match(event.id, /^evt_/);
  assert.equal(event.object, 'event');
  assert.equal(event.created, clock.now());
  assert.deepEqual(event.data.object, await getIntent(svc, id), 'data.object is the intent exactly as the API answers it');
  assert.deepEqual(event.request, { id: answer.headers.get('request-id'), idempotency_key: idempotencyKey });
  const one = await svc.api('GET', `/v1/events/${event.id}`, { token: licence() });
  assert.deepEqual(one.body, event);
  return event;
}

describe('payment intent events', () => {
  test('each change of a frictionless payment is one event with the intent as answered and the request that made it', async () => {
    const created = await eventsOf(licence(), () =>
      svc.api('POST', '/v1/payment_intents', {
        token: licence(),
        json: { merchantid: svc.credentials.merchantId, amount: 1234, currency: 'GBP', identifier: 'evt-order' },
        headers: { 'X-Idempotency-Key': 'evt-create-1' },
      }),
    );
    const id = created.answer.body.paymentIntentId;
    const first = await assertOneIntentEvent(created.answer, created.events, 'payment_intent.created', id, 'evt-create-1');
    assert.equal(first.data.previous_attributes, undefined, 'a created object has no previous_attributes');

    const session = { paymentIntentId: id, session_token: created.answer.body.session_token, opaque_key: '', headers: { 'X-CPE-Public-Key': svc.credentials.publicKey, 'X-CPE-Session-Token': created.answer.body.session_token } };
    // The browser session's first request (a tokenise) moves open → requires_payment_method: one event.
    const started = await eventsOf(licence(), () => tokenise(svc, session));
    const moved = await assertOneIntentEvent(started.answer, started.events, 'payment_intent.updated', id);
    assert.equal(moved.data.previous_attributes.status, 'open');
    const token = started.answer.body.data.cp_card_token;

    const attached = await eventsOf(licence(), () => backend(svc, 'attach', { payment_intent_id: id, token }, { 'X-Idempotency-Key': 'evt-attach-1' }));
    const attach = await assertOneIntentEvent(attached.answer, attached.events, 'payment_intent.updated', id, 'evt-attach-1');
    assert.equal(attach.data.previous_attributes.status, 'requires_payment_method');
    assert.deepEqual(attach.data.previous_attributes.attempts, []);

    const confirmed = await eventsOf(licence(), () => backend(svc, 'confirm', { payment_intent_id: id }));
    await assertOneIntentEvent(confirmed.answer, confirmed.events, 'payment_intent.updated', id);

    // An idempotent repeat does nothing again: no event.
    const repeat = await eventsOf(licence(), () => backend(svc, 'attach', { payment_intent_id: id, token }, { 'X-Idempotency-Key': 'evt-attach-1' }));
    assert.equal(repeat.answer.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(repeat.events, []);

    const authorised = await eventsOf(licence(), () => backend(svc, 'authorise', { payment_intent_id: id }));
    const succeeded = await assertOneIntentEvent(authorised.answer, authorised.events, 'payment_intent.succeeded', id);
    assert.equal(succeeded.data.previous_attributes.status, 'requires_authorisation');
    assert.equal(succeeded.data.previous_attributes.amount_captured, 0);

    // A refused transition changes nothing: no event. A read changes nothing: no event.
    const refused = await eventsOf(licence(), () => backend(svc, 'cancel', { payment_intent_id: id }));
    assert.equal(refused.answer.status, 409);
    assert.deepEqual(refused.events, []);
    const read = await eventsOf(licence(), () => backend(svc, 'verify', { payment_intent_id: id, unmask_fields: [] }));
    assert.deepEqual(read.events, []);
  });

  test('3-D Secure waiting is requires_action; its answer, a deferred capture, a decline and a cancel are theirs', async () => {
    const challenge = await createIntent(svc, { autoCapture: false });
    const token = await tokenOf(svc, challenge, CARDS.challenge);
    await backend(svc, 'attach', { payment_intent_id: challenge.paymentIntentId, token });
    const confirm = await eventsOf(licence(), () => backend(svc, 'confirm', { payment_intent_id: challenge.paymentIntentId }));
    await assertOneIntentEvent(confirm.answer, confirm.events, 'payment_intent.requires_action', challenge.paymentIntentId);

    // The shopper's answer on the challenge page (a request of the browser, not the merchant's).
    const before = new Set((await allEvents(licence())).map((e) => e.id));
    const answered = await answerChallenge(svc, confirm.answer.body.challenge.url, 'complete');
    assert.equal(answered.status, 200);
    const afterAnswer = (await allEvents(licence())).filter((e) => !before.has(e.id));
    assert.deepEqual(afterAnswer.map((e) => e.type), ['payment_intent.updated']);
    assert.equal(afterAnswer[0].request.id, answered.headers.get('request-id'));

    const authorised = await eventsOf(licence(), () => backend(svc, 'authorise', { payment_intent_id: challenge.paymentIntentId }));
    const capturable = await assertOneIntentEvent(authorised.answer, authorised.events, 'payment_intent.amount_capturable_updated', challenge.paymentIntentId);
    assert.equal(capturable.data.object.amount_authorised, 1234);
    const captured = await eventsOf(licence(), () => backend(svc, 'capture', { payment_intent_id: challenge.paymentIntentId, amount: 1000 }));
    await assertOneIntentEvent(captured.answer, captured.events, 'payment_intent.succeeded', challenge.paymentIntentId);

    const declined = await createIntent(svc);
    await backend(svc, 'attach', { payment_intent_id: declined.paymentIntentId, token: await tokenOf(svc, declined, CARDS.declined) });
    await backend(svc, 'confirm', { payment_intent_id: declined.paymentIntentId });
    const decline = await eventsOf(licence(), () => backend(svc, 'authorise', { payment_intent_id: declined.paymentIntentId }));
    const failed = await assertOneIntentEvent(decline.answer, decline.events, 'payment_intent.payment_failed', declined.paymentIntentId);
    assert.equal(failed.data.object.attempts.at(-1).error.code, 'card_declined', "the attempt's error is in the event");

    const cancelled = await eventsOf(licence(), () => backend(svc, 'cancel', { payment_intent_id: declined.paymentIntentId }));
    await assertOneIntentEvent(cancelled.answer, cancelled.events, 'payment_intent.cancelled', declined.paymentIntentId);
  });

  test('a refused card counts towards the lock and is payment_failed; the fifth locks it: cancelled', async () => {
    const s = await createIntent(svc);
    await tokenise(svc, s); // the session starts
    const types: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await eventsOf(licence(), () => tokenise(svc, s, { number: '4242424242424241' }));
      assert.equal(r.answer.status, 400);
      types.push(...r.events.map((e) => e.type));
    }
    assert.deepEqual(types, [...Array(4).fill('payment_intent.payment_failed'), 'payment_intent.cancelled']);
    assert.equal((await getIntent(svc, s.paymentIntentId)).cancellation_reason, 'too_many_failed_attempts');
  });
});

describe('messaging events', () => {
  let user: string;
  before(async () => (user = (await svc.services.users.issueToken('events-user')).accessToken));

  test('each object a request changes has one event, its object as the API answers it', async () => {
    const created = await eventsOf(user, () => svc.api('POST', '/v1/contacts', { token: user, json: { username: 'ada', phone_number: '+441234567' } }));
    const contact = created.answer.body;
    assert.deepEqual(created.events.map((e) => e.type), ['contact.created', 'conversation.created']);
    assert.deepEqual(created.events[0].data.object, contact);
    assert.deepEqual(created.events[1].data.object, (await svc.api('GET', `/v1/conversations/${contact.conversation_id}`, { token: user })).body);

    const renamed = await eventsOf(user, () => svc.api('PUT', `/v1/contacts/${contact.id}`, { token: user, json: { display_name: 'Ada L.' } }));
    assert.deepEqual(renamed.events.map((e) => e.type), ['contact.updated']);
    assert.deepEqual(renamed.events[0].data.previous_attributes, { display_name: null });
    // The same value again changes nothing: no event.
    const same = await eventsOf(user, () => svc.api('PUT', `/v1/contacts/${contact.id}`, { token: user, json: { display_name: 'Ada L.' } }));
    assert.deepEqual(same.events, []);

    clock.advance(5);
    const posted = await eventsOf(user, () => svc.api('POST', `/v1/conversations/${contact.conversation_id}/messages`, { token: user, json: { text: 'hello' } }));
    assert.deepEqual(posted.events.map((e) => e.type), ['message.created', 'conversation.updated', 'contact.updated']);
    assert.deepEqual(posted.events[0].data.object, posted.answer.body);
    assert.deepEqual(posted.events[1].data.previous_attributes, { last_active_at: null });

    const muted = await eventsOf(user, () => svc.api('PUT', `/v1/conversations/${contact.conversation_id}`, { token: user, form: { is_muted: 'true', archived: 'true' } }));
    assert.deepEqual(muted.events.map((e) => e.type), ['conversation.updated']);
    assert.deepEqual(muted.events[0].data.previous_attributes, { is_muted: false, archived_at: null });

    const gone = await eventsOf(user, () => svc.api('DELETE', `/v1/conversations/${contact.conversation_id}`, { token: user }));
    assert.deepEqual(gone.events.map((e) => e.type), ['conversation.deleted', 'contact.updated']);
    assert.equal(gone.events[0].data.object.id, contact.conversation_id);
    assert.deepEqual(gone.events[1].data.previous_attributes, { conversation_id: contact.conversation_id });

    const group = await eventsOf(user, () => svc.api('POST', '/v1/conversations', { token: user, json: { group_id: 'team' } }));
    assert.deepEqual(group.events.map((e) => e.type), ['conversation.created']);
    const again = await eventsOf(user, () => svc.api('POST', '/v1/conversations', { token: user, json: { contact_id: contact.id } }));
    assert.deepEqual(again.events.map((e) => e.type), ['conversation.created', 'contact.updated']);

    const deleted = await eventsOf(user, () => svc.api('DELETE', `/v1/contacts/${contact.id}`, { token: user }));
    assert.deepEqual(deleted.events.map((e) => e.type), ['conversation.deleted', 'contact.deleted']);
    assert.equal(deleted.events[1].data.object.id, contact.id);
    assert.equal(deleted.events[1].data.object.display_name, 'Ada L.', 'a deleted object as it was');
  });
});

describe('who sees an event', () => {
  test("a merchant sees only its payment events, a user only its messaging events; another's id is a 404 as an absent one", async () => {
    const other = await svc.services.merchants.create({ origins: ['http://other.test'] });
    const mallory = (await svc.services.users.issueToken('mallory-events')).accessToken;
    const s = await createIntent(svc);
    const mine = (await allEvents(licence())).find((e) => e.data.object.id === s.paymentIntentId);
    assert.ok(mine);
    for (const token of [other.licenceKey, mallory]) {
      const theirs = await svc.api('GET', `/v1/events/${mine.id}`, { token });
      const absent = await svc.api('GET', `/v1/events/evt_doesnotexist`, { token });
      assert.equal(theirs.status, 404);
      assert.deepEqual({ ...theirs.body.error, message: theirs.body.error.message.replace(mine.id, 'X') }, { ...absent.body.error, message: absent.body.error.message.replace('evt_doesnotexist', 'X') });
      assert.ok((await allEvents(token)).every((e) => e.id !== mine.id));
    }
    assert.ok((await allEvents(mallory)).every((e) => !e.type.startsWith('payment_intent.')));
    const publicKey = await svc.api('GET', '/v1/events', { token: svc.credentials.publicKey });
    assert.equal(publicKey.status, 401);
    assert.match(publicKey.body.error.message, /licence key/);
    assert.equal((await svc.api('GET', '/v1/events')).status, 401);
  });
});

describe('listing events', () => {
  test('newest first with cursors; type exact or prefix.*; created bounds; bad filters name their field', async () => {
    const merchant = await svc.services.merchants.create({ origins: ['http://list.test'] });
    const key = merchant.licenceKey;
    const create = (n: number) =>
      svc.api('POST', '/v1/payment_intents', { token: key, json: { merchantid: merchant.merchantId, amount: 100 + n, currency: 'GBP', identifier: `list-${n}` } });
    const t0 = clock.now();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      ids.push((await create(n)).body.paymentIntentId);
      clock.advance(10);
    }
    await svc.api('POST', '/v1/payment_intents/cancel', { token: key, json: { payment_intent_id: ids[0] } });
    const all = await allEvents(key);
    assert.deepEqual(all.map((e) => e.type), ['payment_intent.cancelled', ...Array(5).fill('payment_intent.created')]);
    assert.deepEqual(all.slice(1).map((e) => e.data.object.id), [...ids].reverse(), 'newest first');

    const page1 = await svc.api('GET', '/v1/events?limit=2', { token: key });
    assert.equal(page1.body.has_more, true);
    assert.equal(page1.body.url, '/v1/events');
    const page2 = await svc.api('GET', `/v1/events?limit=2&starting_after=${page1.body.data[1].id}`, { token: key });
    assert.deepEqual(page2.body.data.map((e: any) => e.id), all.slice(2, 4).map((e) => e.id));
    const back = await svc.api('GET', `/v1/events?limit=2&ending_before=${page2.body.data[0].id}`, { token: key });
    assert.deepEqual(back.body.data.map((e: any) => e.id), all.slice(0, 2).map((e) => e.id));

    const exact = await allEvents(key, '&type=payment_intent.cancelled');
    assert.deepEqual(exact.map((e) => e.id), [all[0].id]);
    assert.equal((await allEvents(key, '&type=payment_intent.*')).length, 6);
    assert.equal((await allEvents(key, '&type=*')).length, 6);
    assert.deepEqual(await allEvents(key, '&type=contact.*'), []);

    const between = await svc.api('GET', `/v1/events?limit=1&created[gte]=${t0 + 10}&created[lte]=${t0 + 30}`, { token: key });
    assert.deepEqual(between.body.data.map((e: any) => e.data.object.id), [ids[3]]);
    assert.equal(between.body.has_more, true);
    const rest = await allEvents(key, `&created[gte]=${t0 + 10}&created[lte]=${t0 + 30}&type=payment_intent.created`);
    assert.deepEqual(rest.map((e) => e.data.object.id), [ids[3], ids[2], ids[1]]);
    const strict = await allEvents(key, `&created[gt]=${t0 + 10}&created[lt]=${t0 + 30}`);
    assert.deepEqual(strict.map((e) => e.data.object.id), [ids[2]]);
    assert.deepEqual((await allEvents(key, `&created=${t0}`)).map((e) => e.data.object.id), [ids[0]]);
    const after = await svc.api('GET', `/v1/events?limit=1&created[lte]=${t0 + 30}&ending_before=${all.at(-1).id}`, { token: key });
    assert.deepEqual(after.body.data.map((e: any) => e.data.object.id), [ids[1]], 'ending_before: the closest newer ones');

    for (const [query, param] of [
      ['type=payment_intent.nope', 'type'],
      ['type=nope.*', 'type'],
      ['created[gte]=yesterday', 'created'],
      ['limit=0', 'limit'],
      ['starting_after=pi_1', 'starting_after'],
    ] as const) {
      const r = await svc.api('GET', `/v1/events?${query}`, { token: key });
      assert.ok(r.status === 400 || r.status === 404, `${query}: ${r.status}`);
      assert.equal(r.body.error.param?.split('.')[0].split('[')[0], param, `${query}: ${JSON.stringify(r.body)}`);
    }
  });
});

describe('the outbox: a change and its event commit together or not at all', () => {
  test('a failure after the change: both roll back (PostgreSQL) or both stay (the embedded store keeps every change)', async () => {
    const s = await createIntent(svc);
    let fail = true;
    svc.services.events.listen(async (event) => {
      if (fail && event.type === 'payment_intent.cancelled' && event.data.object.id === s.paymentIntentId) throw new Error('boom after the change');
    });
    const r = await backend(svc, 'cancel', { payment_intent_id: s.paymentIntentId });
    fail = false;
    assert.equal(r.status, 500);
    const status = (await getIntent(svc, s.paymentIntentId)).status;
    const cancelled = (await allEvents(licence(), '&type=payment_intent.cancelled')).filter((e) => e.data.object.id === s.paymentIntentId);
    if (testEngine() === 'postgres') {
      assert.equal(status, 'open', 'rolled back');
      assert.deepEqual(cancelled, []);
    } else {
      assert.equal(status, 'cancelled', 'the embedded engine keeps every change');
      assert.equal(cancelled.length, 1);
    }
  });
});

describe('retention', () => {
  test('events are kept CPE_EVENT_RETENTION_DAYS (30 by default), then pruned with the rest', async () => {
    const local = new ManualClock(1_900_000_000);
    const service = await startTestService({ eventRetentionDays: 2 }, local);
    try {
      const key = service.credentials.licenceKey;
      await service.api('POST', '/v1/payment_intents', { token: key, json: { merchantid: service.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'old' } });
      local.advance(2 * 86_400 - 1);
      assert.equal((await pruneExpired(service.services)).events, 0);
      await service.api('POST', '/v1/payment_intents', { token: key, json: { merchantid: service.credentials.merchantId, amount: 100, currency: 'GBP', identifier: 'new' } });
      local.advance(2 * 3600);
      assert.equal((await pruneExpired(service.services)).events, 1);
      const left = await service.api('GET', '/v1/events', { token: key });
      assert.deepEqual(left.body.data.map((e: any) => e.data.object.identifier), ['new']);
    } finally {
      await service.close();
    }
  });
});

describe('docs/webhooks.md', () => {
  test("its event table lists every type the service records, with its owner", async () => {
    const { readFileSync } = await import('node:fs');
    const { EVENT_TYPES } = await import('../../api/events.ts');
    const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const rows = [...page.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \| (merchant|user) \|/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(rows, Object.entries(EVENT_TYPES).map(([type, { owner }]) => [type, owner]));
  });
});

describe('the Node client', () => {
  test('listEvents and retrieveEvent, with filters as the service reads them', async () => {
    const { CpeClient } = await import('../../client/index.ts');
    const client = new CpeClient({ licenceKey: licence(), baseUrl: svc.url });
    const s = await createIntent(svc);
    await backend(svc, 'cancel', { payment_intent_id: s.paymentIntentId });
    const page = await client.listEvents({ type: 'payment_intent.*', limit: 2, created: { gte: clock.now() } });
    assert.deepEqual(page.data.map((e) => [e.type, e.data.object.id]), [['payment_intent.cancelled', s.paymentIntentId], ['payment_intent.created', s.paymentIntentId]]);
    assert.deepEqual(await client.retrieveEvent(page.data[0].id), page.data[0]);
    await assert.rejects(() => client.listEvents({ type: 'nope' }), (error: any) => error.status === 400 && error.param === 'type');
  });
});
