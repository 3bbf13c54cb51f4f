import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { CpeClient, toSession } from '../../../client/index.ts';
import type { MerchantCredentials } from '../../../server/payments/merchants.ts';
import type { RunningService } from '../../../server/start.ts';
import { CARDS, cscFor, digitsOf } from '../../e2e/helpers/checkout.ts';
import { answerChallenge, clickOrPress } from '../../e2e/helpers/frame-click.ts';

/**
 * A merchant's own site on another origin than the service (`http://<host>:<port>`, port 0), registered
 * as a new test merchant for that origin: its pages (HTML and response headers chosen by the test)
 * and its backend route `POST /api/payment-intents`, which creates a £12.34 intent with the licence
 * key and answers the session, as `cpeMiddleware`'s users do.
 */
export interface MerchantSite {
  url: string;
  credentials: MerchantCredentials;
  client: CpeClient;
  /** Every intent the backend created, in order. */
  intents: string[];
  /** Serves `html` at `path` with `headers`. */
  page(path: string, html: string, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startMerchantSite(service: RunningService, host: 'localhost' | '127.0.0.1' = 'localhost'): Promise<MerchantSite> {
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  const intents: string[] = [];
  let client: CpeClient | undefined;
  let merchantId = 0;
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'POST' && path === '/api/payment-intents') {
      const created = await client!.createPaymentIntent({ merchantid: merchantId, amount: 1234, currency: 'GBP', identifier: `security-${intents.length + 1}` });
      intents.push(created.paymentIntentId);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(toSession(created)));
      return;
    }
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const page = pages.get(path);
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...page.headers }).end(page.html);
  });
  // Every interface (dual-stack): Chromium may reach `localhost` over ::1 or 127.0.0.1.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  const credentials = await service.services.merchants.create({ origins: [url], name: 'Security test shop' });
  merchantId = credentials.merchantId;
  client = new CpeClient({ licenceKey: credentials.licenceKey, baseUrl: service.url });
  return {
    url,
    credentials,
    client,
    intents,
    page: (path, html, headers = {}) => void pages.set(path, { html, headers }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A checkout page with no script of its own: the SDK's `<script>` (as given), a provider and a Flow. */
export const flowPage = (publicKey: string, sdkScript: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Checkout</h1>
${sdkScript}
<cpe-elements pub-key="${publicKey}" intent-url="/api/payment-intents"><cpe-payment-flow layout="stack"></cpe-payment-flow></cpe-elements>
</body></html>`;

/** The Flow's frame on a page. */
export const flowFrame = (page: Page): FrameLocator => page.frameLocator('cpe-payment-flow iframe').first();

/** Types a test card into the Flow and presses Pay, completing the 3-D Secure challenge when one opens; resolves once the Flow says it is paid. */
/** Types a card into the Flow once its Pay button shows; the button, to press. */
export async function typeFlowCard(page: Page, number: string): Promise<Locator> {
  const frame = flowFrame(page);
  const pay = frame.getByRole('button', { name: 'Pay £12.34' });
  await pay.waitFor();
  await frame.getByLabel('Card number').pressSequentially(digitsOf(number));
  await frame.getByLabel('Expiry date').pressSequentially('1230');
  await frame.getByLabel('Security code').pressSequentially(cscFor(number));
  await frame.getByLabel('Name on card').fill('Ada Lovelace');
  return pay;
}

export async function payWithFlow(page: Page, number: string = CARDS.visa): Promise<void> {
  const frame = flowFrame(page);
  const pay = await typeFlowCard(page, number);
  // Started: the button no longer says "Pay" (the Flow shows it processing).
  await clickOrPress(pay, (timeout) => pay.waitFor({ state: 'hidden', timeout }));
  if (number === CARDS.challenge) await answerChallenge(page);
  await frame.getByText('Payment complete.').waitFor();
}
