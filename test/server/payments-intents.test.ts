import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allows, TRANSITIONS, type IntentOperation, type IntentStatus } from '../../server/payments/intent-states.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, answerChallenge, assertError, backend, createBody, createIntent, getIntent, readyToAuthorise, tokenOf, type Session } from './payments-fixtures.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

describe('create and retrieve', () => {
  test('JSON create returns the ids, a session token and status open; retrieve shows the intent', async () => {
    const s = await createIntent(svc, { autoCapture: false, account_id: 'acct-1' });
    assert.match(s.paymentIntentId, /^pi_/);
    assert.match(s.session_token, /^cpe_st_/);
    assert.match(s.opaque_key, /^opq_/);
    const intent = await getIntent(svc, s.paymentIntentId);
    assert.equal(intent.status, 'open');
    assert.equal(intent.amount, 1234);
    assert.equal(intent.currency, 'GBP');
    assert.equal(intent.identifier, 'order-1');
    assert.equal(intent.auto_capture, false);
    assert.equal(intent.account_id, 'acct-1');
    assert.deepEqual(intent.attempts, []);
    // The session token is kept hashed: it is nowhere in the stored data.
    const dump = JSON.stringify(await svc.services.store.collection('payment_intents').all());
    assert.ok(!dump.includes(s.session_token));
  });

  test('form bodies with brackets are accepted, currency is case-insensitive', async () => {
    const r = await svc.api('POST', '/v1/payment_intents', {
      token: svc.credentials.licenceKey,
      form: {
        merchantid: String(svc.credentials.merchantId),
        amount: '500',
        currency: 'eur',
        identifier: 'form-order',
        'billTo[firstname]': 'Ada',
        'billTo[country]': 'fr',
        autoCapture: 'false',
        moto: 'true',
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const intent = await getIntent(svc, r.body.paymentIntentId);
    assert.equal(intent.currency, 'EUR');
    assert.equal(intent.moto, true);
    assert.equal(intent.auto_capture, false);
    assert.deepEqual(intent.billTo, { firstname: 'Ada', country: 'FR' });
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['another merchant id', { merchantid: 999 }, 'merchantid'],
    ['zero amount', { amount: 0 }, 'amount'],
    ['fractional amount', { amount: 12.5 }, 'amount'],
    ['amount above the bound', { amount: 100_000_000 }, 'amount'],
    ['unknown currency', { currency: 'ABC' }, 'currency'],
    ['four-letter currency', { currency: 'GBPX' }, 'currency'],
    ['unknown country', { billTo: { country: 'XX' } }, 'billTo[country]'],
    ['bad email', { billTo: { email: 'not-an-email' } }, 'billTo[email]'],
    ['unknown billTo field', { billTo: { nickname: 'a' } }, 'billTo[nickname]'],
    ['recurringIntent without account_id', { recurringIntent: { type: 'subscription' } }, 'recurringIntent'],
    ['unknown field', { colour: 'red' }, 'colour'],
  ];
  for (const [name, extra, param] of invalid) {
    test(`400 naming ${param}: ${name}`, async () => {
      const r = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: { ...createBody(svc), ...extra } });
      assertError(r, 400, param, 'invalid_request_error');
    });
  }

  test('missing identifier is a 400 naming it', async () => {
    const { identifier: _omit, ...body } = createBody(svc);
    assertError(await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: body }), 400, 'identifier');
  });
});

describe('backend authentication', () => {
  const routes: [string, string][] = [
    ['POST', '/v1/payment_intents'],
    ['GET', '/v1/payment_intents/pi_x'],
    ...['attach', 'confirm', 'authorise', 'capture', 'cancel', 'verify'].map((op): [string, string] => ['POST', `/v1/payment_intents/${op}`]),
  ];
  for (const [method, path] of routes) {
    test(`${method} ${path}: no key, public key and unknown key are 401`, async () => {
      const json = method === 'POST' ? {} : undefined;
      assertError(await svc.api(method, path, { json }), 401, null, 'authentication_error');
      const pub = await svc.api(method, path, { token: svc.credentials.publicKey, json });
      assertError(pub, 401, null, 'authentication_error');
      assert.match(pub.body.error.message, /public key/i);
      assertError(await svc.api(method, path, { token: 'sk_test_nope', json }), 401);
    });
  }

  test("another merchant's intent is 404 on every route, and stays unchanged", async () => {
    const other = await svc.services.merchants.create({ origins: ['https://other.example'] });
    const mine = await createIntent(svc);
    const before = await getIntent(svc, mine.paymentIntentId);
    const r = await svc.api('GET', `/v1/payment_intents/${mine.paymentIntentId}`, { token: other.licenceKey });
    assertError(r, 404, 'payment_intent_id');
    for (const op of ['attach', 'confirm', 'authorise', 'capture', 'cancel', 'verify']) {
      const body = { payment_intent_id: mine.paymentIntentId, ...(op === 'attach' ? { token: 'tok_abc' } : {}), ...(op === 'verify' ? { unmask_fields: [] } : {}) };
      assertError(await svc.api('POST', `/v1/payment_intents/${op}`, { token: other.licenceKey, json: body }), 404, 'payment_intent_id');
    }
    assert.deepEqual(await getIntent(svc, mine.paymentIntentId), before);
    assertError(await svc.api('GET', '/v1/payment_intents/pi_doesnotexist', { token: svc.credentials.licenceKey }), 404);
  });
});

/** Brings a fresh intent to the given status, by the public routes only. */
async function intentIn(status: IntentStatus): Promise<Session> {
  switch (status) {
    case 'open':
      return createIntent(svc);
    case 'requires_payment_method': {
      const s = await createIntent(svc);
      const r = await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: await tokenOf(svc, s, CARDS.attachRetriable) });
      assert.equal(r.body.status, 'requires_payment_method');
      return s;
    }
    case 'requires_customer_confirmation': {
      const s = await createIntent(svc);
      await backend(svc, 'attach', { payment_intent_id: s.paymentIntentId, token: await tokenOf(svc, s, CARDS.visa) });
      return s;
    }
    case 'requires_customer_authentication':
      return (await readyToAuthorise(svc, CARDS.challenge)).session;
    case 'requires_authorisation':
      return (await readyToAuthorise(svc)).session;
    case 'succeeded':
    case 'requires_capture':
    case 'failed': {
      const { session } = await readyToAuthorise(svc, status === 'failed' ? CARDS.declined : CARDS.visa, { autoCapture: status !== 'requires_capture' });
      const r = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
      assert.equal(r.body.status, status);
      return session;
    }
    case 'cancelled': {
      const s = await createIntent(svc);
      await backend(svc, 'cancel', { payment_intent_id: s.paymentIntentId });
      return s;
    }
  }
}

/**
 * What each backend operation does from each status, written out from the specification's states
 * (SPEC "Payment Intent states", README "States") rather than read from the product's table: the
 * status it leads to with a frictionless approved card (Visa attached), or 409 when not allowed.
 */
const SPECIFIED: Record<IntentStatus, Record<'attach' | 'confirm' | 'authorise' | 'capture' | 'cancel', IntentStatus | 409>> = {
  open: { attach: 'requires_customer_confirmation', confirm: 409, authorise: 409, capture: 409, cancel: 'cancelled' },
  requires_payment_method: { attach: 'requires_customer_confirmation', confirm: 409, authorise: 409, capture: 409, cancel: 'cancelled' },
  // Attaching again replaces the attempt in progress, also an unanswered challenge.
  requires_customer_confirmation: { attach: 'requires_customer_confirmation', confirm: 'requires_authorisation', authorise: 409, capture: 409, cancel: 'cancelled' },
  requires_customer_authentication: { attach: 'requires_customer_confirmation', confirm: 409, authorise: 409, capture: 409, cancel: 'cancelled' },
  requires_authorisation: { attach: 409, confirm: 409, authorise: 'succeeded', capture: 409, cancel: 'cancelled' },
  succeeded: { attach: 409, confirm: 409, authorise: 409, capture: 409, cancel: 409 },
  // Cancel voids the uncaptured authorisation.
  requires_capture: { attach: 409, confirm: 409, authorise: 409, capture: 'succeeded', cancel: 'cancelled' },
  // A declined attempt may be followed by another card.
  failed: { attach: 'requires_customer_confirmation', confirm: 409, authorise: 409, capture: 409, cancel: 'cancelled' },
  cancelled: { attach: 409, confirm: 409, authorise: 409, capture: 409, cancel: 409 },
};

describe('each operation from each status, as the specification says', () => {
  for (const [status, row] of Object.entries(SPECIFIED) as [IntentStatus, (typeof SPECIFIED)[IntentStatus]][]) {
    for (const [op, expected] of Object.entries(row) as [IntentOperation, IntentStatus | 409][]) {
      test(`${op} from ${status}: ${expected === 409 ? '409, nothing changed' : expected}`, async () => {
        const s = await intentIn(status);
        const before = await getIntent(svc, s.paymentIntentId);
        assert.equal(before.status, status);
        const token = op === 'attach' && expected !== 409 ? await tokenOf(svc, s, CARDS.visa) : 'tok_unused';
        const r = await backend(svc, op, { payment_intent_id: s.paymentIntentId, ...(op === 'attach' ? { token } : {}) });
        if (expected !== 409) {
          assert.equal(r.status, 200, JSON.stringify(r.body));
          assert.equal((await getIntent(svc, s.paymentIntentId)).status, expected);
        } else {
          assertError(r, 409, 'payment_intent_id', 'invalid_request_error');
          assert.equal(r.body.error.code, 'payment_intent_unexpected_state');
          assert.ok(r.body.error.message.includes(`status is ${status}`), r.body.error.message);
          assert.deepEqual(await getIntent(svc, s.paymentIntentId), before);
        }
      });
    }
  }

  test("the product's table agrees with the specification on every allowed move", () => {
    for (const [status, row] of Object.entries(SPECIFIED) as [IntentStatus, (typeof SPECIFIED)[IntentStatus]][]) {
      for (const [op, expected] of Object.entries(row) as [IntentOperation, IntentStatus | 409][]) {
        assert.equal(allows(op, status), expected !== 409, `${op} from ${status}`);
        if (expected !== 409) assert.ok((TRANSITIONS[op].to as readonly string[]).includes(expected), `${op} may lead to ${expected}`);
      }
    }
  });
});

describe('capture', () => {
  const deferred = async () => {
    const { session } = await readyToAuthorise(svc, CARDS.visa, { autoCapture: false, amount: 1000 });
    const a = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    assert.equal(a.body.status, 'requires_capture');
    assert.equal(a.body.authorised, true);
    assert.equal(a.body.captured, false);
    return session.paymentIntentId;
  };

  test('partial capture, once', async () => {
    const id = await deferred();
    const c = await backend(svc, 'capture', { payment_intent_id: id, amount: 600 });
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.status, 'succeeded');
    assert.equal(c.body.amount_captured, 600);
    assert.equal(c.body.amount_authorised, 1000);
    const again = await backend(svc, 'capture', { payment_intent_id: id, amount: 100 });
    assertError(again, 409);
    assert.match(again.body.error.message, /succeeded/);
    assert.equal((await getIntent(svc, id)).amount_captured, 600);
  });

  test('not above the authorised amount; nothing changes', async () => {
    const id = await deferred();
    assertError(await backend(svc, 'capture', { payment_intent_id: id, amount: 1001 }), 400, 'amount');
    assert.equal((await getIntent(svc, id)).status, 'requires_capture');
    const full = await backend(svc, 'capture', { payment_intent_id: id });
    assert.equal(full.body.amount_captured, 1000);
  });

  test('a cancel without a reason has cancellation_reason null (as the Stripe API); an unknown reason is a 400 naming it', async () => {
    const bare = await backend(svc, 'cancel', { payment_intent_id: (await createIntent(svc)).paymentIntentId });
    assert.equal(bare.body.cancellation_reason, null);
    assertError(await backend(svc, 'cancel', { payment_intent_id: (await createIntent(svc)).paymentIntentId, cancellation_reason: 'bored' }), 400, 'cancellation_reason');
  });

  test('cancel voids an uncaptured authorisation', async () => {
    const id = await deferred();
    const c = await backend(svc, 'cancel', { payment_intent_id: id, cancellation_reason: 'abandoned' });
    assert.equal(c.body.status, 'cancelled');
    assert.equal(c.body.cancellation_reason, 'abandoned');
    assert.deepEqual([c.body.amount_capturable, c.body.amount_received], [0, 0]);
    assert.equal((await backend(svc, 'verify', { payment_intent_id: id, unmask_fields: [] })).body.status, 'cancelled');
  });
});

describe('verify and redaction', () => {
  const personal = ['Ms Ada Lovelace', 'Ada', 'Lovelace', 'ada@example.test', '12 Analytical Row', 'N1 9GU'];

  test('success with every personal field redacted by default (the original values appear nowhere)', async () => {
    const { session } = await readyToAuthorise(svc);
    await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    const v = await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: [] });
    assert.equal(v.status, 200, JSON.stringify(v.body));
    assert.equal(v.body.status, 'success');
    const { auth } = v.body;
    assert.equal(auth.amount, 1234);
    assert.equal(auth.currency, 'GBP');
    assert.equal(auth.identifier, 'order-1');
    assert.equal(auth.merchantid, svc.credentials.merchantId);
    assert.match(auth.authorisation_code, /^[A-Z0-9]{6}$/);
    assert.equal(auth.masked_pan, '424242******4242');
    assert.equal(auth.scheme, 'visa');
    for (const field of ['name', 'email', 'address', 'postcode']) assert.equal(auth[field], '[redacted]');
    const text = JSON.stringify(v.body);
    for (const value of personal) assert.ok(!text.includes(value), `${value} leaked`);
    // Absent unmask_fields redacts too.
    const bare = await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId });
    assert.equal(bare.body.auth.email, '[redacted]');
  });

  test('unmask_fields shows exactly the named fields (JSON and form)', async () => {
    const { session } = await readyToAuthorise(svc);
    await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    const v = await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: ['name', 'postcode'] });
    assert.equal(v.body.auth.name, 'Ms Ada Lovelace');
    assert.equal(v.body.auth.postcode, 'N1 9GU');
    assert.equal(v.body.auth.email, '[redacted]');
    assert.equal(v.body.auth.address, '[redacted]');
    assert.deepEqual(v.body.auth.redacted, ['email', 'address']);
    const form = await svc.api('POST', '/v1/payment_intents/verify', {
      token: svc.credentials.licenceKey,
      form: { payment_intent_id: session.paymentIntentId, 'unmask_fields[0]': 'email', 'unmask_fields[1]': 'address' },
    });
    assert.equal(form.body.auth.email, 'ada@example.test');
    assert.equal(form.body.auth.address, '12 Analytical Row');
    assert.equal(form.body.auth.name, '[redacted]');
  });

  test('an unknown unmask field is a 400', async () => {
    const s = await createIntent(svc);
    assertError(await backend(svc, 'verify', { payment_intent_id: s.paymentIntentId, unmask_fields: ['phone'] }), 400, 'unmask_fields[0]');
  });

  test('no success before authorisation, nor after a decline', async () => {
    const open = await createIntent(svc);
    const pending = await backend(svc, 'verify', { payment_intent_id: open.paymentIntentId, unmask_fields: [] });
    assert.deepEqual(pending.body, { status: 'pending', intent_status: 'open', auth: null });
    const { session } = await readyToAuthorise(svc, CARDS.declined);
    await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    const failed = await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: [] });
    assert.equal(failed.body.status, 'failed');
    assert.equal(failed.body.auth, null);
  });

  test('requires_capture verifies as success with nothing captured yet', async () => {
    const { session } = await readyToAuthorise(svc, CARDS.amex, { autoCapture: false });
    await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    const v = await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: [] });
    assert.equal(v.body.status, 'success');
    assert.equal(v.body.auth.amount_captured, 0);
    assert.equal(v.body.auth.masked_pan, '378282*****0005');
  });
});

describe('challenge answers move the intent', () => {
  test('complete → requires_authorisation → succeeded', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge);
    assert.equal((await answerChallenge(svc, confirm.challenge.url, 'complete')).status, 200);
    assert.equal((await getIntent(svc, session.paymentIntentId)).status, 'requires_authorisation');
    const a = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId });
    assert.equal(a.body.status, 'succeeded');
    const v = await backend(svc, 'verify', { payment_intent_id: session.paymentIntentId, unmask_fields: [] });
    assert.equal(v.body.auth.three_ds, 'challenge_completed');
  });
});
