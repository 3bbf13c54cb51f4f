import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { emulateMedia } from '@web/test-runner-commands';
import { CpeCard } from '../../components/index.ts';
import { ElementsController } from '../../components/controller.ts';
import { container, fakeController, fakeOf, fakeSession, frameScript, iframesIn, messagesHandled, recordEvents, rejected, thrown, windowListeners, patientHandshake } from './helpers.ts';

/** A mounted, ready card element over the fake frame. */
async function readyCard(options: object = {}, controller = fakeController()) {
  const target = await container();
  const card = controller.cardElement({ element: target, ...options });
  const events = recordEvents(card);
  await card.init();
  await card.awaitReady();
  const iframe = card.shadowRoot!.querySelector('iframe')!;
  // Ready once the port is handed over: the frame has it a moment later.
  await waitUntil(() => fakeOf(iframe).end, 'the frame did not get its init');
  return { target, card, events, iframe, fake: fakeOf(iframe) };
}

describe('cardElement options', () => {
  const bad: [string, object, string][] = [
    ['layout', { layout: 'grid' }, 'stack, row-minimal, row-compact, row, column-compact, column'],
    ['theme', { theme: 'blue' }, 'auto, light, dark'],
    ['language', { language: 'english!' }, 'language tag'],
    ['width', { width: true }, 'CSS width'],
    ['height', { height: -5 }, 'pixels'],
    ['element', { element: 42 }, 'CSS selector or an Element'],
    ['cardSchemesDisplay', { cardSchemesDisplay: 'some' }, 'all, detected, none'],
    ['resolveOptions.autoDiscover', { resolveOptions: { autoDiscover: 'yes' } }, 'true or false'],
    ['resolveOptions.within', { resolveOptions: { within: 5 } }, 'Document, Element or ShadowRoot'],
    ['identifier', { identifier: 7 }, 'string'],
  ];
  for (const [option, options, fix] of bad)
    it(`a bad ${option} throws an SdkError naming it and the fix`, () => {
      const error = thrown(() => fakeController().cardElement(options as never));
      expect(error.code).to.equal('invalid_options');
      expect(error.option).to.equal(option);
      expect(error.message).to.contain(`"${option}"`).and.contain(fix).and.match(/^cardElement: /);
    });

  it('an unknown option is named (a typo, not ignored)', () => {
    const error = thrown(() => fakeController().cardElement({ colour: 'red' } as never));
    expect(error.message).to.contain('"colour"');
  });

  it('options that are not an object', () => {
    expect(thrown(() => fakeController().cardElement(undefined as never)).message).to.match(/^cardElement: options must be an object/);
  });

  it('the factory returns a <cpe-card> that waits for init()', async () => {
    const card = fakeController().cardElement({ element: await container() });
    expect(card).to.be.instanceOf(CpeCard);
    expect(card.localName).to.equal('cpe-card');
    expect(card.isConnected).to.equal(false);
  });

  it('the Flow and wallet factories validate their options (SdkError naming the option)', () => {
    const c = fakeController();
    expect(thrown(() => c.paymentFlow({ layout: 'grid' as never })).option).to.equal('layout');
    expect(thrown(() => c.verifyFlow({ width: true as never })).option).to.equal('width');
    expect(thrown(() => c.walletA({ appearance: { type: 'pay' as never } })).message).to.contain('appearance.type');
    expect(thrown(() => c.walletB({ merchantName: 'Shop' } as never)).option).to.equal('merchantId');
  });
});

describe('mount target checks at init()', () => {
  beforeEach(() => frameScript());

  it('a selector that matches nothing', async () => {
    const card = fakeController().cardElement({ element: '#nowhere' });
    const error = await rejected(card.init());
    expect(error.code).to.equal('invalid_mount_target');
    expect(error.option).to.equal('element');
    expect(error.message).to.contain('"#nowhere"').and.contain('matches no element');
  });

  it('no element and no autoDiscover says how to fix it', async () => {
    const error = await rejected(fakeController().cardElement({}).init());
    expect(error.message).to.contain('option "element" is missing').and.contain('autoDiscover');
  });

  it('an invalid selector', async () => {
    const error = await rejected(fakeController().cardElement({ element: '##' }).init());
    expect(error.message).to.contain('not a valid CSS selector');
  });

  it('a disconnected element', async () => {
    const error = await rejected(fakeController().cardElement({ element: document.createElement('div') }).init());
    expect(error.message).to.contain('not in the document');
  });

  it('a hidden element (display:none, visibility:hidden)', async () => {
    for (const style of ['display:none', 'visibility:hidden']) {
      const target = await fixture<HTMLDivElement>(html`<div style=${style}></div>`);
      const error = await rejected(fakeController().cardElement({ element: target }).init());
      expect(error.message, style).to.contain('is hidden');
    }
  });

  it('a custom element is refused with allowCustomElement false, allowed by default', async () => {
    const target = await fixture(html`<shop-payment style="display:block"></shop-payment>`);
    const error = await rejected(fakeController().cardElement({ element: target, resolveOptions: { allowCustomElement: false } }).init());
    expect(error.message).to.contain('<shop-payment> is a custom element');
    const card = fakeController().cardElement({ element: target });
    await card.init();
    expect(card.parentElement).to.equal(target);
  });

  it('autoDiscover finds #cpe-card or [data-cpe-card]; within limits the search', async () => {
    const page = await fixture<HTMLDivElement>(html`<div><section id="a"><div class="pay"></div></section><section id="b"><div data-cpe-card></div></section></div>`);
    const found = fakeController().cardElement({ resolveOptions: { autoDiscover: true } });
    await found.init();
    expect(found.parentElement).to.equal(page.querySelector('[data-cpe-card]'));
    const a = page.querySelector('#a')!;
    const error = await rejected(fakeController().cardElement({ resolveOptions: { autoDiscover: true, within: a } }).init());
    expect(error.message).to.contain('no mount target found');
    const scoped = fakeController().cardElement({ element: '.pay', resolveOptions: { within: a } });
    await scoped.init();
    expect(scoped.parentElement).to.equal(a.querySelector('.pay'));
    const outside = await rejected(fakeController().cardElement({ element: '[data-cpe-card]', resolveOptions: { within: a } }).init());
    expect(outside.message).to.contain('inside resolveOptions.within');
  });

  it('a failed init emits cpe:error too, and init() can be retried after the fix', async () => {
    const card = fakeController().cardElement({ element: '#later' });
    const heard = oneEvent(card, 'cpe:error');
    card.init().catch(() => {});
    expect((await heard).detail).to.include({ code: 'invalid_mount_target', operation: 'init' });
    const target = await fixture(html`<div id="later"></div>`);
    await card.init();
    expect(card.parentElement).to.equal(target);
  });
});

describe('handshake', () => {
  beforeEach(() => frameScript());

  it('mounts the frame address with a fresh uuid, completes the handshake and emits cpe:ready', async () => {
    const target = await container();
    target.style.setProperty('--cpe-accent', '#ff0066');
    const card = fakeController().cardElement({ element: target, layout: 'stack', language: 'cy', theme: 'dark', identifier: 'checkout' });
    const ready = oneEvent(card, 'cpe:ready');
    await card.init();
    const iframe = card.shadowRoot!.querySelector('iframe')!;
    const url = new URL(iframe.src);
    expect(url.origin).to.equal(location.origin);
    expect(url.pathname).to.equal('/frames/card-form/');
    // Mounted while createServerIntent runs: no opaque key yet (the session arrives on the port).
    // The bands it reserved the form's height for (stack at 480 px: number, then expiry and code, then name), which the frame keeps where they fit.
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({ pk: 'pk_test_fake', lang: 'cy', layout: 'stack', theme: 'dark', bands: '3' });
    // The fragment: the mount's uuid, then the look the frame paints first (never sent to the service).
    const [uuid, look] = url.hash.slice(1).split(/&(.*)/s);
    expect(uuid).to.match(/^[0-9a-f-]{36}$/);
    // The element's width too: the frame arranges its form for it before it knows its own size.
    expect(Object.fromEntries(new URLSearchParams(look))).to.deep.equal({ '--cpe-accent': '#ff0066', s: 'dark', w: '480' });
    expect(iframe.title).to.equal('Card payment');
    // Payment Request, and browser autofill of the card fields where the browser has that policy
    // feature (not Chromium 156: an unknown name would log "Unrecognized feature").
    const known = (document as unknown as { featurePolicy?: { features(): string[] } }).featurePolicy?.features() ?? [];
    expect(iframe.getAttribute('allow')).to.equal(known.includes('autofill') ? 'payment; autofill' : 'payment');
    const event = await ready;
    expect(event.bubbles && event.composed).to.equal(true);
    await card.awaitReady();
    await waitUntil(() => fakeOf(iframe).inits.length, 'no init');
    const [init] = fakeOf(iframe).inits;
    expect(init.session).to.equal(uuid);
    expect(init.config).to.deep.include({ pubKey: 'pk_test_fake', session: { paymentIntentId: 'pi_fake', sessionToken: 'st_fake' } });
    expect(init.config.tokens).to.deep.equal({ '--cpe-accent': '#ff0066' });
    expect(init.config.extra).to.deep.equal({ identifier: 'checkout' });
  });

  it('the frame loads while createServerIntent runs; ready waits for both, and the session reaches the frame with its port (one message each way)', async () => {
    const target = await container();
    let answer!: (session: typeof fakeSession) => void;
    const slow = new ElementsController(location.origin, 'pk_test_fake', () => new Promise((resolve) => (answer = resolve)), {}, undefined, { handshakeTimer: patientHandshake });
    const card = slow.cardElement({ element: target });
    let ready = false;
    card.addEventListener('cpe:ready', () => (ready = true));
    // init() settles with the session (a failed createServerIntent rejects it); the frame is in already.
    const initialised = card.init();
    await waitUntil(() => card.shadowRoot!.querySelector('iframe'), 'the frame is mounted before the session exists');
    const iframe = card.shadowRoot!.querySelector('iframe')!;
    // The frame is mounted and says hello before the intent exists: it is shown at its height…
    await waitUntil(() => iframe.className === 'ready', 'the frame said hello');
    expect(iframe.getBoundingClientRect().height).to.equal(120);
    await messagesHandled();
    // …but gets its port only with the session in it: no configure after.
    expect(fakeOf(iframe).inits).to.have.length(0);
    expect(ready, 'not ready without a session').to.equal(false);
    answer(fakeSession);
    await initialised;
    await card.awaitReady();
    expect(ready).to.equal(true);
    await waitUntil(() => fakeOf(iframe).inits.length === 1, 'no init');
    expect(fakeOf(iframe).inits[0].config.session).to.deep.equal({ paymentIntentId: 'pi_fake', sessionToken: 'st_fake' });
    await card.reset();
    expect(fakeOf(iframe).requests.map((r) => r.method)).to.deep.equal(['reset']);
  });

  it('each mount gets a new uuid', async () => {
    const { card, iframe } = await readyCard();
    const first = iframe.src;
    const parent = card.parentElement!;
    card.remove();
    parent.append(card);
    await card.awaitReady();
    expect(card.shadowRoot!.querySelector('iframe')!.src).not.to.equal(first);
  });

  it('a Hello from another window is ignored', async () => {
    frameScript({ hello: false });
    const target = await container();
    const card = fakeController().cardElement({ element: target });
    await card.init();
    const iframe = card.shadowRoot!.querySelector('iframe')!;
    await waitUntil(() => fakeOf(iframe), 'fake frame did not load');
    const session = new URL(iframe.src).hash.slice(1).split('&')[0];
    window.postMessage({ cpe: 1, type: 'hello', session, height: 90 }, '*');
    await messagesHandled();
    expect(fakeOf(iframe).inits).to.have.length(0);
    fakeOf(iframe).hello(); // the frame itself: accepted
    await card.awaitReady();
    await waitUntil(() => fakeOf(iframe).inits.length === 1, 'no init');
  });

  it('a Hello with another uuid is ignored, and the handshake times out with cpe:error', async () => {
    frameScript({ session: '00000000-0000-0000-0000-000000000000' });
    const target = await container();
    // The handshake's time is up when the test says (an injected timer), once the hello was handled.
    let timeIsUp!: () => void;
    const card = fakeController({}, { handshakeTimer: (onTimeout) => ((timeIsUp = onTimeout), () => {}) }).cardElement({ element: target });
    const events = recordEvents(card);
    await card.init();
    const iframe = card.shadowRoot!.querySelector('iframe')!;
    // The fake frame posts its hello as it loads; this window's messages are handled in order.
    await waitUntil(() => fakeOf(iframe), 'the fake frame did not load');
    await messagesHandled();
    expect(fakeOf(iframe).inits, 'the hello with another uuid got no init').to.have.length(0);
    timeIsUp();
    const error = await rejected(card.awaitReady());
    expect(error.code).to.equal('timeout');
    expect(error.message).to.contain('did not answer');
    expect(fakeOf(card.shadowRoot!.querySelector('iframe')!).inits).to.have.length(0);
    expect(events.map((e) => e.name)).to.deep.equal(['cpe:error']);
    expect(events[0]!.detail).to.include({ code: 'timeout', operation: 'init' });
  });

  it('a hello that does not match the schema is dropped; messages on the port that do not match are dropped', async () => {
    frameScript({ hello: false });
    const target = await container();
    const card = fakeController().cardElement({ element: target });
    const events = recordEvents(card);
    await card.init();
    const iframe = card.shadowRoot!.querySelector('iframe')!;
    await waitUntil(() => fakeOf(iframe), 'fake frame did not load');
    const fake = fakeOf(iframe);
    const session = new URL(iframe.src).hash.slice(1).split('&')[0];
    const win = iframe.contentWindow!;
    for (const bad of [{ cpe: 1, type: 'hello', session }, { cpe: 1, type: 'hello', session, height: 'tall' }, { cpe: 2, type: 'hello', session, height: 90 }])
      (win as unknown as { eval(code: string): void }).eval(`parent.postMessage(${JSON.stringify(bad)}, '*')`);
    await messagesHandled();
    expect(fake.inits).to.have.length(0);
    fake.hello(90);
    await card.awaitReady();
    await waitUntil(() => fake.port, 'no init');
    fake.port!.postMessage({ cpe: 1, kind: 'event', name: 'resize', detail: { height: 'tall' } });
    fake.port!.postMessage({ cpe: 2, kind: 'event', name: 'resize', detail: { height: 10 } });
    fake.port!.postMessage({ cpe: 1, kind: 'event', name: 'change', detail: { complete: true, number: '4242424242424242' } });
    // A port delivers in order: once a valid resize after them is applied, they were dropped.
    fake.end!.emit('resize', { height: 95 });
    await waitUntil(() => iframe.getBoundingClientRect().height === 95, 'the valid resize after them was applied');
    expect(events.map((e) => e.name)).to.deep.equal(['cpe:ready']);
  });

  it('a tokenise answer of the wrong shape rejects (bad_response) with cpe:error, never a token', async () => {
    frameScript({ tokenise: { data: { cp_card_token: 'tok_x', number: '4242424242424242' } } });
    const { card, events } = await readyCard();
    const error = await rejected(card.tokenise());
    expect(error.code).to.equal('bad_response');
    expect(events.map((e) => e.name)).to.deep.equal(['cpe:ready', 'cpe:processing:start', 'cpe:error', 'cpe:processing:end']);
  });

  it('a tokenise that gets no answer times out with cpe:error', async () => {
    frameScript({ silent: true });
    // The bridge's tokenise limit is 30 s: a short one, injected.
    const { card, events } = await readyCard({}, fakeController({}, { requestTimeoutMs: 200 }));
    const error = await rejected(card.tokenise());
    expect(error.code).to.equal('timeout');
    expect(events.at(-2)!.detail).to.include({ code: 'timeout', operation: 'tokenise' });
  });

  it('a reloaded frame (a second Hello) gets a new port; the old one is closed', async () => {
    const { card, fake } = await readyCard();
    const oldPort = fake.port!;
    fake.hello();
    await waitUntil(() => fake.inits.length === 2, 'no second init');
    expect(fake.port).not.to.equal(oldPort);
    const result = await card.tokenise();
    expect(result.data.last4).to.equal('4242');
  });
});

describe('events and hooks', () => {
  beforeEach(() => frameScript());

  it('tokenise: processing:start, processing:end; the token at data.cp_card_token', async () => {
    const { card, events } = await readyCard();
    const result = await card.tokenise();
    expect(result.data.cp_card_token).to.equal('tok_fake1234567');
    expect(events.map((e) => e.name)).to.deep.equal(['cpe:ready', 'cpe:processing:start', 'cpe:processing:end']);
    for (const { event } of events) expect(event.bubbles && event.composed, event.type).to.equal(true);
  });

  it('a frame refusal (invalid card): processing:start, cpe:error with code and message, processing:end', async () => {
    frameScript({ tokeniseError: { code: 'invalid_card', message: 'Enter a valid card number.' } });
    const { card, events } = await readyCard();
    const error = await rejected(card.tokenise());
    expect(error.code).to.equal('invalid_card');
    expect(events.slice(1).map((e) => e.name)).to.deep.equal(['cpe:processing:start', 'cpe:error', 'cpe:processing:end']);
    expect(events[2]!.detail).to.deep.equal({ message: 'Enter a valid card number.', code: 'invalid_card', operation: 'tokenise' });
  });

  it('hooks are chainable and hear their events; events reach document', async () => {
    const target = await container();
    const heard: string[] = [];
    const card = fakeController().cardElement({ element: target });
    const same = card
      .onReady((e) => heard.push(e.type))
      .onChange((e) => heard.push(`${e.type}:${e.detail.complete}`))
      .onProcessingStart((e) => heard.push(e.type))
      .onProcessingEnd((e) => heard.push(e.type))
      .onError((e) => heard.push(e.detail.message))
      .on('cpe:ready', () => heard.push('on'));
    expect(same).to.equal(card);
    const atDocument = oneEvent(document, 'cpe:ready');
    await card.init();
    await atDocument;
    const fake = fakeOf(card.shadowRoot!.querySelector('iframe')!);
    await waitUntil(() => fake.end, 'no init');
    fake.end!.emit('change', { complete: true, empty: false, scheme: 'visa', invalid: [] });
    await waitUntil(() => heard.length === 3);
    await card.tokenise();
    await waitUntil(() => heard.length >= 5);
    expect(heard).to.deep.equal(['cpe:ready', 'on', 'cpe:change:true', 'cpe:processing:start', 'cpe:processing:end']);
  });

  it('a frame error event becomes cpe:error (operation frame)', async () => {
    const { card, fake } = await readyCard();
    const heard = oneEvent(card, 'cpe:error');
    fake.end!.emit('error', { code: 'catalogue_failed', message: 'Shown in English.' });
    expect((await heard).detail).to.deep.equal({ message: 'Shown in English.', code: 'catalogue_failed', operation: 'frame' });
  });

  it('reset() and focus() reach the frame', async () => {
    const { card, fake } = await readyCard();
    await card.reset();
    card.focus();
    await waitUntil(() => fake.requests.length === 2);
    expect(fake.requests).to.deep.equal([
      { method: 'reset', params: {} },
      { method: 'focus', params: { position: 'first' } },
    ]);
  });
});

describe('double mounts', () => {
  beforeEach(() => frameScript());

  it('init() twice: one frame, one handshake', async () => {
    const target = await container();
    const card = fakeController().cardElement({ element: target });
    const [a, b] = [card.init(), card.init()];
    expect(a).to.equal(b);
    await a;
    await card.init();
    await card.awaitReady();
    expect(iframesIn(card.shadowRoot!)).to.have.length(1);
    await waitUntil(() => fakeOf(iframesIn(card.shadowRoot!)[0]!).inits.length, 'no init');
    // Whatever else was posted to the frame has arrived once a marker posted after it has.
    await messagesHandled(iframesIn(card.shadowRoot!)[0]!.contentWindow!);
    expect(fakeOf(iframesIn(card.shadowRoot!)[0]!).inits).to.have.length(1);
  });

  it('disconnect and reconnect (StrictMode): one frame, no leaked listeners; removing releases frame and port', async () => {
    const before = await windowListeners('message');
    const target = await container();
    const card = fakeController().cardElement({ element: target });
    await card.init();
    card.remove();
    target.append(card);
    card.remove();
    target.append(card);
    await card.awaitReady();
    expect(iframesIn(card.shadowRoot!)).to.have.length(1);
    expect(await windowListeners('message'), 'one message listener: the mounted frame\'s').to.equal(before + 1);
    const fake = fakeOf(iframesIn(card.shadowRoot!)[0]!);
    await waitUntil(() => fake.inits.length, 'no init');
    card.remove();
    expect(iframesIn(card.shadowRoot!)).to.have.length(0);
    expect(await windowListeners('message')).to.equal(before);
    expect(fake.inits).to.have.length(1);
  });

  it('an element removed while its session is being created never mounts a frame', async () => {
    const target = await container();
    const card = fakeController().cardElement({ element: target });
    const init = card.init();
    await Promise.resolve();
    await Promise.resolve();
    card.remove();
    await init;
    // A frame would be mounted as the session arrives; one rendering later, none is there.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(iframesIn(card.shadowRoot!)).to.have.length(0);
  });
});

describe('sizing, theme, skeleton', () => {
  beforeEach(() => frameScript({ hello: false }));

  it("reserves the form's height at once (the frame's measures, its tokens), shows a skeleton, then takes the height of the hello", async () => {
    const target = await container();
    const card = fakeController().cardElement({ element: target, layout: 'column', height: 100 });
    await card.init();
    expect(card.getBoundingClientRect().height).to.equal(308);
    const other = await container();
    other.style.setProperty('--cpe-control-height', '50px');
    other.style.setProperty('--cpe-gap', '16');
    other.style.width = '800px';
    const row = fakeController().cardElement({ element: other, layout: 'row' });
    await row.init();
    expect(row.getBoundingClientRect().height).to.equal(18 + 8 + 50);
    expect(card.shadowRoot!.querySelector('[part=skeleton]')).to.exist;
    const iframe = card.shadowRoot!.querySelector('iframe')!;
    expect(getComputedStyle(iframe).opacity).to.equal('0');
    await waitUntil(() => fakeOf(iframe), 'no frame');
    fakeOf(iframe).hello(310.4);
    await card.awaitReady();
    await waitUntil(() => fakeOf(iframe).end, 'no init');
    expect(card.shadowRoot!.querySelector('[part=skeleton]')).to.equal(null);
    expect(iframe.getBoundingClientRect().height).to.equal(311);
    expect(getComputedStyle(iframe).opacity).to.equal('1');
    fakeOf(iframe).end!.emit('resize', { height: 340 });
    await waitUntil(() => iframe.getBoundingClientRect().height === 340, 'no resize');
    expect(card.getBoundingClientRect().height).to.equal(340);
  });

  it("a height above the form's is reserved; width is honoured", async () => {
    const target = await container();
    const card = fakeController().cardElement({ element: target, layout: 'row-minimal', height: 200, width: 300 });
    await card.init();
    expect(card.getBoundingClientRect().height).to.equal(200);
    expect(card.getBoundingClientRect().width).to.equal(300);
  });

  it('follows --cpe-* changes: configure only when the values differ', async () => {
    frameScript();
    const { target, card, fake } = await readyCard();
    target.style.setProperty('--cpe-bg', '#101010');
    await waitUntil(() => fake.requests.length === 1, 'no configure');
    expect(fake.requests[0]!.method).to.equal('configure');
    expect((fake.requests[0]!.params as { tokens: object }).tokens).to.deep.equal({ '--cpe-bg': '#101010' });
    card.setAttribute('class', 'unrelated');
    target.setAttribute('data-x', '1');
    document.documentElement.classList.add('no-change');
    document.documentElement.classList.remove('no-change');
    // Then a change that counts: its configure comes after any the others would have caused.
    document.documentElement.style.setProperty('--cpe-radius', '12px');
    try {
      await waitUntil(() => fake.requests.some((r) => JSON.stringify(r.params).includes('--cpe-radius')), 'no configure from the root');
      expect(fake.requests, 'no configure for the changes that changed nothing').to.have.length(2);
      expect((fake.requests[1]!.params as { tokens: object }).tokens).to.deep.equal({ '--cpe-bg': '#101010', '--cpe-radius': '12px' });
    } finally {
      document.documentElement.style.removeProperty('--cpe-radius');
    }
  });

  it('follows a prefers-color-scheme change that changes the tokens', async () => {
    frameScript();
    const style = document.createElement('style');
    style.textContent = '@media (prefers-color-scheme: dark) { .themed { --cpe-bg: #000; --cpe-fg: #fff } }';
    document.head.append(style);
    try {
      await emulateMedia({ colorScheme: 'light' });
      const { target, fake } = await readyCard();
      target.classList.add('themed'); // a class change on the container alone: light, no tokens yet
      await emulateMedia({ colorScheme: 'dark' });
      await waitUntil(() => fake.requests.length >= 1, 'no configure after the colour scheme changed');
      expect(fake.requests, 'none for the class change').to.have.length(1);
      expect((fake.requests[0]!.params as { tokens: object }).tokens).to.deep.equal({ '--cpe-bg': '#000', '--cpe-fg': '#fff' });
    } finally {
      style.remove();
      await emulateMedia({ colorScheme: 'light' });
    }
  });
});
