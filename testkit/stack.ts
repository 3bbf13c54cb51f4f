import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { startDemo } from '../demo/server.ts';
import { CHROMIUM_FLAGS, chromiumPath } from '../scripts/chromium-path.mjs';
import { ensureBuilt } from '../scripts/ensure-built.mjs';
import type { Config } from '../server/config.ts';
import { startService, type RunningService } from '../server/start.ts';
import { boundSocket } from './processes.ts';
import { scaled } from './time.ts';

/**
 * The whole system as a shopper meets it: the real service (temp data folder, port 0, on
 * 127.0.0.1), the demo merchant on another origin (localhost, port 0, bound first), and headless Chromium. The
 * end-to-end and security suites and the SDK benchmark use it; each suite starts its own.
 *
 *   const stack = await startStack();
 *   const { page } = await stack.newPage();
 *   await page.goto(stack.demoUrl);
 *   …
 *   await stack.close();
 */
export interface Stack {
  service: RunningService;
  /** The service origin, e.g. http://127.0.0.1:41234. */
  serviceUrl: string;
  /** The demo merchant origin, e.g. http://localhost:41235: another site than the service. */
  demoUrl: string;
  /** The data folder of the service and the demo (its orders). */
  dataDir: string;
  browser: Browser;
  /** A fresh browser context and page; `problems` collects page errors, console errors and CSP violations. */
  newPage(options?: BrowserContextOptions): Promise<TestPage>;
  close(): Promise<void>;
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** Every wait of a page (an element, an event, a navigation), before CPE_TEST_TIME_SCALE. */
export const DEFAULT_TIMEOUT_MS = 60_000;

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** `service` overrides the service's configuration (e.g. `publicUrl: 'http://localhost:0'`, its limits). */
export async function startStack(options: { build?: boolean; service?: Partial<Config> } = {}): Promise<Stack> {
  // Tests run against the code as it is now: rebuild dist/ if a source is newer.
  if (options.build !== false && !ensureBuilt({ quiet: true })) throw new Error('dist/sdk/cpe.js is missing after vite build.');

  const cleanups: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch {
        // Keep tearing down the rest.
      }
    }
  };

  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'cpe-e2e-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    // The demo's socket first: the service registers the seeded merchant for the demo's origin.
    const demoSocket = await boundSocket(null);
    cleanups.push(() => void demoSocket.server.close());
    const config: Config = {
      port: 0,
      demoPort: demoSocket.port,
      dataDir,
      publicUrl: 'http://127.0.0.1:0',
      rateLimit: { perSecond: 0, burst: 0 },
      log: { level: 'silent' },
      ...options.service,
    };
    const service = await startService(config);
    cleanups.push(() => service.close());

    const demo = await startDemo({ port: demoSocket.server, credentials: service.credentials, dataDir });
    cleanups.push(() => closeServer(demo.server));

    const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS] });
    cleanups.push(() => browser.close());

    return {
      service,
      serviceUrl: service.url,
      demoUrl: demo.url,
      dataDir,
      browser,
      close,
      async newPage(options) {
        const context = await browser.newContext(options);
        // Every wait of a page: generous (twice Playwright's own 30 s) for a busy machine, and scaled.
        context.setDefaultTimeout(scaled(DEFAULT_TIMEOUT_MS));
        context.setDefaultNavigationTimeout(scaled(DEFAULT_TIMEOUT_MS));
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`);
        });
        // CSP violations (including ones a library catches) are recorded by the page itself.
        await context.addInitScript(() => {
          document.addEventListener('securitypolicyviolation', (event) => {
            console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
          });
        });
        return { context, page, problems };
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A CSP header as directive → sources. */
export function parseCsp(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}
