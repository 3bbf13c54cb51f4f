import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardLink } from '../../server/admin/admin-routes.ts';
import { dashboardReady, goTo, openDashboard } from './helpers/dashboard.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';

/**
 * The dashboard's defences in Chromium, each by the attack it stops: a one-time link works once; the
 * licence key, typed once to sign in, never comes back to the page; a form on another site that
 * posts to a dashboard action is refused (SameSite=Strict keeps the cookie away, and the service
 * refuses the request's origin even so).
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

describe('signing in', () => {
  it('by the licence key with the keyboard alone; the key never comes back to the page', async () => {
    const { page, context, problems } = await stack.newPage({ viewport: { width: 1200, height: 900 } });
    const bodies: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${stack.serviceUrl}/dashboard/api/`)) void response.text().then((text) => bodies.push(text), () => {});
    });
    try {
      await page.goto(`${stack.serviceUrl}/dashboard/developers`);
      await dashboardReady(page, 'sign-in');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'licence_key', 'Tab reaches the key first');
      await page.keyboard.type('sk_test_wrong');
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'not one of this service' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'licence_key', 'focus goes back to the field');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(stack.service.credentials.licenceKey);
      await page.keyboard.press('Enter');
      await dashboardReady(page, 'developers');
      const keyText = await page.locator('dd code').nth(1).textContent();
      assert.equal(keyText, `sk_test_••••••••${stack.service.credentials.licenceKey.slice(-4)}`);

      // By keyboard to another section: focus lands on the new page's heading.
      for (let i = 0; i < 30 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Payments'; i++) await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent?.includes('Payments'));

      const html = await page.content();
      assert.ok(!html.includes(stack.service.credentials.licenceKey), 'the page holds the key');
      assert.ok(bodies.length >= 3);
      for (const body of bodies) assert.ok(!body.includes(stack.service.credentials.licenceKey), `an answer sent the key back: ${body.slice(0, 200)}`);
      const cookies = await context.cookies(`${stack.serviceUrl}/dashboard`);
      assert.deepEqual(
        cookies.filter(({ name }) => name !== 'cpe_dashboard_tz').map(({ name, httpOnly, sameSite, path }) => ({ name, httpOnly, sameSite, path })),
        [{ name: 'cpe_dashboard', httpOnly: true, sameSite: 'Strict', path: '/dashboard' }],
      );
      // The page's other cookie is the viewer's time zone (for Home's days, server/dashboard/first-page.ts): a number, no secret.
      assert.match(cookies.find(({ name }) => name === 'cpe_dashboard_tz')?.value ?? '', /^-?\d+$/);
      assert.deepEqual(problems.filter((p) => !p.includes('401')), []);
    } finally {
      await context.close();
    }
  });

  it('by a one-time link, which works once; the token leaves the address bar at once', async () => {
    const link = await dashboardLink(stack.service.services, stack.service.credentials.merchantId);
    const first = await stack.newPage();
    try {
      await first.page.goto(link.url);
      await dashboardReady(first.page, 'home');
      assert.equal(new URL(first.page.url()).hash, '', 'the token is gone from the address');
      assert.deepEqual(first.problems, []);
    } finally {
      await first.context.close();
    }
    const second = await stack.newPage();
    try {
      await second.page.goto(link.url);
      await second.page.getByRole('alert').filter({ hasText: 'used already or has expired' }).waitFor();
    } finally {
      await second.context.close();
    }
  });
});

describe('cross-site requests', () => {
  it('a form on another site that posts to a dashboard action is refused, and changes nothing', async () => {
    const { page, context } = await openDashboard(stack, { path: '/dashboard/developers' });
    try {
      const before = await stack.service.services.merchants.keysView(stack.service.credentials.merchantId);
      // The attacker's page, on another site, in the same browser as the signed-in dashboard.
      const evil = 'http://evil.example';
      const roll = `${stack.serviceUrl}/dashboard/api/keys/roll`;
      await context.route(`${evil}/**`, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><title>Win a prize</title>
            <form id="f" method="POST" action="${roll}"><input name="expiry" value="now"></form>`,
        }),
      );
      const attack = await context.newPage();
      await attack.goto(`${evil}/prize`);
      // The form, submitted as a victim's click would.
      const [answer] = await Promise.all([attack.waitForResponse(roll), attack.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit())]);
      assert.equal(answer.status(), 403);
      assert.equal((await answer.json()).error.code, 'cross_site_request');
      assert.equal((await answer.request().allHeaders()).cookie, undefined, 'SameSite=Strict: no cookie went along');
      assert.deepEqual(await stack.service.services.merchants.keysView(stack.service.credentials.merchantId), before, 'the key was not rolled');
      // The dashboard's own session is untouched and still works.
      await goTo(page, '/dashboard/developers');
      assert.equal(await page.locator('dd code').nth(1).textContent(), `sk_test_••••••••${stack.service.credentials.licenceKey.slice(-4)}`);
    } finally {
      await context.close();
    }
  });
});
