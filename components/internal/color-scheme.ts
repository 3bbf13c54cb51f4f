import type { ColorScheme } from '../../protocol/schemas/bridge.ts';
import type { Theme } from '../../protocol/runtime/frame-address.ts';

/**
 * The colour scheme and background of the page around `el`, which `theme: 'auto'` follows (not only the operating
 * system's preference: a light page under a dark OS stays light). The first ancestor, through shadow
 * roots, whose background is mostly opaque decides by its luminance (below 0.2, where white text
 * reads better than black, is dark). Over a transparent page the canvas shows: dark only when the
 * page's `color-scheme` (computed on `el`) allows dark, and for `light dark` only when the OS prefers it.
 */
export function pageBackdrop(el: Element): { scheme: ColorScheme; background?: string } {
  for (let node: Element | null = el; node; node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null)) {
    // Computed colours are rgb(), lab()/lch() (lightness 0–100), oklab()/oklch() (0–1) or color(space r g b).
    const background = getComputedStyle(node).backgroundColor;
    const c = background.replace(/color\(\S+/, 'c(');
    const [x = 0, y = 0, z = 0, a = 1] = c.match(/[\d.]+/g)!.map(Number);
    if (a >= 0.5) {
      const rgb = 0.299 * x + 0.587 * y + 0.114 * z;
      return { scheme: (c[0] === 'r' ? rgb / 255 : c[0] === 'c' ? rgb : c[0] === 'o' ? x : x / 100) < 0.49 ? 'dark' : 'light', background };
    }
  }
  const words = getComputedStyle(el).colorScheme.split(/\s+/);
  const dark = words.includes('dark') && (!words.includes('light') || matchMedia('(prefers-color-scheme: dark)').matches);
  return { scheme: dark ? 'dark' : 'light' };
}

/**
 * How an element's frames and dialogs look: a forced `theme`, or for `auto` the page's scheme; and
 * the page's background when it agrees with that scheme (the frames paint it, so they sit on the
 * page seamlessly and their contrast is checked against what the shopper sees).
 */
export function resolveLook(el: Element, theme: Theme = 'auto'): { scheme: ColorScheme; background?: string } {
  const page = pageBackdrop(el);
  return theme === 'auto' || theme === page.scheme ? page : { scheme: theme };
}
