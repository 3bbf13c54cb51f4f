import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, answerChallenge, fromFrame, futureYear, assertError, backend, createIntent, getIntent, readyToAuthorise, tokenOf, tokenise } from './payments-fixtures.ts';

let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

const MERCHANT_ORIGIN = 'http://localhost:4243'; // the seeded merchant's allowed origin

describe('session-backed routes (direct mode)', () => {
  test('the whole card flow with public key + session token only', async () => {
    const s = await createIntent(svc);
    assert.equal((await getIntent(svc, s.paymentIntentId)).status, 'open');
    // The browser session's first request moves the intent on: it now waits for a card (contract).
    const view = await svc.api('GET', '/intent', { headers: s.headers });
    assert.equal(view.status, 200);
    assert.equal(view.body.amount_formatted, '£12.34');
    assert.equal(view.body.status, 'requires_payment_method');
    assert.equal((await getIntent(svc, s.paymentIntentId)).status, 'requires_payment_method');
    const token = await tokenOf(svc, s, CARDS.visa);
    const attach = await svc.api('POST', '/intent/attach', { headers: s.headers, json: { token } });
    assert.equal(attach.body.status, 'requires_customer_confirmation');
    const confirm = await svc.api('POST', '/intent/confirm', { headers: s.headers, json: { payment_intent_id: s.paymentIntentId } });
    assert.equal(confirm.body.status, 'requires_authorisation');
    const authorise = await svc.api('POST', '/intent/authorise', { headers: s.headers, json: {} });
    assert.equal(authorise.body.status, 'succeeded');
    assert.equal(authorise.body.authorised, true);
    assert.equal((await backend(svc, 'verify', { payment_intent_id: s.paymentIntentId, unmask_fields: [] })).body.status, 'success');
  });

  test('missing or wrong credentials are 401; a licence key is not a session', async () => {
    const s = await createIntent(svc);
    for (const path of ['/intent/attach', '/intent/confirm', '/intent/authorise', '/frames/tokenise']) {
      // Tokenise refuses anything but a hosted frame first (test/security/tokenise.test.ts): these come from one.
      const frame = path === '/frames/tokenise' ? fromFrame(svc) : {};
      assertError(await svc.api('POST', path, { json: {}, headers: frame }), 401, null, 'authentication_error');
      assertError(await svc.api('POST', path, { json: {}, headers: { ...frame, ...s.headers, 'X-CPE-Session-Token': 'cpe_st_wrong' } }), 401);
      assertError(await svc.api('POST', path, { json: {}, headers: { ...frame, ...s.headers, 'X-CPE-Public-Key': svc.credentials.licenceKey } }), 401);
      assertError(await svc.api('POST', path, { json: {}, headers: frame, token: svc.credentials.licenceKey }), 401);
    }
    assertError(await svc.api('GET', '/intent', {}), 401);
  });

  test("a session token is bound to its intent and to its merchant's public key", async () => {
    const a = await createIntent(svc);
    const b = await createIntent(svc);
    const r = await svc.api('POST', '/intent/confirm', { headers: a.headers, json: { payment_intent_id: b.paymentIntentId } });
    assertError(r, 404, 'payment_intent_id');
    const token = await tokenOf(svc, b, CARDS.visa);
    assertError(await svc.api('POST', '/intent/attach', { headers: a.headers, json: { payment_intent_id: b.paymentIntentId, token } }), 404);
    // b's own session (the tokenise) started it; a's refused attach changed nothing.
    assert.equal((await getIntent(svc, b.paymentIntentId)).status, 'requires_payment_method');
    // The right session token with another merchant's public key is refused.
    const other = await svc.services.merchants.create({ origins: ['https://other.example'] });
    assertError(await svc.api('GET', '/intent', { headers: { ...a.headers, 'X-CPE-Public-Key': other.publicKey } }), 401);
  });

  test('state refusals on session routes are 409 naming the status', async () => {
    const s = await createIntent(svc);
    const r = await svc.api('POST', '/intent/authorise', { headers: s.headers, json: {} });
    assertError(r, 409);
    assert.match(r.body.error.message, /status is requires_payment_method/);
  });
});

describe('CORS', () => {
  const preflight = (path: string, origin: string) =>
    fetch(svc.url + path, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-cpe-public-key,x-cpe-session-token,content-type' },
    });

  test("preflight: the merchant's origin is allowed with the session headers; another is not", async () => {
    const ok = await preflight('/intent/confirm', MERCHANT_ORIGIN);
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), MERCHANT_ORIGIN);
    assert.match(ok.headers.get('vary') ?? '', /Origin/);
    const allowed = ok.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of ['x-cpe-public-key', 'x-cpe-session-token', 'content-type', 'x-idempotency-key']) assert.ok(allowed.includes(h), h);
    const no = await preflight('/intent/confirm', 'https://evil.example');
    assert.equal(no.headers.get('access-control-allow-origin'), null);
    assert.match(no.headers.get('vary') ?? '', /Origin/);
  });

  test('requests: allowed origin gets Access-Control-Allow-Origin (also on errors); a foreign origin is refused before running', async () => {
    const s = await createIntent(svc);
    const ok = await svc.api('GET', '/intent', { headers: { ...s.headers, Origin: MERCHANT_ORIGIN } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), MERCHANT_ORIGIN);
    const unauth = await svc.api('POST', '/intent/confirm', { headers: { Origin: MERCHANT_ORIGIN }, json: {} });
    assert.equal(unauth.status, 401);
    assert.equal(unauth.headers.get('access-control-allow-origin'), MERCHANT_ORIGIN);
    const token = await tokenOf(svc, s, CARDS.visa);
    const evil = await svc.api('POST', '/intent/attach', { headers: { ...s.headers, Origin: 'https://evil.example' }, json: { token } });
    assertError(evil, 403);
    assert.equal(evil.headers.get('access-control-allow-origin'), null);
    assert.equal((await getIntent(svc, s.paymentIntentId)).status, 'requires_payment_method');
  });

  test("an origin allowed for another merchant is refused with this merchant's key", async () => {
    await svc.services.merchants.create({ origins: ['https://shop-b.example'] });
    const s = await createIntent(svc);
    assertError(await svc.api('GET', '/intent', { headers: { ...s.headers, Origin: 'https://shop-b.example' } }), 403);
  });

  test("tokenise answers only the service's own origin, and no preflight (the frames call it same-origin)", async () => {
    const s = await createIntent(svc);
    for (const origin of [svc.url, MERCHANT_ORIGIN]) assert.equal((await preflight('/frames/tokenise', origin)).headers.get('access-control-allow-origin'), null);
    assertError(await tokenise(svc, { ...s, headers: { ...s.headers, Origin: MERCHANT_ORIGIN } }), 403);
    assert.equal((await tokenise(svc, s)).status, 200);
  });
});

describe('3-D Secure challenge page', () => {
  test('shows the amount and the two buttons, with strict headers', async () => {
    const { confirm } = await readyToAuthorise(svc, CARDS.challenge, { amount: 123456, currency: 'EUR' });
    const res = await fetch(confirm.challenge.url);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(html.includes('€1,234.56'), 'formatted amount');
    assert.match(html, /<button[^>]*value="complete"[^>]*>Complete<\/button>/);
    assert.match(html, /<button[^>]*value="fail"[^>]*>Fail<\/button>/);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /frame-ancestors 'self' http:\/\/localhost:4243 http:\/\/127\.0\.0\.1:4243/);
    // Its one script (built from iframe-app/challenge-page/) and its style, each by hash: no nonce, no 'self', no 'unsafe-inline'.
    assert.match(csp, /default-src 'none'; script-src 'sha256-[^' ]+'; style-src 'sha256-[^' ]+';/);
    assert.ok(!csp.includes('unsafe-inline'));
    const hash = /script-src '(sha256-[^']+)'/.exec(csp)![1]!;
    const code = /<script type="module">([\s\S]*?)<\/script>/.exec(html)![1]!;
    assert.equal(`sha256-${createHash('sha256').update(code).digest('base64')}`, hash, 'the inline script is the one the CSP allows');
    assert.equal(res.headers.get('referrer-policy'), 'same-origin');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  test('the answer page sends only {type, transaction_id, status}, on the port of an init from precise origins; on a window only its uuid', async () => {
    const s = await createIntent(svc);
    await svc.api('POST', '/intent/attach', { headers: s.headers, json: { token: await tokenOf(svc, s, CARDS.challenge) } });
    const confirm = await svc.api('POST', '/intent/confirm', { headers: { ...s.headers, Origin: MERCHANT_ORIGIN }, json: {} });
    const challenge = confirm.body.challenge;
    const res = await answerChallenge(svc, challenge.url, 'complete');
    const html = await res.text();
    // What the page's built script reads (a data block, never run): the origins whose init it accepts, and the result for the port.
    const data = JSON.parse(/<script type="application\/json" id="cpe-challenge">([^<]*)<\/script>/.exec(html)![1]!);
    assert.deepEqual(data, { origins: [MERCHANT_ORIGIN, svc.url], result: { type: 'cpe:3ds:result', transaction_id: challenge.transaction_id, status: 'completed' } });
    // The script is the popup channel's page end: on a window, only the ready (the uuid) and a close.
    const code = /<script type="module">([\s\S]*?)<\/script>/.exec(html)![1]!;
    assert.ok(code.includes('cpe:popup:ready') && !code.includes('cpe_st_'));
    assert.ok(!html.includes(new URL(challenge.url).searchParams.get('challenge')!), 'the answer page does not echo the secret');
  });

  test('JSON answer, and a second answer is refused', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge);
    const res = await answerChallenge(svc, confirm.challenge.url, 'fail', { accept: 'application/json' });
    assert.deepEqual(await res.json(), { type: 'cpe:3ds:result', transaction_id: confirm.challenge.transaction_id, status: 'failed' });
    const again = await answerChallenge(svc, confirm.challenge.url, 'complete', { accept: 'application/json' });
    assert.equal(again.status, 409);
    assert.equal((await getIntent(svc, session.paymentIntentId)).status, 'failed');
  });

  test('a wrong secret, or an answer from another origin, changes nothing', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge);
    const wrong = await answerChallenge(svc, `${svc.url}/frames/challenge?challenge=guess`, 'complete');
    assert.equal(wrong.status, 404);
    assert.equal((await fetch(`${svc.url}/frames/challenge?challenge=guess`)).status, 404);
    const forged = await answerChallenge(svc, confirm.challenge.url, 'complete', { origin: MERCHANT_ORIGIN });
    assert.equal(forged.status, 403);
    assert.equal((await getIntent(svc, session.paymentIntentId)).status, 'requires_customer_authentication');
  });

  test('re-attaching supersedes an unanswered challenge', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge);
    await backend(svc, 'attach', { payment_intent_id: session.paymentIntentId, token: await tokenOf(svc, session, CARDS.visa) });
    const late = await answerChallenge(svc, confirm.challenge.url, 'complete', { accept: 'application/json' });
    assert.equal(late.status, 409);
    assert.equal((await getIntent(svc, session.paymentIntentId)).status, 'requires_customer_confirmation');
  });
});

describe('idempotency', () => {
  test('a repeat with the same key and body returns the first answer and does nothing again', async () => {
    const headers = { 'X-Idempotency-Key': 'create-1' };
    const body = { merchantid: svc.credentials.merchantId, amount: 700, currency: 'GBP', identifier: 'idem-order' };
    const first = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: body, headers });
    const second = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: { identifier: 'idem-order', currency: 'GBP', amount: 700, merchantid: svc.credentials.merchantId }, headers });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    const count = (await svc.services.store.collection<{ id: string; identifier: string }>('payment_intents').all()).filter((i) => i.identifier === 'idem-order').length;
    assert.equal(count, 1);
    // The stored answer is sealed: the session token is not readable in the store.
    const dump = JSON.stringify(await svc.services.store.collection('idempotency_keys').all());
    assert.ok(!dump.includes(first.body.session_token));
  });

  test('a refused card is replayed to a repeat, so it counts once towards the lock; a malformed request is not kept', async () => {
    const session = await createIntent(svc);
    const headers = { ...fromFrame(svc), ...session.headers, 'X-Idempotency-Key': 'tok-bad-card' };
    const card = { number: '4242424242424241', exp_month: '12', exp_year: futureYear, cvc: '123', name: 'Ada' };
    const first = await svc.api('POST', '/frames/tokenise', { headers, json: { card } });
    assertError(first, 400, 'card[number]', 'card_error');
    const again = await svc.api('POST', '/frames/tokenise', { headers, json: { card } });
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal((await getIntent(svc, session.paymentIntentId)).failed_attempts, 1);

    // A request refused before it ran (a missing field) can be fixed and sent again with its key.
    const malformed = await svc.api('POST', '/frames/tokenise', { headers: { ...fromFrame(svc), ...session.headers, 'X-Idempotency-Key': 'tok-fixed' }, json: { card: { ...card, name: undefined } } });
    assert.equal(malformed.status, 400);
    const fixed = await svc.api('POST', '/frames/tokenise', { headers: { ...fromFrame(svc), ...session.headers, 'X-Idempotency-Key': 'tok-fixed' }, json: { card: { ...card, number: '4242424242424242' } } });
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
  });

  test('the same key with another body is a 409 idempotency_error', async () => {
    const headers = { 'X-Idempotency-Key': 'create-2' };
    const body = { merchantid: svc.credentials.merchantId, amount: 700, currency: 'GBP', identifier: 'idem-2' };
    await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: body, headers });
    const r = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: { ...body, amount: 701 }, headers });
    assertError(r, 409, 'X-Idempotency-Key', 'idempotency_error');
  });

  test('a repeated authorise does not authorise twice; errors are replayed too', async () => {
    const { session } = await readyToAuthorise(svc, CARDS.visa, { autoCapture: false });
    const headers = { 'X-Idempotency-Key': 'flow-key-1' };
    const a = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId }, headers);
    const b = await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId }, headers);
    assert.equal(b.status, 200);
    assert.deepEqual(b.body, a.body);
    // Without the key the repeat reaches the state machine.
    assertError(await backend(svc, 'authorise', { payment_intent_id: session.paymentIntentId }), 409);
    // The same per-flow key on another route is its own record (middleware mode forwards one key everywhere).
    const c = await backend(svc, 'capture', { payment_intent_id: session.paymentIntentId }, headers);
    assert.equal(c.status, 200, JSON.stringify(c.body));
  });

  test('concurrent repeats run once', async () => {
    const s = await createIntent(svc);
    const token = await tokenOf(svc, s, CARDS.visa);
    const headers = { ...s.headers, 'X-Idempotency-Key': 'attach-concurrent' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => svc.api('POST', '/intent/attach', { headers, json: { token } })));
    for (const r of answers) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, answers[0].body);
    }
    assert.equal((await getIntent(svc, s.paymentIntentId)).attempts.length, 1);
  });

  test('keys are scoped per credential', async () => {
    const a = await createIntent(svc);
    const b = await createIntent(svc);
    const headers = { 'X-Idempotency-Key': 'same-key' };
    const ra = await svc.api('POST', '/intent/attach', { headers: { ...a.headers, ...headers }, json: { token: await tokenOf(svc, a, CARDS.visa) } });
    const rb = await svc.api('POST', '/intent/attach', { headers: { ...b.headers, ...headers }, json: { token: await tokenOf(svc, b, CARDS.visa) } });
    assert.equal(ra.status, 200);
    assert.equal(rb.status, 200);
    assert.equal(rb.body.paymentIntentId, b.paymentIntentId);
  });

  test('messaging POSTs honour the key too', async () => {
    const headers = { 'X-Idempotency-Key': 'contact-1' };
    const t = svc.credentials.accessToken;
    const a = await svc.api('POST', '/v1/contacts', { token: t, form: { username: 'idem', phone_number: '+441234567' }, headers });
    const b = await svc.api('POST', '/v1/contacts', { token: t, form: { username: 'idem', phone_number: '+441234567' }, headers });
    assert.deepEqual(b.body, a.body);
    assertError(await svc.api('POST', '/v1/contacts', { token: t, form: { username: 'idem2', phone_number: '+441234567' }, headers }), 409);
  });
});
