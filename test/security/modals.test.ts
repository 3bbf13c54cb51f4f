import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CARDS, typeCard } from '../e2e/helpers/checkout.ts';
import { pressEscape, pressTab } from '../e2e/helpers/frame-click.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Both modals (the 3-D Secure challenge, the wallet sheet) trap the keyboard: however often the
 * shopper presses Tab or Shift+Tab, focus stays in the dialog (its close button, or the service's
 * page inside it) and never reaches the merchant page behind it, whose script could then act on a
 * keystroke meant for the dialog. Escape closes them.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/**
 * Where the focus is on the merchant page: `dialog` (the dialog, its button or its frame), or what it
 * is outside it. Read in an animation frame after the dialog's trap has run in it (the trap brings
 * back, every frame, a focus Chromium let out of the dialog's cross-origin frame): the focus as it
 * rests, not in passing.
 */
const focusPlace = (page: Page, host: string) =>
  page.evaluate(async (host) => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const el = document.querySelector(host)!;
    let active: Element | null = document.activeElement;
    if (active === el) active = el.shadowRoot!.activeElement;
    const dialog = el.shadowRoot!.querySelector('dialog[open]');
    if (!active || active === document.body) return 'nothing';
    if (dialog && (active === dialog || dialog.contains(active))) return 'dialog';
    return `${active.localName}#${active.id} ${(active as HTMLIFrameElement).title} ${(active as HTMLIFrameElement).src?.slice(0, 60)} parent=${active.parentElement?.localName} root=${(active.getRootNode() as ShadowRoot).host?.localName}`;
  }, host);

async function assertTrapped(page: Page, host: string): Promise<void> {
  const seen = new Set<string>();
  for (const key of [...Array(14).fill('Tab'), ...Array(14).fill('Shift+Tab')]) {
    await page.keyboard.press(key);
    const place = await focusPlace(page, host);
    seen.add(place);
    assert.ok(place === 'dialog' || place === 'nothing', `${key} moved the focus to the merchant page: ${place}`);
  }
  assert.ok(seen.has('dialog'), 'the focus was in the dialog');
  assert.equal(await page.evaluate((host) => !!document.querySelector(host)!.shadowRoot!.querySelector('dialog[open]'), host), true, 'still open');
}

describe('the modals trap the keyboard', { timeout: scaled(600_000) }, () => {
  it('the 3-D Secure challenge', async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${stack.demoUrl}/components/card`);
      await page.locator('#status[data-state="ready"]').waitFor();
      await typeCard(page, CARDS.challenge);
      await page.click('#pay');
      await page.frameLocator('dialog iframe').locator('button[value="complete"]:enabled').waitFor();
      await assertTrapped(page, 'cpe-card');
      for (let i = 0; i < 4 && (await focusPlace(page, 'cpe-card')) !== 'dialog'; i++) await pressTab(page);
      await pressEscape(page, (timeout) => page.locator('#status[data-state="failure"]').waitFor({ timeout }));
    } finally {
      await context.close();
    }
  });

  it('the wallet sheet', async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${stack.demoUrl}/components/wallets`);
      await page.frameLocator('#wallet-a iframe').first().getByRole('button').click();
      await page.frameLocator('dialog iframe').getByRole('button', { name: 'Approve' }).waitFor();
      await assertTrapped(page, 'cpe-wallet-a');
      // Escape, from wherever in the dialog the focus ended (the sheet may still be waiting for its port).
      const open = () => page.evaluate(() => !!document.querySelector('cpe-wallet-a')!.shadowRoot!.querySelector('dialog[open]'));
      // (After Shift+Tab past the start, the focus may be in the browser's own UI: Tab comes back first.)
      const closed = (timeout: number) => page.waitForFunction(() => !document.querySelector('cpe-wallet-a')!.shadowRoot!.querySelector('dialog[open]'), undefined, { timeout });
      for (let i = 0; i < 8 && (await focusPlace(page, 'cpe-wallet-a')) !== 'dialog'; i++) await pressTab(page);
      await pressEscape(page, closed);
      assert.equal(await open(), false, 'Escape closes the sheet');
    } finally {
      await context.close();
    }
  });
});
