import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../../../testkit/wait.ts';
import { scaled } from '../../../testkit/time.ts';

/**
 * Clicks a control (inside a cross-origin frame, or near one), and presses it by keyboard when the
 * click had no effect within `within` ms, saying so on stderr. Headless Chromium routes a mouse event
 * by a hit-test region that can lag a frame that just appeared, moved or changed height: Playwright's
 * checks pass, yet the event lands elsewhere. Seen on the 3-D Secure Complete button, and on Pay just
 * below the card frame, which then shrank just after ready (fixed: ready now carries the configured
 * form's height, and the fallback has not fired since). Keyboard input goes to the focused frame, with
 * no hit test. Tests of what the mouse itself may do (a blind click, a decoy) must not use this.
 */
export async function clickOrPress(control: Locator, effect: (timeout: number) => Promise<unknown>, { timeout = scaled(30_000), within = scaled(5_000) } = {}): Promise<void> {
  await control.click({ timeout });
  if (await effect(within).then(() => true, () => false)) return;
  if (await control.isEnabled({ timeout: 500 }).catch(() => false)) {
    console.error(`clickOrPress: the click on ${control} had no effect in ${within} ms; pressing Enter on it`);
    await control.press('Enter');
  }
  await effect(timeout);
}

/** The SDK's modal (3-D Secure or wallet sheet) has closed. */
export const dialogClosed = (page: Page) => (timeout: number) => page.locator('dialog[open]').waitFor({ state: 'detached', timeout });

/** An SDK modal is open. */
export const dialogOpen = (page: Page) => (timeout: number) => page.locator('dialog[open]').waitFor({ timeout });

/** Answers the 3-D Secure challenge in the SDK's dialog: the dialog closes once the page heard it. */
export const answerChallenge = (page: Page, button: 'Complete' | 'Fail' = 'Complete') =>
  clickOrPress(page.frameLocator('dialog iframe').getByRole('button', { name: button }), dialogClosed(page));

/**
 * Presses `key` where the focus is, and lets it go only once `done` holds (or `timeout` ms passed),
 * for a key whose effect removes the focused frame: Escape in a modal, Enter on the 3-D Secure
 * Complete button. The key goes down in the service's frame, which answers and is removed: a key up
 * sent to that frame while it is torn down never got Chromium's input acknowledgement in CI, and
 * `keyboard.press` hung until the suite's timeout. Once the frame is gone the key up goes to the page.
 */
export async function pressUntil(page: Page, key: string, done: (timeout: number) => Promise<unknown>, timeout = scaled(30_000)): Promise<void> {
  await page.keyboard.down(key);
  try {
    await done(timeout);
  } finally {
    await page.keyboard.up(key);
  }
}

/** Escape in a modal, let go once `closed` holds. */
export const pressEscape = (page: Page, closed: (timeout: number) => Promise<unknown>, timeout?: number) => pressUntil(page, 'Escape', closed, timeout);

/** Where the focus is, across the page's frames: each focused document's active element, through shadow roots, by its position. */
export async function focusIn(page: Page): Promise<string> {
  const each = await Promise.all(
    page.frames().map((frame) =>
      frame
        .evaluate(() => {
          if (!document.hasFocus()) return '';
          const path: string[] = [];
          let root: Document | ShadowRoot = document;
          for (let active = root.activeElement; active; active = active.shadowRoot?.activeElement ?? null) {
            path.push(`${active.localName}@${[...root.querySelectorAll('*')].indexOf(active)}`);
            if (active.shadowRoot) root = active.shadowRoot;
          }
          return path.join('>');
        })
        .catch(() => ''),
    ),
  );
  return each.join('|');
}

/**
 * Presses Tab and waits until the focus has moved: between frames of other sites it moves through
 * the browser process, after the key's acknowledgement, and a key sent before it lands is lost.
 */
export async function pressTab(page: Page, key = 'Tab'): Promise<void> {
  const before = await focusIn(page);
  await page.keyboard.press(key);
  await waitFor(`the focus to move on ${key}`, async () => (await focusIn(page)) !== before);
}
