import { expect } from '@open-wc/testing';
import { waitUntil } from '../components/wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { walletLabel, validAppearance, type WalletButton } from '../../iframe-app/wallet-button/wallet-button.ts';
import type { WalletSheet } from '../../iframe-app/wallet-sheet/wallet-sheet.ts';
import walletEn from '../../i18n/en.ts';
import walletFr from '../../i18n/fr.ts';
import { WALLET_A_STYLES, WALLET_A_TYPES, WALLET_B_TYPES, encodeWalletRequest, type WalletRequest } from '../../protocol/schemas/wallet.ts';
import { axeIn, mountFrame } from './frame-mount.ts';
import { fakeService, type FakeAnswer } from './fake-service.ts';

const VERBS_A: Record<string, string> = {
  'add-money': 'Add money with Wallet A', book: 'Book with Wallet A', buy: 'Buy with Wallet A', 'check-out': 'Check out with Wallet A',
  contribute: 'Contribute with Wallet A', donate: 'Donate with Wallet A', order: 'Order with Wallet A', plain: 'Wallet A',
  reload: 'Reload with Wallet A', rent: 'Rent with Wallet A', subscribe: 'Subscribe with Wallet A', support: 'Support with Wallet A',
  tip: 'Tip with Wallet A', 'top-up': 'Top up with Wallet A',
};
const VERBS_B: Record<string, string> = {
  book: 'Book with Wallet B', buy: 'Buy with Wallet B', checkout: 'Check out with Wallet B', donate: 'Donate with Wallet B',
  order: 'Order with Wallet B', pay: 'Pay with Wallet B', plain: 'Pay with Wallet B', subscribe: 'Subscribe with Wallet B',
};

async function button(query: string) {
  const frame = await mountFrame('wallet-button', `pk=pk_test_1&${query}`);
  const el = frame.doc.querySelector('cpe-wallet-button') as WalletButton;
  return { ...frame, el, button: el.shadowRoot!.querySelector('button')! };
}

describe('wallet button frame', () => {
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  it('an accessible name for every type of both wallets (and in French)', () => {
    expect(WALLET_A_TYPES.map((t) => walletLabel(walletEn, 'a', t))).to.deep.equal(WALLET_A_TYPES.map((t) => VERBS_A[t]));
    expect(WALLET_B_TYPES.map((t) => walletLabel(walletEn, 'b', t))).to.deep.equal(WALLET_B_TYPES.map((t) => VERBS_B[t]));
    expect(walletLabel(walletFr, 'a', 'buy')).to.equal('Acheter avec Wallet A');
    for (const t of WALLET_A_TYPES) for (const s of WALLET_A_STYLES) expect(validAppearance('a', t, s), `${t} ${s}`).to.equal(true);
    for (const t of WALLET_B_TYPES) expect(validAppearance('b', t, 'dark')).to.equal(true);
    expect(validAppearance('b', 'plain', 'white')).to.equal(false);
    expect(validAppearance('b', 'top-up', 'dark')).to.equal(false);
    expect(validAppearance('a', 'checkout', 'dark')).to.equal(false);
  });

  it('renders by type, style and language: name, hello {height}, full width, title', async () => {
    const a = await button('wallet=a&type=donate&style=white-outline&lang=en');
    expect(a.button.textContent!.trim()).to.equal('Donate with Wallet A');
    expect(a.button.classList.contains('white-outline')).to.equal(true);
    const ready = a.hello as { height: number; texts: { lang: string; cancel: string } };
    expect([ready.height, ready.texts.lang, ready.texts.cancel]).to.deep.equal([48, 'en', 'Cancel']);
    // Flush with the frame's edges (the focus ring is drawn inside the button).
    expect(Math.round(a.button.getBoundingClientRect().width)).to.equal(600);
    expect(a.doc.title).to.equal('Donate with Wallet A');
    const plain = await button('wallet=a&type=plain&style=dark&lang=en');
    expect(plain.button.textContent!.replace('◆', '').trim()).to.equal('Wallet A');
    const b = await button('wallet=b&type=plain&style=dark&lang=fr');
    expect(b.button.textContent!.trim()).to.equal('Payer avec Wallet B');
    expect(await axeIn(a.doc)).to.deep.equal([]);
    expect(await axeIn(b.doc)).to.deep.equal([]);
  });

  it('press on click, Enter and Space; focus shows a ring', async () => {
    const { button: b, events, end, el } = await button('wallet=b&type=buy&style=dark&lang=en');
    b.click();
    await waitUntil(() => events.filter((e) => e.name === 'press').length === 1);
    await end.request('focus', { position: 'first' });
    expect(el.shadowRoot!.activeElement).to.equal(b);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => events.filter((e) => e.name === 'press').length === 2, 'Enter');
    await sendKeys({ press: 'Space' });
    await waitUntil(() => events.filter((e) => e.name === 'press').length === 3, 'Space');
    expect(events.find((e) => e.name === 'press')!.detail).to.deep.equal({});
    expect(getComputedStyle(b).outlineStyle).to.equal('solid');
    expect(await end.request('tokenise', {}).catch((e) => e.code)).to.equal('not_supported');
  });

  it('an appearance the wallet does not have is unavailable', async () => {
    const iframe = document.createElement('iframe');
    iframe.src = `/iframe-app/wallet-button/index.html?pk=pk_test_1&lang=en&wallet=b&type=buy&style=white#${crypto.randomUUID()}`;
    document.body.append(iframe);
    await waitUntil(() => iframe.contentDocument?.querySelector('.unavailable'), 'no message');
    expect(iframe.contentDocument!.querySelector('button')).to.equal(null);
  });
});

const REQUEST: WalletRequest = { wallet: 'b' };

/** The sheet on this page, its requests answered by the fake service (`approve`: the answers to POST /frames/wallet/approve, in order). */
async function sheet(request: WalletRequest, approve?: FakeAnswer[]) {
  const service = await fakeService({
    'POST /frames/wallet/sheet': { body: { payment_intent_id: 'pi_1', amount: 1234, currency: 'GBP', merchant_name: 'Demo Shop' } },
    'POST /frames/wallet/approve': approve ?? { body: { token: 'tok_w1', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, origins: ['https://elsewhere.example', location.origin] } },
  });
  const uuid = crypto.randomUUID();
  const iframe = document.createElement('iframe');
  // In view, whole: Approve arms only once fully visible for half a second.
  iframe.style.cssText = 'position:fixed;top:0;left:0;width:480px;height:580px;border:0';
  iframe.src = `/iframe-app/wallet-sheet/index.html?pk=pk_test_1&r=${encodeWalletRequest(request)}&lang=en#${uuid}`;
  const messages: any[] = [];
  const onPort: any[] = [];
  const onMessage = (e: MessageEvent) => {
    if (e.source === iframe.contentWindow) messages.push(e.data);
  };
  window.addEventListener('message', onMessage);
  document.body.append(iframe);
  await waitUntil(() => messages.some((m) => m.type === 'cpe:popup:ready'), 'no cpe:popup:ready');
  expect([messages[0].type, messages[0].session]).to.deep.equal(['cpe:popup:ready', uuid]);
  expect(messages[0].height, 'the content height, for the dialog').to.be.within(200, 640);
  const el = iframe.contentDocument!.querySelector('cpe-wallet-sheet') as WalletSheet;
  const q = (s: string) => el.shadowRoot!.querySelector<HTMLElement>(s)!;
  /** The SDK's init (the popup channel's): the intent's session with port2 of a fresh channel; the sheet answers on port1. */
  const sendSession = (session = uuid) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = (e) => onPort.push(e.data);
    iframe.contentWindow!.postMessage({ type: 'cpe:popup:init', session, intent: { sessionToken: service.sessionToken, paymentIntentId: 'pi_1' } }, { targetOrigin: location.origin, transfer: [port2] });
  };
  const armed = () => waitUntil(() => !(q('.approve') as HTMLButtonElement).disabled, 'Approve never armed');
  /** Results: on the port (and a close before any port, on the window). */
  const results = () => [...onPort, ...messages].filter((m) => m.type === 'cpe:wallet:result' || m.type === 'cpe:popup:close');
  const requests = () => service.requests();
  const approvals = async () => (await requests()).filter((r) => r.path === '/frames/wallet/approve');
  return { iframe, el, q, messages, onPort, results, requests, approvals, sendSession, armed, uuid, sessionToken: service.sessionToken, doc: iframe.contentDocument!, cleanup: () => window.removeEventListener('message', onMessage) };
}

describe('wallet test sheet', () => {
  let cleanup = () => {};
  afterEach(() => {
    cleanup();
    document.querySelectorAll('iframe').forEach((f) => f.remove());
  });

  it('shows the merchant, the amount, what was asked for and the test cards; axe finds nothing', async () => {
    const s = await sheet({ ...REQUEST, billingAddressRequired: true, emailAddressRequired: true, allowCreditCards: false, label: 'Order 42' });
    cleanup = s.cleanup;
    s.sendSession();
    // The merchant's name and the amount come from the service (POST /frames/wallet/sheet), not the address.
    await waitUntil(() => s.el.view !== undefined);
    await s.el.updateComplete;
    expect((await s.requests())[0]!.path).to.equal('/frames/wallet/sheet');
    const text = s.el.shadowRoot!.textContent!.replace(/\s+/g, ' ');
    for (const part of ['Test mode', 'Pay Demo Shop', '£12.34', 'Order 42', 'Shared with the merchant', 'Billing address', 'Email address', 'Credit cards are not accepted.', 'Visa •••• 0002declined'])
      expect(text).to.contain(part);
    expect(text).not.to.contain('Assurance details');
    expect(s.el.shadowRoot!.querySelectorAll('input[type=radio]')).to.have.length(5);
    expect(s.q('.approve').textContent!.trim()).to.equal('Approve');
    expect(s.q('.cancel').textContent!.trim()).to.equal('Cancel');
    expect(await axeIn(s.doc)).to.deep.equal([]);
  });

  it('Approve: POST /frames/wallet/approve with the session, then a result with only the asked-for fields, on the port (never the window)', async () => {
    const s = await sheet({ ...REQUEST, emailAddressRequired: true });
    cleanup = s.cleanup;
    s.sendSession(crypto.randomUUID()); // another sheet's session: ignored
    s.sendSession();
    s.sendSession(); // a second init: ignored (one per load)
    await waitUntil(() => s.el.session !== undefined);
    await s.armed();
    s.el.shadowRoot!.querySelector<HTMLInputElement>('input[value=declined]')!.click();
    s.q('.approve').click();
    await waitUntil(() => s.results().length === 1, 'no result');
    const approvals = await s.approvals();
    expect(approvals).to.have.length(1);
    expect(approvals[0]!.body).to.deep.equal({ card: 'declined', wallet: 'b', payment_intent_id: 'pi_1' });
    expect(approvals[0]!.headers['x-cpe-public-key']).to.equal('pk_test_1');
    expect(approvals[0]!.headers['x-cpe-session-token']).to.equal(s.sessionToken);
    expect(s.messages.filter((m) => m.type === 'cpe:wallet:result'), 'nothing on the window').to.deep.equal([]);
    expect(s.onPort.filter((m) => m.type !== 'cpe:popup:ready')).to.deep.equal([{ type: 'cpe:wallet:result', session: s.uuid, token: 'tok_w1', scheme: 'visa', last4: '4242', email: 'shopper@example.test' }]);
    expect((s.q('.approve') as HTMLButtonElement).disabled).to.equal(true);
  });

  it('Approve with billing address and assurance details asked; inert before the session and half a second fully visible', async () => {
    const s = await sheet({ ...REQUEST, wallet: 'a', billingAddressRequired: true, assuranceDetailsRequired: true });
    cleanup = s.cleanup;
    s.q('.approve').click();
    await s.el.updateComplete;
    expect(s.q('[role=status]').textContent).to.equal('Connecting…');
    expect((s.q('.approve') as HTMLButtonElement).disabled).to.equal(true);
    s.sendSession();
    await waitUntil(() => s.el.view !== undefined);
    await s.armed();
    expect(await s.approvals(), 'the early press did nothing').to.have.length(0);
    s.q('.approve').click();
    await waitUntil(() => s.results().length === 1, 'no result');
    const result = s.results()[0];
    expect(Object.keys(result).sort()).to.deep.equal(['assuranceDetails', 'billingAddress', 'last4', 'scheme', 'session', 'token', 'type']);
    expect(result.billingAddress).to.deep.equal({ name: 'Ada Lovelace', address1: '12 Analytical Row', postcode: 'N1 9GU', country: 'GB' });
    expect((await s.approvals())[0]!.body.wallet).to.equal('a');
  });

  it('a refused approve says so and lets the shopper try again', async () => {
    const s = await sheet(REQUEST, [
      { status: 409, body: { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'no' } } },
      { status: 200, body: { token: 'tok_w2', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, origins: [location.origin] } },
    ]);
    cleanup = s.cleanup;
    s.sendSession();
    await waitUntil(() => s.el.session !== undefined);
    await s.armed();
    s.q('.approve').click();
    await waitUntil(() => s.q('[role=status]').textContent === 'The wallet could not approve the payment. Try again or cancel.');
    expect(s.results()).to.have.length(0);
    s.q('.approve').click();
    await waitUntil(() => s.results().length === 1);
    expect(s.results()[0].token).to.equal('tok_w2');
  });

  it("Cancel closes the popup (before the port, on the window to the parent's origin); so does Escape (on the port)", async () => {
    const s = await sheet(REQUEST);
    cleanup = s.cleanup;
    s.q('.cancel').click();
    await waitUntil(() => s.results().length === 1);
    expect(s.results()[0]).to.deep.equal({ type: 'cpe:popup:close', session: s.uuid });
    s.cleanup();
    const e = await sheet(REQUEST);
    cleanup = e.cleanup;
    e.sendSession();
    await waitUntil(() => e.el.session !== undefined);
    e.doc.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await waitUntil(() => e.results().length === 1);
    expect(e.results()[0]).to.deep.equal({ type: 'cpe:popup:close', session: e.uuid });
    expect(await e.approvals()).to.have.length(0);
    expect(e.messages.filter((m) => m.type === 'cpe:popup:close'), 'after the port, nothing on the window').to.deep.equal([]);
  });

  it('an address without a valid request is unavailable', async () => {
    const iframe = document.createElement('iframe');
    iframe.src = `/iframe-app/wallet-sheet/index.html?pk=pk_test_1&r=bm90LWpzb24&lang=en#${crypto.randomUUID()}`;
    document.body.append(iframe);
    await waitUntil(() => iframe.contentDocument?.querySelector('.unavailable'), 'no message');
  });
});
