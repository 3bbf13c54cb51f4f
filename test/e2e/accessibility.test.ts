import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { CARDS, cscFor, digitsOf, pressPay, typeCard, watchMerchantPage } from './helpers/checkout.ts';
import { DARK_PAGE, frameOf, openSheet, payInFlow, startLook } from './helpers/look.ts';
import { seriousViolations } from './helpers/axe.ts';
import { dialogClosed, focusIn, pressEscape, pressTab, pressUntil } from './helpers/frame-click.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { waitFor } from '../../testkit/wait.ts';

/**
 * axe-core (from npm) in every hosted frame and on the demo page: no serious or critical violation in
 * any of the six layouts, light and dark, nor in the 3-D Secure modal; and a whole payment with the
 * keyboard alone. The axe contexts bypass CSP only so that axe itself can be injected.
 */
const LAYOUTS = ['stack', 'row-minimal', 'row-compact', 'row', 'column-compact', 'column'];

let stack: Stack;
let look: Awaited<ReturnType<typeof startLook>>;
before(async () => {
  stack = await startStack();
  look = await startLook(stack);
});
after(async () => {
  await look?.close();
  await stack?.close();
});

const cardFrame = (page: Page) => page.frames().find((f) => f.url().includes('/frames/card-form/'))!;

async function open(path: string, query: Record<string, string>) {
  const opened = await stack.newPage({ bypassCSP: true });
  await watchMerchantPage(opened.page);
  await opened.page.goto(`${stack.demoUrl}${path}?${new URLSearchParams(query)}`);
  await opened.page.locator('#status[data-state="ready"]').waitFor();
  return opened;
}

describe('axe-core: no serious or critical violation', () => {
  for (const theme of ['light', 'dark']) {
    for (const layout of LAYOUTS) {
      it(`the card frame, ${layout}, ${theme}`, async () => {
        const { page, context } = await open('/components/card', { layout, theme });
        try {
          const frame = cardFrame(page);
          assert.deepEqual(await seriousViolations(frame), []);
          // With a validation message shown too.
          await page.frameLocator('iframe[title="Card payment"]').getByLabel('Card number').pressSequentially('4242424242424241');
          await page.frameLocator('iframe[title="Card payment"]').getByLabel('Expiry date').click();
          assert.deepEqual(await seriousViolations(frame), []);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('the field frames of <cpe-card-fields> and the demo page itself', async () => {
    const { page, context } = await open('/components/fields', { theme: 'dark' });
    try {
      for (const frame of page.frames().filter((f) => f.url().includes('/frames/field/'))) assert.deepEqual(await seriousViolations(frame), [], frame.url());
      assert.deepEqual(await seriousViolations(page), []);
    } finally {
      await context.close();
    }
  });

  it('the 3-D Secure modal: the dialog on the page and the challenge inside it', async () => {
    const { page, context } = await open('/components/card', {});
    try {
      await typeCard(page, CARDS.challenge);
      await pressPay(page);
      const challenge = page.frameLocator('dialog iframe');
      await challenge.getByRole('button', { name: 'Complete' }).waitFor();
      assert.deepEqual(await seriousViolations(page), []);
      const inner = page.frames().find((f) => f.url().includes('/frames/challenge'))!;
      assert.deepEqual(await seriousViolations(inner), []);
    } finally {
      await context.close();
    }
  });
});

describe('axe-core in the 3-D Secure challenge and the wallet sheet: left to right and right to left, light and dark', () => {
  for (const language of ['en', 'ar']) {
    for (const theme of ['light', 'dark'] as const) {
      const css = theme === 'dark' ? DARK_PAGE : '';
      it(`the challenge, ${language}, ${theme}: the dialog and the page inside it`, async () => {
        const { page, context } = await look.open({ factory: 'paymentFlow', options: { layout: 'stack', language, theme }, css, context: { bypassCSP: true } });
        try {
          await payInFlow(page, digitsOf(CARDS.challenge));
          await page.frameLocator('dialog iframe').locator('button[value=complete]').waitFor();
          const inner = frameOf(page, 'challenge');
          assert.equal(await inner.evaluate(() => document.documentElement.dir), language === 'ar' ? 'rtl' : 'ltr');
          assert.deepEqual(await seriousViolations(page), []);
          assert.deepEqual(await seriousViolations(inner), []);
        } finally {
          await context.close();
        }
      });
      it(`the wallet sheet, ${language}, ${theme}: the dialog and the sheet inside it`, async () => {
        const options = { language, theme, total: { amount: 1234, label: 'Order 42' }, appearance: { type: 'buy' } };
        const { page, context } = await look.open({ factory: 'walletA', options, css, context: { bypassCSP: true } });
        try {
          await openSheet(page);
          const inner = frameOf(page, 'wallet-sheet');
          assert.equal(await inner.evaluate(() => document.documentElement.dir), language === 'ar' ? 'rtl' : 'ltr');
          assert.deepEqual(await seriousViolations(page), []);
          assert.deepEqual(await seriousViolations(inner), []);
        } finally {
          await context.close();
        }
      });
    }
  }
});

describe('keyboard only', () => {
  it('a whole card payment, 3-D Secure included, with the keyboard alone', async () => {
    const { page, context } = await open('/components/card', { layout: 'row' });
    try {
      const card = cardFrame(page);
      const focusedField = () =>
        card.evaluate(() => {
          let active = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          return active?.getAttribute('autocomplete') ?? null;
        });
      // From the top of the page, Tab (each time once the focus has moved) until the card number has focus.
      await pressTab(page);
      for (let i = 0; i < 20 && (await focusedField()) !== 'cc-number'; i++) await pressTab(page);
      assert.equal(await focusedField(), 'cc-number', 'Tab reaches the card number');
      for (const text of [digitsOf(CARDS.challenge), '1230', cscFor(CARDS.challenge), 'Ada Lovelace']) {
        await page.keyboard.type(text);
        await pressTab(page);
      }
      // Focus left the cross-site frame for Pay.
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'pay');
      await page.keyboard.press('Enter');
      // The challenge modal takes focus; Tab reaches Complete inside it.
      const inner = async () => page.frames().find((f) => f.url().includes('/frames/challenge'));
      await page.waitForFunction(() => document.querySelector('cpe-card')?.shadowRoot?.querySelector('dialog[open]'));
      const challenge: Frame = await waitFor('the challenge frame', inner);
      await challenge.waitForSelector('button[value="complete"]:enabled');
      // One Tab from the dialog reaches Complete, once the focus has moved into the frame. Polled on
      // a timer, not on the frame's animation frames (Playwright's default): a check that waits for
      // the frame to paint again can wait for ever. If it fails, the error says where the focus went.
      await page.keyboard.press('Tab');
      await challenge
        .waitForFunction(() => document.hasFocus() && (document.activeElement as HTMLButtonElement | null)?.value === 'complete', undefined, { polling: 100 })
        .catch(async (error: Error) => assert.fail(`${error.message}\nThe focus is at ${await focusIn(page)}; the frames: ${page.frames().map((f) => new URL(f.url()).pathname).join(', ')}`));
      // Complete removes the frame the key went down in: the key goes up once the dialog is gone.
      await pressUntil(page, 'Enter', dialogClosed(page));
      const status = page.locator('#status[data-state="success"], #status[data-state="failure"]');
      await status.waitFor();
      assert.equal(await status.getAttribute('data-state'), 'success', (await status.textContent()) ?? '');
      // Focus came back to the page after the modal closed.
      assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'BODY');
    } finally {
      await context.close();
    }
  });

  it('Escape cancels the 3-D Secure modal, with a cpe:error, and the shopper can pay again', async () => {
    const { page, context } = await open('/components/card', {});
    try {
      await typeCard(page, CARDS.challenge);
      await pressPay(page);
      await page.frameLocator('dialog iframe').getByRole('button', { name: 'Complete' }).waitFor();
      await pressEscape(page, (timeout) => page.locator('#status[data-state="failure"]').waitFor({ timeout }));
      assert.equal(await page.evaluate(() => !!document.querySelector('cpe-card')?.shadowRoot?.querySelector('dialog[open]')), false);
      assert.ok((await page.evaluate(() => (window as unknown as { __cpeEvents: string[] }).__cpeEvents)).includes('cpe:error'));
    } finally {
      await context.close();
    }
  });
});
