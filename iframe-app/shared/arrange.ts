import type { CardField } from '../../protocol/schemas/bridge.ts';
import type { Layout } from '../../protocol/schemas/frame-url.ts';
import { CARD_FIELDS, readFragment } from '../../protocol/runtime/frame-address.ts';

/**
 * How the card fields are placed (shared/styles.ts), chosen by measuring: one function for the page's
 * first-paint script (first-paint.ts, before any module has run, on the form the service sent) and
 * for the element after each render and resize (card-inputs.ts). One measurement, so the height the
 * frame reports before its first paint is the height it keeps once its code runs.
 */
export type Arrangement = 'one' | 'two' | 'split' | 'column';
const ROW: Arrangement[] = ['one', 'two', 'split', 'column'];
/** Each layout's arrangements, widest first. */
export const ARRANGEMENTS: Record<Layout, Arrangement[]> = { row: ROW, 'row-compact': ROW, 'row-minimal': ROW, stack: ['split', 'column'], column: ['column'], 'column-compact': ['column'] };

/** Values a field must show whole, besides its placeholder: a full number, an expiry, an Amex code, a name. */
const SAMPLES: Record<CardField, string> = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '1234', name: 'Ada Lovelace' };
/** Room at an input's end: the scheme's mark (number) or the check of a complete field. */
const END_ROOM = { logo: 36, check: 22 };

let canvas: CanvasRenderingContext2D | undefined;
/** Widths measured, by font and text: each arrangement tried measures the same texts again. */
const widths: Record<string, number> = {};
function textWidth(text: string, style: CSSStyleDeclaration): number {
  const font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const ctx = (canvas ??= document.createElement('canvas').getContext('2d')!);
  return (widths[`${font}\n${text}`] ??= ((ctx.font = font), ctx.measureText(text).width));
}

/**
 * The width each field needs in an arrangement: its label on one line (or, where labels may wrap,
 * its longest word) and its widest text (a typical value or the placeholder) inside the input's
 * padding (three quarters of it in `one`), with room for the scheme's mark, or the check of a
 * complete field (not shown in `one`).
 */
function needsOf(host: HTMLElement, root: ParentNode, fields: readonly CardField[], arr: Arrangement): Partial<Record<CardField, number>> {
  const needs: Partial<Record<CardField, number>> = {};
  const wrap = arr === 'split' || arr === 'column';
  for (const field of fields) {
    const input = root.querySelector<HTMLInputElement>(`#cpe-${field}`);
    const label = root.querySelector<HTMLLabelElement>(`label[for="cpe-${field}"]`);
    if (!input || !label) continue;
    const ls = getComputedStyle(label);
    const words = wrap ? (label.textContent ?? '').split(/\s+/) : [label.textContent ?? ''];
    const labelNeed = label.classList.contains('sr') ? 0 : Math.max(...words.map((w) => textWidth(w, ls)));
    const is = getComputedStyle(input);
    // The padding on the input's start side, as the current arrangement has it; its base value.
    const padNow = Math.min(parseFloat(is.paddingLeft), parseFloat(is.paddingRight));
    const pad = (host.getAttribute('arr') === 'one' ? padNow / 0.75 : padNow) * (arr === 'one' ? 0.75 : 1);
    const end = input.classList.contains('num') ? END_ROOM.logo : arr === 'one' ? 0 : END_ROOM.check;
    const text = Math.max(textWidth(SAMPLES[field], is), textWidth(input.placeholder, is));
    needs[field] = Math.ceil(Math.max(labelNeed, text + 2 * pad + end + 2 * parseFloat(is.borderLeftWidth)) + 1);
  }
  return needs;
}

/**
 * Picks the widest arrangement of the layout in which no label and no typical value is cut or
 * overlaps its neighbour, at the current width and in the current language, and sets it on `host`
 * (attribute `arr`; the grid's columns get the fields' widths as minimums). At the width the element
 * reserved its height for (the fragment's `w`), the bands it reserved (the address's `bands`, from
 * English or the widest language's measures) are kept where they fit, so its height does not change.
 */
export function arrange(host: HTMLElement, root: ParentNode, layout: Layout, fields: readonly CardField[]): void {
  const grid = root.querySelector<HTMLElement>('.grid');
  const width = grid?.clientWidth;
  if (!grid || !width) return;
  const gap = parseFloat(getComputedStyle(grid).columnGap) || 0;
  const all: readonly Arrangement[] = fields.length === 1 ? ['column'] : ARRANGEMENTS[layout] ?? ['column'];
  const reserved = readFragment(location.hash).look.width;
  const kept = ROW[reserved && Math.abs(innerWidth - reserved) <= 1 ? Number(new URLSearchParams(location.search).get('bands')) - 1 : -1];
  const choices = all.slice(Math.max(all.indexOf(kept!), 0));
  const sum = (of: readonly CardField[], needs: Partial<Record<CardField, number>>) => of.reduce((total, f) => total + (needs[f] ?? 0), (of.length - 1) * gap);
  const fits = (arr: Arrangement, needs: Partial<Record<CardField, number>>): boolean =>
    arr === 'one'
      ? sum(CARD_FIELDS, needs) <= width
      : arr === 'two'
        ? sum(['number', 'expiry', 'cvc'], needs) <= width && (needs.name ?? 0) <= width
        : arr === 'split'
          ? Math.max(needs.number ?? 0, needs.name ?? 0, sum(['expiry', 'cvc'], needs)) <= width
          : true;
  let arr: Arrangement = 'column';
  let needs: Partial<Record<CardField, number>> = {};
  for (const choice of choices) {
    needs = needsOf(host, root, fields, choice);
    if (fits(choice, needs)) {
      arr = choice;
      break;
    }
  }
  if (host.getAttribute('arr') !== arr) host.setAttribute('arr', arr);
  for (const field of CARD_FIELDS) host.style.setProperty(`--_m-${field}`, `${needs[field] ?? 0}px`);
}
