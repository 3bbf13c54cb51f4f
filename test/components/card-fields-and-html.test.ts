import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { CpeCard, CpeCardFields, CpeElements, SdkError } from '../../components/index.ts';
import { fakeController, fakeOf, fakeRoute, fakeSession, frameScript, iframesIn, recordEvents } from './helpers.ts';

const params = (iframe: HTMLIFrameElement) => Object.fromEntries(new URL(iframe.src).searchParams);
/** The field frames of a card fields element: inside the shadow roots of the boxes in each target. */
const fieldFrames = (root: ParentNode) => [...root.querySelectorAll('div')].flatMap((d) => (d.shadowRoot ? iframesIn(d.shadowRoot) : []));

describe('cardFieldsElement', () => {
  beforeEach(() => frameScript());

  it('bad options name the option', () => {
    for (const [options, option] of [
      [{ fields: { number: '#n', expiry: '#e' } }, 'fields.cvc'],
      [{ fields: { number: 5, expiry: '#e', cvc: '#c' } }, 'fields.number'],
      [{ layout: 'row' }, ''],
    ] as const) {
      try {
        fakeController().cardFieldsElement(options as never);
        throw new Error('no error');
      } catch (error) {
        expect(error).to.be.instanceOf(SdkError);
        expect((error as SdkError).message).to.contain(option ? `"${option}"` : '"layout"');
      }
    }
  });

  it('mounts one frame per target with a shared group; ready after all; tokenise in the number frame; change combined', async function () {
    const page = await fixture<HTMLDivElement>(html`<div><div id="n"></div><div id="e"></div><div id="c"></div><div id="h"></div></div>`);
    const el = fakeController().cardFieldsElement({ fields: { number: '#n', expiry: '#e', cvc: '#c', name: page.querySelector('#h')! }, language: 'fr' });
    expect(el).to.be.instanceOf(CpeCardFields);
    const events = recordEvents(el);
    await el.init();
    await el.awaitReady();
    const frames = fieldFrames(page);
    expect(frames.map((f) => params(f).field)).to.deep.equal(['number', 'expiry', 'cvc', 'name']);
    expect(frames.map((f) => f.title)).to.deep.equal(['Card number', 'Expiry date', 'Security code', 'Name on card']);
    expect(new Set(frames.map((f) => params(f).group)).size).to.equal(1);
    // The frames mount while createServerIntent runs: the address names the merchant (pk), never a session secret.
    expect(params(frames[0]!)).to.include({ lang: 'fr', pk: 'pk_test_fake' });
    expect(frames.some((f) => Object.values(params(f)).includes('st_fake'))).to.equal(false);
    expect(page.querySelector('#n cpe-card-fields')).to.equal(el);
    expect(events.filter((e) => e.name === 'cpe:ready')).to.have.length(1);
    const fakes = frames.map(fakeOf);
    await waitUntil(() => fakes.every((f) => f.inits.length), 'no init');
    expect(fakes[0]!.inits[0].config.extra).to.deep.equal({ fields: ['number', 'expiry', 'cvc', 'name'] });
    const token = await el.tokenise();
    expect(token.data.last4).to.equal('4242');
    expect(fakes.map((f) => f.requests.length)).to.deep.equal([1, 0, 0, 0]);
    for (const [i, field] of (['number', 'expiry', 'cvc', 'name'] as const).entries()) {
      fakes[i]!.end!.emit('change', { complete: true, empty: false, scheme: 'visa', invalid: [], field });
      await waitUntil(() => events.filter((e) => e.name === 'cpe:change').length === i + 1);
    }
    const changes = events.filter((e) => e.name === 'cpe:change').map((e) => e.detail);
    expect(changes[0]).to.deep.include({ complete: false, field: 'number', scheme: 'visa' });
    expect(changes[3]).to.deep.include({ complete: true, empty: false, field: 'name', invalid: [] });
    await el.reset();
    expect(fakes.map((f) => f.requests.length)).to.deep.equal([2, 1, 1, 1]);
    el.remove();
    expect(fieldFrames(page)).to.have.length(0);
    expect(page.querySelectorAll('#n div, #e div')).to.have.length(0);
  });

  it('targets default to [data-cpe-field] inside element (all four); the field box reserves its minimum', async () => {
    const page = await fixture<HTMLDivElement>(
      html`<form><p data-cpe-field="number"></p><p data-cpe-field="expiry"></p><p data-cpe-field="cvc"></p><p data-cpe-field="name"></p></form>`,
    );
    const el = fakeController().cardFieldsElement({ element: page });
    await el.init();
    await el.awaitReady();
    expect(fieldFrames(page).map((f) => params(f).field)).to.deep.equal(['number', 'expiry', 'cvc', 'name']);
    expect(el.parentElement).to.equal(page);
  });

  it('name is required: without its target, an SdkError names fields.name (option and target)', async () => {
    const page = await fixture<HTMLDivElement>(html`<div><p data-cpe-field="number"></p><p data-cpe-field="expiry"></p><p data-cpe-field="cvc"></p></div>`);
    try {
      await fakeController().cardFieldsElement({ element: page }).init();
      throw new Error('no error');
    } catch (error) {
      expect(error).to.be.instanceOf(SdkError);
      expect((error as SdkError).option).to.equal('fields.name');
      expect((error as SdkError).message).to.contain('[data-cpe-field="name"]');
    }
    try {
      fakeController().cardFieldsElement({ fields: { number: '#n', expiry: '#e', cvc: '#c' } } as never);
      throw new Error('no error');
    } catch (error) {
      expect(error).to.be.instanceOf(SdkError);
      expect((error as SdkError).option).to.equal('fields.name');
      expect((error as SdkError).message).to.contain('"fields.name"').and.contain('CSS selector or an Element');
    }
  });

  it('a missing target names the field and the fix', async () => {
    const page = await fixture<HTMLDivElement>(html`<div><p data-cpe-field="number"></p><p data-cpe-field="expiry"></p></div>`);
    try {
      await fakeController().cardFieldsElement({ element: page }).init();
      throw new Error('no error');
    } catch (error) {
      expect((error as SdkError).option).to.equal('fields.cvc');
      expect((error as SdkError).message).to.contain('[data-cpe-field="cvc"]');
    }
  });
});

describe('custom elements written in HTML', () => {
  beforeEach(() => frameScript());

  it('<cpe-card> with attributes and a controller property initialises itself; an attribute change remounts (one frame)', async () => {
    const card = await fixture<CpeCard>(html`<cpe-card layout="stack" language="fr" theme="light" card-schemes-display="detected"></cpe-card>`);
    expect(iframesIn(card.shadowRoot!)).to.have.length(0); // no controller yet: nothing happens
    const ready = oneEvent(card, 'cpe:ready');
    card.controller = fakeController();
    await ready;
    const first = card.shadowRoot!.querySelector('iframe')!;
    expect(params(first)).to.include({ layout: 'stack', lang: 'fr', theme: 'light', marks: 'detected' });
    await waitUntil(() => fakeOf(first).inits.length, 'no init');
    expect(fakeOf(first).inits[0].config.cardSchemesDisplay).to.equal('detected');
    card.setAttribute('layout', 'column');
    await card.awaitReady();
    await waitUntil(() => card.shadowRoot!.querySelector('iframe') !== first);
    expect(iframesIn(card.shadowRoot!)).to.have.length(1);
    expect(params(card.shadowRoot!.querySelector('iframe')!).layout).to.equal('column');
  });

  it('an invalid attribute emits cpe:error naming it', async () => {
    const card = await fixture<CpeCard>(html`<cpe-card layout="grid"></cpe-card>`);
    const heard = oneEvent(card, 'cpe:error');
    card.controller = fakeController();
    const { detail } = await heard;
    expect(detail).to.include({ code: 'invalid_options', operation: 'init' });
    expect(detail.message).to.contain('"layout"');
  });

  it('<cpe-elements> creates the controller (intent-url) for the elements inside it; <cpe-card-fields> takes its children as targets', async () => {
    const intent = await fakeRoute(fakeSession);
    const provider = await fixture<CpeElements>(html`
      <cpe-elements pub-key="pk_test_fake" intent-url=${intent.url} attach-url="/shop/attach">
        <cpe-card></cpe-card>
        <cpe-card-fields><div data-cpe-field="number"></div><div data-cpe-field="expiry"></div><div data-cpe-field="cvc"></div><div data-cpe-field="name"></div></cpe-card-fields>
      </cpe-elements>
    `);
    expect(provider.controller?.middleware).to.deep.equal({ attach: '/shop/attach' });
    const card = provider.querySelector('cpe-card')!;
    const fields = provider.querySelector('cpe-card-fields')!;
    await card.awaitReady();
    await fields.awaitReady();
    expect(await intent.calls(), 'createServerIntent ran once').to.equal(1);
    expect(fieldFrames(fields)).to.have.length(4);
    expect(await provider.controller!.getPaymentIntentId()).to.equal('pi_fake');
  });
});
