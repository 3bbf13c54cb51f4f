/**
 * init → ready in headless Chromium, on the real stack the e2e tests use (`startStack`: the service
 * on 127.0.0.1 with a temp data folder, the demo merchant on localhost, Debian's Chromium with the
 * project's flags).
 *
 * The merchant page is served by the bench's own shop, a Node server on `localhost` (another site
 * than the service's 127.0.0.1), whose merchant the bench creates (so the frames' `frame-ancestors`
 * admits the page), with its backend route `/__bench/intent` (a Payment Intent of that merchant,
 * made with its licence key through CpeClient). Not Playwright's request routing: routing turns the
 * browser's HTTP cache off, and the warm figures (a returning shopper, a remount) need it. The page imports `<service>/sdk/cpe.js`, calls
 * `createElements({pubKey, createServerIntent})` with a createServerIntent that POSTs to that route, creates
 * `cardElement({element: '#mount'})`, then times `await el.init(); await el.awaitReady()` with
 * `performance.now()`. Each run is a new browser context (empty cache, new page).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { CpeClient, toSession } from '../../client/index.ts';
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

/** One run: init → ready, when its frame first painted (from init), the element's shifts, warm remounts. */
type Run = { ms: number; shownHeight?: string; phases?: Phases; hello?: number; session?: number; t0: number; origin: number; shift: number; skeletonShift: number; height: number; heights?: { h: number; shown: boolean }[]; fcp?: number; remounts?: number[] };
/** A frame's navigation, from the parent's start (init(), or the floor's append), in ms: its request sent, first byte, last byte, DOM parsed. */
export type Phases = { requestStart: number; responseStart: number; responseEnd: number; domInteractive: number };
type PageAnswer = Run | { missing: string } | { error: string };

const PAGE_PATH = '/__bench/sdk.html';

/** JSON safe inside a script element. */
const forScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function benchPage(serviceUrl: string, pubKey: string, warm = 0): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>CPE bench: card element init → ready</title></head>
<body>
<main style="max-width: 520px; margin: 2rem auto"><div id="mount"></div></main>
<script type="module">
const serviceUrl = ${forScript(serviceUrl)};
const pubKey = ${forScript(pubKey)};
// The element's heights as the page lays it out, from its insertion on, each with whether its frame
// was shown yet (the iframe gets class "ready" at the frame's hello, before the form's first paint),
// and the moment it was shown with the height its hello gave the iframe. Read as the page renders
// (ResizeObserver), never by forcing a layout inside the timed span: the floor's page does no such work.
const heights = [];
let shownAt;
let shownHeight;
const watch = (el) => {
  const iframe = () => el.shadowRoot?.querySelector('iframe');
  const frameShown = () => iframe()?.className === 'ready';
  new ResizeObserver(([entry]) => heights.push({ h: entry.borderBoxSize[0].blockSize, shown: frameShown(), t: performance.now() })).observe(el);
  new MutationObserver(() => {
    if (shownAt !== undefined || !frameShown()) return;
    shownAt = performance.now();
    shownHeight = iframe().style.height;
  }).observe(el.shadowRoot, { subtree: true, attributes: true, attributeFilter: ['class'] });
};
window.__cpeBench = (async () => {
  try {
    const sdk = await import(serviceUrl + '/sdk/cpe.js');
    if (typeof sdk.createElements !== 'function') return { missing: 'createElements' };
    let sessionAt;
    const createServerIntent = async () => {
      const response = await fetch('/__bench/intent', { method: 'POST' });
      if (!response.ok) throw new Error('demo backend answered ' + response.status);
      const session = await response.json();
      sessionAt ??= performance.now();
      return session;
    };
    const elements = await sdk.createElements({ pubKey, createServerIntent });
    if (typeof elements.cardElement !== 'function') return { missing: 'cardElement' };
    const mount = () => {
      const el = elements.cardElement({ element: '#mount' });
      if (!el || typeof el.init !== 'function') throw new Error('cardElement(…).init missing');
      return el;
    };
    let el = mount();
    const t0 = performance.now();
    const inserted = el.init();
    watch(el);
    await inserted;
    await el.awaitReady();
    const t1 = performance.now();
    // Until the frame's code has taken the form over (its port answers), and a little after.
    await el.reset();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The height the element had when its frame was shown (the last one laid out before), then each one after.
    const before = heights.filter((r) => !r.shown);
    const after = [...before.slice(-1), ...heights.filter((r) => r.shown)].map((r) => r.h);
    const shift = after.slice(1).reduce((sum, h, i) => sum + Math.abs(h - after[i]), 0);
    const reserved = heights[0] ? heights[0].h : 0;
    const final = after.length ? after[after.length - 1] : 0;
    const result = { ms: t1 - t0, t0, origin: performance.timeOrigin, shift, skeletonShift: Math.abs(final - reserved), height: final, heights, shownHeight, hello: shownAt === undefined ? undefined : shownAt - t0, session: sessionAt - t0 };
    // Warm remounts: the same page mounts a new card element (its frame page revalidated from the cache).
    if (${warm}) {
      result.remounts = [];
      for (let i = 0; i < ${warm}; i++) {
        el.remove();
        el = mount();
        const r0 = performance.now();
        await el.init();
        await el.awaitReady();
        result.remounts.push(performance.now() - r0);
      }
    }
    return result;
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

/**
 * The bench's shop: a Node server on `localhost` (port 0) serving the bench page and its intent route,
 * and its merchant, registered for that origin: its keys and a client with its licence key.
 */
interface Shop {
  url: string;
  publicKey: string;
  close(): void;
}
const shops = new WeakMap<Stack, Promise<Shop>>();
let orders = 0;
function shopOf(stack: Stack): Promise<Shop> {
  let shop = shops.get(stack);
  if (!shop) shops.set(stack, (shop = openShop(stack)));
  return shop;
}
async function openShop(stack: Stack): Promise<Shop> {
  let merchant: { publicKey: string; merchantId: number; client: CpeClient } | undefined;
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      if (request.method === 'POST' && url.pathname === '/__bench/intent') {
        const created = await merchant!.client.createPaymentIntent({ merchantid: merchant!.merchantId, amount: 1234, currency: 'GBP', identifier: `bench-${++orders}` });
        response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(toSession(created)));
      } else if (url.pathname === PAGE_PATH) {
        const page = benchPage(stack.serviceUrl, merchant!.publicKey, Number(url.searchParams.get('warm') ?? 0));
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(page);
      } else if (url.pathname === EVERY_PAGE) {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(everyPage(stack.serviceUrl, merchant!.publicKey));
      } else if (url.pathname === FLOOR_PAGE) {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(floorPage(url.searchParams.get('src') ?? '', Number(url.searchParams.get('remounts') ?? 0)));
      } else response.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  const m = await stack.service.services.merchants.create({ name: 'Bench Shop', origins: [url] });
  merchant = { ...m, client: new CpeClient({ licenceKey: m.licenceKey, baseUrl: stack.serviceUrl }) };
  return {
    url,
    publicKey: m.publicKey,
    close() {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** A context that may reach the service on loopback from the shop's page. */
async function prepare(stack: Stack, context: BrowserContext): Promise<Shop> {
  // Chromium's Local Network Access: the shop (localhost) and the service (127.0.0.1) are both
  // loopback; granting the permission keeps a future Chromium from asking.
  await context.grantPermissions(['local-network-access']);
  return shopOf(stack);
}

/** One timed run on `page`; throws on timeout. */
async function timed(shop: Shop, page: Page, timeoutMs: number, warm = 0): Promise<PageAnswer> {
  await page.goto(`${shop.url}${PAGE_PATH}?warm=${warm}`, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms (init or awaitReady never settled)`)), timeoutMs);
  });
  try {
    const answer = await Promise.race([page.evaluate('window.__cpeBench') as Promise<PageAnswer>, timeout]);
    if ('ms' in answer) {
      // The card frame's first contentful paint, on its own clock, from the page's init() call.
      const frame = page.frames().find((f) => f.url().includes('/frames/card-form/'));
      const painted = (await frame?.evaluate(() => ({ origin: performance.timeOrigin, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime }))) as { origin: number; fcp?: number } | undefined;
      if (painted?.fcp !== undefined) answer.fcp = painted.origin + painted.fcp - (answer.origin + answer.t0);
      if (frame) answer.phases = await phasesOf(frame, answer.origin + answer.t0);
    }
    return answer;
  } finally {
    clearTimeout(timer);
  }
}

/** The frame's navigation timing on the parent's clock, from `start` (an absolute time, ms). */
async function phasesOf(frame: Frame, start: number): Promise<Phases | undefined> {
  const nav = await frame.evaluate(() => {
    const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return entry && { origin: performance.timeOrigin, requestStart: entry.requestStart, responseStart: entry.responseStart, responseEnd: entry.responseEnd, domInteractive: entry.domInteractive };
  });
  if (!nav) return undefined;
  const at = (t: number) => nav.origin + t - start;
  return { requestStart: at(nav.requestStart), responseStart: at(nav.responseStart), responseEnd: at(nav.responseEnd), domInteractive: at(nav.domInteractive) };
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
    return await timed(await prepare(stack, context), page, timeoutMs);
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
    const shop = await prepare(options.stack, context);
    await timed(shop, first, options.timeoutMs);
    await first.close();
    const samples: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      const page = await context.newPage();
      const answer = await timed(shop, page, options.timeoutMs);
      await page.close();
      if (!('ms' in answer)) throw new Error(`warm run ${run + 1}: ${JSON.stringify(answer)}`);
      samples.push(answer.ms);
    }
    return summary(samples);
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * Warm remounts: one page, after its first card element is ready, removes it and mounts a new one
 * `runs` times (the controller's session is there, the frame page revalidates from the HTTP cache,
 * the renderer process is warm): the time from each `init()` to `awaitReady()`.
 */
export async function measureRemounts(options: { runs: number; timeoutMs: number; stack: Stack }): Promise<ReturnType<typeof summary>> {
  const { context, page } = await options.stack.newPage();
  try {
    const answer = await timed(await prepare(options.stack, context), page, options.timeoutMs * 2, options.runs);
    if (!('ms' in answer) || !answer.remounts) throw new Error(`remounts: ${JSON.stringify(answer)}`);
    return summary(answer.remounts);
  } finally {
    await context.close().catch(() => {});
  }
}

/** The floor's merchant page (the shop serves it, `floorPage` of its query's `src` and `remounts`). */
const FLOOR_PAGE = '/__bench/floor.html';

/** The floor's frame pages: one that only posts its message, and one that also shows one line of text. */
const FLOOR_FRAMES = {
  message: "<!doctype html><meta charset=utf-8><title>floor</title><script>parent.postMessage('floor', '*')</script>",
  paint: "<!doctype html><meta charset=utf-8><title>floor</title><p>Card number</p><script>parent.postMessage('floor', '*')</script>",
};

/**
 * The merchant page of a floor run: it appends a bare frame (`src`) and answers the time from the
 * append to the frame's message; with `remounts`, it then appends a second one and replaces it that
 * many times, as the card's warm remount does, and answers those times too. The first frame stays,
 * so the site's renderer process stays warm (as the card element's keep frame holds it).
 */
function floorPage(src: string, remounts = 0): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body><script>
const mount = () => new Promise((resolve) => {
  const iframe = document.createElement('iframe');
  iframe.src = ${forScript(src)};
  const said = (event) => {
    if (event.source !== iframe.contentWindow || event.data !== 'floor') return;
    removeEventListener('message', said);
    resolve({ iframe, ms: performance.now() - t0, start: performance.timeOrigin + t0 });
  };
  addEventListener('message', said);
  const t0 = performance.now();
  document.body.append(iframe);
});
window.__cpeBench = (async () => {
  const first = await mount();
  const remounts = [];
  for (let i = 0, last; i < ${remounts}; i++) {
    last?.remove();
    const next = await mount();
    remounts.push(next.ms);
    last = next.iframe;
  }
  return { ms: first.ms, start: first.start, remounts };
})();
</script></body></html>`;
}

/**
 * The browser's own floors on this machine, for scale, each a bare server on the service's host
 * (127.0.0.1, another port: another site than the merchant page), on the same kind of merchant page,
 * a fresh context per run:
 * - `once('message')`: from appending the iframe to the first message of a frame page that does
 *   nothing else (no code to load, no handshake, no render). No frame, of any SDK, is ready sooner.
 * - `once('paint')`: the same with one line of text in the page, and that frame's first contentful
 *   paint (from the append): no frame shows anything sooner.
 * - `remounts(n)`: in one page that keeps a first message frame, a second one appended and replaced
 *   `n` times: no frame is ready sooner on a warm remount.
 * `close()` stops the server.
 */
async function floorRunner(stack: Stack, timeoutMs: number) {
  const frame = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(request.url === '/paint' ? FLOOR_FRAMES.paint : FLOOR_FRAMES.message);
  });
  await new Promise<void>((resolve) => frame.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(frame.address() as AddressInfo).port}/`;
  const run = async <T>(src: string, remounts: number, read: (answer: { ms: number; start: number; remounts: number[] }, frame: Frame | undefined) => Promise<T>): Promise<T> => {
    const { context, page: tab } = await stack.newPage();
    try {
      const shop = await prepare(stack, context);
      await tab.goto(`${shop.url}${FLOOR_PAGE}?src=${encodeURIComponent(src)}&remounts=${remounts}`, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
      const answer = (await tab.evaluate('window.__cpeBench')) as { ms: number; start: number; remounts: number[] };
      return await read(answer, tab.frames().find((f) => f !== tab.mainFrame()));
    } finally {
      await context.close().catch(() => {});
    }
  };
  return {
    once(kind: keyof typeof FLOOR_FRAMES): Promise<{ ms: number; phases?: Phases; fcp?: number }> {
      return run(kind === 'paint' ? `${base}paint` : base, 0, async ({ ms, start }, frame) => ({
        ms,
        phases: frame && (await phasesOf(frame, start)),
        // Its first contentful paint comes after its message: awaited, never waited for by the clock.
        fcp: kind === 'paint' && frame ? await frame.evaluate(firstPaintAt).then((at) => at - start) : undefined,
      }));
    },
    remounts(count: number): Promise<number[]> {
      return run(base, count, async (answer) => answer.remounts);
    },
    close() {
      frame.close();
      frame.closeAllConnections();
    },
  };
}

/** In a frame: its first contentful paint, on the absolute clock, once it has happened. */
const firstPaintAt = () =>
  new Promise<number>((resolve) =>
    new PerformanceObserver((list, observer) => {
      const entry = list.getEntriesByName('first-contentful-paint')[0];
      if (entry) observer.disconnect(), resolve(performance.timeOrigin + entry.startTime);
    }).observe({ type: 'paint', buffered: true }),
  );

const medianPhases = (runs: Phases[]): Phases | undefined =>
  runs.length ? { requestStart: median(runs.map((p) => p.requestStart)), responseStart: median(runs.map((p) => p.responseStart)), responseEnd: median(runs.map((p) => p.responseEnd)), domInteractive: median(runs.map((p) => p.domInteractive)) } : undefined;

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

export type ReadyFigures = ReadyResult & {
  warm?: Figures;
  floor?: Figures;
  /** The browser's floor for a first paint: a bare frame with one line of text, its first contentful paint from the append. */
  paintFloor?: Figures;
  remounts?: Figures;
  /** The browser's floor for a warm remount: a bare frame removed and appended again in one page, each append to its message. */
  remountFloor?: Figures;
  /** The card frame's first contentful paint, from init(). */
  fcp?: Figures;
  /** From init(): the frame's hello (the form shown), and the merchant's createServerIntent answered. */
  hello?: Figures;
  /** Medians of each frame's navigation phases, the card's (from init()) and the floor's (from its append). */
  phases?: { card?: Phases; floor?: Phases };
  session?: Figures;
  /** The element's height changes after its frame was shown (px, summed per run), and between the reserved height and the form's. */
  shift?: { max: number; samples: number[] };
  skeletonShift?: { max: number; samples: number[] };
};

const EVERY_PAGE = '/__bench/every.html';
/** Every element of the SDK in HTML, under one provider. */
const EVERY_TAGS = ['cpe-card', 'cpe-card-fields', 'cpe-wallet-a', 'cpe-wallet-b', 'cpe-payment-flow', 'cpe-verify-flow', 'cpe-payment'];

function everyPage(serviceUrl: string, pubKey: string): string {
  const fields = ['number', 'expiry', 'cvc', 'name'].map((f) => `<div data-cpe-field="${f}"></div>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CPE bench: every element until ready</title></head>
<body><main style="max-width: 520px; margin: 2rem auto">
<script>
// Registered before the SDK loads: each element's first cpe:ready (or cpe:error, said as it is).
window.__cpeEvery = new Promise((resolve) => {
  const tags = ${forScript(EVERY_TAGS)};
  const ready = new Set();
  const errors = [];
  const settle = () => ready.size + errors.length >= tags.length && resolve({ ready: [...ready], errors });
  addEventListener('cpe:ready', (e) => (ready.add(e.target.localName), settle()), true);
  addEventListener('cpe:error', (e) => (errors.push(e.target.localName + ': ' + (e.detail && e.detail.message)), settle()), true);
});
</script>
<cpe-elements pub-key="${pubKey}" intent-url="/__bench/intent">
${EVERY_TAGS.map((tag) => (tag === 'cpe-card-fields' ? `<${tag}>${fields}</${tag}>` : tag === 'cpe-wallet-b' ? `<${tag} merchant-id="bench" merchant-name="Bench Shop"></${tag}>` : `<${tag}></${tag}>`)).join('\n')}
</cpe-elements>
<script type="module" src="${serviceUrl}/sdk/cpe.js"></script>
</main></body></html>`;
}

/**
 * A first visit of a page holding every element of the SDK (in HTML, one provider), until each is
 * ready: the /sdk/ and /frames/ paths Chromium requested from the service meanwhile (the eager SDK
 * as fetched), and which elements became ready.
 */
export async function measureEveryElement(options: { timeoutMs: number; stack?: Stack }): Promise<{ observed: string[]; ready: string[]; errors: string[] } | { error: string }> {
  let stack = options.stack;
  if (!stack) {
    const { startStack } = await import('../../testkit/stack.ts');
    stack = await startStack({ build: false });
  }
  try {
    const { context, page } = await stack.newPage();
    const shop = await prepare(stack, context);
    const observed = new Set<string>();
    const service = new URL(stack.serviceUrl).origin;
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === service && /^\/(sdk|frames)\//.test(url.pathname)) observed.add(url.pathname);
    });
    try {
      await page.goto(`${shop.url}${EVERY_PAGE}`, { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not every element was ready within ${options.timeoutMs} ms`)), options.timeoutMs)));
      const answer = (await Promise.race([page.evaluate('window.__cpeEvery'), timeout]).finally(() => clearTimeout(timer))) as { ready: string[]; errors: string[] };
      return { observed: [...observed], ...answer };
    } finally {
      await context.close();
    }
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    (await shops.get(stack))?.close();
    shops.delete(stack);
    if (!options.stack) await stack.close();
  }
}

export async function measureReady(options: { runs: number; timeoutMs: number; log: (line: string) => void; stack?: Stack }): Promise<ReadyFigures> {
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
  const paintFloorSamples: number[] = [];
  const fcps: number[] = [];
  const shifts: number[] = [];
  const skeletonShifts: number[] = [];
  const hellos: number[] = [];
  const cardPhases: Phases[] = [];
  const floorPhases: Phases[] = [];
  const sessions: number[] = [];
  try {
    floorRuns = await floorRunner(stack, options.timeoutMs).catch((error: Error) => ((floor = { error: error.message }), undefined));
    // First visits and the floors alternate (a first visit, then a run of each floor frame, each in a
    // fresh context), so that all see the same machine: its load moves them by a factor of two.
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
        if (answer.fcp !== undefined) fcps.push(answer.fcp);
        if (answer.hello !== undefined) hellos.push(answer.hello);
        if (answer.phases) cardPhases.push(answer.phases);
        if (answer.session !== undefined) sessions.push(answer.session);
        shifts.push(answer.shift);
        skeletonShifts.push(answer.skeletonShift);
        if (answer.skeletonShift || answer.shift) options.log(`run ${run}: the element's heights (px, whether its frame was shown) ${JSON.stringify(answer.heights?.map((r) => [r.h, r.shown]))}, the iframe's height when shown ${answer.shownHeight}`);
      }
      if (floorRuns && !floor) {
        try {
          const { ms, phases } = await floorRuns.once('message');
          const painted = await floorRuns.once('paint');
          if (run > 0) floorSamples.push(ms), paintFloorSamples.push(painted.fcp!);
          if (run > 0 && phases) floorPhases.push(phases);
        } catch (error) {
          floor = { error: (error as Error).message };
        }
      }
    }
    floor ??= summary(floorSamples);
    const paintFloor: Figures | undefined = 'error' in floor ? undefined : summary(paintFloorSamples);
    const sorted = [...result.samples].sort((a, b) => a - b);
    options.log(`ready (returning shopper, warm cache): ${options.runs} runs…`);
    const warm = await measureReadyWarm({ runs: options.runs, timeoutMs: options.timeoutMs, stack }).catch((error: Error) => ({ error: error.message }));
    options.log(`warm remounts in one page: ${options.runs}…`);
    const remounts = await measureRemounts({ runs: options.runs, timeoutMs: options.timeoutMs, stack }).catch((error: Error) => ({ error: error.message }));
    const remountFloor: Figures | undefined = floorRuns && !('error' in floor) ? await floorRuns.remounts(options.runs).then(summary, (error: Error) => ({ error: error.message })) : undefined;
    Object.assign(result, {
      warm,
      remounts,
      fcp: fcps.length ? summary(fcps) : { error: 'no first-contentful-paint entry in the card frame' },
      hello: hellos.length ? summary(hellos) : undefined,
      phases: { card: medianPhases(cardPhases), floor: medianPhases(floorPhases) },
      session: sessions.length ? summary(sessions) : undefined,
      shift: { max: Math.max(...shifts), samples: shifts },
      skeletonShift: { max: Math.max(...skeletonShifts), samples: skeletonShifts },
      floor,
      paintFloor,
      remountFloor,
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
    (await shops.get(stack))?.close();
    shops.delete(stack);
    if (!options.stack) await stack.close();
  }
}
