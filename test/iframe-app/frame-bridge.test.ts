import { expect, waitUntil } from '@open-wc/testing';
import type { FrameConfig } from '../../protocol/schemas/bridge.ts';
import type { CardInputs } from '../../iframe-app/shared/card-inputs.ts';
import { ElementEnd } from '../../protocol/runtime/rpc.ts';
import { mountFrame, type FrameEventRecord } from './frame-mount.ts';
import { fakeService } from './fake-service.ts';
import { future, listenFor } from './helpers.ts';
import { scaled } from '../../testkit/time.ts';

/** Mounts a frame page as the SDK does and completes the handshake; `el` is the frame's card element. */
async function mount(app: string, query: string, config: Partial<FrameConfig> = {}) {
  const mounted = await mountFrame(app, query, config);
  return { ...mounted, el: mounted.doc.querySelector('cpe-card-form, cpe-card-field') as CardInputs };
}

function typeIn(el: CardInputs, field: string, text: string) {
  const i = el.shadowRoot!.querySelector<HTMLInputElement>(`#cpe-${field}`)!;
  i.value = text;
  i.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  i.dispatchEvent(new FocusEvent('blur'));
}

describe('frame pages over the bridge', () => {
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  it('card-form: ready with the content height, change on input, resize when a message appears', async () => {
    const { iframe, events, el, doc } = await mount('card-form', 'pk=pk_test_1&lang=en&layout=stack');
    const ready = events.find((e) => e.name === 'ready')!.detail;
    expect(ready.height).to.be.greaterThan(100);
    expect(ready.height).to.equal(Math.ceil(el.getBoundingClientRect().height));
    iframe.style.height = `${ready.height}px`;
    expect(doc.documentElement.scrollHeight).to.be.at.most(ready.height);
    expect(getComputedStyle(doc.body).overflow).to.equal('hidden');
    typeIn(el, 'number', '4242');
    await waitUntil(() => events.some((e) => e.name === 'change' && e.detail.invalid.includes('number')));
    await waitUntil(() => events.some((e) => e.name === 'resize' && e.detail.height > ready.height), 'no resize');
    for (const e of events) expect(JSON.stringify(e.detail)).not.to.contain('4242');
  });

  it('card-form: configure applies tokens; tokenise posts on the frame origin and returns only the token fields', async () => {
    const { end, el, doc } = await mount('card-form', 'pk=pk_test_1&lang=en&layout=row');
    const service = await fakeService({
      'POST /frames/tokenise': [
        { body: { data: { cp_card_token: 'tok_abc', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, expires_at: 9 } } },
        { status: 400, body: { error: { type: 'card_error', code: 'incorrect_number', message: 'bad', param: 'card[number]' } } },
      ],
    });
    await end.request('configure', { pubKey: 'pk_test_1', tokens: { '--cpe-accent': 'rebeccapurple', '--cpe-bg': 'url(x)' }, session: service.session });
    expect(doc.documentElement.style.getPropertyValue('--cpe-accent')).to.equal('rebeccapurple');
    expect(doc.documentElement.style.getPropertyValue('--cpe-bg')).to.equal('');
    typeIn(el, 'number', '4242424242424242');
    typeIn(el, 'expiry', future());
    typeIn(el, 'cvc', '123');
    typeIn(el, 'name', 'Ada Lovelace');
    expect(await end.request('tokenise', {})).to.deep.equal({ data: { cp_card_token: 'tok_abc', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030 } });
    expect((await service.requests()).map((r) => `${r.method} ${r.path}`).at(-1)).to.equal('POST /frames/tokenise');
    const error = await end.request('tokenise', {}).catch((e) => e);
    expect(error).to.include({ code: 'incorrect_number', field: 'number' });
    await end.request('reset', {});
    expect(el.state()).to.include({ empty: true });
    await end.request('focus', { position: 'last' });
    expect(el.shadowRoot!.activeElement!.id).to.equal('cpe-name');
  });

  it('the form renders once the init is in, with its look: ready comes with that first render (no second render or paint before it)', async () => {
    let early: string | undefined;
    let firstRender: { scheme: string | null; accent: string } | undefined;
    const { el, events } = await mountFrame('card-form', 'pk=pk_test_1&lang=en&layout=row', { tokens: { '--cpe-accent': 'rebeccapurple' }, scheme: 'dark' }, async (win) => {
      // The parent is slow to answer the hello: the frame's code has run to its wait for the init
      // (its English catalogue is in, so only the init holds the render back).
      await waitUntil(() => win.document.title === 'Card details', 'the frame ran up to its wait for the init');
      early = win.document.querySelector('cpe-card-form')?.localName ?? 'nothing';
      new win.MutationObserver(() => {
        const form = win.document.querySelector('cpe-card-form');
        firstRender ??= form ? { scheme: (form as CardInputs).colorScheme ?? null, accent: win.document.documentElement.style.getPropertyValue('--cpe-accent') } : undefined;
      }).observe(win.document.body, { childList: true });
    }).then((mounted) => ({ ...mounted, el: mounted.doc.querySelector('cpe-card-form') as CardInputs }));
    expect(early, 'the form rendered before the init').to.equal('nothing');
    expect(firstRender).to.deep.equal({ scheme: 'dark', accent: 'rebeccapurple' });
    expect(events.filter((e) => e.name === 'ready')).to.have.length(1);
    expect(el.shadowRoot!.querySelectorAll('input')).to.have.length(4);
  });

  it('a second init is ignored: one init per load (a page script cannot re-point the frame)', async () => {
    const { iframe, session, events, end: first } = await mount('card-form', 'pk=pk_test_1&lang=en');
    const channel = new MessageChannel();
    const again: FrameEventRecord[] = [];
    const end = new ElementEnd(channel.port1, (name, detail) => again.push({ name, detail }));
    iframe.contentWindow!.postMessage({ cpe: 1, type: 'init', session, config: { pubKey: 'pk_test_1', tokens: {} } }, location.origin, [channel.port2]);
    const unanswered = await Promise.race([end.request('reset', {}).then(() => false), listenFor(500).then(() => true)]);
    expect(unanswered, 'the second port was answered').to.equal(true);
    expect(again).to.deep.equal([]);
    await first.request('reset', {});
    expect(events.filter((e) => e.name === 'ready')).to.have.length(1);
  });

  it("an init whose pubKey is not its address's pk is ignored; configure with another pk is refused", async () => {
    const { end } = await mount('card-form', 'pk=pk_test_1&lang=en');
    const error = await end.request('configure', { pubKey: 'pk_test_other', tokens: {} }).catch((e) => e);
    expect(error).to.include({ code: 'merchant_mismatch' });
  });

  it('an init with the wrong session is ignored', async () => {
    const { iframe, events } = await mount('card-form', 'pk=pk_test_1&lang=en');
    const channel = new MessageChannel();
    let heard = false;
    channel.port1.onmessage = () => (heard = true);
    iframe.contentWindow!.postMessage({ cpe: 1, type: 'init', session: crypto.randomUUID(), config: { pubKey: 'pk_test_1', tokens: {} } }, location.origin, [channel.port2]);
    await listenFor(200);
    expect(heard).to.equal(false);
    expect(events.filter((e) => e.name === 'ready')).to.have.length(1);
  });

  it('language: Arabic is laid out right to left; fr-CA is French', async () => {
    const ar = await mount('card-form', 'pk=pk_test_1&lang=ar');
    expect(ar.doc.documentElement.dir).to.equal('rtl');
    expect(ar.doc.documentElement.lang).to.equal('ar');
    expect(ar.el.shadowRoot!.querySelector('label')!.textContent).to.equal('رقم البطاقة');
    expect(ar.doc.title).to.equal('بيانات البطاقة');
    const fr = await mount('card-form', 'pk=pk_test_1&lang=fr-CA');
    expect(fr.el.shadowRoot!.querySelector('label')!.textContent).to.equal('Numéro de carte');
  });

  it('an invalid frame address in Welsh says so in Welsh', async () => {
    const iframe = document.createElement('iframe');
    iframe.src = `/iframe-app/field/index.html?pk=pk_test_1&lang=cy&field=number#${crypto.randomUUID()}`;
    document.body.append(iframe);
    await waitUntil(() => iframe.contentDocument?.querySelector('.unavailable'), 'no message', { timeout: scaled(4000) });
    expect(iframe.contentDocument!.querySelector('.unavailable')!.textContent).to.equal('Nid oes modd dangos y ffurflen dalu hon yma.');
    expect(iframe.contentDocument!.documentElement.lang).to.equal('cy');
  });

  it('an invalid frame address shows a short message and no inputs', async () => {
    const iframe = document.createElement('iframe');
    iframe.src = `/iframe-app/card-form/index.html?pk=nope&lang=en#not-a-uuid`;
    document.body.append(iframe);
    await waitUntil(() => iframe.contentDocument?.querySelector('.unavailable'), 'no message', { timeout: scaled(4000) });
    expect(iframe.contentDocument!.querySelector('.unavailable')!.textContent).to.equal('This payment form cannot be shown here.');
    expect(iframe.contentDocument!.querySelectorAll('input, cpe-card-form')).to.have.length(0);
  });

  it('field frames: four frames of one group tokenise together from the number frame', async () => {
    const group = crypto.randomUUID();
    const service = await fakeService({ 'POST /frames/tokenise': { body: { data: { cp_card_token: 'tok_f', scheme: 'amex', last4: '0005', expiry_month: 12, expiry_year: 2030, expires_at: 9 } } } });
    const frames = await Promise.all(['number', 'expiry', 'cvc', 'name'].map((f) => mount('field', `pk=pk_test_1&lang=en&field=${f}&group=${group}`, { session: service.session })));
    const [number, expiry, cvc, name] = frames;
    typeIn(number!.el, 'number', '378282246310005');
    typeIn(expiry!.el, 'expiry', future());
    await waitUntil(() => cvc!.el.outerScheme === 'amex', 'scheme not relayed');
    typeIn(cvc!.el, 'cvc', '1234');
    typeIn(name!.el, 'name', 'Ada');
    await waitUntil(() => cvc!.events.some((e) => e.name === 'change' && e.detail.field === 'cvc' && e.detail.complete));
    const result = await number!.end.request('tokenise', {});
    expect(result.data.cp_card_token).to.equal('tok_f');
    const tokenise = (await service.requests()).filter((r) => r.path === '/frames/tokenise');
    expect(tokenise, 'one tokenise, from the number frame').to.have.length(1);
    expect(tokenise[0]!.body.card).to.deep.include({ number: '378282246310005', cvc: '1234', name: 'Ada' });
    for (const f of frames) for (const e of f.events) expect(JSON.stringify(e.detail)).not.to.match(/3782|1234|Ada/);
    await expiry!.end.request('reset', {});
    await waitUntil(() => number!.el.state().empty && cvc!.el.state().empty && name!.el.state().empty, 'group not reset');
  });
});
