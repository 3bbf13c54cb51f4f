import type { BrowserContextOptions, FrameLocator, Page } from 'playwright-core';
import { cscFor, digitsOf, pressPay } from './checkout.ts';
import type { Stack, TestPage } from '../../../testkit/stack.ts';
import { clickOrPress, dialogOpen } from './frame-click.ts';

/** The shop's payment methods, as `/checkout?method=` names them. */
export const METHODS = ['payment', 'card', 'fields', 'flow', 'wallet-a', 'wallet-b', 'express', 'verify'] as const;
export type Method = (typeof METHODS)[number];

/** A new shopper (fresh cookies) on the shop in `lang`. */
export async function openShop(stack: Stack, options: BrowserContextOptions & { lang?: string } = {}): Promise<TestPage> {
  const { lang = 'en', ...context } = options;
  const opened = await stack.newPage({ viewport: { width: 1100, height: 900 }, ...context });
  await opened.page.goto(`${stack.demoUrl}/?lang=${lang}`);
  return opened;
}

/** Puts a notebook and a pen in the basket (£32.50), by the shop's own buttons. */
export async function fillBasket(page: Page): Promise<void> {
  for (const index of [0, 1]) {
    await page.locator('.product button').nth(index).click();
    await page.locator('#status:not([hidden])').waitFor();
  }
}

/** Opens the checkout with a method and waits until its element is mounted. */
export async function checkout(page: Page, stack: Stack, method: Method): Promise<void> {
  await page.goto(`${stack.demoUrl}/checkout?method=${method}`);
  await page.waitForSelector('body[data-ready]', { state: 'attached' });
}

/** The frame to type a card into: the card form's, a Flow's, or (split) a field's own frame. */
export const cardFrame = (page: Page, field?: string): FrameLocator =>
  field ? page.frameLocator(`#pay-element iframe[title="${field}"]`) : page.frameLocator('#pay-element iframe').first();

export async function typeShopCard(page: Page, number: string, split = false): Promise<void> {
  const at = (label: string) => cardFrame(page, split ? label : undefined).getByLabel(label);
  await at('Card number').pressSequentially(digitsOf(number));
  await at('Expiry date').pressSequentially('1230');
  await at('Security code').pressSequentially(cscFor(number));
  await at('Name on card').fill('Ada Lovelace');
}

/** Pays with the checkout's own Pay button (the card and card fields methods) once the form is complete. */
export const payInShop = (page: Page): Promise<void> => pressPay(page, page.locator('#pay:not([disabled])'));

/** Presses a wallet button (in its frame under `mount`), then answers the wallet test sheet. */
export async function useWallet(page: Page, mount: string, answer: 'visa' | 'declined' | 'cancel'): Promise<void> {
  await clickOrPress(page.frameLocator(`${mount} iframe`).first().getByRole('button'), dialogOpen(page));
  const sheet = page.frameLocator('dialog iframe');
  if (answer === 'cancel') return sheet.getByRole('button', { name: 'Cancel' }).click();
  await sheet.getByLabel(answer === 'visa' ? /4242/ : /0002/).check();
  await sheet.getByRole('button', { name: 'Approve' }).click();
}

/** The order page the checkout goes to once paid: its outcome and the checks' rows. */
export async function orderShown(page: Page): Promise<{ reference: string; status: string; checks: Record<string, { expected: string; got: string; passed: boolean }> }> {
  await page.waitForURL(/\/orders\/ORD-/).catch(async (error: Error) => {
    const said = await page
      .evaluate(() => {
        const status = document.getElementById('status');
        return status ? `${status.dataset.state}: ${status.textContent}` : 'none';
      })
      .catch(() => 'unknown');
    throw new Error(`${error.message}\nAt ${new URL(page.url()).pathname}; the checkout's status: ${said}`);
  });
  const status = (await page.locator('#order-status').getAttribute('data-status'))!;
  const rows = await page.locator('table.checks tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [tr.getAttribute('data-check')!, { expected: tr.children[1]!.textContent!, got: tr.children[2]!.textContent!, passed: tr.getAttribute('data-passed') === 'true' }] as const),
  );
  return { reference: decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!), status, checks: Object.fromEntries(rows) };
}
