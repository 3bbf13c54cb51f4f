import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { ChangeState } from '../../protocol/schemas/bridge.ts';
import { LAYOUTS } from '../../protocol/schemas/frame-url.ts';
import { CardForm } from '../../iframe-app/card-form/card-form.ts';
import { en } from '../../iframe-app/shared/i18n.ts';
import { future, input, leave, loadAxe, type } from './helpers.ts';
import { fakeService } from './fake-service.ts';

const NAMES = { number: 'Card number', expiry: 'Expiry date', cvc: 'Security code', name: 'Name on card' };

const form = (layout = 'stack', theme = 'light') => fixture<CardForm>(html`<cpe-card-form layout=${layout} theme=${theme}></cpe-card-form>`);

/** The accessible name of an input: its label's text (or aria-label). */
const nameOf = (el: CardForm, i: HTMLInputElement) => i.getAttribute('aria-label') ?? el.shadowRoot!.querySelector(`label[for="${i.id}"]`)?.textContent?.trim();
const visible = (e: Element) => {
  const r = e.getBoundingClientRect();
  return r.width > 1 && r.height > 1;
};

describe('<cpe-card-form>', () => {
  for (const layout of LAYOUTS) {
    it(`${layout}: four labelled fields with autocomplete and inputmode`, async () => {
      const el = await form(layout);
      const inputs = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input.in')];
      expect(inputs.map((i) => nameOf(el, i))).to.deep.equal(Object.values(NAMES));
      expect(inputs.map((i) => i.autocomplete)).to.deep.equal(['cc-number', 'cc-exp', 'cc-csc', 'cc-name']);
      expect(inputs.map((i) => i.inputMode)).to.deep.equal(['numeric', 'numeric', 'numeric', 'text']);
      const labels = [...el.shadowRoot!.querySelectorAll('label')];
      if (layout === 'row-minimal') {
        expect(labels.some(visible), 'no visible labels').to.equal(false);
        expect(input(el, 'number').placeholder).to.equal('Card number');
      } else expect(labels.every(visible), 'visible labels').to.equal(true);
      const tops = inputs.map((i) => Math.round(i.getBoundingClientRect().top));
      const rows = new Set(tops).size;
      const expected = { stack: 3, 'row-minimal': 1, 'row-compact': 1, row: 1, 'column-compact': 4, column: 4 }[layout];
      expect(rows, `${layout} rows`).to.equal(expected);
    });
  }

  it('compact layouts use smaller labels than full ones', async () => {
    const size = async (layout: string) => parseFloat(getComputedStyle((await form(layout)).shadowRoot!.querySelector('label')!).fontSize);
    expect(await size('row-compact')).to.be.below(await size('row'));
    expect(await size('column-compact')).to.be.below(await size('column'));
  });

  it('formats the number by scheme and shows the detected scheme\'s mark (a plain card before)', async () => {
    const el = await form();
    expect(el.shadowRoot!.querySelector('.box svg.logo')!.classList.contains('blank')).to.equal(true);
    expect((await type(el, 'number', '378282246310005')).value).to.equal('3782 822463 10005');
    const mark = el.shadowRoot!.querySelector('.box svg.logo')!;
    expect([mark.getAttribute('role'), mark.getAttribute('aria-label')]).to.deep.equal(['img', 'American Express']);
    expect((await type(el, 'cvc', '12345')).value).to.equal('1234');
  });

  it('cardSchemesDisplay: all shows every scheme\'s mark, none shows none', async () => {
    const el = await form();
    el.display = 'all';
    await type(el, 'number', '4242');
    const marks = [...el.shadowRoot!.querySelectorAll('.logos svg.logo')];
    expect(marks.map((m) => m.getAttribute('aria-label'))).to.deep.equal(['Visa', 'Mastercard', 'American Express', 'Discover', 'Diners Club', 'JCB', 'Maestro']);
    expect(el.shadowRoot!.querySelector('.logo.on')!.getAttribute('aria-label')).to.equal('Visa');
    el.display = 'none';
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('svg.logo')).to.have.length(0);
  });

  it('no message while typing the first digits; on blur the message is tied to its input', async () => {
    const el = await form();
    const i = await type(el, 'number', '4242');
    expect(i.getAttribute('aria-invalid')).to.equal('false');
    expect(i.hasAttribute('aria-describedby')).to.equal(false);
    await leave(el, 'number');
    expect(i.getAttribute('aria-invalid')).to.equal('true');
    const message = el.shadowRoot!.getElementById(i.getAttribute('aria-describedby')!)!;
    expect(message.textContent).to.equal(en.numberIncomplete);
    await type(el, 'number', '4242424242424242');
    expect(i.getAttribute('aria-invalid')).to.equal('false');
    expect(message.textContent).to.equal('');
  });

  it('a full-length number failing Luhn shows at once', async () => {
    const el = await form();
    const i = await type(el, 'number', '4242424242424241');
    expect(i.getAttribute('aria-invalid')).to.equal('true');
  });

  it('change state: complete, empty, scheme, invalid; never a digit', async () => {
    const el = await form();
    const states: ChangeState[] = [];
    el.addEventListener('state', (e) => states.push((e as CustomEvent<ChangeState>).detail));
    await type(el, 'number', '4242424242424242');
    await type(el, 'expiry', future());
    await type(el, 'cvc', '123');
    await leave(el, 'cvc');
    await type(el, 'name', 'Ada Lovelace');
    const last = states.at(-1)!;
    expect(last).to.deep.equal({ complete: true, empty: false, scheme: 'visa', invalid: [] });
    expect(JSON.stringify(states)).not.to.match(/\d{2}|Ada/);
    const reset = oneEvent(el, 'state');
    el.reset();
    expect((await reset).detail).to.deep.equal({ complete: false, empty: true, scheme: 'unknown', invalid: [] });
    expect(input(el, 'number').value).to.equal('');
  });

  it('tokenise with empty fields shows every message and rejects invalid_card', async () => {
    const el = await form();
    try {
      await el.tokenise();
      expect.fail('tokenise resolved');
    } catch (error) {
      expect(error).to.include({ code: 'invalid_card', field: 'number' });
    }
    await el.updateComplete;
    expect(el.state().invalid).to.deep.equal(['number', 'expiry', 'cvc', 'name']);
    expect(input(el, 'name').getAttribute('aria-describedby')).to.equal('cpe-name-msg');
  });

  it('tokenise without a session rejects no_session; with one it posts and returns only the token fields', async () => {
    const el = await form();
    await type(el, 'number', '4242 4242 4242 4242');
    await type(el, 'expiry', future());
    await type(el, 'cvc', '123');
    await type(el, 'name', 'Ada');
    await el.tokenise().then(() => expect.fail('resolved'), (e) => expect(e.code).to.equal('no_session'));
    el.pubKey = 'pk_test_1';
    const service = await fakeService({
      'POST /frames/tokenise': [
        { body: { data: { cp_card_token: 'tok_1', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, expires_at: 1 } } },
        { status: 400, body: { error: { type: 'card_error', code: 'invalid_cvc', message: 'x', param: 'card[cvc]' } } },
      ],
    });
    el.session = service.session;
    const result = await el.tokenise();
    expect(result).to.deep.equal({ data: { cp_card_token: 'tok_1', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030 } });
    const [sent] = await service.requests();
    expect(`${sent!.method} ${sent!.path}`).to.equal('POST /frames/tokenise');
    expect(sent!.headers['x-cpe-public-key']).to.equal('pk_test_1');
    expect(sent!.headers['x-cpe-session-token']).to.equal(service.sessionToken);
    expect(sent!.body.card).to.deep.include({ number: '4242424242424242', cvc: '123', name: 'Ada', exp_month: '12' });
    await el.tokenise().then(() => expect.fail('resolved'), (e) => expect(e).to.deep.equal({ code: 'invalid_cvc', message: en.cvcIncomplete, field: 'cvc' }));
    await el.updateComplete;
    expect(input(el, 'cvc').getAttribute('aria-invalid')).to.equal('true');
    // The refusal stays when the shopper leaves the field unchanged, and goes when they change it.
    await leave(el, 'cvc');
    expect(el.shown.cvc).to.equal(en.cvcIncomplete);
    expect(el.state().invalid).to.deep.equal(['cvc']);
    await type(el, 'cvc', '124');
    expect(el.shown.cvc).to.equal(undefined);
  });

  it('focusAt first and last', async () => {
    const el = await form();
    el.focusAt('last');
    expect(el.shadowRoot!.activeElement).to.equal(input(el, 'name'));
    el.focusAt('first');
    expect(el.shadowRoot!.activeElement).to.equal(input(el, 'number'));
  });

  for (const theme of ['light', 'dark']) {
    it(`axe: no serious or critical violation in any layout (${theme}), messages shown`, async function () {
      const axe = await loadAxe();
      for (const layout of LAYOUTS) {
        const el = await form(layout, theme);
        el.display = 'all';
        await type(el, 'number', '4242');
        await el.tokenise().catch(() => undefined);
        await el.updateComplete;
        const { violations } = await axe.run(el, { resultTypes: ['violations'] });
        const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(bad.map((v) => `${layout}: ${v.id} ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).to.deep.equal([]);
        el.remove();
      }
    });
  }
});
