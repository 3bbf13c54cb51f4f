import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import type { Stack, TestPage } from '../../../testkit/stack.ts';
import { answerChallenge, clickOrPress } from './frame-click.ts';
import { scaled } from '../../../testkit/time.ts';

/** The contract's test cards, as a shopper types them. */
export const CARDS = {
  visa: '4242 4242 4242 4242',
  mastercard: '5555 5555 5555 4444',
  amex: '3782 822463 10005',
  challenge: '4000 0000 0000 3220',
  declined: '4000 0000 0000 0002',
  insufficient: '4000 0000 0000 9995',
  attachFail: '4000 0000 0000 0127',
  attachRetriable: '4000 0000 0000 0119',
  incorrectCvc: '4000 0000 0000 0101',
} as const;
export type CardName = keyof typeof CARDS;

export const digitsOf = (number: string) => number.replace(/\D/g, '');
const EVENT_NAMES = ['cpe:ready', 'cpe:change', 'cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:attach:end', 'cpe:confirm:start', 'cpe:confirm:end', 'cpe:challenge:start', 'cpe:challenge:end', 'cpe:authorise:start', 'cpe:authorise:end', 'cpe:error'];

export const cscFor = (number: string) => (digitsOf(number).length === 15 ? '7391' : '739');

/**
 * Records, in the merchant page's own window, every message it receives (window messages and
 * messages on any MessagePort it holds) and every cpe:* event, so a test can check that no card data
 * ever reached the page.
 */
export async function watchMerchantPage(page: Page): Promise<void> {
  // A string, not a function: tsx's name-keeping helper (`__name`) does not exist in the page.
  await page.addInitScript(`(() => {
    if (window !== window.top) return;
    const received = (window.__cpeReceived = []);
    const events = (window.__cpeEvents = []);
    const record = (data) => {
      try { received.push(JSON.stringify(data) ?? String(data)); } catch { received.push(String(data)); }
    };
    window.addEventListener('message', (event) => record(event.data), true);
    const descriptor = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
    Object.defineProperty(MessagePort.prototype, 'onmessage', {
      ...descriptor,
      set(handler) {
        descriptor.set.call(this, handler && ((event) => (record(event.data), handler.call(this, event))));
      },
    });
    const add = MessagePort.prototype.addEventListener;
    MessagePort.prototype.addEventListener = function (type, listener, options) {
      if (type === 'message') add.call(this, 'message', (event) => record(event.data));
      return add.call(this, type, listener, options);
    };
    for (const name of ${JSON.stringify(EVENT_NAMES)})
      document.addEventListener(name, (event) => (events.push(name), record(event.detail)));
  })();`);
}

/** Asserts that no card number (plain or formatted) is anywhere the merchant page can read. */
export async function assertNoCardDataOnMerchantPage(page: Page, number: string): Promise<void> {
  const digits = digitsOf(number);
  const { received, html, text } = await page.evaluate(() => {
    // The demo's printed list of test cards is the page's own text, not data that reached it.
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('.cards').forEach((node) => node.remove());
    return {
      received: (window as unknown as { __cpeReceived?: string[] }).__cpeReceived ?? [],
      html: copy.outerHTML,
      text: copy.querySelector('body')!.textContent ?? '',
    };
  });
  assert.ok(received.length > 0, 'the page received messages (the recorder works)');
  for (const haystack of [...received, html, text]) {
    assert.ok(!haystack.replace(/\D/g, '').includes(digits), `the card number reached the merchant page: ${haystack.slice(0, 200)}`);
  }
}

export const cpeEvents = (page: Page) => page.evaluate(() => (window as unknown as { __cpeEvents: string[] }).__cpeEvents.filter((e) => e !== 'cpe:change'));

/** Opens a component page (`/components/card`, `/components/fields`) with its settings and waits until the element is ready. */
export async function openCheckout(stack: Stack, path: '/components/card' | '/components/fields', settings: Record<string, string> = {}): Promise<TestPage> {
  const opened = await stack.newPage();
  await watchMerchantPage(opened.page);
  await opened.page.goto(`${stack.demoUrl}${path}?${new URLSearchParams(settings)}`);
  await opened.page.locator('#status[data-state="ready"]').waitFor();
  return opened;
}

/** The hosted frame holding a field: the card form's one frame, or the field's own frame. */
export function fieldFrame(page: Page, label: string, split: boolean): FrameLocator {
  return split ? page.frameLocator(`iframe[title="${label}"]`) : page.frameLocator('iframe[title="Card payment"]');
}

/** Types a card as a shopper would (key by key, so formatting runs). */
export async function typeCard(page: Page, number: string, { split = false, expiry = '1230', name = 'Ada Lovelace' } = {}): Promise<void> {
  await fieldFrame(page, 'Card number', split).getByLabel('Card number').pressSequentially(digitsOf(number));
  await fieldFrame(page, 'Expiry date', split).getByLabel('Expiry date').pressSequentially(expiry);
  await fieldFrame(page, 'Security code', split).getByLabel('Security code').pressSequentially(cscFor(number));
  await fieldFrame(page, 'Name on card', split).getByLabel('Name on card').fill(name);
}

/**
 * Clicks the page's own Pay button (`pay`), by keyboard when the click is lost (see clickOrPress), and
 * waits until the payment started: the page's #status said "busy" after this press (a status left
 * from an earlier attempt, a failure before a second card, must not pass for this attempt's), or the
 * page has gone on (the shop's checkout goes to the order page once paid).
 */
export async function pressPay(page: Page, pay = page.locator('#pay')): Promise<void> {
  await pay.waitFor();
  await page.evaluate(() => {
    const status = document.getElementById('status')!;
    const w = window as unknown as { __cpePayStarted: string };
    w.__cpePayStarted = location.pathname;
    new MutationObserver((_, observer) => {
      if (status.dataset.state === 'busy') (w.__cpePayStarted = 'busy'), observer.disconnect();
    }).observe(status, { attributes: true, attributeFilter: ['data-state'] });
  });
  const started = (timeout: number) =>
    page.waitForFunction(() => {
      const said = (window as unknown as { __cpePayStarted?: string }).__cpePayStarted;
      return said === 'busy' || said !== location.pathname;
    }, undefined, { timeout, polling: 100 });
  await clickOrPress(pay, started, { within: scaled(3_000) });
}

/** Clicks Pay and waits for the outcome the page shows: 'success' or 'failure', with its text. */
export async function pay(page: Page, challenge?: 'complete' | 'fail'): Promise<{ state: string; text: string }> {
  await pressPay(page);
  if (challenge) await answerChallenge(page, challenge === 'complete' ? 'Complete' : 'Fail');
  const status = page.locator('#status[data-state="success"], #status[data-state="failure"]');
  await status.waitFor();
  return { state: (await status.getAttribute('data-state'))!, text: (await status.textContent())! };
}

/** The demo's backend verify answer as the page shows it. */
export async function verifyShown(page: Page): Promise<Record<string, any> | undefined> {
  const text = await page.locator('#verify').textContent();
  return text ? JSON.parse(text) : undefined;
}
