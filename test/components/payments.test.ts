import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { ElementsController } from '../../components/index.ts';
import type { MiddlewareRoutes } from '../../protocol/schemas/elements-options.ts';
import { fakeFetch, fakeSession, messagesHandled, recordEvents, rejected } from './helpers.ts';

const SERVICE = 'https://service.example';
// Whole answers, as the service gives them: the SDK checks each against the protocol's schema.
const attached = {
  paymentIntentId: 'pi_fake',
  status: 'requires_customer_confirmation',
  attempt_id: 'att_fake',
  three_ds_transaction_id: 'tx_1',
  payment_method: { scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2040 },
  stored_card: null,
  error: null,
};
const confirmed = { paymentIntentId: 'pi_fake', status: 'requires_authorisation', three_ds_transaction_id: 'tx_1', challenge: null, three_ds: 'frictionless' };
const authorised = { paymentIntentId: 'pi_fake', status: 'succeeded', authorised: true };

/** A card element (not mounted: attach, confirm and authorise need no frame) in the page, its requests going to `stub`. */
async function card(stub: { fetch: typeof fetch }, middleware: MiddlewareRoutes = {}) {
  const target = await fixture<HTMLDivElement>(html`<div></div>`);
  const controller = new ElementsController(SERVICE, 'pk_test_fake', async () => fakeSession, middleware, undefined, { fetch: stub.fetch });
  const el = controller.cardElement({ element: target });
  target.append(el);
  return { el, events: recordEvents(el) };
}


const names = (events: { name: string }[]) => events.map((e) => e.name);

describe('direct transport', () => {
  let stub: ReturnType<typeof fakeFetch>;

  it('attach, confirm, authoriseViaBackend: session-backed routes, one idempotency key per attempt, events in order', async () => {
    stub = fakeFetch({ '/intent/attach': attached, '/intent/confirm': confirmed, '/shop/authorise': authorised });
    const { el, events } = await card(stub);
    const a = await el.attach({ token: 'tok_abcdef123456', storeCard: true });
    expect(a.status).to.equal('requires_customer_confirmation');
    const c = await el.confirm();
    expect(c.status).to.equal('requires_authorisation');
    const z = await el.authoriseViaBackend({ endpoint: '/shop/authorise', payload: { order: 'o-1' }, headers: { 'X-Shop': 'yes' } });
    expect(z.authorised).to.equal(true);
    const [attach, confirm, authorise] = stub.calls;
    expect(attach!.url).to.equal(`${SERVICE}/intent/attach`);
    expect(attach!.body).to.deep.equal({ payment_intent_id: 'pi_fake', token: 'tok_abcdef123456', storeCard: true });
    expect(attach!.headers).to.include({ 'x-cpe-public-key': 'pk_test_fake', 'x-cpe-session-token': 'st_fake', 'content-type': 'application/json' });
    expect(confirm!.url).to.equal(`${SERVICE}/intent/confirm`);
    expect(confirm!.body).to.deep.equal({ payment_intent_id: 'pi_fake' });
    expect(authorise!.url).to.equal('/shop/authorise');
    expect(authorise!.body).to.deep.equal({ payment_intent_id: 'pi_fake', order: 'o-1' });
    expect(authorise!.headers).to.include({ 'x-shop': 'yes' });
    expect(authorise!.headers).not.to.have.property('x-cpe-session-token');
    const key = attach!.headers['x-idempotency-key'];
    expect(key).to.match(/^[0-9a-f-]{36}$/);
    expect(confirm!.headers['x-idempotency-key']).to.equal(key);
    expect(authorise!.headers['x-idempotency-key']).to.equal(key);
    expect(names(events)).to.deep.equal(['cpe:attach:start', 'cpe:attach:end', 'cpe:confirm:start', 'cpe:confirm:end', 'cpe:authorise:start', 'cpe:authorise:end']);
    expect(events[1]!.detail).to.deep.equal({ status: 'requires_customer_confirmation' });
    expect(events[3]!.detail).to.deep.equal({ status: 'requires_authorisation' });
    expect(events[5]!.detail).to.deep.equal({ authorised: true, status: 'succeeded', success: true });
  });

  it('a new attempt (another token) gets a new key; idempotencyKey overrides', async () => {
    stub = fakeFetch({ '/intent/attach': attached, '/intent/confirm': confirmed, '/shop/authorise': authorised });
    const { el } = await card(stub);
    await el.attach({ token: 'tok_first123456' });
    await el.attach({ token: 'tok_second123456' });
    await el.confirm({ idempotencyKey: 'order-42-confirm' });
    await el.authoriseViaBackend({ endpoint: '/shop/authorise', idempotencyKey: 'order-42-auth', intentId: 'pi_other' });
    const keys = stub.calls.map((c) => c.headers['x-idempotency-key']);
    expect(keys[0]).not.to.equal(keys[1]);
    expect(keys.slice(2)).to.deep.equal(['order-42-confirm', 'order-42-auth']);
    expect(stub.calls[3]!.body).to.deep.equal({ payment_intent_id: 'pi_other' });
  });

  it('attach returning requires_payment_method: resolves, cpe:error with its message, and confirm is refused', async () => {
    stub = fakeFetch({
      '/intent/attach': { ...attached, status: 'requires_payment_method', error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.', retriable: false } },
    });
    const { el, events } = await card(stub);
    const answer = await el.attach({ token: 'tok_declined12345' });
    expect(answer.error?.retriable).to.equal(false);
    expect(names(events)).to.deep.equal(['cpe:attach:start', 'cpe:error', 'cpe:attach:end']);
    expect(events[1]!.detail).to.deep.equal({ message: 'Your card was declined.', code: 'card_declined', operation: 'attach' });
    const error = await rejected(el.confirm());
    expect(error.code).to.equal('invalid_state');
    expect(error.message).to.contain('requires_payment_method');
    expect(stub.calls).to.have.length(1);
    expect(names(events).slice(3)).to.deep.equal(['cpe:error']);
  });

  it('steps out of order are refused with cpe:error and no request', async () => {
    stub = fakeFetch({});
    const { el, events } = await card(stub);
    expect((await rejected(el.attach())).message).to.contain('call tokenise() first');
    expect((await rejected(el.confirm())).message).to.contain('call attach() first');
    expect((await rejected(el.authoriseViaBackend({ endpoint: '/shop/authorise' }))).message).to.contain('requires_authorisation');
    expect(stub.calls).to.have.length(0);
    expect(names(events)).to.deep.equal(['cpe:error', 'cpe:error', 'cpe:error']);
    expect(events.map((e) => e.detail.operation)).to.deep.equal(['attach', 'confirm', 'authorise']);
  });

  it('an error answer {error:{message}} becomes cpe:error with that message; tokens never appear', async () => {
    stub = fakeFetch({ '/intent/attach': { error: { code: 'token_used', message: "Token 'tok_abcdef123456' was already used." } } }, 400);
    const { el, events } = await card(stub);
    const error = await rejected(el.attach({ token: 'tok_abcdef123456' }));
    expect(error.code).to.equal('token_used');
    expect(names(events)).to.deep.equal(['cpe:attach:start', 'cpe:error', 'cpe:attach:end']);
    expect(events[1]!.detail.message).to.equal("Token '[redacted]' was already used.");
  });

  it('bad method options throw an SdkError naming the option', async () => {
    stub = fakeFetch({ '/intent/attach': attached, '/intent/confirm': confirmed });
    const { el } = await card(stub);
    expect((await rejected(el.attach({ storeCard: 'yes' } as never))).option).to.equal('storeCard');
    await el.attach({ token: 'tok_abcdef123456' });
    expect((await rejected(el.confirm({ autoHandle3DS: 1 } as never))).option).to.equal('autoHandle3DS');
    expect((await rejected(el.confirm({ autoAuthorise: true }))).option).to.equal('authorise.endpoint');
    expect((await rejected(el.confirm({ authorise: { endpoint: 'https://evil.example/authorise' } }))).option).to.equal('authorise.endpoint');
    await el.confirm();
    for (const [options, option] of [
      [{ endpoint: 'https://evil.example/authorise' }, 'endpoint'],
      [{ endpoint: '//evil.example/authorise' }, 'endpoint'],
      [{}, 'endpoint'],
      [{ endpoint: '/a', timeoutMs: -1 }, 'timeoutMs'],
      [{ endpoint: '/a', headers: { 'X-A': 1 } }, 'headers.X-A'],
      [{ endpoint: '/a', verify: true }, 'verify'],
    ] as const)
      expect((await rejected(el.authoriseViaBackend(options as never))).option, JSON.stringify(options)).to.equal(option);
  });

  it('authoriseViaBackend refuses the service origin itself', async () => {
    stub = fakeFetch({ '/intent/attach': attached, '/intent/confirm': confirmed });
    const target = await fixture<HTMLDivElement>(html`<div></div>`);
    const controller = new ElementsController(location.origin, 'pk_test_fake', async () => fakeSession, {}, undefined, { fetch: stub.fetch });
    const el = controller.cardElement({ element: target });
    await el.attach({ token: 'tok_abcdef123456' });
    await el.confirm();
    const error = await rejected(el.authoriseViaBackend({ endpoint: '/intent/authorise' }));
    expect(error.option).to.equal('endpoint');
    expect(error.message).to.contain('not the service');
  });

  it('authorised false: cpe:error with the reason, and resolves', async () => {
    stub = fakeFetch({
      '/intent/attach': attached,
      '/intent/confirm': confirmed,
      '/shop/authorise': { ...authorised, status: 'failed', authorised: false, error: { code: 'insufficient_funds', message: 'Insufficient funds.' } },
    });
    const { el, events } = await card(stub);
    await el.attach({ token: 'tok_abcdef123456' });
    await el.confirm();
    const answer = await el.authoriseViaBackend({ endpoint: '/shop/authorise' });
    expect(answer.authorised).to.equal(false);
    expect(names(events).slice(-3)).to.deep.equal(['cpe:authorise:start', 'cpe:error', 'cpe:authorise:end']);
    expect(events.at(-2)!.detail).to.deep.equal({ message: 'Insufficient funds.', code: 'insufficient_funds', operation: 'authorise' });
    expect(events.at(-1)!.detail).to.deep.equal({ authorised: false, status: 'failed', success: false });
  });

  it('timeoutMs aborts a slow backend with cpe:error timeout', async () => {
    stub = fakeFetch({ '/intent/attach': attached, '/intent/confirm': confirmed, '/shop/authorise': 'hang' });
    const { el } = await card(stub);
    await el.attach({ token: 'tok_abcdef123456' });
    await el.confirm();
    const error = await rejected(el.authoriseViaBackend({ endpoint: '/shop/authorise', timeoutMs: 100 }));
    expect(error.code).to.equal('timeout');
  });

  it('confirm with autoAuthorise and authorise.endpoint authorises after requires_authorisation', async () => {
    stub = fakeFetch({ '/intent/attach': attached, '/intent/confirm': confirmed, '/shop/authorise': authorised });
    const { el, events } = await card(stub);
    await el.attach({ token: 'tok_abcdef123456' });
    const result = await el.confirm({ autoAuthorise: true, authorise: { endpoint: '/shop/authorise', payload: { basket: 'b1' } } });
    expect(result.authorise?.authorised).to.equal(true);
    expect(stub.calls[2]!.body).to.deep.equal({ payment_intent_id: 'pi_fake', basket: 'b1' });
    expect(names(events).slice(2)).to.deep.equal(['cpe:confirm:start', 'cpe:confirm:end', 'cpe:authorise:start', 'cpe:authorise:end']);
  });
});

describe('middleware transport', () => {
  let stub: ReturnType<typeof fakeFetch>;

  it('posts the backend route bodies to the merchant routes with only the idempotency key; verify posts to verifyAuth', async () => {
    stub = fakeFetch({ '/api/attach': attached, '/api/confirm': confirmed, '/api/authorise': authorised, '/api/verify': { status: 'success', verified: true } });
    const { el } = await card(stub, { attach: '/api/attach', confirm: '/api/confirm', authorise: '/api/authorise', verifyAuth: '/api/verify' });
    await el.attach({ token: 'tok_abcdef123456' });
    await el.confirm();
    const answer = await el.authoriseViaBackend({ endpoint: '/api/authorise', verify: true });
    expect(answer.verify).to.deep.equal({ status: 'success', verified: true });
    expect(stub.calls.map((c) => c.url)).to.deep.equal(['/api/attach', '/api/confirm', '/api/authorise', '/api/verify']);
    expect(stub.calls[0]!.body).to.deep.equal({ payment_intent_id: 'pi_fake', token: 'tok_abcdef123456' });
    expect(stub.calls[3]!.body).to.deep.equal({ payment_intent_id: 'pi_fake' });
    for (const call of stub.calls) {
      expect(call.headers).not.to.have.property('x-cpe-public-key');
      expect(call.headers).not.to.have.property('x-cpe-session-token');
      expect(call.headers['x-idempotency-key']).to.equal(stub.calls[0]!.headers['x-idempotency-key']);
    }
  });

  it('middleware for some methods only: attach via the backend, confirm direct', async () => {
    stub = fakeFetch({ '/api/attach': attached, '/intent/confirm': confirmed });
    const { el } = await card(stub, { attach: '/api/attach' });
    await el.attach({ token: 'tok_abcdef123456' });
    await el.confirm();
    expect(stub.calls.map((c) => c.url)).to.deep.equal(['/api/attach', `${SERVICE}/intent/confirm`]);
  });
});

describe('3-D Secure dialog (manual path, a page that never answers)', () => {
  let stub: ReturnType<typeof fakeFetch>;
  const challenge = { url: `${SERVICE}/frames/challenge?challenge=secret`, transaction_id: 'tx_1' };

  it('confirm with autoHandle3DS false resolves with the challenge; handle3DSAuthentication opens an accessible modal; Escape cancels and focus returns', async () => {
    stub = fakeFetch({ '/intent/attach': attached, '/intent/confirm': { ...confirmed, status: 'requires_customer_authentication', challenge } });
    const { el, events } = await card(stub);
    const button = await fixture<HTMLButtonElement>(html`<button>Pay</button>`);
    button.focus();
    await el.attach({ token: 'tok_abcdef123456' });
    const answer = await el.confirm({ autoHandle3DS: false });
    expect(answer.status).to.equal('requires_customer_authentication');
    expect(answer.challenge).to.deep.equal(challenge);
    const outcome = el.handle3DSAuthentication(answer.challenge!);
    const dialog = await waitUntil(() => el.shadowRoot!.querySelector('dialog'), 'no dialog').then(() => el.shadowRoot!.querySelector('dialog')!);
    expect(dialog.open).to.equal(true);
    expect(dialog.matches(':modal')).to.equal(true);
    const label = el.shadowRoot!.getElementById(dialog.getAttribute('aria-labelledby')!);
    expect(label?.textContent).to.equal('Verify your payment');
    const iframe = dialog.querySelector('iframe')!;
    // The challenge page in the element's language and colour scheme.
    // The fragment: the uuid the page's `ready` must name before it gets its port.
    expect(iframe.src).to.match(new RegExp(`^${challenge.url.replace(/[?.]/g, '\\$&')}&lang=en&theme=light#[0-9a-f-]{36}$`));
    // The dialog holds the focus (no focus ring on its title); Tab goes into the page, then to the close button.
    expect(el.shadowRoot!.activeElement).to.equal(dialog);
    expect(getComputedStyle(dialog).outlineStyle).to.equal('none');
    expect(label!.hasAttribute('tabindex')).to.equal(false);
    expect([...dialog.children].map((c) => c.localName)).to.deep.equal(['header', 'iframe', 'button']);
    expect(dialog.querySelector('button')!.getAttribute('aria-label')).to.equal('Cancel');
    expect(iframe.getBoundingClientRect().width).to.be.within(380, 400);
    // Nothing below the page: the dialog ends where its frame does.
    expect(dialog.getBoundingClientRect().bottom - iframe.getBoundingClientRect().bottom).to.be.below(1);
    await expect(dialog).to.be.accessible({ ignoredRules: ['frame-tested'] } as never);
    // A forged close or result from this page (not the challenge frame), even with the popup's uuid, is ignored.
    const session = new URL(iframe.src).hash.slice(1);
    window.postMessage({ type: 'cpe:popup:close', session }, '*');
    window.postMessage({ type: 'cpe:3ds:result', transaction_id: 'tx_1', status: 'completed', session }, '*');
    await messagesHandled();
    expect(dialog.open).to.equal(true);
    await sendKeys({ press: 'Escape' });
    expect(await outcome).to.equal(undefined);
    expect(el.shadowRoot!.querySelector('dialog')).to.equal(null);
    expect(document.activeElement).to.equal(button);
    expect(names(events).slice(-3)).to.deep.equal(['cpe:challenge:start', 'cpe:error', 'cpe:challenge:end']);
    expect(events.at(-2)!.detail).to.include({ code: 'challenge_cancelled' });
    expect(events.at(-1)!.detail).to.deep.equal({ status: 'cancelled' });
  });

  it('a challenge url on another origin is refused', async () => {
    const { el } = await card(fakeFetch({}));
    await el.init().catch(() => {});
    const error = await rejected(el.handle3DSAuthentication({ url: 'https://evil.example/3ds', transaction_id: 'tx' }));
    expect(error.message).to.contain('page of the service');
  });
});

describe('<cpe-elements> provider', () => {
  it('invalid attributes emit cpe:error naming the attribute', async () => {
    const el = document.createElement('cpe-elements');
    el.setAttribute('pub-key', 'pk_test_fake');
    el.setAttribute('intent-url', 'https://evil.example/intent');
    const heard = oneEvent(el, 'cpe:error');
    document.body.append(el);
    try {
      expect((await heard).detail.message).to.contain('"intent-url"');
    } finally {
      el.remove();
    }
  });
});
