import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { violations } from './helpers/axe.ts';
import { dashboardReady, goTo, openDashboard } from './helpers/dashboard.ts';
import { seedDashboardData, type SeededData } from './helpers/dashboard-data.ts';
import { shot } from './helpers/screenshots.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';

/**
 * Every page and dialog of the dashboard, light and dark: axe-core finds no violation of any impact;
 * at 320 px nothing is wider than the screen. With CPE_SCREENSHOTS=1 the run also takes the README's
 * pictures of the dashboard into docs/screenshots/.
 */
let stack: Stack;
let data: SeededData;
before(async () => {
  stack = await startStack();
  data = await seedDashboardData(stack);
});
after(async () => {
  await stack?.close();
});

/** Every page of the dashboard, by address: the lists and one object of each kind. */
const pages = () => [
  '/dashboard',
  '/dashboard/payments',
  `/dashboard/payments/${data.paymentId}`,
  '/dashboard/events',
  `/dashboard/events/${data.eventId}`,
  '/dashboard/webhooks',
  `/dashboard/webhooks/${data.endpointId}`,
  '/dashboard/developers',
];

/** Opens each dialog a page has (its buttons ending in "…"), checks it with axe, and closes it with Escape. */
async function dialogsOf(page: Page, where: string, found: string[]): Promise<void> {
  const openers = page.locator('main button', { hasText: '…' });
  for (let i = 0; i < (await openers.count()); i++) {
    const opener = openers.nth(i);
    const label = (await opener.textContent())!.trim();
    await opener.click();
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    for (const violation of await violations(page, 'dialog[open]')) found.push(`${where}, dialog "${label}": ${violation}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' }).catch(() => page.locator('dialog[open]').waitFor({ state: 'hidden' }));
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), label, `focus goes back to "${label}" after Escape`);
  }
}

describe('axe-core on every page and dialog of the dashboard', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`no violation of any impact, ${colorScheme}`, async () => {
      const { page, context, problems } = await openDashboard(stack, { colorScheme, bypassCSP: true });
      const found: string[] = [];
      try {
        for (const path of pages()) {
          await goTo(page, path);
          for (const violation of await violations(page)) found.push(`${path}: ${violation}`);
          await dialogsOf(page, path, found);
        }
        // The sign-in page too.
        const signIn = await stack.newPage({ colorScheme, bypassCSP: true });
        await signIn.page.goto(`${stack.serviceUrl}/dashboard`);
        await dashboardReady(signIn.page, 'sign-in');
        for (const violation of await violations(signIn.page)) found.push(`sign-in: ${violation}`);
        await signIn.context.close();
        assert.deepEqual(found, []);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  it('the theme switch overrides the system\'s scheme, and is kept', async () => {
    const { page, context } = await openDashboard(stack, { colorScheme: 'light' });
    try {
      const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const light = await background();
      await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
      assert.notEqual(await background(), light);
      await page.reload();
      await dashboardReady(page);
      assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    } finally {
      await context.close();
    }
  });
});

describe('a webhook attempt in full (the request sent, the answer received)', () => {
  it('axe finds nothing, light and dark; at 320 px it is no wider than the screen', async () => {
    for (const [colorScheme, width] of [['light', 1200], ['dark', 1200], ['light', 320]] as const) {
      const { page, context, problems } = await openDashboard(stack, { colorScheme, bypassCSP: true, viewport: { width, height: 800 } });
      try {
        await goTo(page, `/dashboard/webhooks/${data.endpointId}`);
        await page.locator('tbody tr[data-attempt]').first().getByRole('button', { name: /^View/ }).click();
        const detail = page.locator('tr.attempt-detail');
        await detail.getByRole('region', { name: 'Request body' }).waitFor();
        assert.deepEqual(await violations(page), [], `${colorScheme}, ${width} px`);
        assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, `wider than ${width} px`);
        if (width === 320) await shot(page, 'dashboard-webhook-attempt-phone-light', detail);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });
});

describe('at 320 px', () => {
  it('no page is wider than the screen, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, context } = await openDashboard(stack, { colorScheme, viewport: { width: 320, height: 640 } });
      try {
        for (const path of pages()) {
          await goTo(page, path);
          assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 320, `${path} (${colorScheme}) is wider than 320 px`);
        }
      } finally {
        await context.close();
      }
    }
  });
});

describe('the README\'s pictures of the dashboard', () => {
  it('light, dark, and a phone', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, context } = await openDashboard(stack, { colorScheme, viewport: { width: 1280, height: 860 } });
      try {
        for (const [path, name] of [
          ['/dashboard', 'home'],
          ['/dashboard/payments', 'payments'],
          [`/dashboard/payments/${data.paymentId}`, 'payment'],
          [`/dashboard/webhooks/${data.endpointId}`, 'webhook'],
          ['/dashboard/developers', 'developers'],
        ] as const) {
          await goTo(page, path);
          await shot(page, `dashboard-${name}-${colorScheme}`);
        }
      } finally {
        await context.close();
      }
    }
    const phone = await openDashboard(stack, { colorScheme: 'dark', viewport: { width: 320, height: 640 } });
    try {
      await goTo(phone.page, `/dashboard/payments/${data.paymentId}`);
      await shot(phone.page, 'dashboard-payment-phone-dark');
    } finally {
      await phone.context.close();
    }
  });
});
