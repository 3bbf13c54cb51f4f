import { expect } from '@open-wc/testing';
import { waitUntil } from '../components/wait.ts';
import type { FlowForm } from '../../iframe-app/flow/flow-form.ts';
import { future } from './helpers.ts';
import { axeIn, mountFrame } from './frame-mount.ts';
import { fakeService, intentAnswer } from './fake-service.ts';


/** A session whose GET /intent (the fake service's) answers £12.34. */
const sessionOf = async () => fakeService({ 'GET /intent': intentAnswer(1234, 'GBP', '£12.34') });

async function flow(query: string, config = {}) {
  const frame = await mountFrame('flow', `pk=pk_test_1&layout=stack&${query}`, config);
  const el = frame.doc.querySelector('cpe-flow-form') as FlowForm;
  const button = () => el.shadowRoot!.querySelector<HTMLButtonElement>('button.action')!;
  const status = () => el.shadowRoot!.querySelector<HTMLElement>('[role=status]')!;
  return { ...frame, el, button, status };
}

function fill(el: FlowForm, values: Record<string, string>) {
  for (const [field, text] of Object.entries(values)) {
    const i = el.shadowRoot!.querySelector<HTMLInputElement>(`#cpe-${field}`)!;
    i.value = text;
    i.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  }
}
const valid = () => ({ number: '4242424242424242', expiry: future(), cvc: '123', name: 'Ada Lovelace' });
const label = (b: HTMLButtonElement) => b.textContent!.trim();

describe('flow frame', () => {
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  it('pay: "Pay £12.34" from the session\'s GET /intent; before a session, the Checkout Context amount', async () => {
    const service = await sessionOf();
    const { button, end, el } = await flow('flow=pay&lang=en');
    expect(label(button())).to.equal('Pay');
    await end.request('configure', { pubKey: 'pk_test_1', tokens: {}, extra: { amount: 5000, currency: 'eur' } });
    await el.updateComplete;
    expect(label(button())).to.equal('Pay €50.00');
    await end.request('configure', { pubKey: 'pk_test_1', tokens: {}, session: service.session });
    await waitUntil(() => label(button()) === 'Pay £12.34', `label: ${label(button())}`);
    expect((await service.requests()).map((r) => r.path)).to.include('/intent');
    expect(el.shadowRoot!.querySelectorAll('input')).to.have.length(4);
  });

  it('pay: the amount is formatted in the frame\'s language (fr, cy); zero-decimal currencies too', async () => {
    const fr = await flow('flow=pay&lang=fr', { session: (await sessionOf()).session });
    const expected = new Intl.NumberFormat('fr', { style: 'currency', currency: 'GBP' }).format(12.34);
    await waitUntil(() => label(fr.button()) === `Payer ${expected}`, `fr label: ${label(fr.button())}`);
    expect(expected).to.contain('12,34');
    const cy = await flow('flow=pay&lang=cy', { session: (await sessionOf()).session });
    await waitUntil(() => label(cy.button()) === 'Talu £12.34', `cy label: ${label(cy.button())}`);
    const jpy = await flow('flow=pay&lang=en', { extra: { amount: 1500, currency: 'JPY' } });
    await waitUntil(() => label(jpy.button()) === 'Pay ¥1,500', `jpy label: ${label(jpy.button())}`);
  });

  it('verify: "Verify Card" (and in French)', async () => {
    const { button } = await flow('flow=verify&lang=en');
    expect(label(button())).to.equal('Verify Card');
    const fr = await flow('flow=verify&lang=fr');
    expect(label(fr.button())).to.equal('Vérifier la carte');
  });

  it('submit only when the fields are valid; then processing at once, and a second press emits nothing', async () => {
    const { button, events, el, end, status } = await flow('flow=pay&lang=en');
    button().click();
    await el.updateComplete;
    await waitUntil(() => events.some((e) => e.name === 'change'), 'no change');
    expect(events.filter((e) => e.name === 'submit')).to.have.length(0);
    const change = events.filter((e) => e.name === 'change').at(-1)!;
    expect(change.detail.invalid).to.include.members(['number', 'expiry', 'cvc', 'name']);
    expect(el.shadowRoot!.querySelector('#cpe-number-msg')!.textContent).to.equal('Your card number is incomplete.');
    await waitUntil(() => el.shadowRoot!.activeElement?.id === 'cpe-number', 'focus on the first invalid field');
    fill(el, valid());
    button().click();
    button().click();
    await el.updateComplete;
    await waitUntil(() => events.some((e) => e.name === 'submit'));
    // A round trip on the port: a second submit, sent before its answer, would be here by now.
    await end.request('focus', { position: 'first' });
    expect(events.filter((e) => e.name === 'submit')).to.have.length(1);
    expect(events.find((e) => e.name === 'submit')!.detail).to.deep.equal({});
    expect(button().disabled).to.equal(true);
    expect(button().getAttribute('aria-disabled')).to.equal('true');
    expect(label(button())).to.equal('Processing…');
    expect(status().getAttribute('aria-live')).to.equal('polite');
    expect(status().textContent).to.equal('Processing…');
    for (const e of events) expect(JSON.stringify(e.detail)).not.to.contain('4242424242424242');
  });

  it('Enter in a field presses the button', async () => {
    const { events, el } = await flow('flow=verify&lang=en');
    fill(el, valid());
    el.shadowRoot!.querySelector('#cpe-name')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    await waitUntil(() => events.some((e) => e.name === 'submit'));
  });

  it('flowState: processing disables and announces; failure shows the message and Try again, which emits retry once and shows the form after the element\'s reset and idle', async () => {
    const { button, events, el, end, status } = await flow('flow=pay&lang=en');
    await end.request('flowState', { state: 'processing' });
    await el.updateComplete;
    expect(button().disabled).to.equal(true);
    expect(status().textContent).to.equal('Processing…');
    button().click();
    expect(events.filter((e) => e.name === 'submit')).to.have.length(0);
    await end.request('flowState', { state: 'failure', message: 'The card was declined.' });
    await el.updateComplete;
    expect(status().textContent).to.equal('The card was declined.');
    expect(button().hidden).to.equal(true);
    const retry = el.shadowRoot!.querySelector<HTMLButtonElement>('button.retry')!;
    expect(retry.textContent!.trim()).to.equal('Try again');
    retry.click();
    await waitUntil(() => events.some((e) => e.name === 'retry'));
    // The form waits for the element's reset and idle: shown earlier, the reset wiped what was typed.
    retry.click();
    await el.updateComplete;
    expect(events.filter((e) => e.name === 'retry')).to.have.length(1);
    expect(el.shadowRoot!.querySelector<HTMLElement>('.form')!.hidden).to.equal(true);
    fill(el, valid());
    await end.request('reset', {});
    await end.request('flowState', { state: 'idle' });
    await el.updateComplete;
    expect(button().hidden).to.equal(false);
    expect(el.shadowRoot!.querySelector<HTMLElement>('.form')!.hidden).to.equal(false);
    expect(el.shadowRoot!.querySelector('button.retry')).to.equal(null);
    expect(el.state()).to.include({ empty: true });
    expect(button().disabled).to.equal(false);
    expect(status().textContent).to.equal('');
  });

  it('flowState success shows the message (a default when none); resize follows the state', async () => {
    const { el, end, status, events } = await flow('flow=verify&lang=en');
    await end.request('flowState', { state: 'success' });
    await el.updateComplete;
    expect(status().textContent).to.equal('Card verified.');
    expect(el.shadowRoot!.querySelector<HTMLElement>('.form')!.hidden).to.equal(true);
    await waitUntil(() => events.some((e) => e.name === 'resize'), 'no resize');
    await end.request('flowState', { state: 'success', message: 'Thanks, Ada.' });
    await el.updateComplete;
    expect(status().textContent).to.equal('Thanks, Ada.');
  });

  it('tokenise works as in the card form; an address without flow is unavailable; axe finds nothing', async () => {
    const service = await fakeService({ 'POST /frames/tokenise': { body: { data: { cp_card_token: 'tok_1', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, expires_at: 1 } } } });
    const { el, end, doc } = await flow('flow=pay&lang=en', { session: service.session });
    fill(el, valid());
    expect(await end.request('tokenise', {})).to.deep.equal({ data: { cp_card_token: 'tok_1', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030 } });
    expect(await axeIn(doc)).to.deep.equal([]);
    await end.request('flowState', { state: 'failure' });
    expect(await axeIn(doc)).to.deep.equal([]);
    const iframe = document.createElement('iframe');
    iframe.src = `/iframe-app/flow/index.html?pk=pk_test_1&lang=en#${crypto.randomUUID()}`;
    document.body.append(iframe);
    await waitUntil(() => iframe.contentDocument?.querySelector('.unavailable'), 'no message');
  });
});
