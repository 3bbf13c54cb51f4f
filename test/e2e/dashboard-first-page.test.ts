import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardReady, openDashboard } from './helpers/dashboard.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';

/**
 * The dashboard's first page in Chromium (issue 21, "fast"): a signed-in visit's page carries its
 * first data (server/dashboard/first-page.ts), so Home shows its figures, charts drawn, without asking
 * the API for anything, and its controls work then. A visit that arrives from another site (no
 * cookie on that navigation: SameSite=Strict) gets the page without data, and the app asks for it.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

describe('the dashboard\'s first page', () => {
  it('signed in, Home shows its data and drawn charts with no API request, and its links work then', async () => {
    const { page, context, problems } = await openDashboard(stack);
    try {
      const asked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/dashboard/api/')) asked.push(request.url());
      });
      await page.goto(`${stack.serviceUrl}/dashboard`);
      await dashboardReady(page, 'home');
      // At ready: the bar's merchant, Home's figures and its four charts drawn, and none of the first
      // page's requests asked (the live polling's, from 2 s on, may be: a slow machine gets there).
      const shown = await page.evaluate(() => ({
        merchant: document.querySelector('.merchant-name')?.textContent ?? '',
        stats: document.querySelectorAll('main .stat').length,
        charts: document.querySelectorAll('main dash-chart svg').length,
        carried: Boolean(document.getElementById('dash-first')),
      }));
      const first = (url: string) => /\/dashboard\/api\/(session|home)\b|\/dashboard\/api\/events\?limit=1$/.test(url);
      assert.equal(asked.filter(first).length, 0, asked.join('\n'));
      assert.deepEqual(shown, { merchant: `CPE demo shop · ${stack.service.credentials.merchantId}`, stats: 4, charts: 4, carried: true });
      // The app is attached: a section link opens in the page, and that page asks for its own data.
      await page.getByRole('link', { name: 'Payments', exact: true }).click();
      await dashboardReady(page, 'payments');
      assert.ok(asked.some((url) => url.includes('/dashboard/api/payment_intents')), asked.join('\n'));
      // Nor the session or Home's figures since (the Payments page starts its own live polling).
      assert.ok(!asked.some((url) => /\/dashboard\/api\/(session|home)\b/.test(url)), asked.join('\n'));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('arriving from a link on another site (the cookie stays off that navigation), the app asks for the session and Home itself', async () => {
    const { page, context } = await openDashboard(stack);
    try {
      await page.goto(stack.demoUrl);
      const asked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/dashboard/api/')) asked.push(new URL(request.url()).pathname);
      });
      await page.evaluate((href) => {
        const link = document.createElement('a');
        link.href = href;
        link.textContent = 'Dashboard';
        document.body.append(link);
        link.click();
      }, `${stack.serviceUrl}/dashboard`);
      await page.waitForURL(`${stack.serviceUrl}/dashboard`);
      await dashboardReady(page, 'home');
      assert.equal(await page.evaluate(() => Boolean(document.getElementById('dash-first'))), false, 'the cross-site navigation carried the cookie');
      assert.ok(asked.includes('/dashboard/api/session') && asked.includes('/dashboard/api/home'), asked.join('\n'));
      assert.match((await page.textContent('.merchant-name')) ?? '', /CPE demo shop/);
      assert.equal(await page.locator('main dash-chart svg').count(), 4);
    } finally {
      await context.close();
    }
  });
});
