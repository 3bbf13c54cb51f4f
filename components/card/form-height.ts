import type { Layout } from '../../protocol/runtime/frame-address.ts';

/**
 * Widths (CSS px) from which the card form's fields fit in one, two or three bands, as the frame
 * chooses them (iframe-app/shared/arrange.ts measures the texts; these are its choices in English with
 * the system font): with the scheme's mark in the number field (`detected`), then without (`all`, `none`).
 */
const FITS: Partial<Record<Layout, [number[], number[]]>> = {
  row: [[572, 468, 244], [536, 456, 228]],
  'row-compact': [[556, 460, 244], [516, 444, 228]],
  'row-minimal': [[540, 460, 244], [500, 444, 228]],
  stack: [[1e5, 1e5, 244], [1e5, 1e5, 228]],
};

/**
 * The card form's height at `width`, from the frame's own measures (iframe-app/shared/styles.ts: a
 * band is a label, half a gap and an input; bands are a gap apart; the marks' strip above), with the
 * element's `--cpe-gap` and `--cpe-control-height`: the element reserves it at once, so the page
 * does not move when the form appears. Where another language or font lays the form out otherwise,
 * the frame's hello brings its height before the form is shown.
 */
export function formHeight(layout: Layout, width: number, marks: string | undefined, style: CSSStyleDeclaration): number {
  const token = (name: string, fallback: number) => {
    const value = style.getPropertyValue(name).trim();
    return /^\d+(\.\d+)?(px)?$/.test(value) ? parseFloat(value) : fallback;
  };
  const compact = layout.endsWith('-compact');
  const gap = token('--cpe-gap', 12);
  const lgap = compact ? gap / 3 : gap / 2;
  const band = token('--cpe-control-height', 44) - (compact ? 4 : 0) + (layout === 'row-minimal' ? 0 : (compact ? 16 : 18) + lgap);
  const fit = (FITS[layout]?.[marks && marks !== 'detected' ? 1 : 0] ?? []).findIndex((w) => width >= w);
  const bands = fit < 0 ? 4 : fit + 1;
  return Math.ceil((marks === 'all' ? (width < 256 ? 46 : 20) + lgap : 0) + bands * band + (bands - 1) * gap);
}
