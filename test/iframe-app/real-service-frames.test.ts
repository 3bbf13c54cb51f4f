/**
 * The issue-7 frame pages as the REAL service serves them (another origin, its CSP and
 * frame-ancestors, started beside the test runner by web-test-runner.config.mjs): the Flow and the
 * wallet button complete the handshake; the wallet sheet takes its session by message and, with the
 * keyboard, approves through the real POST /frames/wallet/approve (the token then attaches) or cancels.
 */
import { expect } from '@open-wc/testing';
import { waitUntil } from '../components/wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { Hello } from '../../protocol/schemas/bridge.ts';
import { ElementEnd } from '../../protocol/runtime/rpc.ts';
import type { FrameEventRecord } from './frame-mount.ts';
import { inFrame } from '../components/helpers.ts';

let config: { serviceUrl: string; publicKey: string };
const newIntent = async (): Promise<{ paymentIntentId: string; sessionToken: string; opaqueKey: string }> => (await fetch('/__cpe/intent', { method: 'POST' })).json();

async function mountRemote(app: string, query: string, withSession: boolean) {
  const session = crypto.randomUUID();
  const intent = withSession ? await newIntent() : undefined;
  const iframe = document.createElement('iframe');
  iframe.style.width = '600px';
  iframe.style.height = '360px';
  iframe.src = `${config.serviceUrl}/frames/${app}/?pk=${config.publicKey}&lang=en&${query}#${session}`;
  const events: FrameEventRecord[] = [];
  let said: Hello | undefined;
  const end = new Promise<ElementEnd>((resolve) => {
    window.addEventListener('message', function hello(e) {
      if (e.source !== iframe.contentWindow || e.origin !== config.serviceUrl || !Hello.safeParse(e.data).success || e.data.session !== session) return;
      window.removeEventListener('message', hello);
      said = e.data;
      const channel = new MessageChannel();
      const element = new ElementEnd(channel.port1, (name, detail) => events.push({ name, detail }));
      const sessionConfig = intent ? { session: { paymentIntentId: intent.paymentIntentId, sessionToken: intent.sessionToken } } : {};
      iframe.contentWindow!.postMessage({ cpe: 1, type: 'init', session, config: { pubKey: config.publicKey, tokens: {}, ...sessionConfig } }, config.serviceUrl, [channel.port2]);
      resolve(element);
    });
  });
  document.body.append(iframe);
  const element = await end;
  return { iframe, end: element, events, intent, hello: said! };
}

describe('issue-7 frames served by the real service', function () {
  before(async () => {
    config = await (await fetch('/__cpe/config')).json();
  });
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  it('flow: handshake, tokenise refuses empty fields, flowState answers; wallet button: hello at 48 px, press by keyboard', async () => {
    const flow = await mountRemote('flow', 'flow=pay&layout=stack', true);
    const error = await flow.end.request('tokenise', {}).catch((e) => e);
    expect(error.code).to.equal('invalid_card');
    expect(await flow.end.request('flowState', { state: 'processing' })).to.deep.equal({});
    const wallet = await mountRemote('wallet-button', 'wallet=a&type=buy&style=dark', false);
    expect(wallet.hello.height).to.equal(48);
    // As the element's focus() does (frame-host.ts): the iframe focused by the page, and the frame asked.
    wallet.iframe.focus();
    await wallet.end.request('focus', { position: 'first' });
    await inFrame('/frames/wallet-button/', 'button', 'focused');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => wallet.events.some((e) => e.name === 'press'), 'no press');
    // The page's iframe.focus() reaching the frame after the request (the browser's order): the frame
    // gets the focus with its body focused, and the button takes it back.
    const elsewhere = document.body.appendChild(document.createElement('button'));
    elsewhere.focus();
    await inFrame('/frames/wallet-button/', 'button', 'blurred');
    wallet.iframe.focus();
    await inFrame('/frames/wallet-button/', 'button', 'focused');
    elsewhere.remove();
  });

  async function openSheet(request: object) {
    const uuid = crypto.randomUUID();
    const r = btoa(JSON.stringify(request)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const iframe = document.createElement('iframe');
    iframe.style.width = '480px';
    iframe.style.height = '640px';
    iframe.src = `${config.serviceUrl}/frames/wallet-sheet/?pk=${config.publicKey}&r=${r}&lang=en#${uuid}`;
    const messages: any[] = [];
    window.addEventListener('message', (e) => {
      if (e.source === iframe.contentWindow && e.origin === config.serviceUrl) messages.push(e.data);
    });
    document.body.append(iframe);
    await waitUntil(() => messages.some((m) => m.type === 'cpe:popup:ready' && m.session === uuid), 'no cpe:popup:ready');
    return { iframe, messages, uuid };
  }

  it('wallet sheet: the session by message, Approve with the keyboard → a wallet token that attaches', async () => {
    const intent = await newIntent();
    const { iframe, messages, uuid } = await openSheet({ wallet: 'b', emailAddressRequired: true });
    // The SDK's init (the popup channel's): the session with a port; the result comes back on the port, never the window.
    const { port1, port2 } = new MessageChannel();
    const onPort: any[] = [];
    port1.onmessage = (e) => onPort.push(e.data);
    iframe.contentWindow!.postMessage({ type: 'cpe:popup:init', session: uuid, intent: { sessionToken: intent.sessionToken, paymentIntentId: intent.paymentIntentId } }, { targetOrigin: config.serviceUrl, transfer: [port2] });
    iframe.focus();
    // The service's amount shows, and Approve arms after half a second fully visible.
    await inFrame('/frames/wallet-sheet/', 'button.approve', 'enabled');
    await inFrame('/frames/wallet-sheet/', 'body', 'focused');
    // The first Tab reaches the checked test card (Visa, approved), the next one Approve.
    await sendKeys({ press: 'Tab' });
    await inFrame('/frames/wallet-sheet/', 'input[name="card"]:checked', 'focused');
    await sendKeys({ press: 'Tab' });
    await inFrame('/frames/wallet-sheet/', 'button.approve', 'focused');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => onPort.some((m) => m.type === 'cpe:wallet:result'), 'no result');
    expect(messages.filter((m) => m.type === 'cpe:wallet:result'), 'nothing on the window').to.deep.equal([]);
    const result = onPort.find((m) => m.type === 'cpe:wallet:result');
    expect(result).to.include({ session: uuid, scheme: 'visa', last4: '4242', email: 'shopper@example.test' });
    expect(result.token).to.match(/^tok_/);
    expect(result).not.to.have.property('billingAddress');
    const attach = await fetch('/__cpe/mw/attach', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ payment_intent_id: intent.paymentIntentId, token: result.token }),
    });
    const attached = await attach.json();
    expect(attached.status, JSON.stringify(attached)).to.equal('requires_customer_confirmation');
    expect(attached.payment_method.wallet).to.equal('b');
  });

  it('card form: the field a focus request focused takes the focus back when the frame gets the page\'s focus with nothing focused in it', async () => {
    const { iframe, end, events } = await mountRemote('card-form', 'layout=row', true);
    await end.request('focus', { position: 'first' });
    await inFrame('/frames/card-form/', 'input[data-field="number"]', 'focused');
    const changes = () => events.filter((e) => e.name === 'change').length;
    const before = changes();
    // What the element's own iframe.focus() does when it reaches the frame after the request (the
    // order of the two is the browser's, see card-inputs.ts): the frame loses the focus, its field
    // blurs (a change), and the frame gets the focus back with its body focused.
    const elsewhere = document.body.appendChild(document.createElement('button'));
    elsewhere.focus();
    await waitUntil(() => changes() > before, 'the field did not blur');
    iframe.focus();
    await inFrame('/frames/card-form/', 'input[data-field="number"]', 'focused');
    await sendKeys({ type: '4242' });
    await waitUntil(() => events.some((e) => e.name === 'change' && !e.detail.empty), 'what was typed did not reach the field');
    elsewhere.remove();
  });

  it('card form: the field a fix request focused keeps the focus when the element\'s own iframe.focus() reaches the frame after it', async () => {
    const { iframe, end, events } = await mountRemote('card-form', 'layout=row', true);
    // After a decline (frame-host.ts fix): the number cleared and focused, then the element focuses its iframe.
    await end.request('fix', { field: 'number', clear: true });
    await inFrame('/frames/card-form/', 'input[data-field="number"]', 'focused');
    const changes = () => events.filter((e) => e.name === 'change').length;
    const before = changes();
    iframe.focus();
    await waitUntil(() => changes() > before, 'the field did not blur');
    await inFrame('/frames/card-form/', 'input[data-field="number"]', 'focused');
    await sendKeys({ type: '4242' });
    await waitUntil(() => events.some((e) => e.name === 'change' && !e.detail.empty), 'what was typed did not reach the field');
  });

  it('wallet sheet: Escape cancels', async () => {
    const { iframe, messages, uuid } = await openSheet({ wallet: 'a' });
    iframe.focus();
    // The focus reaches a frame of another origin later: a Tab before it went to this page (load 17).
    await inFrame('/frames/wallet-sheet/', 'body', 'focused');
    await sendKeys({ press: 'Tab' });
    await inFrame('/frames/wallet-sheet/', 'input[name="card"]:checked', 'focused');
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => messages.some((m) => m.type === 'cpe:popup:close'), 'no close');
    expect(messages.find((m) => m.type === 'cpe:popup:close')).to.deep.equal({ type: 'cpe:popup:close', session: uuid });
  });
});
