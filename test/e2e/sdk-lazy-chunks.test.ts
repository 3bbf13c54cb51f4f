import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { scaled } from '../../testkit/time.ts';
import { flowFrame, flowPage, payWithFlow, startMerchantSite, typeFlowCard, type MerchantSite } from '../security/helpers/merchant-site.ts';
import { CARDS } from './helpers/checkout.ts';
import { answerChallenge, clickOrPress } from './helpers/frame-click.ts';

/**
 * The SDK's rare paths are chunks fetched on demand (components/internal/load-chunks.ts): the 3-D
 * Secure challenge and the wallet sheet's dialog; and the payment code (attach, confirm, authorise,
 * pay()'s steps), fetched when the shopper starts on an element. A page whose elements only become
 * ready never fetches them; typing a card fetches the payment code before Pay is pressed; a
 * challenge fetches its chunk when it opens and completes; a chunk that cannot be fetched is a
 * `cpe:error` at once, never a hang; and from the SDK's immutable (SRI) address the chunks take the
 * same copy of the SDK, not a second one.
 */
describe('the SDK fetches its rare paths on demand', { timeout: scaled(600_000) }, () => {
  let stack: Stack;
  let shop: MerchantSite;
  before(async () => {
    stack = await startStack();
    shop = await startMerchantSite(stack.service);
  });
  after(async () => {
    await shop?.close();
    await stack?.close();
  });

  const sdkScript = () => `<script type="module" src="${stack.serviceUrl}/sdk/cpe.js"></script>`;
  const service = () => new URL(stack.serviceUrl).origin;

  /** A fresh page, and the /sdk/ paths it requests from the service, in order. */
  async function open(path: string, html: string): Promise<{ page: Page; sdk: string[] }> {
    shop.page(path, html);
    const { page, context } = await stack.newPage();
    const sdk: string[] = [];
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === service() && url.pathname.startsWith('/sdk/')) sdk.push(url.pathname);
    });
    return { page, sdk };
  }
  const chunks = (paths: string[]) => paths.filter((path) => /\/dialogs-[\w-]+\.js$/.test(path));
  const PAYMENT_CODE = /\/sdk\/(v[^/]+\/)?payment-steps-[\w-]+\.js$/;
  const paymentCode = (paths: string[]) => paths.filter((path) => PAYMENT_CODE.test(path));

  it('a page holding only a card element fetches cpe.js alone until ready, and after', async () => {
    const { page, sdk } = await open(
      '/card-only',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card</title></head><body>
<script>window.ready = new Promise((resolve) => addEventListener('cpe:ready', resolve, true));</script>
<cpe-elements pub-key="${shop.credentials.publicKey}" intent-url="/api/payment-intents"><cpe-card></cpe-card></cpe-elements>
${sdkScript()}</body></html>`,
    );
    await page.goto(`${shop.url}/card-only`);
    await page.evaluate('window.ready');
    // The card frame answers commands (its port is live): nothing more for the SDK to fetch.
    await page.evaluate(() => (document.querySelector('cpe-card') as unknown as { reset(): Promise<void> }).reset());
    assert.deepEqual(sdk, ['/sdk/cpe.js']);
  });

  it('typing a card fetches the payment code before Pay; a challenge fetches the dialogs chunk when it opens, once each, and completes (the payment is made)', async () => {
    const { page, sdk } = await open('/flow', flowPage(shop.credentials.publicKey, sdkScript()));
    await page.goto(`${shop.url}/flow`);
    await flowFrame(page).getByRole('button', { name: 'Pay £12.34' }).waitFor();
    assert.deepEqual(chunks(sdk), [], 'not before a challenge');
    assert.deepEqual(paymentCode(sdk), [], 'not before the shopper starts');
    const fetched = page.waitForRequest(PAYMENT_CODE);
    const pay = await typeFlowCard(page, CARDS.challenge);
    await fetched;
    assert.deepEqual(chunks(sdk), [], 'typing fetches no dialog');
    await clickOrPress(pay, (timeout) => pay.waitFor({ state: 'hidden', timeout }));
    await answerChallenge(page);
    await flowFrame(page).getByText('Payment complete.').waitFor();
    assert.equal(chunks(sdk).length, 1, sdk.join(', '));
    assert.equal(paymentCode(sdk).length, 1, sdk.join(', '));
    const intent = await shop.client.retrievePaymentIntent(shop.intents.at(-1)!);
    assert.equal(intent.status, 'succeeded');
  });

  it('a chunk that cannot be fetched (offline) is a cpe:error network_error at once, and the Flow lets the shopper try again', async () => {
    const { page } = await open('/flow-offline', flowPage(shop.credentials.publicKey, sdkScript()));
    await page.context().route(/\/sdk\/dialogs-[\w-]+\.js$/, (route) => route.abort('internetdisconnected'));
    await page.goto(`${shop.url}/flow-offline`);
    await page.evaluate(() => {
      const w = window as unknown as { errors: { code: string; message: string }[] };
      w.errors = [];
      addEventListener('cpe:error', (e) => w.errors.push((e as CustomEvent).detail), true);
    });
    const frame = flowFrame(page);
    const pay = await typeFlowCard(page, CARDS.challenge);
    await clickOrPress(pay, (timeout) => pay.waitFor({ state: 'hidden', timeout }));
    const error = (await page.waitForFunction(() => (window as unknown as { errors: { code: string }[] }).errors.find((e) => e.code === 'network_error'))).jsonValue() as Promise<{ code: string; message: string }>;
    assert.match((await error).message, /could not be loaded/);
    await frame.getByRole('button', { name: 'Try again' }).waitFor();
    assert.equal(await page.locator('cpe-payment-flow dialog').count(), 0, 'no dialog left open');
  });

  it('offline, the payment code not fetched is a cpe:error network_error at Pay, at once, and the Flow lets the shopper try again', async () => {
    const { page } = await open('/flow-offline-payment', flowPage(shop.credentials.publicKey, sdkScript()));
    await page.context().route(PAYMENT_CODE, (route) => route.abort('internetdisconnected'));
    await page.goto(`${shop.url}/flow-offline-payment`);
    await page.evaluate(() => {
      const w = window as unknown as { errors: { code: string; message: string; operation: string }[]; ended: unknown[] };
      w.errors = [];
      w.ended = [];
      addEventListener('cpe:error', (e) => w.errors.push((e as CustomEvent).detail), true);
      addEventListener('cpe:payment:end', (e) => w.ended.push((e as CustomEvent).detail), true);
    });
    const frame = flowFrame(page);
    const pay = await typeFlowCard(page, CARDS.visa);
    await clickOrPress(pay, (timeout) => pay.waitFor({ state: 'hidden', timeout }));
    const error = (await page.waitForFunction(() => (window as unknown as { errors: { code: string }[] }).errors.find((e) => e.code === 'network_error'))).jsonValue() as Promise<{ code: string; message: string; operation: string }>;
    assert.match((await error).message, /payment code could not be loaded.*reload the page/);
    assert.equal((await error).operation, 'pay');
    await frame.getByRole('button', { name: 'Try again' }).waitFor();
    const ended = (await page.evaluate('ended')) as { status: string; error?: { type: string; code: string } }[];
    assert.deepEqual(ended.map((r) => [r.status, r.error?.type, r.error?.code]), [['requires_payment_method', 'api_error', 'network_error']]);
  });

  /**
   * Whether this browser fetches a dynamically imported module again after its fetch failed. Chromium
   * 156.0.8078.108 does; 156.0.8078.73 kept the failure in the page's module map, so every later
   * import of it failed at once. Asked of a module of its own, in `page`.
   */
  async function retriesFailedImports(page: Page): Promise<boolean> {
    const url = `${shop.url}/retry-probe.js`;
    let online = false;
    await page.route(url, (route) => (online ? route.fulfill({ contentType: 'text/javascript', body: 'export {};' }) : route.abort('internetdisconnected')));
    const imports = () => page.evaluate((address) => import(address).then(() => true, () => false), url);
    assert.equal(await imports(), false, 'the probe module fails offline');
    online = true;
    return imports();
  }

  it('offline, a wallet button pressed is a cpe:error network_error at once, with no sheet; pressed again online, the sheet where the browser fetches the module again, else the same error at once', async () => {
    const { page } = await open(
      '/wallet',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Wallet</title></head><body>
<script>window.errors = []; addEventListener('cpe:error', (e) => errors.push(e.detail), true);</script>
<cpe-elements pub-key="${shop.credentials.publicKey}" intent-url="/api/payment-intents"><cpe-wallet-a></cpe-wallet-a></cpe-elements>
${sdkScript()}</body></html>`,
    );
    const offline = /\/sdk\/dialogs-[\w-]+\.js$/;
    await page.context().route(offline, (route) => route.abort('internetdisconnected'));
    await page.goto(`${shop.url}/wallet`);
    const button = page.frameLocator('cpe-wallet-a iframe').first().getByRole('button');
    const errors = (count: number) =>
      page.waitForFunction((n) => (window as unknown as { errors: { code: string }[] }).errors.filter((e) => e.code === 'network_error').length >= n, count).then(() => page.evaluate('errors') as Promise<{ message: string; operation: string }[]>);
    await button.click();
    const [error] = await errors(1);
    assert.match(error!.message, /could not be loaded.*reload the page/);
    assert.equal(error!.operation, 'wallet');
    assert.equal(await page.locator('cpe-wallet-a dialog').count(), 0);
    await page.context().unroute(offline);
    const retries = await retriesFailedImports(page);
    await button.click();
    if (retries) {
      await page.locator('cpe-wallet-a dialog[open]').waitFor();
      assert.equal((await page.evaluate('errors') as unknown[]).length, 1, 'no second error');
    } else {
      await errors(2);
      assert.equal(await page.locator('cpe-wallet-a dialog').count(), 0);
    }
  });

  it('from the immutable (SRI) address, the chunk imports that same file: one copy of the SDK, and the challenge completes', async () => {
    const release = (await (await fetch(`${stack.serviceUrl}/sdk/integrity.json`)).json()) as { url: string; script: string };
    const { page, sdk } = await open('/flow-sri', flowPage(shop.credentials.publicKey, release.script));
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.goto(`${shop.url}/flow-sri`);
    await payWithFlow(page, CARDS.challenge);
    const pinned = new URL(release.url).pathname;
    const chunk = [...chunks(sdk), ...paymentCode(sdk)];
    assert.equal(chunk.length, 2, sdk.join(', '));
    for (const path of chunk) assert.equal(path.slice(0, path.lastIndexOf('/')), pinned.slice(0, pinned.lastIndexOf('/')), 'each chunk beside the pinned file');
    assert.deepEqual(sdk.filter((path) => /\/cpe[.\w]*\.js$/.test(path)), [pinned], 'no second copy of the SDK');
    assert.deepEqual(problems.filter((text) => /sdk_loaded_twice|second copy/i.test(text)), []);
  });
});
