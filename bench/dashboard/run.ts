/**
 * Dashboard benchmark (issue 21).
 *
 *   npm run -s bench:dashboard [-- --runs 15 --payments 100000]
 *
 * 1. First page interactive: a signed-in first visit (new browser context, empty cache) of the
 *    dashboard's first page, Home, until its first data is on screen with the app's code running and
 *    its controls attached: the app's `dash:ready` mark, set once Home and its elements (the four
 *    charts, drawn at their width) have rendered its data, which the page carries in its HTML for a
 *    signed-in visit (server/dashboard/first-page.ts). Beside a static page of the same size: one
 *    HTML page of as many bytes as the dashboard's first visit transferred (its page, code,
 *    stylesheet and any API answers, headers included), served from a plain node:http server on the
 *    same machine, until its load event ends. Runs alternate, medians
 *    are compared: PASS when the dashboard's is at most 1.5× the static page's (the goal).
 * 2. Lists of 100,000 payments: the seeded merchant gets `--payments` Payment Intents, a second
 *    merchant 1,000. The Payments page's first visit, and the dashboard API's first page of 20 and a
 *    page 50,000 deep, for each: PASS when the big merchant's medians are at most 1.5× the small one's
 *    (a list read a page at a time by cursor costs the same whatever its length).
 *
 * Prints a table per part and a PASS/FAIL line per goal; exit 0 on FAIL too (1 only if it broke).
 * bench/dashboard/waterfall.ts prints one such visit's requests and marks, to see where the time goes.
 */
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { BrowserContext } from 'playwright-core';
import { dashboardLink } from '../../server/admin/admin-routes.ts';
import type { Services } from '../../server/services.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';

const { values: flags } = parseArgs({ options: { runs: { type: 'string' }, payments: { type: 'string' } } });
const runs = Math.max(3, Number(flags.runs ?? process.env.BENCH_RUNS ?? 15));
const bigList = Math.max(1_000, Number(flags.payments ?? 100_000));
const SMALL_LIST = 1_000;
const GOAL = 1.5;

const log = (line: string) => process.stderr.write(`${line}\n`);
const out = (line = '') => process.stdout.write(`${line}\n`);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const verdict = (ratio: number) => (ratio <= GOAL ? 'PASS' : 'FAIL');

// ---- data -------------------------------------------------------------------------------------------

const CARDS = ['4242424242424242', '4242424242424242', '4242424242424242', '5555555555554444', '4000000000000002', '4000000000009995'];

/** Payments that went somewhere: a few hundred through the whole flow (for Home's charts and declines). */
async function payments(services: Services, merchantId: number, count: number): Promise<void> {
  const { payments } = services;
  for (let i = 0; i < count; i++) {
    const created = await payments.create(merchantId, { merchantid: merchantId, amount: 500 + ((i * 137) % 9000), currency: 'GBP', identifier: `bench-${i}` } as never);
    const number = CARDS[i % CARDS.length]!;
    const token = (await payments.createToken(merchantId, { number, exp_month: '12', exp_year: String(new Date().getFullYear() + 2), cvc: '123', name: 'Bench' })) as { data: { cp_card_token: string } };
    await payments.attach(merchantId, created.paymentIntentId, { token: token.data.cp_card_token });
    await payments.confirm(merchantId, created.paymentIntentId, null);
    await payments.authorise(merchantId, created.paymentIntentId);
  }
}

/** Many intents, made in batches of one transaction each (created, not paid: the list is what is measured). */
async function manyIntents(services: Services, merchantId: number, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; ) {
    const batch = Math.min(2_000, count - done);
    await services.store.transaction(async () => {
      for (let i = 0; i < batch; i++)
        ids.push((await services.payments.create(merchantId, { merchantid: merchantId, amount: 1234, currency: 'GBP', identifier: `list-${done + i}` } as never)).paymentIntentId);
    });
    done += batch;
    if (done % 20_000 === 0 || done === count) log(`  ${done.toLocaleString('en-GB')} of ${count.toLocaleString('en-GB')} intents`);
  }
  return ids;
}

/** A dashboard session's cookie for a merchant (a one-time link, redeemed as the page would). */
async function sessionCookie(stack: Stack, merchantId: number): Promise<string> {
  const link = await dashboardLink(stack.service.services, merchantId);
  const response = await fetch(`${stack.serviceUrl}/dashboard/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.serviceUrl, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ link: link.url.split('#')[1] }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

async function signedInContext(stack: Stack, cookie: string): Promise<BrowserContext> {
  const context = await stack.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: `${stack.serviceUrl}/dashboard`, httpOnly: true, sameSite: 'Strict' }]);
  return context;
}

/**
 * A first visit of a dashboard page: ms from navigation start to its first data on screen, to the
 * app's code running (`boot`), and the bytes it transferred.
 */
async function visitDashboard(stack: Stack, cookie: string, path: string): Promise<{ ms: number; boot: number; bytes: number }> {
  const context = await signedInContext(stack, cookie);
  try {
    const page = await context.newPage();
    await page.goto(`${stack.serviceUrl}${path}`);
    await page.waitForSelector('html[data-ready]:not([data-ready="sign-in"])', { state: 'attached' });
    return await page.evaluate(() => {
      const ready = performance.getEntriesByName('dash:ready')[0]!.startTime;
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')] as PerformanceResourceTiming[];
      const boot = performance.getEntriesByName('dash:boot')[0]!.startTime;
      return { ms: ready, boot, bytes: entries.filter((e) => e.startTime <= ready).reduce((n, e) => n + e.transferSize, 0) };
    });
  } finally {
    await context.close();
  }
}

/** A first visit of the static page: ms from navigation start to the end of its load event. */
async function visitStatic(stack: Stack, url: string): Promise<number> {
  const context = await stack.browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
  } finally {
    await context.close();
  }
}

/** A static HTML page of `bytes` bytes on the wire (paragraphs of text), served by plain node:http. */
async function staticPage(bytes: number): Promise<{ url: string; close(): void }> {
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static page</title></head><body><h1>Static page</h1>';
  const tail = '</body></html>';
  const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
  // The answer's headers count too: leave room for them (about 150 bytes from node:http).
  const room = Math.max(0, bytes - head.length - tail.length - 150);
  const paragraph = '<p>The quick brown fox jumps over the lazy dog while the payments settle and the webhooks retry.</p>';
  const body = head + paragraph.repeat(Math.floor(room / paragraph.length)) + ' '.repeat(room % paragraph.length) + tail;
  const server = createServer((_req, res) => res.writeHead(200, headers).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** The dashboard API's list page as the Payments page asks for it: ms. */
async function apiPage(stack: Stack, cookie: string, query: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${stack.serviceUrl}/dashboard/api/payment_intents?limit=20${query}`, { headers: { cookie } });
  const body = (await response.json()) as { data?: unknown[] };
  if (!response.ok || body.data?.length !== 20) throw new Error(`list page: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  return performance.now() - started;
}

// ---- run --------------------------------------------------------------------------------------------

const stack = await startStack({ service: { rateLimit: { perSecond: 0, burst: 0 } } });
try {
  const { services, credentials } = stack.service;
  log('seeding: 300 payments through the whole flow (Home\'s charts)…');
  await payments(services, credentials.merchantId, 300);
  const seeded = await sessionCookie(stack, credentials.merchantId);

  // 1. First page interactive.
  log('warm-up visit of Home (its bytes size the static page)…');
  const warm = await visitDashboard(stack, seeded, '/dashboard');
  const still = await staticPage(warm.bytes);
  const dashboardMs: number[] = [];
  const bootMs: number[] = [];
  const staticMs: number[] = [];
  let bytes = warm.bytes;
  for (let i = 0; i < runs; i++) {
    const visit = await visitDashboard(stack, seeded, '/dashboard');
    dashboardMs.push(visit.ms);
    bootMs.push(visit.boot);
    bytes = visit.bytes;
    staticMs.push(await visitStatic(stack, still.url));
    log(`  run ${i + 1}/${runs}: dashboard ${ms(visit.ms)}, static ${ms(staticMs.at(-1)!)}`);
  }
  still.close();
  const firstRatio = median(dashboardMs) / median(staticMs);

  out('## First page interactive (Home, signed in, first visit)');
  out();
  out(`Machine: ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' / ')} (1, 5, 15 min) at the end of this part`);
  out(`Transferred by the dashboard's first visit: ${bytes.toLocaleString('en-GB')} B; the static page: ${warm.bytes.toLocaleString('en-GB')} B`);
  out(`Runs: ${runs}, alternating`);
  out();
  out('| | median | min | max |');
  out('|---|---|---|---|');
  out(`| Dashboard Home: its code running | ${ms(median(bootMs))} | ${ms(Math.min(...bootMs))} | ${ms(Math.max(...bootMs))} |`);
  out(`| Dashboard Home: first data on screen | ${ms(median(dashboardMs))} | ${ms(Math.min(...dashboardMs))} | ${ms(Math.max(...dashboardMs))} |`);
  out(`| Static page of the same size: load event end | ${ms(median(staticMs))} | ${ms(Math.min(...staticMs))} | ${ms(Math.max(...staticMs))} |`);
  out();
  out(`${verdict(firstRatio)}: first page interactive ${firstRatio.toFixed(2)}× a static page of the same size (goal ≤ ${GOAL}×)`);
  out();

  // 2. Lists of 100,000 payments.
  log(`seeding: ${bigList.toLocaleString('en-GB')} intents for the seeded merchant, ${SMALL_LIST.toLocaleString('en-GB')} for another…`);
  const big = await manyIntents(services, credentials.merchantId, bigList);
  const other = await services.merchants.create({ origins: [] });
  const small = await manyIntents(services, other.merchantId, SMALL_LIST);
  const smallCookie = await sessionCookie(stack, other.merchantId);
  const rows: { name: string; big: number[]; small: number[] }[] = [
    { name: 'Payments page, first visit', big: [], small: [] },
    { name: 'API: the first page of 20', big: [], small: [] },
    { name: 'API: a page deep in the list', big: [], small: [] },
  ];
  const deepBig = big[Math.floor(big.length / 2)]!;
  const deepSmall = small[Math.floor(small.length / 2)]!;
  for (let i = 0; i < runs; i++) {
    rows[0]!.big.push((await visitDashboard(stack, seeded, '/dashboard/payments')).ms);
    rows[0]!.small.push((await visitDashboard(stack, smallCookie, '/dashboard/payments')).ms);
    // Milliseconds move with the machine's load: ten requests of each per run, alternating.
    for (let j = 0; j < 10; j++) {
      rows[1]!.big.push(await apiPage(stack, seeded, ''));
      rows[1]!.small.push(await apiPage(stack, smallCookie, ''));
      rows[2]!.big.push(await apiPage(stack, seeded, `&starting_after=${deepBig}`));
      rows[2]!.small.push(await apiPage(stack, smallCookie, `&starting_after=${deepSmall}`));
    }
  }
  out(`## Lists: ${(bigList + 300).toLocaleString('en-GB')} payments beside ${SMALL_LIST.toLocaleString('en-GB')}`);
  out();
  out(`| | ${(bigList + 300).toLocaleString('en-GB')} payments (median) | ${SMALL_LIST.toLocaleString('en-GB')} payments (median) | ratio |`);
  out('|---|---|---|---|');
  const verdicts: string[] = [];
  for (const row of rows) {
    const ratio = median(row.big) / median(row.small);
    out(`| ${row.name} | ${ms(median(row.big))} | ${ms(median(row.small))} | ${ratio.toFixed(2)}× |`);
    verdicts.push(`${verdict(ratio)}: ${row.name.toLowerCase()} at ${(bigList + 300).toLocaleString('en-GB')} payments ${ratio.toFixed(2)}× the time at ${SMALL_LIST.toLocaleString('en-GB')} (goal ≤ ${GOAL}×)`);
  }
  out();
  for (const line of verdicts) out(line);
} catch (error) {
  log(`bench:dashboard broke: ${(error as Error).stack}`);
  process.exitCode = 1;
} finally {
  await stack.close();
}
