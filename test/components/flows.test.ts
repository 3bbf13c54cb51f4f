/**
 * <cpe-payment-flow> and <cpe-verify-flow> against the REAL service and its real flow frame (another
 * origin): the shopper types with the keyboard and presses the frame's own button (Enter in a field),
 * and every step goes through the real routes.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { ElementsController, type CpePaymentFlow, type SdkError } from '../../components/index.ts';
import type { MiddlewareRoutes } from '../../protocol/schemas/elements-options.ts';
import { inFrame, payWithKeyboard, recordEvents, recordingFetch, patientHandshake } from './helpers.ts';

let config: { serviceUrl: string; publicKey: string };
const intent = (query = '') => async () => (await fetch(`/__cpe/intent${query}`, { method: 'POST' })).json();
const controllerOf = (middleware: MiddlewareRoutes = {}, query = '', send?: typeof fetch) =>
  new ElementsController(config.serviceUrl, config.publicKey, intent(query), middleware, undefined, { fetch: send, handshakeTimer: patientHandshake });

async function mountFlow(controller = controllerOf(), options: Parameters<ElementsController['paymentFlow']>[0] = {}, verify = false) {
  const target = await fixture<HTMLDivElement>(html`<div style="width: 480px"></div>`);
  const flow = (verify ? controller.verifyFlow : controller.paymentFlow).call(controller, { element: target, layout: 'stack', ...options }) as CpePaymentFlow;
  const events = recordEvents(flow);
  await flow.init();
  await flow.awaitReady();
  return { flow, events, controller };
}

/** The flow frame's address parameters (the frame renders its button from them and from its config). */
const params = (flow: CpePaymentFlow) => Object.fromEntries(new URL(flow.shadowRoot!.querySelector('iframe')!.src).searchParams);


const names = (events: { name: string }[]) => events.map((e) => e.name).filter((n) => n !== 'cpe:change' && n !== 'cpe:ready');
const ended = (events: { name: string }[]) => waitUntil(() => events.some((e) => e.name === 'cpe:payment:end'), 'no end');
/** The last authorise's answer; without one, the error that ended the attempt, named (a failure says why). */
const authorised = (events: { name: string; detail: any }[]) => {
  const end = events.findLast((e) => e.name === 'cpe:authorise:end');
  if (end) return end.detail;
  throw new Error(`no cpe:authorise:end; the events: ${JSON.stringify(events.filter((e) => e.name !== 'cpe:change').map((e) => [e.name, e.detail]))}`);
};
const backend = async (id: string) => (await fetch(`/__cpe/intent/${id}`)).json();
const service = (path: string, session: { sessionToken: string }) =>
  fetch(`${config.serviceUrl}${path}`, { headers: { 'X-CPE-Public-Key': config.publicKey, 'X-CPE-Session-Token': session.sessionToken } }).then((r) => r.json());

describe('payment flow with the real service and flow frame', function () {
  before(async () => {
    config = await (await fetch('/__cpe/config')).json();
  });

  it('the frame is the flow frame of the element\'s language (it formats "Pay £12.34" / "Payer 12,34 £" from the session)', async () => {
    const en = await mountFlow();
    expect(params(en.flow)).to.include({ flow: 'pay', lang: 'en', layout: 'stack' });
    expect(new URL(en.flow.shadowRoot!.querySelector('iframe')!.src).pathname).to.equal('/frames/flow/');
    const fr = await mountFlow(controllerOf(), { language: 'fr' });
    expect(params(fr.flow)).to.include({ flow: 'pay', lang: 'fr' });
    expect(en.flow.shadowRoot!.querySelector('iframe')!.title).to.equal('Card payment');
  });

  it('paid: tokenise, attach, confirm, authorise via the session route; the card element\'s events, in order', async () => {
    const { flow, events, controller } = await mountFlow();
    await payWithKeyboard(flow, '4242424242424242');
    await ended(events);
    expect(names(events)).to.deep.equal([
      'cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:attach:end', 'cpe:confirm:start', 'cpe:confirm:end', 'cpe:authorise:start', 'cpe:authorise:end', 'cpe:payment:end',
    ]);
    expect(authorised(events)).to.include({ authorised: true, success: true });
    const view = await service('/intent', controller.current!);
    expect(view.status).to.equal('succeeded');
  });

  it('through middleware.authorise and middleware.verifyAuth', async () => {
    const mw: MiddlewareRoutes = { authorise: '/__cpe/mw/authorise', verifyAuth: '/__cpe/mw/verify-auth' };
    const requests = recordingFetch();
    const { flow, events } = await mountFlow(controllerOf(mw, '', requests.fetch));
    await payWithKeyboard(flow, '4242424242424242');
    await ended(events);
    expect(authorised(events)).to.include({ success: true });
    expect(requests.paths).to.include.members(['/__cpe/mw/authorise', '/__cpe/mw/verify-auth']);
    expect(requests.paths).not.to.include('/intent/authorise');
  });

  it('declined, then Try again: a second attempt on the same intent and session, with a new 3-D Secure transaction', async () => {
    const { flow, events, controller } = await mountFlow();
    await payWithKeyboard(flow, '4000000000000002');
    await ended(events);
    expect(authorised(events)).to.include({ success: false });
    expect(events.find((e) => e.name === 'cpe:error')!.detail.operation).to.equal('authorise');
    const session = controller.current!;
    // Try again has the focus (the shopper pressed the button in the frame): Enter presses it.
    await inFrame('/frames/flow/', 'button.retry', 'focused');
    await sendKeys({ press: 'Enter' });
    await inFrame('/frames/flow/', 'button.retry', 'absent');
    events.length = 0;
    await payWithKeyboard(flow, '4242424242424242');
    await ended(events);
    expect(authorised(events)).to.include({ success: true });
    expect(controller.current).to.equal(session);
    const pi = await backend(session.paymentIntentId);
    expect(pi.attempts.map((a: { outcome: string }) => a.outcome)).to.deep.equal(['declined', 'authorised']);
    expect(pi.attempts[0].three_ds_transaction_id).not.to.equal(pi.attempts[1].three_ds_transaction_id);
  });

  it('a 3-D Secure challenge opens in the same modal; completed, then authorised', async () => {
    const { flow, events } = await mountFlow();
    await payWithKeyboard(flow, '4000000000003220');
    await waitUntil(() => flow.shadowRoot!.querySelector('dialog')?.open, 'no dialog');
    // Its buttons are enabled once the page is ready for them.
    await inFrame('/frames/challenge', 'button[value="complete"]', 'enabled');
    await sendKeys({ press: 'Tab' });
    await inFrame('/frames/challenge', 'button[value="complete"]', 'focused');
    await sendKeys({ press: 'Enter' });
    await ended(events);
    expect(names(events)).to.deep.equal([
      'cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:attach:end', 'cpe:confirm:start', 'cpe:challenge:start', 'cpe:challenge:end', 'cpe:confirm:end', 'cpe:authorise:start', 'cpe:authorise:end', 'cpe:payment:end',
    ]);
    expect(authorised(events)).to.include({ success: true });
  });

  it('a failed attach stops before confirm and shows the service\'s reason', async () => {
    const { flow, events, controller } = await mountFlow();
    await payWithKeyboard(flow, '4000000000000127');
    await waitUntil(() => events.some((e) => e.name === 'cpe:payment:end'), 'no end');
    // The frame shows the failure (and Try again) once the SDK is done with this attempt.
    await inFrame('/frames/flow/', 'button.retry', 'present');
    expect(names(events)).to.deep.equal(['cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:error', 'cpe:attach:end', 'cpe:payment:end']);
    expect(events.find((e) => e.name === 'cpe:error')!.detail.operation).to.equal('attach');
    const pi = await backend(controller.current!.paymentIntentId);
    expect(pi.status).to.equal('requires_payment_method');
  });

  it('two Flows with their own identifiers on one controller; the same identifier twice is an SdkError saying so', async () => {
    const controller = controllerOf();
    const a = await mountFlow(controller, { identifier: 'flow_one' });
    const b = await mountFlow(controller, { identifier: 'flow_two' });
    expect(a.flow.shadowRoot!.querySelector('iframe')).to.exist;
    expect(b.flow.shadowRoot!.querySelector('iframe')).to.exist;
    let error: SdkError | undefined;
    try {
      controller.paymentFlow({ element: document.body, identifier: 'flow_one' });
    } catch (e) {
      error = e as SdkError;
    }
    expect(error?.name).to.equal('SdkError');
    expect(error?.message).to.contain('"flow_one"').and.contain('already used');
    expect(() => controller.paymentFlow({ element: document.body })).not.to.throw();
    expect(() => controller.verifyFlow({ element: document.body })).not.to.throw();
    expect(() => controller.paymentFlow({ element: document.body })).to.throw(/default_payment_flow/);
  });

  it('verify flow: "Verify Card" on a purpose verify intent; authorised without moving money', async () => {
    const { flow, events, controller } = await mountFlow(controllerOf({}, '?purpose=verify'), {}, true);
    expect(flow.localName).to.equal('cpe-verify-flow');
    expect(params(flow)).to.include({ flow: 'verify' });
    await payWithKeyboard(flow, '4242424242424242');
    await ended(events);
    expect(authorised(events)).to.include({ success: true });
    const pi = await backend(controller.current!.paymentIntentId);
    expect(pi).to.include({ amount: 0, purpose: 'verify' });
  });
});
