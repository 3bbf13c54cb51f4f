/**
 * Screenshots of every state of the frames, to look at (not a test): each layout light and dark, a
 * phone width, German and Arabic, invalid / focus / complete, the scheme marks, the card fields, the
 * Flows' processing, success and failure, the 3-D Secure challenge and the wallet sheet (light, dark,
 * left to right and right to left), and `theme: auto` on a light page under a dark OS and the reverse.
 *
 *   node --import tsx test/look/screenshots.ts [out-folder] [filter]   (default /tmp/cpe-look)
 *
 * It runs the real stack (service, Chromium) as the end-to-end suite does (testkit/stack.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DARK_PAGE, lookFrame as frame, openSheet, startLook, typeLookCard as typeCard, type LookSetup } from '../e2e/helpers/look.ts';
import { startStack } from '../../testkit/stack.ts';
import { painted } from '../e2e/helpers/settle.ts';

const out = process.argv[2] ?? '/tmp/cpe-look';
const filter = process.argv[3] ?? '';
mkdirSync(out, { recursive: true });
const LAYOUTS = ['stack', 'row-minimal', 'row-compact', 'row', 'column-compact', 'column'];

const stack = await startStack();
const look = await startLook(stack);
const field = (page: Page, name: string) => frame(page).locator(`#cpe-${name}`);

async function shot(name: string, setup: LookSetup, act?: (page: Page) => Promise<void>, full = false): Promise<void> {
  if (!name.includes(filter)) return;
  let opened: Awaited<ReturnType<typeof look.open>> | undefined;
  try {
    opened = await look.open(setup);
    const { page } = opened;
    await act?.(page);
    await painted(page);
    await (full ? page.screenshot({ path: join(out, `${name}.png`) }) : page.locator('#box').screenshot({ path: join(out, `${name}.png`) }));
    console.log(name);
  } catch (error) {
    console.error(`${name}: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    await opened?.context.close();
  }
}

try {
  for (const layout of LAYOUTS) {
    for (const theme of ['light', 'dark']) {
      await shot(`card-${layout}-${theme}`, { factory: 'cardElement', options: { layout, theme }, css: theme === 'dark' ? DARK_PAGE : '' });
    }
    for (const language of ['de', 'ar', 'cy']) await shot(`card-${layout}-${language}`, { factory: 'cardElement', options: { layout, language } });
    await shot(`card-${layout}-de-360`, { factory: 'cardElement', options: { layout, language: 'de' }, width: 320, context: { viewport: { width: 360, height: 800 } } });
  }
  for (const language of ['en', 'de', 'nl', 'es', 'cy', 'fi', 'el', 'ja']) await shot(`card-row-768-${language}`, { factory: 'cardElement', options: { layout: 'row', language }, width: 768, context: { viewport: { width: 840, height: 600 } } });
  for (const theme of ['light', 'dark']) {
    const css = theme === 'dark' ? DARK_PAGE : '';
    await shot(`state-invalid-${theme}`, { factory: 'cardElement', options: { layout: 'stack', theme }, css }, async (page) => {
      await field(page, 'number').pressSequentially('4242424242424241');
      await field(page, 'expiry').pressSequentially('1320');
      await field(page, 'name').focus();
    });
    await shot(`state-complete-${theme}`, { factory: 'cardElement', options: { layout: 'stack', theme }, css }, async (page) => {
      await typeCard(page, '5555555555554444');
      await field(page, 'number').focus();
      await field(page, 'name').focus();
      await page.keyboard.press('Shift+Tab');
    });
    await shot(`state-all-schemes-${theme}`, { factory: 'cardElement', options: { layout: 'row', theme, cardSchemesDisplay: 'all' }, css, width: 700 }, async (page) => {
      await field(page, 'number').pressSequentially('3782822463');
    });
    await shot(`fields-${theme}`, { factory: 'cardFieldsElement', options: { theme }, css });
  }
  for (const brand of [['visa', '4242'], ['mastercard', '5555'], ['amex', '3782'], ['discover', '6011'], ['diners', '3056'], ['jcb', '3530'], ['maestro', '6759']])
    await shot(`scheme-${brand[0]}`, { factory: 'cardElement', options: { layout: 'row' }, width: 700 }, (page) => field(page, 'number').pressSequentially(brand[1]!));

  for (const [theme, language] of [['light', 'en'], ['dark', 'de'], ['light', 'ar']] as const) {
    const css = theme === 'dark' ? DARK_PAGE : '';
    const setup: LookSetup = { factory: 'paymentFlow', options: { layout: 'stack', theme, language }, css };
    await shot(`flow-idle-${theme}-${language}`, setup);
    await shot(`flow-success-${theme}-${language}`, setup, async (page) => {
      await typeCard(page, '4242424242424242');
      await frame(page).locator('button.action').click();
      await frame(page).locator('.status.success').waitFor();
    });
    await shot(`flow-failure-${theme}-${language}`, setup, async (page) => {
      await typeCard(page, '4000000000000002');
      await frame(page).locator('button.action').click();
      await frame(page).locator('.status.failure').waitFor();
    });
    await shot(`challenge-${theme}-${language}`, setup, async (page) => {
      await typeCard(page, '4000000000003220');
      await frame(page).locator('button.action').click();
      await page.frameLocator('dialog iframe').locator('button[value=complete]').waitFor();
    }, true);
    await shot(`sheet-${theme}-${language}`, { factory: 'walletA', options: { theme, language, total: { amount: 1234, label: 'Order 42' }, appearance: { type: 'buy' } }, css }, async (page) => {
      await openSheet(page);
    }, true);
  }
  await shot('flow-processing', { factory: 'paymentFlow', options: { layout: 'row' }, width: 700 }, async (page) => {
    await typeCard(page, '4000000000003220');
    await frame(page).locator('button.action').click();
    await frame(page).locator('button.action[aria-disabled="true"]').waitFor();
  });
  await shot('verify-flow', { factory: 'verifyFlow', options: { layout: 'row', language: 'fr' }, width: 700 });
  await shot('challenge-phone', { factory: 'paymentFlow', options: { layout: 'stack' }, width: 340, context: { viewport: { width: 390, height: 760 } } }, async (page) => {
    await typeCard(page, '4000000000003220');
    await frame(page).locator('button.action').click();
    await page.frameLocator('dialog iframe').locator('button[value=complete]').waitFor();
  }, true);
  await shot('auto-light-page-dark-os', { factory: 'cardElement', options: { layout: 'stack' }, context: { colorScheme: 'dark' } });
  await shot('auto-dark-page-light-os', { factory: 'cardElement', options: { layout: 'stack' }, css: DARK_PAGE, context: { colorScheme: 'light' } });
  for (const [wallet, type] of [['walletA', 'buy'], ['walletB', 'checkout']] as const)
    await shot(`button-${wallet}-de`, { factory: wallet, options: { language: 'de', appearance: { type }, ...(wallet === 'walletB' && { merchantId: 'm1', merchantName: 'Shop' }) }, width: 320 });
} finally {
  await look.close();
  await stack.close();
}
