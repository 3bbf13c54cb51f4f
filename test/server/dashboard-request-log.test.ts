import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { redact, redactText } from '../../server/dashboard/redact.ts';
import { KEPT_PER_MERCHANT } from '../../server/dashboard/request-records.ts';
import { dashboard, signIn, type DashboardLogin } from '../helpers/dashboard.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { backend, CARDS, createIntent, futureYear, tokenise } from './payments-fixtures.ts';

/**
 * The dashboard's request log: each merchant's last 1,000 API requests with their bodies, card data
 * and secrets redacted before anything is stored, filterable by status, and only the merchant's own.
 */
describe('the request log', () => {
  let svc: TestService;
  let login: DashboardLogin;
  before(async () => {
    svc = await startTestService();
    login = await signIn(svc, { licence_key: svc.credentials.licenceKey });
  });
  after(() => svc?.close());

  const all = async (who: DashboardLogin, query = '') => {
    const records: any[] = [];
    for (let after: string | undefined; ; ) {
      const page = await dashboard(svc, 'GET', `/requests?limit=100${after ? `&starting_after=${after}` : ''}${query}`, { login: who });
      assert.equal(page.status, 200, page.text);
      records.push(...page.body.data);
      if (!page.body.has_more) return records;
      after = page.body.data.at(-1).id;
    }
  };

  it('records API and browser requests with their bodies, and keeps no card number, security code, key, token or secret', async () => {
    const session = await createIntent(svc);
    const tokenised = await tokenise(svc, session, { number: CARDS.visa, cvc: '987' });
    assert.equal(tokenised.status, 200);
    const token: string = tokenised.body.data.cp_card_token;
    assert.equal((await backend(svc, 'attach', { payment_intent_id: session.paymentIntentId, token }, { 'X-Idempotency-Key': 'attach-1' })).status, 200);
    const serverToken = await svc.api('POST', '/v1/tokens', {
      token: svc.credentials.licenceKey,
      json: { card: { number: '5555 5555 5555 4444', exp_month: '12', exp_year: futureYear, cvc: '321', name: 'Ada' } },
    });
    assert.equal(serverToken.status, 200);
    const refused = await svc.api('POST', '/v1/tokens', { token: svc.credentials.licenceKey, form: { 'card[number]': '4000000000000002', 'card[cvc]': '55' } });
    assert.equal(refused.status, 400);

    const records = await all(login);
    const text = JSON.stringify(records);
    for (const secret of [
      '4242424242424242', '4242 4242 4242 4242', '5555 5555 5555 4444', '4000000000000002', '"987"', '"321"',
      svc.credentials.licenceKey, svc.credentials.publicKey, session.session_token, token, serverToken.body.data.cp_card_token,
    ])
      assert.ok(!text.includes(secret), `the log holds ${secret}`);

    const paths = records.map((r) => `${r.source} ${r.method} ${r.path} ${r.status}`);
    assert.deepEqual(paths, [
      'api POST /v1/tokens 400',
      'api POST /v1/tokens 200',
      'api POST /v1/payment_intents/attach 200',
      'browser POST /frames/tokenise 200',
      'api POST /v1/payment_intents 200',
    ]);
    const [badToken, , attach, browserTokenise, create] = records;
    assert.equal(attach.idempotency_key, 'attach-1');
    assert.equal(attach.request_body.token, '[redacted]');
    assert.equal(attach.response_body.payment_method.last4, '4242');
    assert.equal(browserTokenise.request_body.card.number, '[redacted]');
    assert.equal(browserTokenise.request_body.card.cvc, '[redacted]');
    assert.equal(browserTokenise.request_body.card.exp_month, '12', 'the expiry is kept, as Stripe keeps it');
    assert.equal(create.request_body.amount, 1234);
    assert.equal(create.response_body.session_token, '[redacted]');
    assert.equal(badToken.response_body.error.type, 'invalid_request_error');
    assert.match(badToken.request_id, /^req_/);

    const failed = await all(login, '&status=4xx');
    assert.deepEqual(failed.map((r) => r.status), [400]);
    assert.deepEqual(await all(login, '&status=5xx'), []);
    const one = await dashboard(svc, 'GET', `/requests/${attach.id}`, { login });
    assert.equal(one.body.path, '/v1/payment_intents/attach');
  });

  it('another merchant sees none of it: its log is its own, and another\'s record is a 404', async () => {
    const mine = await all(login);
    assert.ok(mine.length > 0);
    const other = await svc.services.merchants.create({ origins: [] });
    const theirs = await signIn(svc, { licence_key: other.licenceKey });
    assert.deepEqual(await all(theirs), []);
    const peek = await dashboard(svc, 'GET', `/requests/${mine[0].id}`, { login: theirs });
    assert.equal(peek.status, 404);
    assert.equal(peek.body.error.code, 'resource_missing');
    const cursor = await dashboard(svc, 'GET', `/requests?starting_after=nope_1`, { login: theirs });
    assert.equal(cursor.status, 404);
    assert.equal(cursor.body.error.param, 'starting_after');
  });

  it(`keeps the last ${KEPT_PER_MERCHANT} of a merchant, newest first`, async () => {
    const merchant = await svc.services.merchants.create({ origins: [] });
    const records = svc.services.dashboard.requests;
    for (let i = 0; i < KEPT_PER_MERCHANT + 150; i++)
      records.add({ merchant_id: merchant.merchantId, request_id: `req_${i}`, source: 'api', method: 'GET', path: `/v1/n/${i}`, status: 200, ms: 1 });
    await records.flush();
    const who = await signIn(svc, { licence_key: merchant.licenceKey });
    const kept = await all(who);
    assert.equal(kept.length, KEPT_PER_MERCHANT);
    assert.equal(kept[0].path, `/v1/n/${KEPT_PER_MERCHANT + 149}`);
    assert.equal(kept.at(-1).path, '/v1/n/150');
  });
});

describe('redaction', () => {
  it('takes card numbers out of any text, by Luhn, leaving other numbers', () => {
    assert.equal(redactText('paid with 4242 4242 4242 4242 today'), 'paid with [redacted] today');
    assert.equal(redactText('3782-822463-10005'), '[redacted]');
    assert.equal(redactText('order 1234567890123 of 2026'), 'order 1234567890123 of 2026');
    assert.equal(redactText('key sk_test_abcdefgh12345678 and whsec_QUJDREVGR0g='), 'key sk_test_[redacted] and whsec_[redacted]=');
  });

  it('drops secret fields whatever their value, and keeps a card\'s scheme, last four and expiry', () => {
    assert.deepEqual(redact({ card: { number: 'x', cvc: 1, exp_month: 12, last4: '4242', scheme: 'visa' }, secret: 'whsec_x', metadata: { note: '4111 1111 1111 1111' } }), {
      card: { number: '[redacted]', cvc: '[redacted]', exp_month: 12, last4: '4242', scheme: 'visa' },
      secret: '[redacted]',
      metadata: { note: '[redacted]' },
    });
  });
});
