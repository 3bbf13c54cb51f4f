import type { Frame, Page } from 'playwright-core';

/**
 * Waits until what the page shows is final, instead of a pause before a picture or a measurement:
 * in every frame, each finite animation and transition has finished and two animation frames have
 * been painted since. Twice over, since a frame's layout can make another frame move (a resize
 * message, then the element's new height).
 */
export async function painted(page: Page): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const frame of page.frames()) {
      // Not the SDK's hidden page of the service (components/internal/frame.ts), nor any frame without a
      // viewport: a hidden frame paints nothing, ever (its address is read now: listed while still
      // about:blank, the hidden page was waited on for ever).
      if (frame.url().includes('/frames/keep/')) continue;
      // Nor a frame of another site scrolled out of its page's view: Chromium throttles its
      // rendering, and its animation frames never come (a phone-sized page's checkout waited for ever).
      if (frame !== page.mainFrame() && !(await inView(frame))) continue;
      await frame
        .evaluate(async () => {
          if (!innerWidth || !innerHeight) return;
          const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
          await Promise.all(finite.map((a) => a.finished.catch(() => {})));
          for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
        })
        .catch(() => {}); // a frame that went away meanwhile
    }
  }
}

/** Whether a frame's iframe is at least partly inside its parent's viewport (false once it is gone). */
async function inView(frame: Frame): Promise<boolean> {
  const element = await frame.frameElement().catch(() => undefined);
  return (
    (await element
      ?.evaluate((iframe: Element) => {
        const box = iframe.getBoundingClientRect();
        return box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
      })
      .catch(() => false)) ?? false
  );
}

/** Demo pages whose script sets `body[data-ready]` once its elements are mounted and ready. */
const SAYS_READY = ['/shop-checkout.js', '/checkout-context.js', '/card.js', '/fields.js', '/wallets.js'];

/**
 * Waits until a demo page is mounted and painted: its script's `body[data-ready]` (for the pages
 * whose script mounts elements), every hosted frame on it ready (elements written into the HTML
 * mount themselves), then `painted`.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  if (await page.locator(SAYS_READY.map((src) => `script[src="${src}"]`).join(', ')).count()) await page.waitForSelector('body[data-ready]', { state: 'attached' });
  // (No named function inside: tsx would wrap it in a helper the page does not have.)
  await page.waitForFunction(() => {
    const roots: Array<Document | ShadowRoot> = [document];
    const frames: HTMLIFrameElement[] = [];
    while (roots.length)
      for (const el of roots.pop()!.querySelectorAll('*')) {
        if (el instanceof HTMLIFrameElement && el.src.includes('/frames/') && !el.src.includes('/frames/keep/')) frames.push(el);
        if (el.shadowRoot) roots.push(el.shadowRoot);
      }
    return frames.every((frame) => frame.classList.contains('ready'));
  });
  await painted(page);
}
