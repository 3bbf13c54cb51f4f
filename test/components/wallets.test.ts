/**
 * <cpe-wallet-a> and <cpe-wallet-b> against the REAL service: its wallet button frame and its wallet
 * test sheet (another origin) in the element's modal dialog, driven with the keyboard.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { ElementsController, type CpeWalletA, type CpeWalletB, type SdkError } from '../../components/index.ts';
import { WALLET_A_STYLES, WALLET_A_TYPES, WALLET_B_TYPES } from '../../protocol/wallets/buttons.ts';
import { inFrame, recordEvents, patientHandshake } from './helpers.ts';

let config: { serviceUrl: string; publicKey: string };
const createServerIntent = async () => (await fetch('/__cpe/intent', { method: 'POST' })).json();
const controllerOf = (pubKey = config.publicKey) => new ElementsController(config.serviceUrl, pubKey, createServerIntent, {}, undefined, { handshakeTimer: patientHandshake });
const target = () => fixture<HTMLDivElement>(html`<div style="width: 320px"></div>`);
const params = (el: HTMLElement) => Object.fromEntries(new URL(el.shadowRoot!.querySelector('iframe')!.src).searchParams);
const B = { environment: 'TEST', merchantId: 'wtr-merchant', merchantName: 'WTR shop' } as const;

/**
 * Presses the wallet button (focus into its frame, Enter) and waits for the sheet to arm Approve
 * (it loads, receives its session, and arms Approve once fully visible for half a second).
 */
async function press(el: HTMLElement & { focus(): void }) {
  el.focus();
  await inFrame('/frames/wallet-button/', 'button', 'focused');
  await sendKeys({ press: 'Enter' });
  await waitUntil(() => el.shadowRoot!.querySelector('dialog')?.open, 'no sheet dialog');
  await inFrame('/frames/wallet-sheet/', 'button.approve', 'enabled');
}

/** Answers the sheet: `down` ArrowDowns in the test card list (0 visa, 2 declined), then Approve. */
async function approve(down = 0) {
  await sendKeys({ press: 'Tab' });
  await inFrame('/frames/wallet-sheet/', 'input[name="card"]:checked', 'focused');
  for (let i = 0; i < down; i++) await sendKeys({ press: 'ArrowDown' });
  await sendKeys({ press: 'Tab' });
  await inFrame('/frames/wallet-sheet/', 'button.approve', 'focused');
  await sendKeys({ press: 'Enter' });
}

describe('wallets with the real service', function () {
  before(async () => {
    config = await (await fetch('/__cpe/config')).json();
  });

  it('test keys: available everywhere (availability and cpe:availability); the button frame by wallet, type and style', async () => {
    const el = controllerOf().walletA({ element: await target(), appearance: { type: 'buy', style: 'white-outline' } });
    const events = recordEvents(el);
    await el.init();
    expect(await el.availability).to.deep.equal({ available: true });
    expect(events.find((e) => e.name === 'cpe:availability')!.detail).to.deep.equal({ available: true });
    await el.awaitReady();
    expect(params(el)).to.include({ wallet: 'a', type: 'buy', style: 'white-outline' });
    expect(el.shadowRoot!.querySelector('iframe')!.title).to.equal('Wallet A');
  });

  it('every appearance renders (the frame refuses any other): 14 + 3 for A, 8 for B', async () => {
    const box = await target();
    const c = controllerOf();
    const all = [
      ...WALLET_A_TYPES.map((type) => c.walletA({ element: box, appearance: { type, style: 'dark' } })),
      ...WALLET_A_STYLES.map((style) => c.walletA({ element: box, appearance: { type: 'plain', style } })),
      ...WALLET_B_TYPES.map((type) => c.walletB({ element: box, ...B, appearance: { type, style: 'dark' } }).onTokeniseEnd(() => {}).onCancel(() => {}).onError(() => {})),
    ];
    await Promise.all(all.map((el) => el.init()));
    await Promise.all(all.map((el) => el.awaitReady()));
    expect(all.map((el) => el.shadowRoot!.querySelector('iframe.ready'))).not.to.include(null);
  });

  it('invalid options: an SdkError naming the option', () => {
    const c = controllerOf();
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as SdkError;
      }
      throw new Error('did not throw');
    };
    expect(error(() => c.walletA({ appearance: { type: 'checkout' as never } })).message).to.contain('"appearance.type"');
    expect(error(() => c.walletA({ appearance: { style: 'light' as never } })).message).to.contain('"appearance.style"');
    expect(error(() => c.walletA({ total: { amount: 12.5 } })).message).to.contain('"total.amount"');
    expect(error(() => c.walletB({ ...B, merchantName: undefined } as never)).option).to.equal('merchantName');
    expect(error(() => c.walletB({ ...B, environment: 'LIVE' as never })).option).to.equal('environment');
    expect(error(() => c.walletB({ ...B, appearance: { style: 'white' as never } })).message).to.contain('"appearance.style"');
    expect(error(() => c.walletB({ ...B, emailAddressRequired: 'yes' as never })).option).to.equal('emailAddressRequired');
  });

  it('wallet A approved: attach, confirm and authorise run by themselves; onAuthoriseStart / onAuthoriseEnd {success}', async () => {
    const c = controllerOf();
    const seen: string[] = [];
    const el = c
      .walletA({ element: await target(), total: { amount: 1234, label: 'Order' } })
      .onAuthoriseStart(() => seen.push('start'))
      .onAuthoriseEnd((e) => seen.push(`end:${e.detail.success}`));
    const events = recordEvents(el);
    await el.init();
    await el.awaitReady();
    await press(el);
    await approve(0);
    await waitUntil(() => seen.length === 2 && events.some((e) => e.name === 'cpe:payment:end'), `hooks: ${seen}`);
    expect(seen).to.deep.equal(['start', 'end:true']);
    expect(events.map((e) => e.name).filter((n) => n !== 'cpe:ready' && n !== 'cpe:availability')).to.deep.equal([
      'cpe:wallet:approved', 'cpe:attach:start', 'cpe:attach:end', 'cpe:confirm:start', 'cpe:confirm:end', 'cpe:authorise:start', 'cpe:authorise:end', 'cpe:payment:end',
    ]);
    expect(JSON.stringify(events.map((e) => e.detail))).not.to.match(/tok_/);
    expect(el.shadowRoot!.querySelector('dialog')).to.equal(null);
    const pi = await (await fetch(`/__cpe/intent/${await c.getPaymentIntentId()}`)).json();
    expect(pi.status).to.equal('succeeded');

    // Pressed again, paid: no sheet, and the page hears it is paid (never "nothing was paid").
    el.focus();
    await inFrame('/frames/wallet-button/', 'button', 'focused');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => events.filter((e) => e.name === 'cpe:payment:end').length === 2, 'no second cpe:payment:end');
    const again = events.filter((e) => e.name === 'cpe:payment:end')[1]!.detail;
    expect([again.error.code, again.error.message]).to.deep.equal(['payment_intent_paid', 'Payment complete.']);
    expect(el.shadowRoot!.querySelector('dialog')).to.equal(null);
  });

  it('wallet A declined: onAuthoriseEnd success false; pressing again pays on the same intent', async () => {
    const c = controllerOf();
    const ends: boolean[] = [];
    const el = c.walletA({ element: await target() }).onAuthoriseEnd((e) => ends.push(!!e.detail.success));
    await el.init();
    await el.awaitReady();
    await press(el);
    await approve(2);
    await waitUntil(() => ends.length === 1, 'no end');
    expect(ends).to.deep.equal([false]);
    await press(el);
    await approve(0);
    await waitUntil(() => ends.length === 2, 'no second end');
    expect(ends).to.deep.equal([false, true]);
  });

  it('cancel (Escape): cpe:wallet:cancel, not an error; the dialog closes and focus returns', async () => {
    const el = controllerOf().walletA({ element: await target() });
    const events = recordEvents(el);
    await el.init();
    await el.awaitReady();
    await press(el);
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => events.some((e) => e.name === 'cpe:wallet:cancel'), 'no cancel');
    expect(events.some((e) => e.name === 'cpe:error')).to.equal(false);
    expect(el.shadowRoot!.querySelector('dialog')).to.equal(null);
  });

  it('wallet B: hooks must be registered before init (an SdkError names the missing ones)', async () => {
    const el = controllerOf().walletB({ element: await target(), ...B }).onCancel(() => {});
    const error = await el.init().then(() => undefined, (e: SdkError) => e);
    expect(error?.name).to.equal('SdkError');
    expect(error?.message).to.contain('onTokeniseEnd').and.contain('onError').and.not.contain('onCancel');
  });

  it('wallet B: attach({}) before approval rejects (no payment data yet) with cpe:error; approved: onTokeniseEnd with what was asked, then attach({}) and confirm({})', async () => {
    const approved: any[] = [];
    const errors: string[] = [];
    // eslint-disable-next-line prefer-const
    let el: CpeWalletB;
    el = controllerOf()
      .walletB({ element: await target(), ...B, emailAddressRequired: true, billingAddressRequired: true })
      // attach({}) at once from the handler (as a page does): the payment data is there already.
      .onTokeniseEnd((e) => approved.push({ ...e.detail, attached: el.attach({}) }))
      .onCancel(() => {})
      .onError((e) => errors.push(e.detail.message));
    await el.init();
    await el.awaitReady();
    const early = await el.attach({}).then(() => undefined, (e: SdkError) => e);
    expect(early?.message).to.contain('no payment data yet');
    expect(errors[0]).to.contain('no payment data yet');
    await press(el);
    await approve(0);
    await waitUntil(() => approved.length === 1, 'no onTokeniseEnd');
    expect(approved[0]).to.include({ email: 'shopper@example.test', last4: '4242' });
    expect(approved[0].billingAddress).to.include({ postcode: 'N1 9GU' });
    expect(approved[0]).not.to.have.property('token');
    expect((await approved[0].attached).status).to.equal('requires_customer_confirmation');
    expect((await el.confirm({})).status).to.equal('requires_authorisation');
  });

  it('live keys (pk_live_…): availability is decided before any request; unsupported_browser in Chromium, nothing rendered', async () => {
    // Chromium's own answer first: its payment service starts on the first request (seconds on a
    // busy machine, once past the SDK's 5 s, which then said 'timeout'); the SDK's check is then its own.
    const probe = new PaymentRequest([{ supportedMethods: 'https://google.com/pay', data: { apiVersion: 2, apiVersionMinor: 0 } }], { total: { label: 'Total', amount: { currency: 'GBP', value: '0.00' } } });
    expect(await probe.canMakePayment()).to.equal(false);
    const c = controllerOf('pk_live_wtr_unknown');
    const box = await target();
    const a: CpeWalletA = c.walletA({ element: box });
    const b: CpeWalletB = c.walletB({ element: box, ...B }).onTokeniseEnd(() => {}).onCancel(() => {}).onError(() => {});
    const events = recordEvents(box);
    await a.init();
    await b.init();
    expect(await a.availability).to.deep.equal({ available: false, reason: 'unsupported_browser' });
    expect(await b.availability).to.deep.equal({ available: false, reason: 'unsupported_browser' });
    expect(events.filter((e) => e.name === 'cpe:availability')).to.have.length(2);
    expect(events.some((e) => e.name === 'cpe:error')).to.equal(false);
    expect(a.shadowRoot!.querySelector('iframe')).to.equal(null);
    expect(a.getBoundingClientRect().height).to.equal(0);
    expect(await a.awaitReady().then(() => 'ready', (e: SdkError) => e.code)).to.equal('unavailable');
  });

  it('live keys: a button removed while its wallet is still checking availability mounts no frame in the removed element', async () => {
    const original = window.PaymentRequest;
    // A browser whose wallet B is available, once the test says so.
    let answer: ((available: boolean) => void) | undefined;
    (window as unknown as { PaymentRequest: unknown }).PaymentRequest = class {
      canMakePayment = () => new Promise((resolve) => (answer = resolve));
      hasEnrolledInstrument = () => Promise.resolve(true);
    };
    try {
      const box = await target();
      const b = controllerOf('pk_live_wtr_unknown').walletB({ element: box, ...B }).onTokeniseEnd(() => {}).onCancel(() => {}).onError(() => {});
      const init = b.init();
      await waitUntil(() => answer, 'the wallet never asked the browser');
      b.remove();
      answer!(true);
      await init;
      expect(await b.availability).to.deep.equal({ available: true });
      // A frame would be mounted as the availability is known; one rendering later, none is there.
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(b.shadowRoot!.querySelectorAll('iframe').length, 'frames in the removed element').to.equal(0);
    } finally {
      window.PaymentRequest = original;
    }
  });
});
