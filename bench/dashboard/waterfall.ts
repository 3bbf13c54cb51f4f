/**
 * The dashboard first page's waterfall (issue 21's "fast" goal, profiled): one signed-in first visit of
 * Home, each request's start and end and the app's marks, in ms since navigation start.
 *
 *   node --import tsx bench/dashboard/waterfall.ts [path] [payments, default 300 as bench/dashboard/run.ts seeds]
 */
import { loadavg } from 'node:os';
import { dashboardLink } from '../../server/admin/admin-routes.ts';
import { startStack } from '../../testkit/stack.ts';

const path = process.argv[2] ?? '/dashboard';
const count = Number(process.argv[3] ?? 300);
const stack = await startStack({ service: { rateLimit: { perSecond: 0, burst: 0 } } });
try {
  const { credentials, services } = stack.service;
  for (let i = 0; i < count; i++) {
    const { payments } = services;
    const created = await payments.create(credentials.merchantId, { merchantid: credentials.merchantId, amount: 500 + ((i * 137) % 9000), currency: 'GBP', identifier: `bench-${i}` } as never);
    const number = i % 6 === 4 ? '4000000000000002' : '4242424242424242';
    const token = (await payments.createToken(credentials.merchantId, { number, exp_month: '12', exp_year: String(new Date().getFullYear() + 2), cvc: '123', name: 'Bench' })) as { data: { cp_card_token: string } };
    await payments.attach(credentials.merchantId, created.paymentIntentId, { token: token.data.cp_card_token });
    await payments.confirm(credentials.merchantId, created.paymentIntentId, null);
    await payments.authorise(credentials.merchantId, created.paymentIntentId);
  }
  const link = await dashboardLink(stack.service.services, credentials.merchantId);
  const response = await fetch(`${stack.serviceUrl}/dashboard/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.serviceUrl, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ link: link.url.split('#')[1] }),
  });
  const [name, value] = response.headers.get('set-cookie')!.split(';')[0]!.split('=') as [string, string];
  for (let i = 0; i < 4; i++) {
    const context = await stack.browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.addCookies([{ name, value, url: `${stack.serviceUrl}/dashboard`, httpOnly: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    await page.goto(`${stack.serviceUrl}${path}`);
    await page.waitForSelector('html[data-ready]', { state: 'attached' });
    const rows = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const lines = [`nav: request ${nav.requestStart.toFixed(1)} responseStart ${nav.responseStart.toFixed(1)} responseEnd ${nav.responseEnd.toFixed(1)} domInteractive ${nav.domInteractive.toFixed(1)} DCL ${nav.domContentLoadedEventEnd.toFixed(1)} load ${nav.loadEventEnd.toFixed(1)} (${nav.transferSize} B)`];
      for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        lines.push(`${e.startTime.toFixed(1).padStart(7)} → ${e.responseEnd.toFixed(1).padStart(7)}  ${e.initiatorType.padEnd(8)} ${e.transferSize.toString().padStart(6)} B ${e.name.replace(location.origin, '')}`);
      for (const e of [...performance.getEntriesByType('mark'), ...performance.getEntriesByType('paint')]) lines.push(`${e.startTime.toFixed(1).padStart(7)}  mark ${e.name}`);
      return lines;
    });
    console.log(`--- visit ${i + 1} (load ${loadavg()[0]!.toFixed(1)})\n${rows.join('\n')}`);
    await context.close();
  }
} finally {
  await stack.close();
}
