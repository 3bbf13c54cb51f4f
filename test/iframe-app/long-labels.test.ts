import { expect, fixture, html } from '@open-wc/testing';
import { CardForm } from '../../iframe-app/card-form/card-form.ts';
import { CardFieldElement } from '../../iframe-app/field/card-field.ts';
import { FlowForm } from '../../iframe-app/flow/flow-form.ts';
import type { CardInputs } from '../../iframe-app/shared/card-inputs.ts';
import { applyLanguage, en, LANGUAGES, loadCatalogue, type Catalogue } from '../../iframe-app/shared/i18n.ts';
import { LAYOUTS } from '../../protocol/schemas/frame-url.ts';
import { future } from './helpers.ts';

/**
 * Long labels never overlap or get cut off: for every layout of the card form, every field frame and
 * the Flow, in every language, at 320, 375, 520 and 768 px, the boxes are measured in Chromium. No
 * two labels or inputs overlap; no label, typical value ("Ada Lovelace", a full card number,
 * "12 / 30", a four-digit code) or placeholder is clipped (`scrollWidth > clientWidth`); nothing
 * reaches past the frame's edges; the Flow's button shows its whole label.
 */
const WIDTHS = [320, 375, 520, 768];
const VALUES = { number: '4242424242424242', expiry: future(), cvc: '7391', name: 'Ada Lovelace' };
const SLACK = 0.5;

type Box = { what: string; rect: DOMRect };
const visible = (e: Element) => e.getBoundingClientRect().width > 1 && getComputedStyle(e).position !== 'absolute';
const overlap = (a: DOMRect, b: DOMRect) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > SLACK && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > SLACK;

/** Every problem of one element at its current width, as readable sentences. */
function problems(el: CardInputs, where: string): string[] {
  const found: string[] = [];
  const root = el.shadowRoot!;
  const frame = el.getBoundingClientRect();
  const boxes: Box[] = [];
  for (const label of root.querySelectorAll('label')) {
    if (!visible(label)) continue;
    if (label.scrollWidth > label.clientWidth + SLACK) found.push(`${where}: label "${label.textContent}" is cut (${label.scrollWidth} > ${label.clientWidth})`);
    boxes.push({ what: `label "${label.textContent}"`, rect: label.getBoundingClientRect() });
  }
  for (const input of root.querySelectorAll<HTMLInputElement>('input.in')) {
    boxes.push({ what: `input ${input.id}`, rect: input.getBoundingClientRect() });
    // The typical value as typed, then the placeholder text (as if it were the value): both whole.
    for (const text of [input.value, input.placeholder]) {
      const value = input.value;
      input.value = text;
      if (input.scrollWidth > input.clientWidth + SLACK) found.push(`${where}: "${text}" is cut in ${input.id} (${input.scrollWidth} > ${input.clientWidth})`);
      input.value = value;
    }
  }
  for (const button of root.querySelectorAll<HTMLButtonElement>('button')) {
    if (!visible(button)) continue;
    if (button.scrollWidth > button.clientWidth + SLACK) found.push(`${where}: button "${button.textContent!.trim()}" is cut`);
    boxes.push({ what: `button "${button.textContent!.trim()}"`, rect: button.getBoundingClientRect() });
  }
  for (const [i, a] of boxes.entries()) {
    if (a.rect.left < frame.left - SLACK || a.rect.right > frame.right + SLACK) found.push(`${where}: ${a.what} reaches past the frame (${a.rect.left}–${a.rect.right} in ${frame.left}–${frame.right})`);
    for (const b of boxes.slice(i + 1)) if (overlap(a.rect, b.rect)) found.push(`${where}: ${a.what} overlaps ${b.what}`);
  }
  if (el.scrollWidth > el.clientWidth + SLACK) found.push(`${where}: the frame's content is wider than the frame`);
  return found;
}

/** Types the typical values into every field the element shows, as a shopper would. */
function typeValues(el: CardInputs) {
  for (const field of el.fields) {
    const input = el.shadowRoot!.querySelector<HTMLInputElement>(`#cpe-${field}`)!;
    el.setValue(field, VALUES[field], input);
  }
}

async function atWidths(el: CardInputs, container: HTMLElement, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    container.style.width = `${width}px`;
    el.arrange();
    await el.updateComplete;
    found.push(...problems(el, `${where} ${width}px (${el.getAttribute('arr')})`));
  }
  return found;
}

describe('long labels never overlap or get cut off', function () {
  afterEach(() => applyLanguage('en', en));

  for (const tag of LANGUAGES) {
    it(`${tag}: every layout, the field frames and the Flow at ${WIDTHS.join(', ')} px`, async () => {
      const { lang, catalogue } = await loadCatalogue(tag);
      expect(lang).to.equal(tag);
      applyLanguage(lang, catalogue);
      const found: string[] = [];
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      const mount = async <T extends CardInputs>(el: T, setup: (el: T) => void) => {
        setup(el);
        el.catalogue = catalogue as Catalogue;
        container.replaceChildren(el);
        await el.updateComplete;
        typeValues(el);
        await el.updateComplete;
        return el;
      };
      for (const layout of LAYOUTS) {
        const form = await mount(new CardForm(), (el) => ((el.layout = layout), (el.display = 'detected')));
        found.push(...(await atWidths(form, container, `${tag} ${layout}`)));
      }
      for (const field of ['number', 'expiry', 'cvc', 'name'] as const) {
        const one = await mount(new CardFieldElement(), (el) => ((el.field = field), (el.layout = 'stack')));
        found.push(...(await atWidths(one, container, `${tag} field ${field}`)));
      }
      for (const layout of ['stack', 'row'] as const) {
        const flow = await mount(new FlowForm('pay', tag), (el) => ((el.layout = layout), (el.amountLabel = '£1,234.56')));
        found.push(...(await atWidths(flow, container, `${tag} Flow ${layout}`)));
      }
      expect(found, found.slice(0, 8).join('\n')).to.deep.equal([]);
    });
  }

  it('the row layouts keep one row where it fits: English and German at 768 px', async () => {
    for (const tag of ['en', 'de']) {
      const { catalogue } = await loadCatalogue(tag);
      const container = await fixture<HTMLDivElement>(html`<div style="width: 768px"></div>`);
      const form = new CardForm();
      form.layout = 'row';
      form.catalogue = catalogue;
      container.append(form);
      await form.updateComplete;
      expect(form.getAttribute('arr'), tag).to.equal('one');
      const tops = [...form.shadowRoot!.querySelectorAll('input.in')].map((i) => Math.round(i.getBoundingClientRect().top));
      expect(new Set(tops).size, tag).to.equal(1);
    }
  });
});

describe('the arrangement measures each text once', () => {
  it('arranging the same form again measures no text again', async () => {
    // 200 px fits none of the row layout's arrangements but the last: all four are tried.
    const container = await fixture<HTMLDivElement>(html`<div style="width: 200px"></div>`);
    const form = new CardForm();
    form.layout = 'row';
    container.append(form);
    await form.updateComplete;
    expect(form.getAttribute('arr')).to.equal('column');
    const measure = CanvasRenderingContext2D.prototype.measureText;
    let measured = 0;
    CanvasRenderingContext2D.prototype.measureText = function (text) {
      measured++;
      return measure.call(this, text);
    };
    try {
      form.arrange();
      expect(form.getAttribute('arr')).to.equal('column');
      expect(measured, 'texts measured again').to.equal(0);
    } finally {
      CanvasRenderingContext2D.prototype.measureText = measure;
    }
  });
});
