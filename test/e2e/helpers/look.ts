import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContextOptions, FrameLocator, Page } from 'playwright-core';
import { CpeClient, toSession } from '../../../client/index.ts';
import type { Stack, TestPage } from '../../../testkit/stack.ts';

/** An element as a merchant page mounts it: the factory and its options (`element` is filled in). */
export interface LookSetup {
  factory: 'cardElement' | 'cardFieldsElement' | 'paymentFlow' | 'verifyFlow' | 'walletA' | 'walletB';
  options?: Record<string, unknown>;
  /** The mount target's width in CSS pixels (default 520, the demo's). */
  width?: number;
  /** Extra CSS of the merchant page (its background, `color-scheme`, fonts…). */
  css?: string;
  /** Browser context options: `colorScheme` (the OS's preference), `viewport`… */
  context?: BrowserContextOptions;
}

/**
 * A merchant for looking at one element at a time: a small page server on `localhost` (another site
 * than the service on 127.0.0.1) registered as a test merchant's origin. `open(setup)` serves a page
 * mounting that element; its `/look/intent` creates a £12.34 Payment Intent (`?verify=1`: a card
 * check) with the licence key. The page sets `document.body.dataset.ready` on `cpe:ready`.
 */
export async function startLook(stack: Stack): Promise<{ origin: string; open(setup: LookSetup): Promise<TestPage>; close(): Promise<void> }> {
  const pages = new Map<string, string>();
  let order = 0;
  let credentials: { licenceKey: string; merchantId: number; publicKey: string };
  let client: CpeClient;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/look/intent') {
      const verify = url.searchParams.has('verify');
      const created = await client.createPaymentIntent({
        merchantid: credentials.merchantId,
        amount: verify ? 0 : 1234,
        currency: 'GBP',
        identifier: `look-${Date.now()}-${++order}`,
        ...(verify && { purpose: 'verify' as const }),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(toSession(created)));
      return;
    }
    const page = pages.get(url.pathname);
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  credentials = await Promise.resolve(stack.service.services.merchants.create({ name: 'Look Shop', origins: [origin] }));
  client = new CpeClient({ licenceKey: credentials.licenceKey, baseUrl: stack.serviceUrl });
  return {
    origin,
    async open(setup) {
      const path = `/look/${++order}`;
      pages.set(path, lookPage(stack.serviceUrl, credentials.publicKey, setup));
      const opened = await stack.newPage({ viewport: { width: 800, height: 900 }, ...setup.context });
      await opened.page.goto(`${origin}${path}`);
      await opened.page.waitForSelector('body[data-ready]', { state: 'attached' }).catch((error: Error) => {
        throw new Error(`${error.message.split('\n')[0]}; page problems: ${opened.problems.join(' | ')}`);
      });
      return opened;
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function lookPage(serviceUrl: string, publicKey: string, setup: LookSetup): string {
  const { factory, options = {}, width = 520, css = '' } = setup;
  const verify = factory === 'verifyFlow';
  const fields = factory === 'cardFieldsElement';
  const config = JSON.stringify({ factory, options, verify, fields }).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Look</title><style>body{margin:0;padding:24px;font:16px/1.4 system-ui,sans-serif}#box{width:${width}px;max-width:100%}
#box>div{margin-bottom:12px}button.merchant{display:block;width:100%;height:44px;margin-top:12px;border:0;border-radius:6px;background:#1a5fd6;color:#fff;font:inherit}${css}</style></head>
<body><main id="box">${fields ? '<div data-cpe-field="number"></div><div data-cpe-field="expiry"></div><div data-cpe-field="cvc"></div><div data-cpe-field="name"></div>' : ''}</main>
<script type="module">
import { createElements } from '${serviceUrl}/sdk/cpe.js';
const config = ${config};
const elements = await createElements({ pubKey: '${publicKey}', createServerIntent: () => fetch('/look/intent' + (config.verify ? '?verify=1' : ''), { method: 'POST' }).then((r) => r.json()) });
const el = elements[config.factory]({ element: '#box', ...config.options });
if (config.factory === 'walletB') el.onTokeniseEnd(() => {}).onCancel(() => {}).onError(() => {});
window.__el = el;
el.addEventListener('cpe:ready', () => (document.body.dataset.ready = '1'));
await el.init();
</script></body></html>`;
}

/** A dark merchant page (its `color-scheme` and background). */
export const DARK_PAGE = 'html{color-scheme:dark;background:#0f1115;color:#eef0f3}';

/** The hosted frame of an element by its app (`card-form`, `flow`, `field`, `wallet-button`, `challenge`, `wallet-sheet`). */
export const frameOf = (page: Page, app: string) => page.frames().find((f) => f.url().includes(`/frames/${app}`))!;

/** The element's (first) frame, to type into. */
export const lookFrame = (page: Page): FrameLocator => page.frameLocator('#box iframe').first();

/** Types a card into the element's frame as a shopper would (key by key). */
export async function typeLookCard(page: Page, number: string, { expiry = '1230', cvc = '123', name = 'Ada Lovelace' } = {}): Promise<void> {
  const frame = lookFrame(page);
  await frame.locator('#cpe-number').pressSequentially(number);
  await frame.locator('#cpe-expiry').pressSequentially(expiry);
  await frame.locator('#cpe-cvc').pressSequentially(cvc);
  await frame.locator('#cpe-name').fill(name);
}

/** A Flow: types the card and presses its button. */
export async function payInFlow(page: Page, number: string): Promise<void> {
  await typeLookCard(page, number);
  await lookFrame(page).locator('button.action').click();
}

/** Presses the wallet button and waits for the sheet in its dialog. */
export async function openSheet(page: Page): Promise<void> {
  await lookFrame(page).locator('button').click();
  await page.frameLocator('dialog iframe').locator('button.approve').waitFor();
}
