import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { ApiResponse } from '../helpers/service.ts';
import { checkChain, Deliveries, eventsByObject, undo } from './event-log.ts';
import { checkModel, commandOptions, expectStatus, Service, settings } from './harness.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Model-based test of the payments API through the merchant's backend routes: random sequences of
 * create, tokenise (POST /v1/tokens) and attach, confirm, authorise (also raced), capture (full or
 * partial), cancel, verify, refunds (partial, full, too large, raced, and kill -9 while refunds are
 * in flight; with the refund-failure card, pending until the service's clock, held still and moved
 * by the model, reaches their outcome, then failed and refundable again), idempotent repeats raced
 * on one key, clean restarts, kill -9 after an
 * answer and kill -9 while creates are in flight, each answer checked against a small reference
 * model of the README's state list and card-testing lock (written here independently of the
 * service's transition table), and every intent compared after each restart and at the end, with
 * its events: exactly the changes the model made, one event each, of the type docs/webhooks.md names,
 * chained (event-log.ts), the last one the intent as answered now; an event for an unanswered
 * create cut by kill -9 only if that intent exists; and every event delivered to a webhook endpoint
 * at least once, whatever restart came between the change and its delivery.
 *
 * MODEL_RUNS / MODEL_PAYMENTS_RUNS, MODEL_STEPS / MODEL_PAYMENTS_STEPS, MODEL_SEED, MODEL_PATH.
 */

type Status =
  | 'open'
  | 'requires_payment_method'
  | 'requires_customer_confirmation'
  | 'requires_customer_authentication'
  | 'requires_authorisation'
  | 'requires_capture'
  | 'succeeded'
  | 'failed'
  | 'cancelled';

const CARDS = {
  visa: '4242424242424242',
  challenge: '4000000000003220',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  attachFail: '4000000000000127',
  attachRetriable: '4000000000000119',
  badLuhn: '4242424242424241',
  refundFail: '4000000000005126',
} as const;
/** The README's test cards: a refund of 4000 0000 0000 5126 is pending, then failed this many seconds later. */
const REFUND_FAILS_AFTER = 5;
type Card = keyof typeof CARDS;

/** The README's state list, as a model: where each operation may start. */
const TAKES_A_CARD: Status[] = ['open', 'requires_payment_method', 'requires_customer_confirmation', 'requires_customer_authentication', 'failed'];
const FINAL: Status[] = ['succeeded', 'cancelled'];
const LOCK_AFTER = 5;

interface MRefund {
  id: string;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  /** A pending refund's outcome is due at this time of the service's clock. */
  due: number | null;
}

interface MIntent {
  id: string;
  status: Status;
  amount: number;
  autoCapture: boolean;
  failed: number;
  locked: boolean;
  captured: number;
  authorised: number | null;
  attempts: number;
  /** The card of the current attempt. */
  card: Card | null;
  /** Refunded so far: its succeeded and pending refunds. */
  refunded: number;
  refunds: MRefund[];
  /** The events its changes must have made, oldest first (types without `payment_intent.`). */
  events: string[];
}

const newIntent = (id: string, amount: number, autoCapture: boolean): MIntent => ({
  id,
  status: 'open',
  amount,
  autoCapture,
  failed: 0,
  locked: false,
  captured: 0,
  authorised: null,
  attempts: 0,
  card: null,
  refunded: 0,
  refunds: [],
  events: ['created'],
});

class Model {
  intents: MIntent[] = [];
  restarts = 0;
  /** Refunds of the refund-failure card seen failing once the clock reached their outcome. */
  failedRefunds = 0;

  /** Counts a failure; the fifth locks (cancelled). */
  fail(intent: MIntent, status: Status) {
    intent.failed++;
    if (intent.failed >= LOCK_AFTER) {
      intent.locked = true;
      intent.status = 'cancelled';
      intent.events.push('cancelled');
    } else {
      intent.status = status;
      intent.events.push('payment_failed');
    }
  }
}

/** Intents checked already that no command moves any more (earlier runs', and unanswered creates'). */
const settled = new Set<string>();

interface Real {
  svc: Service;
}

const MAX_RESTARTS_PER_RUN = 2;
const licence = (r: Real) => r.svc.credentials.licenceKey;
const backend = (r: Real, op: string, json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  r.svc.api('POST', `/v1/payment_intents/${op}`, { token: licence(r), json, headers });

/** The 409 an operation gets where the model says it may not run (the lock answers first). */
function refused(res: ApiResponse, intent: MIntent, what: string) {
  expectStatus(res, 409, what);
  assert.equal(res.body.error.code, intent.locked ? 'payment_intent_locked' : 'payment_intent_unexpected_state', what);
}

async function checkIntent(r: Real, intent: MIntent, events: Map<string, Record<string, any>[]>) {
  const res = await r.svc.api('GET', `/v1/payment_intents/${intent.id}`, { token: licence(r) });
  expectStatus(res, 200, `GET ${intent.id}`);
  const body = res.body;
  assert.deepEqual(
    {
      status: body.status,
      amount_captured: body.amount_captured,
      amount_authorised: body.amount_authorised,
      failed_attempts: body.failed_attempts,
      attempts: body.attempts.length,
      locked: body.cancellation_reason === 'too_many_failed_attempts',
      amount_refunded: body.amount_refunded,
    },
    { status: intent.status, amount_captured: intent.captured, amount_authorised: intent.authorised, failed_attempts: intent.failed, attempts: intent.attempts, locked: intent.locked, amount_refunded: intent.refunded },
    `intent ${intent.id}`,
  );
  await checkRefunds(r, intent, body.amount_refunded, body.amount_captured, events);
  assert.deepEqual(checkChain(intent.id, events.get(intent.id), body), intent.events.map((type) => `payment_intent.${type}`), `the events of ${intent.id}`);
}

const deliveries = new Deliveries();

/**
 * The refunds stored for an intent are the model's, each in the model's status; they add up to its
 * amount_refunded (the failed ones left out), never more than it captured; each has its events,
 * holding the refund as it was then: refund.created, then refund.succeeded (a refund that succeeds
 * at once), or, for a pending one that failed, refund.updated (undone by its previous_attributes: the
 * pending refund) and refund.failed; the last holds the refund as the API answers it now.
 */
async function checkRefunds(r: Real, intent: MIntent, refunded: number, captured: number, events: Map<string, Record<string, any>[]>) {
  const list = await r.svc.api('GET', `/v1/refunds?payment_intent=${intent.id}&limit=100`, { token: licence(r) });
  expectStatus(list, 200, `refunds of ${intent.id}`);
  const refunds: Record<string, any>[] = list.body.data;
  const sum = refunds.filter((f) => f.status !== 'failed').reduce((n, f) => n + f.amount, 0);
  assert.equal(sum, refunded, `the refunds of ${intent.id} add up to its amount_refunded`);
  assert.ok(refunded <= captured, `${intent.id}: refunded ${refunded} > captured ${captured}`);
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  assert.deepEqual(
    refunds.map(({ id, amount, status }) => ({ id, amount, status })).sort(byId),
    intent.refunds.map(({ id, amount, status }) => ({ id, amount, status })).sort(byId),
    `the refunds of ${intent.id}`,
  );
  for (const refund of refunds) {
    const chain = events.get(refund.id) ?? [];
    const types = { pending: ['refund.created'], succeeded: ['refund.created', 'refund.succeeded'], failed: ['refund.created', 'refund.updated', 'refund.failed'] }[refund.status as MRefund['status']];
    assert.deepEqual(chain.map((e) => e.type), types, `the events of ${refund.id}`);
    const made = refund.status === 'failed' ? { ...refund, status: 'pending', failure_reason: null } : refund;
    assert.deepEqual(chain[0].data.object, made, `refund.created of ${refund.id} holds it as made`);
    if (refund.status === 'failed') assert.deepEqual(undo(chain[1].data.object, chain[1].data.previous_attributes), made, `refund.updated of ${refund.id} undone is the pending refund`);
    assert.deepEqual(chain.at(-1)!.data.object, refund, `${chain.at(-1)!.type} of ${refund.id} holds it as answered`);
    settled.add(refund.id);
  }
}

async function checkAll(m: Model, r: Real) {
  const events = await eventsByObject(r.svc.api, licence(r));
  await deliveries.check(events);
  for (const intent of m.intents) await checkIntent(r, intent, events);
  // An intent the model does not know (an unanswered create cut by kill -9, or an earlier run's)
  // has events only if it exists, chained up to it as it is.
  const known = new Set(m.intents.map((i) => i.id));
  for (const [id, chain] of events) {
    if (known.has(id) || settled.has(id)) continue;
    const res = await r.svc.api('GET', `/v1/payment_intents/${id}`, { token: licence(r) });
    expectStatus(res, 200, `the intent of ${chain[0].id}`);
    checkChain(id, chain, res.body);
    settled.add(id);
  }
}

type Cmd = fc.AsyncCommand<Model, Real>;
const pick = <T>(list: T[], i: number) => list[i % list.length];
const hasIntents = (m: Readonly<Model>) => m.intents.length > 0;

function createBody(r: Real, amount: number, autoCapture: boolean) {
  return { merchantid: r.svc.credentials.merchantId, amount, currency: 'GBP', identifier: 'model', autoCapture };
}

class Create implements Cmd {
  constructor(readonly amount: number, readonly autoCapture: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await r.svc.api('POST', '/v1/payment_intents', { token: licence(r), json: createBody(r, this.amount, this.autoCapture) });
    expectStatus(res, 200, 'create');
    assert.equal(res.body.status, 'open');
    m.intents.push(newIntent(res.body.paymentIntentId, this.amount, this.autoCapture));
  }
  toString = () => `Create(${this.amount}, autoCapture ${this.autoCapture})`;
}

class TokeniseAndAttach implements Cmd {
  constructor(readonly i: number, readonly card: Card) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    const intent = pick(m.intents, this.i);
    const token = await r.svc.api('POST', '/v1/tokens', {
      token: licence(r),
      json: { card: { number: CARDS[this.card], exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'Model Tester' } },
    });
    if (this.card === 'badLuhn') {
      // No intent yet: a refusal here counts towards no lock (README).
      expectStatus(token, 400, 'tokenise a bad number');
      assert.equal(token.body.error.type, 'card_error');
      return;
    }
    expectStatus(token, 200, 'tokenise');
    const res = await backend(r, 'attach', { payment_intent_id: intent.id, token: token.body.data.cp_card_token });
    if (intent.locked || !TAKES_A_CARD.includes(intent.status)) return refused(res, intent, `attach to ${intent.status}`);
    expectStatus(res, 200, 'attach');
    intent.attempts++;
    intent.card = this.card;
    if (this.card === 'attachFail' || this.card === 'attachRetriable') m.fail(intent, 'requires_payment_method');
    else {
      intent.status = 'requires_customer_confirmation';
      intent.events.push('updated');
    }
    assert.equal(res.body.status, intent.status, 'attach answers the new status');
  }
  toString = () => `TokeniseAndAttach(${this.i}, ${this.card})`;
}

/** Several failing attaches in a row on one intent: what a card tester does, and what the lock is for. */
class FailingAttaches implements Cmd {
  constructor(readonly i: number, readonly times: number) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    for (let n = 0; n < this.times; n++) await new TokeniseAndAttach(this.i, n % 2 ? 'attachRetriable' : 'attachFail').run(m, r);
  }
  toString = () => `FailingAttaches(${this.i}, ×${this.times})`;
}

class Confirm implements Cmd {
  constructor(readonly i: number) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    const intent = pick(m.intents, this.i);
    const res = await backend(r, 'confirm', { payment_intent_id: intent.id });
    if (intent.locked || intent.status !== 'requires_customer_confirmation') return refused(res, intent, `confirm in ${intent.status}`);
    expectStatus(res, 200, 'confirm');
    intent.status = intent.card === 'challenge' ? 'requires_customer_authentication' : 'requires_authorisation';
    intent.events.push(intent.card === 'challenge' ? 'requires_action' : 'updated');
    assert.equal(res.body.status, intent.status);
    assert.equal(res.body.challenge !== null, intent.card === 'challenge');
  }
  toString = () => `Confirm(${this.i})`;
}

/** The model's authorise: declined cards fail (counting towards the lock), others are authorised. */
function authorised(m: Model, intent: MIntent): boolean {
  if (intent.card === 'declined' || intent.card === 'insufficient') {
    m.fail(intent, 'failed');
    return false;
  }
  intent.authorised = intent.amount;
  intent.status = intent.autoCapture ? 'succeeded' : 'requires_capture';
  intent.events.push(intent.autoCapture ? 'succeeded' : 'amount_capturable_updated');
  intent.captured = intent.autoCapture ? intent.amount : 0;
  return true;
}

/** `copies` authorise requests at once: at most one runs, the others are 409s. */
class Authorise implements Cmd {
  constructor(readonly i: number, readonly copies: number) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    const intent = pick(m.intents, this.i);
    const answers = await Promise.all(Array.from({ length: this.copies }, () => backend(r, 'authorise', { payment_intent_id: intent.id })));
    if (intent.locked || intent.status !== 'requires_authorisation') {
      for (const res of answers) refused(res, intent, `authorise in ${intent.status}`);
      return;
    }
    const ran = answers.filter((a) => a.status === 200);
    assert.equal(ran.length, 1, `one of ${this.copies} raced authorises runs: ${answers.map((a) => a.status)}`);
    const ok = authorised(m, intent);
    assert.deepEqual([ran[0].body.authorised, ran[0].body.status], [ok, intent.status]);
    for (const res of answers.filter((a) => a.status !== 200)) refused(res, intent, 'the raced authorise that lost');
  }
  toString = () => `Authorise(${this.i}, ×${this.copies})`;
}

class Capture implements Cmd {
  constructor(readonly i: number, readonly part: number | null) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    const intent = pick(m.intents, this.i);
    const amount = this.part === null ? undefined : Math.max(1, Math.floor(((intent.authorised ?? intent.amount) * this.part) / 100));
    const res = await backend(r, 'capture', { payment_intent_id: intent.id, ...(amount === undefined ? {} : { amount }) });
    if (intent.locked || intent.status !== 'requires_capture') return refused(res, intent, `capture in ${intent.status}`);
    expectStatus(res, 200, 'capture');
    intent.status = 'succeeded';
    intent.events.push('succeeded');
    intent.captured = amount ?? intent.authorised!;
    assert.deepEqual([res.body.status, res.body.amount_captured], [intent.status, intent.captured]);
  }
  toString = () => `Capture(${this.i}, ${this.part === null ? 'all' : `${this.part}%`})`;
}

class Cancel implements Cmd {
  constructor(readonly i: number) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    const intent = pick(m.intents, this.i);
    const res = await backend(r, 'cancel', { payment_intent_id: intent.id });
    if (intent.locked || FINAL.includes(intent.status)) return refused(res, intent, `cancel in ${intent.status}`);
    expectStatus(res, 200, 'cancel');
    intent.status = 'cancelled';
    intent.events.push('cancelled');
    assert.equal(res.body.status, 'cancelled');
  }
  toString = () => `Cancel(${this.i})`;
}

/**
 * `copies` refunds of one amount at once (a share of what was captured, or none: all that remains).
 * Only a succeeded intent refunds; the refunds that fit what remains pass, one after another,
 * whatever their order; the others are amount_too_large (or charge_already_refunded).
 */
class Refund implements Cmd {
  constructor(readonly i: number, readonly part: number | null, readonly copies: number) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    const intent = pick(m.intents, this.i);
    const amount = this.part === null ? undefined : Math.max(1, Math.floor((Math.max(intent.captured, 1) * this.part) / 100));
    const answers = await Promise.all(Array.from({ length: this.copies }, () => r.svc.api('POST', '/v1/refunds', { token: licence(r), json: { payment_intent: intent.id, ...(amount === undefined ? {} : { amount }) } })));
    if (intent.status !== 'succeeded') {
      for (const res of answers) refused(res, intent, `refund in ${intent.status}`);
      return;
    }
    let expectedOk = 0;
    for (let n = 0, left = intent.captured - intent.refunded; n < this.copies; n++) {
      const take = amount ?? left;
      if (take > 0 && take <= left) {
        expectedOk++;
        left -= take;
      }
    }
    const ok = answers.filter((a) => a.status === 200);
    assert.equal(ok.length, expectedOk, `${this.copies} refunds of ${amount ?? 'the rest'} with ${intent.captured - intent.refunded} left: ${answers.map((a) => a.status)}`);
    for (const res of answers.filter((a) => a.status !== 200)) {
      expectStatus(res, 400, 'a refund above what remains');
      assert.ok(['amount_too_large', 'charge_already_refunded'].includes(res.body.error.code), res.body.error.code);
    }
    for (const res of ok) {
      const pending = intent.card === 'refundFail';
      assert.deepEqual([res.body.status, res.body.created], [pending ? 'pending' : 'succeeded', r.svc.clock]);
      intent.refunds.push({ id: res.body.id, amount: res.body.amount, status: res.body.status, due: pending ? r.svc.clock! + REFUND_FAILS_AFTER : null });
      intent.refunded += res.body.amount;
      intent.events.push('updated'); // its amount_refunded
    }
  }
  toString = () => `Refund(${this.i}, ${this.part === null ? 'the rest' : `${this.part}%`}, ×${this.copies})`;
}

/** kill -9 while refunds are in flight: the acknowledged ones stay; whatever else committed, never more than was captured. */
class KillDuringRefunds implements Cmd {
  constructor(readonly i: number, readonly count: number) {}
  check = (m: Readonly<Model>) => m.restarts < MAX_RESTARTS_PER_RUN && m.intents.some((i) => i.status === 'succeeded' && i.captured > i.refunded);
  async run(m: Model, r: Real) {
    m.restarts++;
    const paid = m.intents.filter((i) => i.status === 'succeeded' && i.captured > i.refunded);
    const intent = pick(paid, this.i);
    const amount = Math.max(1, Math.floor(intent.captured / 3));
    const settled = await r.svc.killDuring(Array.from({ length: this.count }, () => () => r.svc.api('POST', '/v1/refunds', { token: licence(r), json: { payment_intent: intent.id, amount } })));
    const acknowledged = settled.filter((s) => s.status === 'fulfilled' && s.value.status === 200).length * amount;
    const res = await r.svc.api('GET', `/v1/payment_intents/${intent.id}`, { token: licence(r) });
    const refunded: number = res.body.amount_refunded;
    assert.ok(refunded >= intent.refunded + acknowledged, `acknowledged refunds survive kill -9: ${refunded} < ${intent.refunded} + ${acknowledged}`);
    assert.ok(refunded <= intent.captured, `refunded ${refunded} > captured ${intent.captured} after kill -9`);
    // The refunds that committed, answered or not: whole ones, of the refund-failure card pending.
    const list = await r.svc.api('GET', `/v1/refunds?payment_intent=${intent.id}&limit=100`, { token: licence(r) });
    const known = new Set(intent.refunds.map((f) => f.id));
    const pending = intent.card === 'refundFail';
    for (const refund of list.body.data.filter((f: { id: string }) => !known.has(f.id)).reverse()) {
      assert.deepEqual([refund.amount, refund.status], [amount, pending ? 'pending' : 'succeeded'], `a refund made while killed: ${refund.id}`);
      intent.refunds.push({ id: refund.id, amount, status: refund.status, due: pending ? r.svc.clock! + REFUND_FAILS_AFTER : null });
      intent.refunded += amount;
      intent.events.push('updated');
    }
    assert.equal(refunded, intent.refunded, 'amount_refunded is the refunds made');
    await checkAll(m, r);
  }
  toString = () => `KillDuringRefunds(${this.i}, ×${this.count})`;
}

/**
 * A new intent paid with `card`, then a refund of it: so that refunds, pending ones of the
 * refund-failure card among them, come often in a run.
 */
class PayAndRefund implements Cmd {
  constructor(readonly amount: number, readonly autoCapture: boolean, readonly card: Card, readonly part: number | null) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await new Create(this.amount, this.autoCapture).run(m, r);
    const i = m.intents.length - 1;
    for (const step of [new TokeniseAndAttach(i, this.card), new Confirm(i), new Authorise(i, 1), new Capture(i, null), new Refund(i, this.part, 1)]) await step.run(m, r);
  }
  toString = () => `PayAndRefund(${this.amount}, autoCapture ${this.autoCapture}, ${this.card}, ${this.part === null ? 'the rest' : `${this.part}%`})`;
}

/**
 * The service's clock moves on, each move answered once the refund settlement job has passed at the
 * new time: a second before the first pending refund's outcome is due, then to that very second (a
 * second on when nothing is pending); or a minute on. After each move, every pending refund whose
 * outcome is due by then has failed, and its amount is refundable again; the others are still pending.
 */
class MoveClock implements Cmd {
  constructor(readonly far: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    if (this.far) return this.#moveBy(m, r, 60);
    const dues = m.intents.flatMap((i) => i.refunds.filter((f) => f.status === 'pending').map((f) => f.due!));
    const wait = dues.length ? Math.min(...dues) - r.svc.clock! : 1;
    if (wait > 1) await this.#moveBy(m, r, wait - 1);
    await this.#moveBy(m, r, Math.min(wait, 1));
  }
  async #moveBy(m: Model, r: Real, seconds: number) {
    await r.svc.moveClock(seconds);
    for (const intent of m.intents) {
      for (const refund of intent.refunds.filter((f) => f.status === 'pending')) {
        const res = await r.svc.api('GET', `/v1/refunds/${refund.id}`, { token: licence(r) });
        expectStatus(res, 200, `refund ${refund.id}`);
        if (refund.due! > r.svc.clock!) {
          assert.equal(res.body.status, 'pending', `refund ${refund.id} is due at ${refund.due}, the clock is at ${r.svc.clock}`);
          continue;
        }
        assert.deepEqual([res.body.status, res.body.failure_reason], ['failed', 'expired_or_canceled_card'], `refund ${refund.id} of the refund-failure card, due at ${refund.due}, the clock at ${r.svc.clock}`);
        refund.status = 'failed';
        m.failedRefunds++;
        intent.refunded -= refund.amount;
        intent.events.push('updated'); // its amount_refunded, given back
      }
    }
  }
  toString = () => `MoveClock(${this.far ? 'a minute on' : 'to the next outcome'})`;
}

class Verify implements Cmd {
  constructor(readonly i: number) {}
  check = hasIntents;
  async run(m: Model, r: Real) {
    const intent = pick(m.intents, this.i);
    const res = await backend(r, 'verify', { payment_intent_id: intent.id, unmask_fields: [] });
    expectStatus(res, 200, 'verify');
    assert.equal(res.body.status === 'success', intent.status === 'succeeded' || intent.status === 'requires_capture', `verify in ${intent.status}`);
  }
  toString = () => `Verify(${this.i})`;
}

/** One key, sent several times at once (cancel, or a create): every answer is the first, and it ran once. */
class RaceOneKey implements Cmd {
  constructor(readonly i: number, readonly copies: number, readonly op: 'cancel' | 'create') {}
  check = (m: Readonly<Model>) => this.op === 'create' || hasIntents(m);
  async run(m: Model, r: Real) {
    const headers = { 'X-Idempotency-Key': `race-${Date.now()}-${Math.random()}` };
    if (this.op === 'create') {
      const body = createBody(r, 777, true);
      const answers = await Promise.all(Array.from({ length: this.copies }, () => r.svc.api('POST', '/v1/payment_intents', { token: licence(r), json: body, headers })));
      for (const res of answers) expectStatus(res, 200, 'raced create');
      assert.equal(new Set(answers.map((a) => a.body.paymentIntentId)).size, 1, 'one intent for one key');
      m.intents.push(newIntent(answers[0].body.paymentIntentId, 777, true));
      return;
    }
    const intent = pick(m.intents, this.i);
    const answers = await Promise.all(Array.from({ length: this.copies }, () => backend(r, 'cancel', { payment_intent_id: intent.id }, headers)));
    const first = answers[0];
    for (const res of answers) assert.deepEqual([res.status, res.body], [first.status, first.body], 'every repeat answers the first answer');
    if (intent.locked || FINAL.includes(intent.status)) return refused(first, intent, `raced cancel in ${intent.status}`);
    expectStatus(first, 200, 'raced cancel');
    intent.status = 'cancelled';
    intent.events.push('cancelled');
  }
  toString = () => `RaceOneKey(${this.op} ${this.i}, ×${this.copies})`;
}

class Restart implements Cmd {
  constructor(readonly signal: 'SIGKILL' | 'SIGTERM') {}
  check = (m: Readonly<Model>) => m.restarts < MAX_RESTARTS_PER_RUN;
  async run(m: Model, r: Real) {
    m.restarts++;
    await r.svc.restart(this.signal);
    await checkAll(m, r);
  }
  toString = () => `Restart(${this.signal === 'SIGKILL' ? 'kill -9' : 'clean'})`;
}

/** kill -9 while creates are in flight: every acknowledged intent survives as it was answered. */
class KillDuringCreates implements Cmd {
  constructor(readonly count: number) {}
  check = (m: Readonly<Model>) => m.restarts < MAX_RESTARTS_PER_RUN;
  async run(m: Model, r: Real) {
    m.restarts++;
    const body = createBody(r, 321, false);
    const settled = await r.svc.killDuring(Array.from({ length: this.count }, () => () => r.svc.api('POST', '/v1/payment_intents', { token: licence(r), json: body })));
    // checkAll: an unanswered create has an event only if its intent was committed, and then one.
    for (const result of settled) {
      if (result.status === 'fulfilled' && result.value.status === 200)
        m.intents.push(newIntent(result.value.body.paymentIntentId, 321, false));
    }
    await checkAll(m, r);
  }
  toString = () => `KillDuringCreates(${this.count})`;
}

// Few intents per run, so that one of them meets the lock's five failures often enough.
const index = fc.nat({ max: 3 });
const card = fc.constantFrom(...(Object.keys(CARDS) as Card[]));
const commands = [
  fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.boolean()).map(([a, c]) => new Create(a, c)),
  fc.tuple(index, card).map(([i, c]) => new TokeniseAndAttach(i, c)),
  fc.tuple(index, fc.constantFrom('visa' as const, 'declined' as const, 'attachFail' as const)).map(([i, c]) => new TokeniseAndAttach(i, c)),
  fc.tuple(index, fc.integer({ min: 1, max: 5 })).map(([i, n]) => new FailingAttaches(i, n)),
  index.map((i) => new Confirm(i)),
  fc.tuple(index, fc.integer({ min: 1, max: 3 })).map(([i, n]) => new Authorise(i, n)),
  fc.tuple(index, fc.option(fc.integer({ min: 1, max: 100 }), { nil: null })).map(([i, p]) => new Capture(i, p)),
  index.map((i) => new Cancel(i)),
  index.map((i) => new Verify(i)),
  fc.tuple(index, fc.option(fc.integer({ min: 1, max: 120 }), { nil: null }), fc.integer({ min: 1, max: 4 })).map(([i, p, n]) => new Refund(i, p, n)),
  fc.tuple(index, fc.integer({ min: 2, max: 6 })).map(([i, n]) => new KillDuringRefunds(i, n)),
  fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.boolean(), fc.constantFrom('visa' as const, 'refundFail' as const), fc.constantFrom(null, 50)).map(([a, c, card, p]) => new PayAndRefund(a, c, card, p)),
  fc.boolean().map((far) => new MoveClock(far)),
  fc.tuple(index, fc.integer({ min: 2, max: 4 }), fc.constantFrom('cancel' as const, 'create' as const)).map(([i, n, op]) => new RaceOneKey(i, n, op)),
  fc.constantFrom('SIGKILL' as const, 'SIGTERM' as const).map((s) => new Restart(s)),
  fc.integer({ min: 2, max: 6 }).map((n) => new KillDuringCreates(n)),
];

const svc = new Service({ heldClock: true });
before(async () => {
  await svc.start();
  await deliveries.register(svc.api, svc.credentials.licenceKey);
});
after(async () => {
  await svc.stop();
  await deliveries.close();
});

test('payments: random operation sequences agree with the model, through races and kill -9', { timeout: scaled(30 * 60_000) }, async () => {
  const runs = settings.runs('PAYMENTS', 15);
  const steps = settings.steps('PAYMENTS', 40);
  let locks = 0;
  let failedRefunds = 0;
  const property = fc.asyncProperty(fc.commands(commands, commandOptions(steps)), async (cmds) => {
    const model = new Model();
    const real: Real = { svc };
    await fc.asyncModelRun(() => ({ model, real }), cmds);
    // A minute on, the run's pending refunds have all failed.
    await new MoveClock(true).run(model, real);
    await checkAll(model, real);
    for (const intent of model.intents) settled.add(intent.id);
    if (model.intents.some((i) => i.locked)) locks++;
    failedRefunds += model.failedRefunds;
  });
  await checkModel(import.meta.filename, 'payments', property, runs);
  // The refund-failure card's pending → failed is in the runs (a few each, by the commands' odds), not left to luck alone.
  if (runs >= 10) assert.ok(failedRefunds > 0, `no pending refund failed in ${runs} runs`);
  console.log(`# model payments: ${svc.restarts} restarts of the service process; ${locks} runs reached the card-testing lock; ${failedRefunds} pending refunds failed as the clock moved`);
});
