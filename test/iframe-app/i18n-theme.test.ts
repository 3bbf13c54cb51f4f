import { emulateMedia } from '@web/test-runner-commands';
import { expect, fixture, html } from '@open-wc/testing';
import { CardForm } from '../../iframe-app/card-form/card-form.ts';
import { applyLanguage, en, loadCatalogue } from '../../iframe-app/shared/i18n.ts';
import { applyTheme, applyTokens } from '../../iframe-app/shared/theme.ts';
import { input } from './helpers.ts';

const labels = (el: CardForm) => [...el.shadowRoot!.querySelectorAll('label')].map((l) => l.textContent);

describe('i18n', () => {
  afterEach(() => applyLanguage('en', en));

  it('Welsh: every label from the Welsh catalogue', async () => {
    const { lang, catalogue } = await loadCatalogue('cy');
    expect(lang).to.equal('cy');
    const el = await fixture<CardForm>(html`<cpe-card-form .catalogue=${catalogue}></cpe-card-form>`);
    expect(labels(el)).to.deep.equal(['Rhif y cerdyn', 'Dyddiad dod i ben', 'Cod diogelwch', 'Enw ar y cerdyn']);
    await el.tokenise().catch(() => undefined);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('#cpe-name-msg')!.textContent).to.equal(catalogue.nameRequired);
  });

  it('Arabic: dir=rtl on <html>, the fields laid out right to left', async () => {
    const { lang, catalogue } = await loadCatalogue('ar');
    applyLanguage(lang, catalogue);
    expect([document.documentElement.lang, document.documentElement.dir]).to.deep.equal(['ar', 'rtl']);
    const el = await fixture<CardForm>(html`<cpe-card-form layout="row" .catalogue=${catalogue}></cpe-card-form>`);
    const x = (f: string) => input(el, f).getBoundingClientRect().left;
    expect(x('number')).to.be.greaterThan(x('expiry'));
    expect(x('expiry')).to.be.greaterThan(x('cvc'));
    expect(input(el, 'number').dir).to.equal('ltr');
  });
});

describe('theme', () => {
  afterEach(async () => {
    applyTokens({});
    await emulateMedia({ colorScheme: 'light' });
  });

  it('applies the tokens on :root and the inputs follow them; hostile values are dropped', async () => {
    const applied = applyTokens({ '--cpe-input-bg': 'rgb(1, 2, 3)', '--cpe-radius': 9, '--cpe-error': 'red;x:y', '--cpe-fg': 'url(http://x)' });
    expect(applied).to.deep.equal({ '--cpe-input-bg': 'rgb(1, 2, 3)', '--cpe-radius': '9px' });
    const el = await fixture<CardForm>(html`<cpe-card-form theme="dark"></cpe-card-form>`);
    const style = getComputedStyle(input(el, 'number'));
    expect(style.backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(style.borderTopLeftRadius).to.equal('9px');
    expect(document.documentElement.style.getPropertyValue('--cpe-error')).to.equal('');
    applyTokens({ '--cpe-radius': '2px' });
    expect(document.documentElement.style.getPropertyValue('--cpe-input-bg')).to.equal('');
    expect(getComputedStyle(input(el, 'number')).borderTopLeftRadius).to.equal('2px');
  });

  it('light and dark palettes; auto follows prefers-color-scheme while open', async () => {
    const bg = (el: CardForm) => getComputedStyle(el).backgroundColor;
    const light = await fixture<CardForm>(html`<cpe-card-form theme="light"></cpe-card-form>`);
    const dark = await fixture<CardForm>(html`<cpe-card-form theme="dark"></cpe-card-form>`);
    const auto = await fixture<CardForm>(html`<cpe-card-form theme="auto"></cpe-card-form>`);
    expect(bg(light)).to.equal('rgb(255, 255, 255)');
    expect(bg(dark)).not.to.equal('rgb(255, 255, 255)');
    await emulateMedia({ colorScheme: 'light' });
    expect(bg(auto)).to.equal(bg(light));
    await emulateMedia({ colorScheme: 'dark' });
    expect(bg(auto)).to.equal(bg(dark));
    expect(getComputedStyle(auto).colorScheme).to.equal('dark');
  });

  it('the scheme the element resolved wins over prefers-color-scheme (a light page under a dark OS stays light), and sets the document\'s', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const el = await fixture<CardForm>(html`<cpe-card-form theme="auto"></cpe-card-form>`);
    expect(getComputedStyle(el).colorScheme).to.equal('dark');
    applyTheme(el, { tokens: {}, scheme: 'light' }, document.createElement('div'));
    await el.updateComplete;
    expect(el.getAttribute('scheme')).to.equal('light');
    expect(getComputedStyle(input(el, 'number')).backgroundColor).to.equal('rgb(255, 255, 255)');
    const root = document.createElement('div');
    applyTheme(el, { tokens: { '--cpe-bg': 'rgb(15, 17, 21)' }, scheme: 'dark' }, root);
    await el.updateComplete;
    expect([el.getAttribute('scheme'), root.style.colorScheme, root.style.getPropertyValue('--cpe-bg')]).to.deep.equal(['dark', 'dark', 'rgb(15, 17, 21)']);
    expect(getComputedStyle(input(el, 'number')).backgroundColor).not.to.equal('rgb(255, 255, 255)');
  });

  it('a focus ring is visible on the focused input, drawn inside it: the inputs are flush with the frame\'s edges', async () => {
    // The rule itself: computed :focus styles need the window focused, which parallel test pages do not have.
    const el = await fixture<CardForm>(html`<cpe-card-form theme="light"></cpe-card-form>`);
    const rules = el.shadowRoot!.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules]) as CSSStyleRule[];
    const focus = rules.find((r) => r.selectorText === '.in:focus')!;
    expect(focus.style.cssText).to.contain('outline: 2px solid var(--_focus)');
    const base = rules.find((r) => r.selectorText === '.in')!;
    expect(base.style.outlineOffset).to.equal('-2px');
    expect(getComputedStyle(el).padding).to.equal('0px');
    const box = input(el, 'number').getBoundingClientRect();
    expect([box.left, box.right]).to.deep.equal([el.getBoundingClientRect().left, el.getBoundingClientRect().right]);
  });
});
