import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { ApiResponse } from '../helpers/service.ts';
import { checkChain, Deliveries, eventsByObject } from './event-log.ts';
import { checkModel, commandOptions, expectStatus, Service, settings } from './harness.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Model-based test of the payments API through the merchant's backend routes: random sequences of
 * create, tokenise (POST /v1/tokens) and attach, confirm, authorise (also raced), capture (full or
 * partial), cancel, verify, refunds (partial, full, too large, raced, and kill -9 while refunds are
 * in flight), idempotent repeats raced on one key, clean restarts, kill -9 after an
 * answer and kill -9 while creates are in flight, each answer checked against a small reference
 * model of the README's state list and card-testing lock (written here independently of the
 * service's transition table), and every intent compared after each restart and at the end, with
 * its events: exactly the changes the model made, one event each, of the type the README names,
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
} as const;
type Card = keyof typeof CARDS;

/** The README's state list, as a model: where each operation may start. */
const TAKES_A_CARD: Status[] = ['open', 'requires_payment_method', 'requires_customer_confirmation', 'requires_customer_authentication', 'failed'];
const FINAL: Status[] = ['succeeded', 'cancelled'];
const LOCK_AFTER = 5;

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
  /** Refunded so far (every refund here succeeds at once: no refund-failure card in these runs). */
  refunded: number;
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
  events: ['created'],
});

class Model {
  intents: MIntent[] = [];
  restarts = 0;

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
  await checkRefunds(r, intent.id, body.amount_refunded, body.amount_captured, events);
  assert.deepEqual(checkChain(intent.id, events.get(intent.id), body), intent.events.map((type) => `payment_intent.${type}`), `the events of ${intent.id}`);
}

const deliveries = new Deliveries();

/**
 * The refunds stored for an intent add up to its amount_refunded, never more than it captured; each
 * has its events: refund.created, then refund.succeeded (the model's refunds succeed at once), both
 * holding the refund as the API answers it.
 */
async function checkRefunds(r: Real, id: string, refunded: number, captured: number, events: Map<string, Record<string, any>[]>) {
  const list = await r.svc.api('GET', `/v1/refunds?payment_intent=${id}&limit=100`, { token: licence(r) });
  expectStatus(list, 200, `refunds of ${id}`);
  const sum = list.body.data.filter((f: { status: string }) => f.status !== 'failed').reduce((n: number, f: { amount: number }) => n + f.amount, 0);
  assert.equal(sum, refunded, `the refunds of ${id} add up to its amount_refunded`);
  assert.ok(refunded <= captured, `${id}: refunded ${refunded} > captured ${captured}`);
  for (const refund of list.body.data) {
    const chain = events.get(refund.id) ?? [];
    assert.deepEqual(chain.map((e) => e.type), ['refund.created', 'refund.succeeded'], `the events of ${refund.id}`);
    for (const event of chain) assert.deepEqual(event.data.object, refund, `${event.type} of ${refund.id} holds it as answered`);
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
      assert.equal(res.body.status, 'succeeded');
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
    assert.equal((refunded - intent.refunded) % amount, 0, 'whole refunds only');
    for (let n = 0; n < (refunded - intent.refunded) / amount; n++) intent.events.push('updated');
    intent.refunded = refunded;
    await checkAll(m, r);
  }
  toString = () => `KillDuringRefunds(${this.i}, ×${this.count})`;
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
  fc.tuple(index, fc.integer({ min: 2, max: 4 }), fc.constantFrom('cancel' as const, 'create' as const)).map(([i, n, op]) => new RaceOneKey(i, n, op)),
  fc.constantFrom('SIGKILL' as const, 'SIGTERM' as const).map((s) => new Restart(s)),
  fc.integer({ min: 2, max: 6 }).map((n) => new KillDuringCreates(n)),
];

const svc = new Service();
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
  const property = fc.asyncProperty(fc.commands(commands, commandOptions(steps)), async (cmds) => {
    const model = new Model();
    const real: Real = { svc };
    await fc.asyncModelRun(() => ({ model, real }), cmds);
    await checkAll(model, real);
    for (const intent of model.intents) settled.add(intent.id);
    if (model.intents.some((i) => i.locked)) locks++;
  });
  await checkModel(import.meta.filename, 'payments', property, runs);
  console.log(`# model payments: ${svc.restarts} restarts of the service process; ${locks} runs reached the card-testing lock`);
});
