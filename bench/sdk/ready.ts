/**
 * init → ready in headless Chromium, on the real stack the e2e tests use (`startStack`: the service
 * on 127.0.0.1 with a temp data folder, the demo merchant on localhost, Debian's Chromium with the
 * project's flags).
 *
 * The merchant page is served on the demo's origin (the merchant origin the service seeded, so the
 * frames' `frame-ancestors` admits it, and `/api/payment-intents` is same-origin): Playwright answers
 * `<demo>/__bench/sdk.html` with the page below; every other request reaches the real demo and
 * service. The page imports `<service>/sdk/cpe.js`, calls `createElements({pubKey,
 * createServerIntent})` with a createServerIntent that POSTs to the demo backend, creates
 * `cardElement({element: '#mount'})`, then times `await el.init(); await el.awaitReady()` with
 * `performance.now()`. Each run is a new browser context (empty cache, new page).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import type { Stack } from '../../testkit/stack.ts';

export interface ReadyResult {
  status: 'measured' | 'not-measurable';
  /** Why not, when not measurable. */
  reason?: string;
  runs: number;
  /** Milliseconds of each measured run, in run order. */
  samples: number[];
  min?: number;
  median?: number;
  p90?: number;
  max?: number;
  warmup?: number;
  /** Page errors, console errors and CSP violations seen (deduplicated, with counts). */
  problems: Record<string, number>;
  chromium?: string;
  /**
   * Paths under /sdk/ and /frames/ that the browser requested from the service during the warm-up
   * run, from navigation until awaitReady resolved (every frame of the page included).
   */
  observed?: string[];
}

type PageAnswer = { ms: number } | { missing: string } | { error: string };

const PAGE_PATH = '/__bench/sdk.html';

/** JSON safe inside a script element. */
const forScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function benchPage(serviceUrl: string, pubKey: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>CPE bench: card element init → ready</title></head>
<body>
<main style="max-width: 520px; margin: 2rem auto"><div id="mount"></div></main>
<script type="module">
const serviceUrl = ${forScript(serviceUrl)};
const pubKey = ${forScript(pubKey)};
window.__cpeBench = (async () => {
  try {
    const sdk = await import(serviceUrl + '/sdk/cpe.js');
    if (typeof sdk.createElements !== 'function') return { missing: 'createElements' };
    const createServerIntent = async () => {
      const response = await fetch('/api/payment-intents', { method: 'POST' });
      if (!response.ok) throw new Error('demo backend answered ' + response.status);
      return response.json();
    };
    const elements = await sdk.createElements({ pubKey, createServerIntent });
    if (typeof elements.cardElement !== 'function') return { missing: 'cardElement' };
    const el = elements.cardElement({ element: '#mount' });
    if (!el || typeof el.init !== 'function') return { missing: 'cardElement(…).init' };
    if (typeof el.awaitReady !== 'function') return { missing: 'cardElement(…).awaitReady' };
    const t0 = performance.now();
    await el.init();
    await el.awaitReady();
    const t1 = performance.now();
    return { ms: t1 - t0 };
  } catch (error) {
    return { error: String(error && error.name) + ': ' + String(error && error.message) };
  }
})();
</script>
</body></html>`;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A context that answers the bench page (see `benchPage`) and may reach the service on loopback. */
async function prepare(stack: Stack, context: BrowserContext): Promise<void> {
  const html = benchPage(stack.serviceUrl, stack.service.credentials.publicKey);
  // A page answered by Playwright has no address space of its own, so Chromium's Local Network
  // Access treats it as public and refuses its requests to the service on 127.0.0.1; the demo's
  // real pages (localhost → 127.0.0.1, both loopback) never ask. Granting the permission gives
  // this page what the demo's own page has.
  await context.grantPermissions(['local-network-access']);
  await context.route(`${stack.demoUrl}${PAGE_PATH}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
}

/** One timed run on `page`; throws on timeout. */
async function timed(stack: Stack, page: Page, timeoutMs: number): Promise<PageAnswer> {
  await page.goto(`${stack.demoUrl}${PAGE_PATH}`, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms (init or awaitReady never settled)`)), timeoutMs);
  });
  try {
    return await Promise.race([page.evaluate('window.__cpeBench') as Promise<PageAnswer>, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One run in a fresh context (empty cache: a first visit); throws on timeout. */
async function once(stack: Stack, timeoutMs: number, problems: Record<string, number>, observed?: Set<string>): Promise<PageAnswer> {
  const { context, page, problems: seen } = await stack.newPage();
  let recording = true;
  if (observed) {
    const service = new URL(stack.serviceUrl).origin;
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (recording && url.origin === service && /^\/(sdk|frames)\//.test(url.pathname)) observed.add(url.pathname);
    });
  }
  try {
    await prepare(stack, context);
    return await timed(stack, page, timeoutMs);
  } finally {
    recording = false;
    for (const problem of seen) problems[problem] = (problems[problem] ?? 0) + 1;
    await context.close().catch(() => {});
  }
}

/**
 * init → ready for a returning shopper: one browser context for every run (the HTTP cache holds the
 * SDK and the frame's files, as it does on a second visit or a second checkout in a single-page app),
 * a new page and a new Payment Intent each run. One warm-up run fills the cache (not counted).
 */
export async function measureReadyWarm(options: { runs: number; timeoutMs: number; stack: Stack }): Promise<Pick<ReadyResult, 'samples' | 'median' | 'min' | 'p90' | 'max'>> {
  const { context, page: first } = await options.stack.newPage();
  try {
    await prepare(options.stack, context);
    await timed(options.stack, first, options.timeoutMs);
    await first.close();
    const samples: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      const page = await context.newPage();
      const answer = await timed(options.stack, page, options.timeoutMs);
      await page.close();
      if (!('ms' in answer)) throw new Error(`warm run ${run + 1}: ${JSON.stringify(answer)}`);
      samples.push(answer.ms);
    }
    return summary(samples);
  } finally {
    await context.close().catch(() => {});
  }
}

const FLOOR_PAGE = '/__bench/floor.html';

/**
 * The browser's own floor on this machine, for scale: the time from appending an iframe of another
 * site (a bare server on the service's host, 127.0.0.1, another port) to the first message from a
 * frame page that does nothing else (no code to load, no handshake, no render), on the same kind of
 * merchant page, a fresh context per run. No frame, of any SDK, can be ready sooner here.
 * `start()` serves that frame; `once()` is one run; `close()` stops the server.
 */
async function floorRunner(stack: Stack, timeoutMs: number) {
  const frame = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end("<!doctype html><meta charset=utf-8><title>floor</title><script>parent.postMessage('floor', '*')</script>");
  });
  await new Promise<void>((resolve) => frame.listen(0, '127.0.0.1', resolve));
  const src = `http://127.0.0.1:${(frame.address() as AddressInfo).port}/`;
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body><script>
window.__cpeBench = new Promise((resolve) => {
  addEventListener('message', (event) => { if (event.data === 'floor') resolve({ ms: performance.now() - t0 }); });
  const iframe = document.createElement('iframe');
  iframe.src = ${forScript(src)};
  const t0 = performance.now();
  document.body.append(iframe);
});
</script></body></html>`;
  return {
    async once(): Promise<number> {
      const { context, page: tab } = await stack.newPage();
      try {
        await context.grantPermissions(['local-network-access']);
        await context.route(`${stack.demoUrl}${FLOOR_PAGE}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: page }));
        await tab.goto(`${stack.demoUrl}${FLOOR_PAGE}`, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
        return ((await tab.evaluate('window.__cpeBench')) as { ms: number }).ms;
      } finally {
        await context.close().catch(() => {});
      }
    },
    close() {
      frame.close();
      frame.closeAllConnections();
    },
  };
}

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { samples, min: sorted[0], median: median(sorted), p90: quantile(sorted, 0.9), max: sorted[sorted.length - 1] };
};

/**
 * Starts the stack (or uses `options.stack`, left running), does one warm-up run (not counted) and
 * `runs` measured first visits, each followed by a run of the browser's floor, then the
 * returning-shopper runs.
 */
type Figures = Awaited<ReturnType<typeof measureReadyWarm>> | { error: string };

export async function measureReady(options: { runs: number; timeoutMs: number; log: (line: string) => void; stack?: Stack }): Promise<ReadyResult & { warm?: Figures; floor?: Figures }> {
  const problems: Record<string, number> = {};
  const result: ReadyResult = { status: 'not-measurable', runs: 0, samples: [], problems };
  let stack: Stack | undefined = options.stack;
  try {
    if (!stack) {
      // Imported here, so that sizes and peers are still reported when the service does not start.
      const { startStack } = await import('../../testkit/stack.ts');
      stack = await startStack({ build: false });
    }
    result.chromium = stack.browser.version();
  } catch (error) {
    result.reason = `the stack did not start: ${(error as Error).message}`;
    return result;
  }
  let floorRuns: Awaited<ReturnType<typeof floorRunner>> | undefined;
  let floor: Figures | undefined;
  const floorSamples: number[] = [];
  try {
    floorRuns = await floorRunner(stack, options.timeoutMs).catch((error: Error) => ((floor = { error: error.message }), undefined));
    // First visits and the floor alternate (a first visit, then a floor run, each in a fresh
    // context), so that both see the same machine: its load moves both by a factor of two.
    for (let run = 0; run <= options.runs; run++) {
      let answer: PageAnswer;
      const observed = run === 0 ? new Set<string>() : undefined;
      try {
        answer = await once(stack, options.timeoutMs, problems, observed);
      } catch (error) {
        answer = { error: (error as Error).message };
      }
      if ('missing' in answer) {
        result.reason = `${answer.missing} missing`;
        return result;
      }
      if ('error' in answer) {
        result.reason = `run ${run === 0 ? 'warm-up' : run} failed: ${answer.error}`;
        return result;
      }
      if (run === 0) {
        result.warmup = answer.ms;
        result.observed = [...observed!];
        options.log(`ready: warm-up ${answer.ms.toFixed(1)} ms (not counted)`);
      } else {
        result.samples.push(answer.ms);
      }
      if (floorRuns && !floor) {
        try {
          const ms = await floorRuns.once();
          if (run > 0) floorSamples.push(ms);
        } catch (error) {
          floor = { error: (error as Error).message };
        }
      }
    }
    floor ??= summary(floorSamples);
    const sorted = [...result.samples].sort((a, b) => a - b);
    options.log(`ready (returning shopper, warm cache): ${options.runs} runs…`);
    const warm = await measureReadyWarm({ runs: options.runs, timeoutMs: options.timeoutMs, stack }).catch((error: Error) => ({ error: error.message }));
    Object.assign(result, {
      warm,
      floor,
      status: 'measured',
      runs: sorted.length,
      min: sorted[0],
      median: median(sorted),
      p90: quantile(sorted, 0.9),
      max: sorted[sorted.length - 1],
    });
    return result;
  } finally {
    floorRuns?.close();
    if (!options.stack) await stack.close();
  }
}
