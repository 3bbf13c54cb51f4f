/**
 * The demo shop's order page reads a paid order's verify answer, then its refunds: two requests to
 * the service. A refund that settles between them (card 4000 0000 0000 5126: pending, then failed)
 * must not show as failed beside an amount that still counts it, with no Refund form. A fresh-clone
 * CI run caught that state (the end-to-end refund test read 3250 refunded beside a failed refund).
 *
 * Here the settlement is put exactly between the two reads: the demo talks to the service through a
 * loopback relay that, once armed, moves the service's clock past the refund's outcome and settles it
 * before passing on the refunds list request.
 */
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startDemo } from '../../demo/server.ts';
import { PENDING_REFUND_SECONDS } from '../../server/payments/test-cards.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';
import { futureYear } from './payments-fixtures.ts';

const clock = new ManualClock();
let svc: TestService;
let relay: Server;
let demo: Awaited<ReturnType<typeof startDemo>>;
let demoUrl: string;
/** Set: the next refunds list request waits for every due refund to settle, then goes on. */
let settleBeforeNextList = false;

before(async () => {
  svc = await startTestService({}, clock);
  const target = new URL(svc.url);
  relay = createServer(async (incoming: IncomingMessage, answer: ServerResponse) => {
    if (settleBeforeNextList && incoming.method === 'GET' && incoming.url?.startsWith('/v1/refunds?')) {
      settleBeforeNextList = false;
      clock.advance(PENDING_REFUND_SECONDS);
      assert.equal(await svc.services.payments.settleDueRefunds(), 1, 'the pending refund settles between the two reads');
    }
    const onward = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (back) => {
      answer.writeHead(back.statusCode!, back.headers);
      back.pipe(answer);
    });
    incoming.pipe(onward);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  demo = await startDemo({ port: 0, credentials: { ...svc.credentials, serviceUrl: relayUrl } });
  demoUrl = `http://127.0.0.1:${(demo.server.address() as AddressInfo).port}`;
});
after(async () => {
  demo.server.closeAllConnections();
  await new Promise((resolve) => demo.server.close(resolve));
  relay.closeAllConnections();
  await new Promise((resolve) => relay.close(resolve));
  await svc.close();
});

/** A request to the demo as the visitor of `cookie`; redirects are answers, not followed. */
async function visit(method: 'GET' | 'POST', path: string, cookie?: string, form?: Record<string, string>) {
  const response = await fetch(demoUrl + path, {
    method,
    redirect: 'manual',
    headers: { ...(cookie && { cookie }), ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
    body: form && new URLSearchParams(form).toString(),
  });
  const set = /demo_visitor=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  return { status: response.status, location: response.headers.get('location') ?? '', text: await response.text(), cookie: set ?? cookie };
}

test('a refund that settles failed between the order page\'s two reads: failed, nothing counted as refunded, refundable again', async () => {
  const added = await visit('POST', '/basket/add', undefined, { product: 'notebook' });
  const cookie = added.cookie!;
  const session = JSON.parse((await visit('POST', '/shop/intent?method=card', cookie)).text) as { paymentIntentId: string };
  const key = svc.credentials.licenceKey;
  const card = { number: '4000000000005126', exp_month: '12', exp_year: futureYear, cvc: '123', name: 'Ada Lovelace' };
  const token = (await svc.api('POST', '/v1/tokens', { token: key, json: { card } })).body.data.cp_card_token;
  for (const [step, body] of [['attach', { token }], ['confirm', {}], ['authorise', {}]] as const)
    assert.equal((await svc.api('POST', `/v1/payment_intents/${step}`, { token: key, json: { payment_intent_id: session.paymentIntentId, ...body } })).status, 200, step);
  const order = (await visit('GET', `/order?payment_intent=${session.paymentIntentId}`, cookie)).location;
  assert.match(order, /^\/orders\/ORD-/);

  const refunded = await visit('POST', `${order}/refund`, cookie, { amount: '' });
  assert.match(decodeURIComponent(refunded.location), /\?refund=850:pending#/);

  settleBeforeNextList = true;
  const page = (await visit('GET', order, cookie)).text;
  assert.equal(settleBeforeNextList, false, 'the relay settled the refund');
  assert.deepEqual([...page.matchAll(/<tr data-refund="[^"]+" data-status="(\w+)"/g)].map((m) => m[1]), ['failed']);
  assert.equal(/id="refunded" data-refunded="(\d+)"/.exec(page)?.[1], '0', 'a failed refund is not counted as refunded');
  assert.match(page, /id="refund"/, 'the amount is refundable again: the Refund form is back');
  assert.match(page, /id="refund-amount"[^>]*value="8\.50"/);
});
