import type { Layout } from '../../protocol/runtime/frame-address.ts';

/**
 * About the smallest each layout's card form is drawn, in CSS pixels, for a page that sizes a
 * container before the SDK has loaded (exported by the package). The elements reserve the form's own
 * height at their width (internal/card-form-frame.ts), so the page does not jump when the form
 * appears; the frame then takes its content's height (validation messages included). Minimum width:
 * 200 px (or the container's width if narrower).
 */
export const LAYOUT_MIN_HEIGHT: Record<Layout, number> = { stack: 180, 'row-minimal': 48, 'row-compact': 64, row: 72, 'column-compact': 220, column: 280 };

/**
 * Widths (CSS px) from which the card form's fields fit in one or two bands (from 250 px, three), as
 * the frame chooses them (iframe-app/shared/arrange.ts measures the texts, with the system font) with
 * the scheme's mark in the number field: in English (the wider of en and en-US), then the widest of
 * the other 51 languages. Without the mark (`all`, `none`), 36 and 14 px less. The frame keeps the
 * bands reserved (the address's `bands`) wherever they fit, so a language narrower than the one
 * measured does not change the element's height either (test/iframe-app/first-paint.test.ts).
 */
const FITS: Partial<Record<Layout, number[]>> = {
  row: [594, 467, 726, 559],
  'row-compact': [565, 460, 683, 516],
  'row-minimal': [540, 460, 631, 468],
  // Never one or two bands: a width compared with no number is false.
  stack: [],
};

/**
 * The card form's bands at `width` in `language` (1 to 4), and its height, from the frame's own
 * measures (iframe-app/shared/styles.ts: a band is a label, half a gap and an input; bands are a gap
 * apart; the marks' strip above), with the element's `--cpe-gap` and `--cpe-control-height`: the
 * element reserves it at once, so the page does not move when the form appears. Where a font lays the
 * form out otherwise, the frame's hello brings its height before the form is shown.
 */
export function formHeight(layout: Layout, width: number, marks: string | undefined, language: string | undefined, style: CSSStyleDeclaration): [number, number] {
  const token = (name: string, fallback: number) => {
    const value = style.getPropertyValue(name).trim();
    return /^\d+(\.\d+)?(px)?$/.test(value) ? parseFloat(value) : fallback;
  };
  const compact = layout.endsWith('-compact');
  const gap = token('--cpe-gap', 12);
  const lgap = compact ? gap / 3 : gap / 2;
  const band = token('--cpe-control-height', 44) - (compact ? 4 : 0) + (layout === 'row-minimal' ? 0 : (compact ? 16 : 18) + lgap);
  const fits = FITS[layout];
  const at = /^en/i.test(language ?? 'en') ? 0 : 2;
  const less = marks && marks !== 'detected' ? 1 : 0;
  const bands = fits ? [fits[at]! - 36 * less, fits[at + 1]! - 14 * less, 250, 0].findIndex((w) => width >= w) + 1 : 4;
  return [Math.ceil((marks === 'all' ? (width < 256 ? 46 : 20) + lgap : 0) + bands * band + (bands - 1) * gap), bands];
}

/** A Flow's own Pay button and the gap above it: the input's height (4 px less in the compact layouts) and 12 px. */
export const buttonBand = (layout: Layout): number => (layout.endsWith('-compact') ? 52 : 56);
