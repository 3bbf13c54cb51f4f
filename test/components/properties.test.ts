/**
 * Every option of every element is a property of the same name in camelCase that reflects its
 * attribute, reads its default while unset, re-renders the frame when set, and refuses a bad value
 * with the factory's SdkError (fake frames: test/components/fixtures/fake-frame.ts).
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { CpeCard, CpeCardFields, CpeElements, CpePaymentFlow, CpeVerifyFlow, CpeWalletA, CpeWalletB } from '../../components/index.ts';
import { container, fakeController, fakeRoute, fakeSession, frameScript, iframesIn, thrown } from './helpers.ts';

/** The frame's address parameters (none while it mounts again). */
const params = (el: HTMLElement): Record<string, string> => {
  const iframe = el.shadowRoot!.querySelector('iframe');
  return iframe ? Object.fromEntries(new URL(iframe.src).searchParams) : {};
};
const attributes = (el: Element) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]));

describe('options as properties', () => {
  beforeEach(() => frameScript());

  it('every tag has a property per attribute (camelCase), and reads its defaults', () => {
    const expected: [{ prototype: object; name: string }, string[]][] = [
      [CpeCard, ['layout', 'language', 'theme', 'identifier', 'cardSchemesDisplay', 'width', 'height']],
      [CpeCardFields, ['language', 'theme', 'identifier', 'cardSchemesDisplay', 'width', 'height']],
      [CpePaymentFlow, ['layout', 'language', 'theme', 'identifier', 'cardSchemesDisplay', 'width', 'height']],
      [CpeVerifyFlow, ['layout', 'language', 'theme', 'identifier', 'cardSchemesDisplay', 'width', 'height']],
      [CpeWalletA, ['identifier', 'total', 'appearance']],
      [CpeWalletB, ['identifier', 'environment', 'merchantId', 'merchantName', 'total', 'appearance', 'allowCreditCards']],
      [CpeElements, ['pubKey', 'intentUrl', 'attachUrl', 'confirmUrl', 'authoriseUrl', 'verifyAuthUrl', 'exchangeUrl', 'amount', 'currency', 'reference']],
    ];
    for (const [element, names] of expected)
      for (const name of names) expect(Object.getOwnPropertyDescriptor(element.prototype, name)?.set, `${element.name}.${name}`).to.be.a('function');

    const card = document.createElement('cpe-card');
    expect([card.layout, card.language, card.theme, card.cardSchemesDisplay, card.identifier, card.width, card.height]).to.deep.equal(['row', 'en', 'auto', 'detected', undefined, undefined, undefined]);
    expect(document.createElement('cpe-payment-flow').layout).to.equal('stack');
    expect(document.createElement('cpe-payment-flow').identifier).to.equal('default_payment_flow');
    expect(document.createElement('cpe-verify-flow').identifier).to.equal('default_verify_flow');
    expect(document.createElement('cpe-wallet-a').appearance).to.deep.equal({ type: 'plain', style: 'dark' });
    expect(document.createElement('cpe-elements').pubKey).to.equal(undefined);
  });

  it("a factory's element reflects its options to attributes; a Flow's identifier reads back its default", async () => {
    const c = fakeController();
    const card = c.cardElement({ element: await container(), layout: 'stack', language: 'fr', width: 320, height: 240, cardSchemesDisplay: 'all', identifier: 'c1' });
    expect(attributes(card)).to.deep.equal({ layout: 'stack', language: 'fr', width: '320', height: '240', 'card-schemes-display': 'all', identifier: 'c1' });
    expect([card.layout, card.language, card.width, card.height, card.cardSchemesDisplay, card.identifier, card.theme]).to.deep.equal(['stack', 'fr', 320, 240, 'all', 'c1', 'auto']);
    expect(c.paymentFlow().identifier).to.equal('default_payment_flow');
    expect(c.verifyFlow().identifier).to.equal('default_verify_flow');
    expect(c.paymentFlow({ identifier: 'second' }).getAttribute('identifier')).to.equal('second');

    const wallet = c.walletA({ total: { amount: 1234, label: 'Order 42' }, appearance: { type: 'buy' } });
    expect(attributes(wallet)).to.deep.equal({ 'total-amount': '1234', 'total-label': 'Order 42', 'appearance-type': 'buy' });
    expect(wallet.total).to.deep.equal({ amount: 1234, label: 'Order 42' });
    const b = c.walletB({ merchantId: '42', merchantName: 'Shop', allowCreditCards: false, emailAddressRequired: true });
    expect(attributes(b)).to.deep.include({ 'merchant-id': '42', 'merchant-name': 'Shop', 'allow-credit-cards': 'false', 'email-address-required': 'true' });
    expect([b.merchantId, b.allowCreditCards, b.emailAddressRequired, b.allowPrepaidCards]).to.deep.equal(['42', false, true, undefined]);
  });

  it('setting a property re-renders the frame with it (factory and HTML); null removes the attribute and the default returns', async function () {
    // The file's first frames: the dev server compiles the fake frame's modules (slow on a loaded machine).
    const card = fakeController().cardElement({ element: await container() });
    await card.init();
    await card.awaitReady();
    const first = card.shadowRoot!.querySelector('iframe')!;
    expect(params(card)).to.include({ layout: 'row', lang: 'en' });
    card.layout = 'column';
    card.language = 'de';
    expect(card.getAttribute('layout')).to.equal('column');
    await waitUntil(() => card.shadowRoot!.querySelector('iframe') !== first, 'no new frame');
    await card.awaitReady();
    expect(iframesIn(card.shadowRoot!)).to.have.length(1);
    expect(params(card)).to.include({ layout: 'column', lang: 'de' });
    card.layout = null as never;
    expect(card.hasAttribute('layout')).to.equal(false);
    expect(card.layout).to.equal('row');

    const html_ = await fixture<CpeCard>(html`<cpe-card></cpe-card>`);
    html_.controller = fakeController();
    await html_.awaitReady();
    html_.theme = 'dark';
    await waitUntil(() => params(html_).theme === 'dark', 'not re-rendered');
    expect(html_.getAttribute('theme')).to.equal('dark');
  });

  it('a wallet object option is two attributes; setting it replaces both', async () => {
    const wallet = document.createElement('cpe-wallet-a');
    wallet.total = { amount: 500, label: 'Tip' };
    wallet.appearance = { type: 'tip', style: 'white' };
    expect(attributes(wallet)).to.deep.equal({ 'total-amount': '500', 'total-label': 'Tip', 'appearance-type': 'tip', 'appearance-style': 'white' });
    wallet.total = { amount: 700 };
    expect(attributes(wallet)).to.not.have.property('total-label');
    expect(wallet.total).to.deep.equal({ amount: 700, label: undefined });
    wallet.total = undefined;
    expect(wallet.hasAttribute('total-amount')).to.equal(false);
  });

  it("an invalid value set as a property throws the factory's SdkError and changes nothing", async () => {
    const c = fakeController();
    const card = c.cardElement({ element: await container(), layout: 'stack' });
    const factory = thrown(() => c.cardElement({ layout: 'grid' as never }));
    const property = thrown(() => (card.layout = 'grid' as never));
    expect(property.code).to.equal('invalid_options');
    expect(property.option).to.equal('layout');
    expect(property.message).to.equal(factory.message);
    expect(card.getAttribute('layout')).to.equal('stack');
    expect(thrown(() => (card.height = -5)).option).to.equal('height');
    expect(thrown(() => (card.language = 'not a language')).option).to.equal('language');

    // In HTML the message names the tag; another required option missing (wallet B's merchant) is for init to say.
    const b = document.createElement('cpe-wallet-b');
    expect(thrown(() => (b.total = { amount: 12.5 })).message).to.match(/^<cpe-wallet-b>: option "total.amount" must be a whole number/);
    expect(thrown(() => (b.environment = 'LIVE' as never)).option).to.equal('environment');
    b.environment = 'TEST';
    expect(b.getAttribute('environment')).to.equal('TEST');
  });

  it('a Flow renamed through its property frees its identifier; taking one in use is the factory\'s SdkError', () => {
    const c = fakeController();
    const first = c.paymentFlow();
    const second = c.paymentFlow({ identifier: 'second' });
    const error = thrown(() => (second.identifier = 'default_payment_flow'));
    expect(error.option).to.equal('identifier');
    expect(error.message).to.contain('already used by another Flow');
    expect(second.identifier).to.equal('second');
    first.identifier = 'first';
    second.identifier = 'default_payment_flow';
    expect(() => c.paymentFlow({ identifier: 'second' })).not.to.throw();
  });

  it('a property set before the tag was defined (a framework) is taken up when connected', async () => {
    const card = document.createElement('cpe-card');
    // What a framework leaves on an element created before the SDK loaded: an own property hiding the accessor.
    Object.defineProperty(card, 'layout', { value: 'stack', writable: true, configurable: true, enumerable: true });
    (await container()).append(card);
    expect(Object.hasOwn(card, 'layout')).to.equal(false);
    expect(card.getAttribute('layout')).to.equal('stack');
  });
});

describe('<cpe-elements> properties', () => {
  beforeEach(() => frameScript());

  it('reflect their attributes; a bad value throws the SdkError createElements would; amount is a number', () => {
    const el = document.createElement('cpe-elements');
    el.pubKey = 'pk_test_x';
    el.intentUrl = '/api/intent';
    el.verifyAuthUrl = '/api/cpe/verify-auth';
    el.amount = 1234;
    expect(attributes(el)).to.deep.equal({ 'pub-key': 'pk_test_x', 'intent-url': '/api/intent', 'verify-auth-url': '/api/cpe/verify-auth', amount: '1234' });
    expect(el.amount).to.equal(1234);
    const licence = thrown(() => (el.pubKey = 'sk_test_secret'));
    expect(licence.message).to.contain('licence key');
    expect(licence.message).not.to.contain('sk_test_secret');
    expect(thrown(() => (el.attachUrl = 'https://evil.example/attach')).option).to.equal('middleware.attach');
    expect(thrown(() => (el.intentUrl = '//evil.example/intent')).option).to.equal('intent-url');
    expect(thrown(() => (el.amount = 12.5)).option).to.equal('context.amount');
    expect(el.getAttribute('pub-key')).to.equal('pk_test_x');
    // Checkout Context's other half may come next: a property alone is not refused for it.
    el.exchangeUrl = '/api/cpe/exchange';
  });

  it('a change after the controller exists makes a new one, and the elements inside mount again with it', async () => {
    const intent = await fakeRoute(fakeSession);
    const provider = await fixture<CpeElements>(html`<cpe-elements pub-key="pk_test_fake" intent-url=${intent.url}><cpe-card></cpe-card></cpe-elements>`);
    const card = provider.querySelector('cpe-card')!;
    await card.awaitReady();
    const first = { controller: provider.controller, frame: card.shadowRoot!.querySelector('iframe') };
    const ready = oneEvent(provider, 'cpe-elements:ready');
    provider.attachUrl = '/shop/attach';
    provider.confirmUrl = '/shop/confirm';
    const { detail } = await ready;
    expect(detail.controller).to.equal(provider.controller);
    expect(provider.controller).not.to.equal(first.controller);
    expect(provider.controller!.middleware).to.deep.equal({ attach: '/shop/attach', confirm: '/shop/confirm' });
    await waitUntil(() => card.shadowRoot!.querySelector('iframe') !== first.frame, 'the card did not mount again');
    await card.awaitReady();
    expect(card.controller).to.equal(provider.controller);
    expect(iframesIn(card.shadowRoot!)).to.have.length(1);
  });

  it('an invalid attribute set in HTML emits cpe:error (not a throw); fixing it through the property makes the controller', async () => {
    const el = document.createElement('cpe-elements');
    el.setAttribute('intent-url', '/shop/intent');
    const heard = oneEvent(el, 'cpe:error');
    (await container()).append(el);
    expect((await heard).detail).to.include({ code: 'invalid_options', operation: 'init' });
    expect(el.controller).to.equal(undefined);
    const ready = oneEvent(el, 'cpe-elements:ready');
    el.pubKey = 'pk_test_fake';
    await ready;
    expect(el.controller!.pubKey).to.equal('pk_test_fake');
  });
});
