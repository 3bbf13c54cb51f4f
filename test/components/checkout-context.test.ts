/**
 * Checkout Context against the REAL service: elements mount and become ready with no Payment Intent;
 * the shopper's commit exchanges the context at `middleware.exchange` (cpeMiddleware's exchange, which
 * prices every basket £12.34 in web-test-runner.config.mjs); a disagreement charges nothing.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { ElementsController, type CpeElements } from '../../components/index.ts';
import type { CheckoutContext, MiddlewareRoutes } from '../../protocol/schemas/elements-options.ts';
import { makeController } from '../../components/controller.ts';
import { patientHandshake, payWithKeyboard, recordEvents } from './helpers.ts';

let config: { serviceUrl: string; publicKey: string };
const basket: CheckoutContext = { amount: 1234, currency: 'GBP', reference: 'b42' };

/** A fetch for the controller that records its requests (path, headers, body), then sends them. */
function spy() {
  const calls: { path: string; headers: Record<string, string>; body: any }[] = [];
  const send: typeof fetch = (input, init) => {
    // The SDK's key check before a mount is not one of the requests Checkout Context makes.
    if (String(input).includes('/v1/public_keys/')) return fetch(input, init);
    calls.push({ path: new URL(String(input), location.href).pathname, headers: Object.fromEntries(new Headers(init?.headers).entries()), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return fetch(input, init);
  };
  return { calls, fetch: send };
}

async function mount(context = basket, middleware: MiddlewareRoutes = { exchange: '/__cpe/mw/exchange' }) {
  const controller = new ElementsController(config.serviceUrl, config.publicKey, undefined, middleware, context, { fetch: requests.fetch, handshakeTimer: patientHandshake });
  const flow = controller.paymentFlow({ element: await fixture<HTMLDivElement>(html`<div style="width: 480px"></div>`) });
  const wallet = controller.walletA({ element: await fixture<HTMLDivElement>(html`<div style="width: 320px"></div>`) });
  const events = recordEvents(flow);
  await Promise.all([flow.init(), wallet.init()]);
  await Promise.all([flow.awaitReady(), wallet.awaitReady()]);
  return { controller, flow, wallet, events };
}


let requests: ReturnType<typeof spy>;

describe('Checkout Context with the real service', function () {
  before(async () => {
    config = await (await fetch('/__cpe/config')).json();
  });
  beforeEach(() => (requests = spy()));

  it('createElements: createServerIntent may be omitted only with middleware.exchange and context', () => {
    expect(() => makeController({ pubKey: 'pk_test_x', middleware: { exchange: '/x' }, context: basket }, config.serviceUrl)).not.to.throw();
    expect(() => makeController({ pubKey: 'pk_test_x', middleware: { exchange: '/x' } }, config.serviceUrl)).to.throw(/createServerIntent/);
    expect(() => makeController({ pubKey: 'pk_test_x', middleware: { exchange: '/x' }, context: { amount: 12.5, currency: 'GBP' } }, config.serviceUrl)).to.throw(/"context.amount"/);
    expect(() => makeController({ pubKey: 'pk_test_x', middleware: { exchange: '/x' }, context: { amount: 1, currency: 'pounds' } }, config.serviceUrl)).to.throw(/"context.currency"/);
  });

  it('half of Checkout Context, or two sources of the intent, is an SdkError saying what to set (never one silently ignored)', async () => {
    const thrown = (options: object) => {
      try {
        makeController({ pubKey: 'pk_test_x', ...options }, config.serviceUrl);
      } catch (error) {
        return error as { code: string; option: string; message: string };
      }
      throw new Error('no error');
    };
    const createServerIntent = async () => ({ paymentIntentId: 'pi', sessionToken: 'st', opaqueKey: 'ok' });
    // middleware.exchange without context: today's silent fallback to createServerIntent.
    const noContext = thrown({ createServerIntent, middleware: { exchange: '/x' } });
    expect(noContext).to.include({ code: 'invalid_options', option: 'context' });
    expect(noContext.message).to.contain('option "middleware.exchange" needs option "context" { amount, currency, reference? }');
    expect(thrown({ createServerIntent, context: basket })).to.include({ option: 'middleware.exchange' });
    expect(thrown({ createServerIntent, middleware: { exchange: '/x' }, context: basket })).to.include({ option: 'createServerIntent' });
    // In HTML: exchange-url with intent-url and no amount is the same error, as cpe:error from the provider.
    const el = document.createElement('cpe-elements');
    el.setAttribute('pub-key', 'pk_test_x');
    el.setAttribute('intent-url', '/__cpe/intent');
    el.setAttribute('exchange-url', '/__cpe/mw/exchange');
    const heard = new Promise<CustomEvent>((resolve) => el.addEventListener('cpe:error', (e) => resolve(e as CustomEvent), { once: true }));
    (await fixture<HTMLDivElement>(html`<div></div>`)).append(el);
    const { detail } = await heard;
    expect(detail.message).to.match(/^<cpe-elements>: option "middleware.exchange" needs option "context"/);
    expect(el.controller).to.equal(undefined);
  });

  it('a Flow and a wallet mount and become ready with no intent; the Flow shows the context\'s amount', async () => {
    const { controller, flow, wallet } = await mount();
    expect(controller.current).to.equal(undefined);
    expect(requests.calls.filter((c) => !c.path.startsWith('/frames'))).to.deep.equal([]);
    const src = new URL(flow.shadowRoot!.querySelector('iframe')!.src);
    expect(src.searchParams.has('ok')).to.equal(false);
    expect(flow.frameConfig().extra).to.deep.equal({ identifier: 'default_payment_flow', amount: 1234, currency: 'GBP' });
    expect(await wallet.availability).to.deep.equal({ available: true });
  });

  it('the commit (the Flow\'s Pay) exchanges the context once, with an idempotency key; the mounted elements go on with that intent', async () => {
    const { controller, flow, events } = await mount();
    await payWithKeyboard(flow);
    await waitUntil(() => events.some((e) => e.name === 'cpe:authorise:end' || e.name === 'cpe:error'), 'no end');
    expect(events.find((e) => e.name === 'cpe:error')).to.equal(undefined);
    const exchanges = requests.calls.filter((c) => c.path === '/__cpe/mw/exchange');
    expect(exchanges).to.have.length(1);
    expect(exchanges[0]!.body).to.deep.equal({ context: { ...basket, identifier: 'default_payment_flow' } });
    expect(exchanges[0]!.headers['x-idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
    const pi = await (await fetch(`/__cpe/intent/${controller.current!.paymentIntentId}`)).json();
    expect(pi.status).to.equal('succeeded');
    expect(pi.identifier).to.match(/^wtr-basket-b42-/);
    expect(flow.shadowRoot!.querySelectorAll('iframe')).to.have.length(1);
  });

  it('the backend refuses a context that is not the basket\'s price (409 context_mismatch): cpe:error, nothing charged', async () => {
    const { controller, flow, events } = await mount({ amount: 999, currency: 'GBP' });
    await payWithKeyboard(flow);
    await waitUntil(() => events.some((e) => e.name === 'cpe:error'), 'no cpe:error');
    expect(events.find((e) => e.name === 'cpe:error')!.detail.code).to.equal('context_mismatch');
    expect(controller.current).to.equal(undefined);
    expect(requests.calls.some((c) => /attach|confirm|authorise/.test(c.path))).to.equal(false);
  });

  it('an exchange answering an intent that disagrees with what was shown: cpe:error context_mismatch, nothing charged', async () => {
    // This "exchange" ignores the context and creates £12.34: the SDK checks the intent itself.
    const { controller, flow, events } = await mount({ amount: 500, currency: 'EUR' }, { exchange: '/__cpe/intent' });
    await payWithKeyboard(flow);
    await waitUntil(() => events.some((e) => e.name === 'cpe:error'), 'no cpe:error');
    const error = events.find((e) => e.name === 'cpe:error')!.detail;
    expect(error.code).to.equal('context_mismatch');
    expect(error.message).to.contain('nothing was charged');
    expect(controller.current).to.equal(undefined);
    expect(requests.calls.some((c) => /attach|confirm|authorise/.test(c.path))).to.equal(false);
  });

  it('<cpe-elements exchange-url amount currency reference>: the provider\'s controller has the context and no intent', async () => {
    const el = await fixture<CpeElements>(
      html`<cpe-elements pub-key="pk_test_html" exchange-url="/__cpe/mw/exchange" amount="1234" currency="GBP" reference="b42"></cpe-elements>`,
    );
    expect(el.controller!.context).to.deep.equal(basket);
    expect(el.controller!.middleware.exchange).to.equal('/__cpe/mw/exchange');
  });
});
