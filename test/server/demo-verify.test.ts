/**
 * The demo merchant's `POST /api/verify` (what its pages call to show the backend's verify): it is the
 * integration people copy, so it checks what a real backend must. It answers only for the visitor's
 * own intents (another visitor's id is absent, as on the order pages) and never unmasks personal
 * data in an answer to a browser.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startDemo } from '../../demo/server.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, futureYear } from './payments-fixtures.ts';

let svc: TestService;
let demo: Awaited<ReturnType<typeof startDemo>>;
let demoUrl: string;

before(async () => {
  svc = await startTestService();
  demo = await startDemo({ port: 0, credentials: { ...svc.credentials, serviceUrl: svc.url } });
  demoUrl = `http://127.0.0.1:${(demo.server.address() as AddressInfo).port}`;
});
after(async () => {
  demo.server.closeAllConnections();
  await new Promise((resolve) => demo.server.close(resolve));
  await svc.close();
});

/** POST to the demo as a browser with `cookie` (a visitor), or as a new visitor without one. */
async function post(path: string, body: unknown, cookie?: string) {
  const response = await fetch(demoUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie && { cookie }) },
    body: JSON.stringify(body),
  });
  const visitor = /demo_visitor=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  return { status: response.status, body: (await response.json()) as Record<string, any>, visitor };
}

/** A visitor's paid intent: made through the demo's backend, paid with the licence key (a test card). */
async function paidIntentOfNewVisitor(): Promise<{ id: string; visitor: string }> {
  const created = await post('/api/payment-intents', {});
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.paymentIntentId as string;
  const key = svc.credentials.licenceKey;
  const token = await svc.api('POST', '/v1/tokens', { token: key, json: { card: { number: CARDS.visa, exp_month: '12', exp_year: futureYear, cvc: '123', name: 'Ada Lovelace' } } });
  for (const [step, body] of [
    ['attach', { payment_intent_id: id, token: token.body.data.cp_card_token }],
    ['confirm', { payment_intent_id: id }],
    ['authorise', { payment_intent_id: id }],
  ] as const)
    assert.equal((await svc.api('POST', `/v1/payment_intents/${step}`, { token: key, json: body })).status, 200, step);
  return { id, visitor: created.visitor! };
}

describe("the demo's POST /api/verify", () => {
  test("another visitor's intent is absent: no verify result, no personal data", async () => {
    const { id } = await paidIntentOfNewVisitor();
    const stranger = await post('/api/verify', { payment_intent_id: id });
    assert.equal(stranger.status, 404, JSON.stringify(stranger.body));
    assert.equal(stranger.body.auth, undefined);
    assert.doesNotMatch(JSON.stringify(stranger.body), /@example/);
    const other = await paidIntentOfNewVisitor();
    const crossed = await post('/api/verify', { payment_intent_id: id }, other.visitor);
    assert.equal(crossed.status, 404, 'a visitor with intents of its own still cannot verify another one');
  });

  test("the visitor's own intent is verified with every personal field redacted", async () => {
    const { id, visitor } = await paidIntentOfNewVisitor();
    const own = await post('/api/verify', { payment_intent_id: id }, visitor);
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.status, 'success');
    assert.equal(own.body.fulfil, true);
    assert.equal(own.body.auth.email, '[redacted]');
    assert.deepEqual([...own.body.auth.redacted].sort(), ['address', 'email', 'name', 'postcode']);
    assert.doesNotMatch(JSON.stringify(own.body), /ada@example\.com/);
  });
});
