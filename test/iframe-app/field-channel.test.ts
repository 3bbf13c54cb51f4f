import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../components/wait.ts';
import { CardFieldElement } from '../../iframe-app/field/card-field.ts';
import { en } from '../../iframe-app/shared/i18n.ts';
import { FieldMessage, fieldChannelName } from '../../protocol/schemas/field-channel.ts';
import { future, input, loadAxe, type } from './helpers.ts';
import { scaled } from '../../testkit/time.ts';

/** Field elements of one group in this page: BroadcastChannel delivers between them as between frames. */
async function group(fields: string[]) {
  const id = crypto.randomUUID();
  const root = await fixture<HTMLDivElement>(html`<div>${fields.map((f) => html`<cpe-card-field field=${f} group=${id}></cpe-card-field>`)}</div>`);
  const els = [...root.querySelectorAll<CardFieldElement>('cpe-card-field')];
  await Promise.all(els.map((e) => e.updateComplete));
  return { id, root, els: Object.fromEntries(els.map((e) => [e.field, e])) as Record<string, CardFieldElement> };
}

describe('field frames’ channel (cpe-card-field)', () => {
  it('each field frame shows one labelled field and reports its own change state', async () => {
    const { els } = await group(['number', 'cvc']);
    expect(els.number!.shadowRoot!.querySelectorAll('input.in')).to.have.length(1);
    expect(els.cvc!.shadowRoot!.querySelector('label')!.textContent).to.equal('Security code');
    await type(els.cvc!, 'cvc', '12');
    expect(els.cvc!.state()).to.deep.equal({ complete: false, empty: false, scheme: 'unknown', invalid: [], field: 'cvc' });
  });

  it('the number frame collects its siblings’ values and tokenises; the values never leave the channel', async () => {
    const { els } = await group(['number', 'expiry', 'cvc', 'name']);
    await type(els.number!, 'number', '4242424242424242');
    await type(els.expiry!, 'expiry', future());
    await waitUntil(() => els.cvc!.outerScheme === 'visa');
    await type(els.cvc!, 'cvc', '1239');
    expect(input(els.cvc!, 'cvc').value).to.equal('123');
    await type(els.name!, 'name', 'Grace Hopper');
    const answers = await els.number!.collect();
    expect(answers).to.deep.equal({ expiry: { value: future(), valid: true }, cvc: { value: '123', valid: true }, name: { value: 'Grace Hopper', valid: true } });
  });

  it('tokenise with a missing sibling fails clearly after the timeout', async () => {
    const { els } = await group(['number', 'expiry', 'cvc']);
    // Long enough for the siblings that are there to answer on a slow machine; the missing one never does.
    els.number!.collectTimeoutMs = scaled(2000);
    await type(els.number!, 'number', '4242424242424242');
    const error = await els.number!.tokenise().catch((e) => e);
    expect(error.code).to.equal('missing_field');
    expect(error.field).to.equal('name');
    expect(error.message).to.contain('Name on card');
  });

  it('tokenise shows the siblings’ messages in their own frames and names the first invalid field', async () => {
    const { els } = await group(['number', 'expiry', 'cvc', 'name']);
    await type(els.number!, 'number', '4242424242424242');
    const error = await els.number!.tokenise().catch((e) => e);
    expect(error).to.deep.equal({ code: 'invalid_card', message: en.expiryIncomplete, field: 'expiry' });
    await els.name!.updateComplete;
    expect(input(els.name!, 'name').getAttribute('aria-invalid')).to.equal('true');
    expect(els.name!.state().invalid).to.deep.equal(['name']);
  });

  it('without a name field (config extra.fields) the number frame waits only for expiry and security code', async () => {
    const { els } = await group(['number', 'expiry', 'cvc']);
    els.number!.applyExtra({ fields: ['number', 'expiry', 'cvc'] });
    els.number!.collectTimeoutMs = 300;
    await type(els.number!, 'number', '4242424242424242');
    await type(els.expiry!, 'expiry', future());
    await type(els.cvc!, 'cvc', '123');
    expect(await els.number!.collect()).to.deep.equal({ expiry: { value: future(), valid: true }, cvc: { value: '123', valid: true } });
  });

  it('tokenise is answered only by the number frame', async () => {
    const { els } = await group(['expiry']);
    expect((await els.expiry!.tokenise().catch((e) => e)).code).to.equal('wrong_frame');
  });

  it('a refusal naming another field is shown in that field’s frame', async () => {
    const { els } = await group(['number', 'cvc']);
    els.number!.showError('cvc', 'Refused code');
    await waitUntil(() => els.cvc!.shown.cvc === 'Refused code');
    expect(input(els.cvc!, 'cvc').getAttribute('aria-invalid')).to.equal('true');
  });

  it('reset in one frame clears the group', async () => {
    const { els } = await group(['number', 'expiry', 'name']);
    await type(els.number!, 'number', '4242');
    await type(els.name!, 'name', 'Ada');
    els.expiry!.reset();
    await waitUntil(() => els.number!.state().empty && els.name!.state().empty);
    expect(input(els.name!, 'name').value).to.equal('');
  });

  it('autofill: hidden inputs of the number frame relay to the sibling frames and are cleared', async () => {
    const { els } = await group(['number', 'expiry', 'cvc', 'name']);
    const hidden = [...els.number!.shadowRoot!.querySelectorAll<HTMLInputElement>('input.autofill')];
    expect(hidden.map((i) => i.autocomplete)).to.deep.equal(['cc-exp', 'cc-exp-month', 'cc-exp-year', 'cc-csc', 'cc-name']);
    for (const i of hidden) expect([i.getAttribute('aria-hidden'), i.tabIndex]).to.deep.equal(['true', -1]);
    const fill = (ac: string, value: string) => {
      const i = hidden.find((h) => h.autocomplete === ac)!;
      i.value = value;
      i.dispatchEvent(new Event('input', { bubbles: true }));
    };
    const year = new Date().getUTCFullYear() + 2;
    fill('cc-exp-month', '7');
    fill('cc-exp-year', String(year));
    fill('cc-csc', '321');
    fill('cc-name', 'Ada Lovelace');
    await waitUntil(() => els.name!.values.name === 'Ada Lovelace' && els.cvc!.values.cvc === '321');
    expect(els.expiry!.values.expiry).to.equal(`07${String(year).slice(-2)}`);
    expect(input(els.expiry!, 'expiry').value).to.equal(`07 / ${String(year).slice(-2)}`);
    await waitUntil(() => hidden.every((h) => h.value === ''), 'hidden inputs not cleared');
  });

  it('messages that do not parse are ignored', async () => {
    const { id, els } = await group(['name', 'cvc']);
    const channel = new BroadcastChannel(fieldChannelName(id));
    channel.postMessage({ cpe: 1, type: 'fill', field: 'name', value: 'x'.repeat(500) });
    channel.postMessage({ cpe: 2, type: 'fill', field: 'name', value: 'Eve' });
    // A channel delivers in order: once a valid message after them has been taken, they were handled.
    channel.postMessage({ cpe: 1, type: 'fill', field: 'cvc', value: '321' });
    await waitUntil(() => els.cvc!.values.cvc === '321', 'the valid message after them was not taken');
    expect(els.name!.values.name).to.equal('');
    channel.close();
    expect(FieldMessage.safeParse({ cpe: 1, type: 'reset' }).success).to.equal(true);
  });

  for (const theme of ['light', 'dark']) {
    it(`axe: no serious or critical violation in the four field frames (${theme}), messages shown`, async function () {
      const axe = await loadAxe();
      const { root, els } = await group(['number', 'expiry', 'cvc', 'name']);
      for (const el of Object.values(els)) el.theme = theme as 'light' | 'dark';
      els.number!.display = 'all';
      els.number!.collectTimeoutMs = 500;
      await els.number!.tokenise().catch(() => undefined);
      await Promise.all(Object.values(els).map((e) => e.updateComplete));
      const { violations } = await axe.run(root, { resultTypes: ['violations'] });
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).to.deep.equal([]);
    });
  }
});
