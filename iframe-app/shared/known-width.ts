import { readFragment } from '../../protocol/runtime/frame-address.ts';
import { loadCatalogue } from './i18n.ts';
import type { Texts } from './texts.ts';

/**
 * Resolves once `win`'s viewport is as wide as the element laid its iframe out (the address's
 * fragment says so), or, when the address says no width (a card field's element is `display:
 * contents`), once it has any; after `ms` at most. A frame of another site may run before its size
 * reaches it (none at all in Chromium): its first render and its hello's height were for that width,
 * and the element changed height just after ready (a payment element at 1100 px said the accordion's
 * 584 px, then drew tabs 361 px tall; a card field said 86 px, then 80). first-paint.ts waits so for
 * the card form the service sends.
 */
export function knownWidth(win: Window = window, width = readFragment(win.location.hash).look.width, ms = 200): Promise<void> {
  return new Promise((resolve) => {
    const done = () => (win.removeEventListener('resize', check), clearTimeout(timer), resolve());
    const check = () => (width ? Math.abs(win.innerWidth - width) <= 1 : win.innerWidth > 0) && done();
    win.addEventListener('resize', check);
    const timer = setTimeout(done, ms);
    check();
  });
}

/** The language's texts, once the frame also knows its width (for `startFrame`, which renders after them). */
export const textsAtWidth = (lang: string): Promise<Texts> => Promise.all([loadCatalogue(lang), knownWidth()]).then(([texts]) => texts);
