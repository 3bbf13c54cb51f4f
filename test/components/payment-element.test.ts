/**
 * <cpe-payment> against the REAL service (its payment frame): each method's availability with its
 * reason, the options as attributes and properties. Paying with it runs in test/e2e/payment-element.test.ts.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { ElementsController, type CpePayment } from '../../components/index.ts';
import { recordEvents, patientHandshake } from './helpers.ts';

let config: { serviceUrl: string; publicKey: string };
const createServerIntent = async () => (await fetch('/__cpe/intent', { method: 'POST' })).json();
const target = () => fixture<HTMLDivElement>(html`<div style="width: 480px"></div>`);

describe('<cpe-payment>', function () {
  before(async () => {
    config = await (await fetch('/__cpe/config')).json();
  });

  it('live keys: a wallet not available here is left out, its cpe:availability naming the method and why; with none left, nothing renders', async () => {
    const element: CpePayment = new ElementsController(config.serviceUrl, 'pk_live_wtr_unknown', createServerIntent).paymentElement({ element: await target(), methods: ['wallet-a', 'wallet-b'] });
    const events = recordEvents(element);
    await element.init();
    expect(await element.availability).to.deep.equal({
      card: { available: false },
      'wallet-a': { available: false, reason: 'unsupported_browser' },
      'wallet-b': { available: false, reason: 'unsupported_browser' },
    });
    expect(events.filter((e) => e.name === 'cpe:availability').map((e) => e.detail)).to.deep.equal([
      { method: 'wallet-a', available: false, reason: 'unsupported_browser' },
      { method: 'wallet-b', available: false, reason: 'unsupported_browser' },
    ]);
    expect(element.shadowRoot!.querySelector('iframe')).to.equal(null);
  });

  it('test keys: every method asked for is offered, in the page\'s order, in the frame\'s address; the card is always there', async () => {
    const element = new ElementsController(config.serviceUrl, config.publicKey, createServerIntent, {}, undefined, { handshakeTimer: patientHandshake }).paymentElement({ element: await target(), methods: ['wallet-b', 'card'] });
    await element.init();
    await element.awaitReady();
    expect(await element.availability).to.deep.equal({ card: { available: true }, 'wallet-a': { available: false }, 'wallet-b': { available: true } });
    // In the page's order; the frame draws them from its first render (its hello's height is its final one).
    expect(new URL(element.shadowRoot!.querySelector('iframe')!.src).searchParams.get('methods')).to.equal('wallet-b,card');
  });

  it('options as attributes and properties: methods space-separated, pay-button="false"; a bad method is an SdkError naming it', async () => {
    const element = await fixture<CpePayment>(html`<cpe-payment methods="card wallet-a" pay-button="false"></cpe-payment>`);
    expect(element.methods).to.deep.equal(['card', 'wallet-a']);
    expect(element.payButton).to.equal(false);
    element.methods = ['wallet-b', 'card'];
    expect(element.getAttribute('methods')).to.equal('wallet-b,card');
    expect(() => (element.methods = ['cash'] as never)).to.throw(/"methods"/);
    expect(new ElementsController(config.serviceUrl, config.publicKey, createServerIntent).paymentElement({}).layout).to.equal('stack');
  });
});
