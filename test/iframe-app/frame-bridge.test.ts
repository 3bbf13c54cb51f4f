import { expect } from '@open-wc/testing';
import { waitUntil } from '../components/wait.ts';
import type { FrameConfig } from '../../protocol/schemas/bridge.ts';
import type { CardInputs } from '../../iframe-app/shared/card-inputs.ts';
import { ElementEnd } from '../../protocol/runtime/rpc.ts';
import { mountFrame, type FrameEventRecord } from './frame-mount.ts';
import { fakeService } from './fake-service.ts';
import { future, listenFor } from './helpers.ts';

/** Mounts a frame page as the SDK does and completes the handshake; `el` is the frame's card element. */
async function mount(app: string, query: string, config: Partial<FrameConfig> = {}) {
  const mounted = await mountFrame(app, query, config);
  const el = mounted.doc.querySelector('cpe-card-form, cpe-card-field') as CardInputs;
  // The served form's events reach the code once it has taken the form over (after the first paint).
  await waitUntil(() => !el.hasAttribute('defer-hydration') && el.hasUpdated, 'the page\'s code did not take the form over');
  await el.updateComplete;
  return { ...mounted, el };
}

/** The card form page as the service sends it, without its code: the shadow root of the served form, before any script of the page's ran. */
async function servedForm(layout: string) {
  const iframe = document.createElement('iframe');
  iframe.style.width = '520px';
  iframe.src = `/iframe-app/card-form/index.html?pk=pk_test_1&lang=en&layout=${layout}&__nomodule#${crypto.randomUUID()}`;
  document.body.append(iframe);
  await waitUntil(() => iframe.contentDocument?.querySelector('cpe-card-form')?.shadowRoot?.querySelector('#cpe-name'), 'no form');
  const doc = iframe.contentDocument!;
  return { doc, root: doc.querySelector('cpe-card-form')!.shadowRoot! };
}

/** Runs the page's code on the served form of `doc`; the element once it took the form over and `ready` says so. */
async function takeOver(doc: Document, ready: (form: CardInputs) => unknown): Promise<CardInputs> {
  const module = doc.createElement('script');
  module.type = 'module';
  module.src = '/iframe-app/card-form/main.ts';
  doc.head.append(module);
  const form = () => doc.querySelector('cpe-card-form') as CardInputs;
  await waitUntil(() => !form().hasAttribute('defer-hydration') && ready(form()), 'not taken over');
  await form().updateComplete;
  return form();
}

function typeIn(el: CardInputs, field: string, text: string) {
  const i = el.shadowRoot!.querySelector<HTMLInputElement>(`#cpe-${field}`)!;
  i.value = text;
  i.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  i.dispatchEvent(new FocusEvent('blur'));
}

describe('frame pages over the bridge', () => {
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  it('card-form: hello with the content height, change on input, resize when a message appears', async () => {
    const { iframe, events, el, doc, hello: ready } = await mount('card-form', 'pk=pk_test_1&lang=en&layout=stack');
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

  it('the service sends the form in the page, in its language and marks; the fragment\'s look is painted first; hello comes before the code runs, at the height the code keeps', async () => {
    const response = await fetch('/iframe-app/card-form/index.html?pk=pk_test_1&lang=de&layout=row&marks=all');
    const page = Document.parseHTMLUnsafe(await response.text());
    const sent = page.querySelector('cpe-card-form')!;
    expect(sent.shadowRoot!.querySelectorAll('input')).to.have.length(4);
    expect([...sent.shadowRoot!.querySelectorAll('label')].map((l) => l.textContent)).to.deep.equal(['Kartennummer', 'Ablaufdatum', 'Sicherheitscode', 'Name auf der Karte']);
    expect(sent.shadowRoot!.querySelectorAll('.logos .logo').length).to.be.greaterThan(3);
    expect(page.documentElement.lang).to.equal('de');
    let helloBeforeCode: boolean | undefined;
    let firstLook: object | undefined;
    const look = { '--cpe-accent': 'rebeccapurple' };
    const { el, doc, hello } = await mountFrame('card-form', 'pk=pk_test_1&lang=de&layout=row&marks=all', { tokens: look, scheme: 'dark' }, (win) => {
      // At the hello, the page's module has not taken the form yet (Lit has not hydrated it).
      helloBeforeCode ??= win.document.querySelector('cpe-card-form')!.hasAttribute('defer-hydration') || !win.customElements.get('cpe-card-form');
      // Painted first with the fragment's look (a hostile value dropped), before the init brings the same.
      firstLook = { scheme: win.document.querySelector('cpe-card-form')!.getAttribute('scheme'), accent: win.document.documentElement.style.getPropertyValue('--cpe-accent'), bg: win.document.documentElement.style.getPropertyValue('--cpe-bg') };
    }, `&s=dark&--cpe-accent=rebeccapurple&--cpe-bg=url(x)`).then((mounted) => ({ ...mounted, el: mounted.doc.querySelector('cpe-card-form') as CardInputs }));
    expect(helloBeforeCode, 'hello came after the code ran').to.equal(true);
    expect(firstLook).to.deep.equal({ scheme: 'dark', accent: 'rebeccapurple', bg: '' });
    expect(el.getAttribute('scheme')).to.equal('dark');
    expect(doc.documentElement.style.getPropertyValue('--cpe-accent')).to.equal('rebeccapurple');
    expect(hello.texts).to.include({ lang: 'de', cancel: 'Abbrechen' });
    await el.updateComplete;
    expect(Math.ceil(el.getBoundingClientRect().height)).to.equal(hello.height);
    expect(el.shadowRoot!.querySelectorAll('input')).to.have.length(4);
  });

  it('what the shopper types before the page\'s code runs is kept, formatted, with the focus and caret', async () => {
    const { doc, root } = await servedForm('stack');
    const number = root.querySelector<HTMLInputElement>('#cpe-number')!;
    const name = root.querySelector<HTMLInputElement>('#cpe-name')!;
    name.value = 'Ada Lovelace';
    number.focus();
    number.value = '42424242424242';
    number.setSelectionRange(4, 4);
    const el = await takeOver(doc, (form) => form.values?.number);
    expect(el.values).to.include({ number: '42424242424242', name: 'Ada Lovelace' });
    // Lit drew the form anew in the same shadow root (no hydration): the new inputs hold what was typed.
    expect(el.shadowRoot).to.equal(root);
    const [numberNow, nameNow] = ['#cpe-number', '#cpe-name'].map((id) => root.querySelector<HTMLInputElement>(id)!);
    expect(root.querySelectorAll('#cpe-number').length, 'one form, not the served one beside Lit\'s').to.equal(1);
    expect(numberNow.value).to.equal('4242 4242 4242 42');
    expect(root.activeElement).to.equal(numberNow);
    expect(numberNow.selectionStart).to.equal(4);
    expect(nameNow.value).to.equal('Ada Lovelace');
  });

  it('an empty field that had the focus before the page\'s code ran has it after the takeover', async () => {
    const { doc, root } = await servedForm('row');
    root.querySelector<HTMLInputElement>('#cpe-number')!.focus();
    await takeOver(doc, (form) => form.hasUpdated);
    expect(root.activeElement?.id, 'the focus after Lit drew the form anew').to.equal('cpe-number');
  });

  it('one hello per load: when the page\'s code says it while the first-paint script still waits for the frame\'s width, that script says none later', async () => {
    const hellos: unknown[] = [];
    const count = (e: MessageEvent) => e.data?.type === 'hello' && hellos.push(e.data);
    addEventListener('message', count);
    try {
      // The element said the frame would be 400 px wide; it is 600 px: the first-paint script waits for a resize.
      const { iframe, win, doc } = await mountFrame('card-form', 'pk=pk_test_1&lang=en&layout=row', {}, undefined, '&w=400');
      const el = doc.querySelector('cpe-card-form') as CardInputs;
      await waitUntil(() => !el.hasAttribute('defer-hydration') && el.hasUpdated, 'not taken over');
      iframe.style.width = '400px';
      await waitUntil(() => win.innerWidth === 400, 'the frame was not resized');
      // The resize event comes before the frame's animation frame callbacks: two later, what it sent has arrived.
      await new Promise((resolve) => win.requestAnimationFrame(() => win.requestAnimationFrame(resolve)));
      expect(hellos, 'hellos of the one load').to.have.length(1);
    } finally {
      removeEventListener('message', count);
    }
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
    expect(events.filter((e) => e.name === 'error')).to.deep.equal([]);
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
    expect(events.filter((e) => e.name === 'error')).to.deep.equal([]);
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
    await waitUntil(() => iframe.contentDocument?.querySelector('.unavailable'), 'no message');
    expect(iframe.contentDocument!.querySelector('.unavailable')!.textContent).to.equal('Nid oes modd dangos y ffurflen dalu hon yma.');
    expect(iframe.contentDocument!.documentElement.lang).to.equal('cy');
  });

  it('an invalid frame address shows a short message and no inputs', async () => {
    const iframe = document.createElement('iframe');
    iframe.src = `/iframe-app/card-form/index.html?pk=nope&lang=en#not-a-uuid`;
    document.body.append(iframe);
    await waitUntil(() => iframe.contentDocument?.querySelector('.unavailable'), 'no message');
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
