import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { CARDS } from '../e2e/helpers/checkout.ts';
import { clickOrPress } from '../e2e/helpers/frame-click.ts';
import { startMerchantSite, typeFlowCard, type MerchantSite } from './helpers/merchant-site.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * The one page-to-popup channel (protocol/schemas/popup.ts) under attack by a script of the merchant
 * page, which can read the popup's uuid (the dialog's iframe address, in an open shadow root) and
 * re-point that iframe. For the wallet sheet (whose init carries the intent's session token) and for
 * the 3-D Secure challenge page, the SDK's end must neither send an init (a MessageChannel) nor close
 * nor take a result on:
 *
 *   - a wrong source: a second copy of the real service page, framed by the merchant page with the
 *     real uuid, says ready and closes (its own Escape);
 *   - a wrong session: the dialog's own iframe re-pointed at the service page with another uuid says
 *     ready and closes;
 *   - a wrong origin: the dialog's own iframe re-pointed at another origin's page with the real uuid
 *     says ready, closes, and posts a forged wallet result and a forged challenge result.
 *
 * The dialog then still closes by its own × (the popup was alive all along).
 */
let stack: Stack;
let shop: MerchantSite;
let evil: Server;
let evilUrl: string;

/** The attacker's page on a third origin: says what a popup says, with the uuid of its fragment, and keeps what it hears. */
const EVIL_PAGE = `<!doctype html><meta charset="utf-8"><title>Not the service</title><script>
window.got = [];
addEventListener('message', (event) => window.got.push(event.data));
const session = location.hash.slice(1);
parent.postMessage({ type: 'cpe:popup:ready', session, height: 300 }, '*');
parent.postMessage({ type: 'cpe:popup:close', session }, '*');
parent.postMessage({ type: 'cpe:wallet:result', session, token: 'tok_evil', scheme: 'visa', last4: '4242' }, '*');
parent.postMessage({ type: 'cpe:3ds:result', session, transaction_id: 'x', status: 'completed' }, '*');
</script>`;

/**
 * On the merchant page: every MessageChannel made (the SDK makes one per init it sends), every
 * popup-shaped message the window hears (its origin, and whether it came from the dialog's frame or
 * the forged copy), and the wallet and challenge events.
 */
const SPY = `(() => {
  if (window !== window.top) return;
  const Channel = window.MessageChannel;
  window.__channels = 0;
  window.MessageChannel = class extends Channel { constructor() { super(); window.__channels++; } };
  window.__heard = [];
  addEventListener('message', (event) => {
    const type = String(event.data?.type ?? '');
    if (!/^cpe:(popup|wallet|3ds):/.test(type)) return;
    window.__heard.push({ type, session: event.data.session, origin: event.origin, forged: !!window.__forged && event.source === window.__forged.contentWindow });
  }, true);
  window.__events = [];
  for (const name of ['cpe:wallet:approved', 'cpe:wallet:cancel', 'cpe:challenge:end', 'cpe:payment:end'])
    addEventListener(name, (event) => window.__events.push({ name, detail: event.detail }), true);
})();`;

interface Heard {
  type: string;
  session?: string;
  origin: string;
  forged: boolean;
}

before(async () => {
  stack = await startStack();
  shop = await startMerchantSite(stack.service);
  const sdk = `<script type="module" src="${stack.serviceUrl}/sdk/cpe.js"></script>`;
  const pk = shop.credentials.publicKey;
  shop.page('/wallet', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>${sdk}
<cpe-elements pub-key="${pk}" intent-url="/api/payment-intents"><cpe-wallet-a total-amount="1234" total-label="Order"></cpe-wallet-a></cpe-elements></body></html>`);
  shop.page('/card', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>${sdk}
<cpe-elements pub-key="${pk}" intent-url="/api/payment-intents"><cpe-payment-flow layout="stack"></cpe-payment-flow></cpe-elements></body></html>`);
  evil = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(EVIL_PAGE));
  await new Promise<void>((resolve) => evil.listen(0, resolve));
  evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}`;
});
after(async () => {
  evil?.closeAllConnections();
  await new Promise((resolve) => evil?.close(resolve));
  await shop?.close();
  await stack?.close();
});

const heard = (page: Page): Promise<Heard[]> => page.evaluate(() => (window as unknown as { __heard: Heard[] }).__heard);
const channels = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __channels: number }).__channels);
const events = (page: Page): Promise<{ name: string }[]> => page.evaluate(() => (window as unknown as { __events: { name: string }[] }).__events);

/** Waits until the merchant window has heard a message matching `match` (the SDK's listener ran in the same dispatch, its microtasks since). */
async function hears(page: Page, match: (m: Heard) => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + scaled(30_000); ; ) {
    if ((await heard(page)).some(match)) return;
    assert.ok(Date.now() < deadline, `never heard ${what}: ${JSON.stringify(await heard(page))}`);
    await page.waitForFunction(() => true, undefined, { polling: 'raf' });
  }
}

/** The Playwright frame (not the attacker: the test) of a document whose address starts with `prefix` and ends with `#session`. */
async function frameOf(page: Page, prefix: string, session: string): Promise<Frame> {
  for (const deadline = Date.now() + scaled(30_000); ; ) {
    const frame = page.frames().find((f) => f.url().startsWith(prefix) && f.url().endsWith(`#${session}`));
    if (frame) return frame;
    assert.ok(Date.now() < deadline, `no frame ${prefix}…#${session}`);
    await page.waitForFunction(() => true, undefined, { polling: 'raf' });
  }
}

/** The Playwright frame of the forged copy (the merchant page's `__forged` iframe). */
async function forgedFrame(page: Page): Promise<Frame> {
  for (const frame of page.frames()) {
    const element = frame === page.mainFrame() ? null : await frame.frameElement().catch(() => null);
    if (element && (await element.evaluate((el) => el === (window as unknown as { __forged?: Element }).__forged))) return frame;
  }
  return assert.fail('no forged frame');
}

/** Presses Escape inside a popup page as its own code hears it (the page closes the popup by the channel). */
const escapeInside = (frame: Frame) => frame.evaluate(() => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));

/**
 * The three attacks on the open popup of `host` (its uuid read from its dialog's iframe), then the
 * dialog's own ×. `before`: the MessageChannels made before the popup opened.
 */
async function attack(page: Page, host: string, before: number): Promise<void> {
  const dialogOpen = () => page.evaluate((host) => !!document.querySelector(host)!.shadowRoot!.querySelector('dialog[open]'), host);
  const src = await page.evaluate((host) => document.querySelector(host)!.shadowRoot!.querySelector('dialog iframe')!.getAttribute('src')!, host);
  const session = new URL(src).hash.slice(1);
  const serviceOrigin = new URL(stack.serviceUrl).origin;
  // The real page had its init: one channel (or one per document) more than before it opened.
  await hears(page, (m) => m.type === 'cpe:popup:ready' && m.session === session && m.origin === serviceOrigin && !m.forged, 'the real ready');
  const initialised = await channels(page);
  assert.ok(initialised > before, 'the real popup got its init (the spy counts the SDK\'s channels)');

  // 1. Wrong source: the service's own page, framed by the merchant page with the real uuid.
  await page.evaluate((src) => {
    const forged = document.createElement('iframe');
    (window as unknown as { __forged: HTMLIFrameElement }).__forged = forged;
    forged.src = src;
    document.body.append(forged);
  }, src);
  await hears(page, (m) => m.forged && m.type === 'cpe:popup:ready' && m.session === session, "the forged copy's ready");
  assert.equal(await channels(page), initialised, 'wrong source: the SDK sent the copy an init');
  await escapeInside(await forgedFrame(page));
  await hears(page, (m) => m.forged && m.type === 'cpe:popup:close' && m.session === session, "the forged copy's close");
  assert.equal(await dialogOpen(), true, 'wrong source: a close from the forged copy closed the popup');

  // 2. Wrong session: the dialog's own frame re-pointed at the service page with another uuid.
  const other = crypto.randomUUID();
  const otherSrc = `${src.split('#')[0]}&again=1#${other}`;
  await page.evaluate(([host, otherSrc]) => document.querySelector(host!)!.shadowRoot!.querySelector('dialog iframe')!.setAttribute('src', otherSrc!), [host, otherSrc]);
  await hears(page, (m) => !m.forged && m.type === 'cpe:popup:ready' && m.session === other && m.origin === serviceOrigin, 'the other session\'s ready');
  assert.equal(await channels(page), initialised, 'wrong session: the SDK sent an init');
  await escapeInside(await frameOf(page, stack.serviceUrl, other));
  await hears(page, (m) => m.type === 'cpe:popup:close' && m.session === other, "the other session's close");
  assert.equal(await dialogOpen(), true, 'wrong session: a close with another uuid closed the popup');

  // 3. Wrong origin: the dialog's own frame re-pointed at the attacker's page with the real uuid.
  await page.evaluate(([host, url]) => document.querySelector(host!)!.shadowRoot!.querySelector('dialog iframe')!.setAttribute('src', url!), [host, `${evilUrl}/popup#${session}`]);
  await hears(page, (m) => m.origin === evilUrl && m.type === 'cpe:3ds:result', "the attacker's messages");
  assert.deepEqual((await heard(page)).filter((m) => m.origin === evilUrl).map((m) => m.type), ['cpe:popup:ready', 'cpe:popup:close', 'cpe:wallet:result', 'cpe:3ds:result']);
  assert.equal(await channels(page), initialised, 'wrong origin: the SDK sent an init');
  const evilFrame = await frameOf(page, evilUrl, session);
  assert.deepEqual(await evilFrame.evaluate(() => (window as unknown as { got: unknown[] }).got), [], 'the attacker heard something');
  assert.equal(await dialogOpen(), true, "wrong origin: the attacker's close or result closed the popup");
  assert.deepEqual((await events(page)).map((e) => e.name), [], 'no wallet or challenge outcome');

  // The popup was alive throughout: its own × closes it.
  await page.evaluate((host) => document.querySelector(host)!.shadowRoot!.querySelector<HTMLButtonElement>('dialog button.close')!.click(), host);
  await page.waitForFunction((host) => !document.querySelector(host)!.shadowRoot!.querySelector('dialog'), host);
}

describe('the page-to-popup channel refuses a wrong origin, source or session', { timeout: scaled(600_000) }, () => {
  it('the wallet sheet (its init carries the session token)', async () => {
    const { page, context } = await stack.newPage();
    try {
      await context.addInitScript(SPY);
      await page.goto(`${shop.url}/wallet`);
      const button = page.frameLocator('cpe-wallet-a iframe').first().getByRole('button');
      await button.waitFor();
      const before = await channels(page);
      await button.click();
      // The sheet shows the service's amount once its init (with the session) came.
      await page.frameLocator('cpe-wallet-a dialog iframe').getByText('£12.34').waitFor();
      await attack(page, 'cpe-wallet-a', before);
      await page.waitForFunction(() => (window as unknown as { __events: { name: string }[] }).__events.some((e) => e.name === 'cpe:wallet:cancel'));
    } finally {
      await context.close();
    }
  });

  it('the 3-D Secure challenge page', async () => {
    const { page, context } = await stack.newPage();
    try {
      await context.addInitScript(SPY);
      await page.goto(`${shop.url}/card`);
      const pay = await typeFlowCard(page, CARDS.challenge);
      const before = await channels(page);
      await clickOrPress(pay, (timeout) => page.frameLocator('cpe-payment-flow dialog iframe').getByRole('button', { name: 'Complete' }).waitFor({ timeout }));
      await attack(page, 'cpe-payment-flow', before);
      await page.waitForFunction(() => (window as unknown as { __events: { name: string; detail: { status?: string } }[] }).__events.some((e) => e.name === 'cpe:challenge:end' && e.detail.status === 'cancelled'));
    } finally {
      await context.close();
    }
  });
});
