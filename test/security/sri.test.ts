import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { startServiceProcess } from '../helpers/service-process.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { flowPage, payWithFlow, startMerchantSite, typeFlowCard, type MerchantSite } from './helpers/merchant-site.ts';
import { CARDS } from '../e2e/helpers/checkout.ts';
import { clickOrPress } from '../e2e/helpers/frame-click.ts';
import { scaled } from '../../testkit/time.ts';
import { waitFor } from '../../testkit/wait.ts';

/**
 * Subresource Integrity: a merchant page can pin the exact SDK build it reviewed. The service serves
 * it at an immutable versioned address beside /sdk/cpe.js, names it and its sha384 in
 * /sdk/integrity.json (and `npm start` prints the script tag); a browser refuses a file that is not
 * byte for byte that build, whether the hash or the file was changed (a compromised CDN or proxy).
 * The chunks the SDK imports on demand (the dialogs, the payment code) are pinned too, by an import
 * map naming each one's integrity: a script tag's `integrity` covers only its own file.
 */
interface Integrity {
  version: string;
  url: string;
  integrity: string;
  script: string;
  /** Each chunk's absolute address at the immutable folder → its sha384 integrity. */
  chunks: Record<string, string>;
  importmap: string;
  importmapHash: string;
}

const sha = (algorithm: 'sha256' | 'sha384', bytes: Buffer | string) => `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;

describe('Subresource Integrity for the SDK', { timeout: scaled(600_000) }, () => {
  let stack: Stack;
  let shop: MerchantSite;
  let release: Integrity;
  before(async () => {
    stack = await startStack();
    shop = await startMerchantSite(stack.service);
    release = await (await fetch(`${stack.serviceUrl}/sdk/integrity.json`)).json();
  });
  after(async () => {
    await shop?.close();
    await stack?.close();
  });

  it('/sdk/integrity.json names an immutable, versioned address serving exactly /sdk/cpe.js, and its sha384', async () => {
    assert.match(release.url, new RegExp(`^${stack.serviceUrl}/sdk/v${release.version}/cpe\\.[0-9a-f]{16}\\.js$`));
    assert.equal(release.script, `<script type="module" src="${release.url}" integrity="${release.integrity}" crossorigin="anonymous"></script>`);
    const pinned = await fetch(release.url);
    assert.equal(pinned.status, 200);
    assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(pinned.headers.get('access-control-allow-origin'), '*', 'crossorigin needs CORS');
    assert.equal(pinned.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.match(pinned.headers.get('content-type') ?? '', /^text\/javascript/);
    const bytes = Buffer.from(await pinned.arrayBuffer());
    assert.deepEqual(bytes, Buffer.from(await (await fetch(`${stack.serviceUrl}/sdk/cpe.js`)).arrayBuffer()));
    assert.equal(release.integrity, sha('sha384', bytes));

    // Another build's address is not silently served the current bytes (its integrity would fail): a 404 naming the current one.
    const stale = await fetch(release.url.replace(/cpe\.[0-9a-f]{16}\.js$/, 'cpe.0123456789abcdef.js'));
    assert.equal(stale.status, 404);
    assert.ok((await stale.json()).error.message.includes(release.url));
  });

  it('/sdk/integrity.json pins each chunk the SDK imports on demand, served beside it, in an import map', async () => {
    const folder = release.url.slice(0, release.url.lastIndexOf('/') + 1);
    const urls = Object.keys(release.chunks);
    assert.deepEqual(urls.map((url) => /\/(dialogs|payment-steps)-[\w-]{8}\.js$/.exec(url)?.[1]).sort(), ['dialogs', 'payment-steps']);
    for (const url of urls) {
      assert.ok(url.startsWith(folder), `${url} beside ${release.url}`);
      const served = await fetch(url);
      assert.equal(served.status, 200, url);
      assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const bytes = Buffer.from(await served.arrayBuffer());
      assert.equal(release.chunks[url], sha('sha384', bytes), `${url}: the integrity of the bytes served there`);
      assert.ok(bytes.includes(new URL(release.url).pathname.split('/').at(-1)!), `${url} imports the pinned file`);
    }
    const map = JSON.stringify({ integrity: release.chunks });
    assert.equal(release.importmap, `<script type="importmap">${map}</script>`);
    assert.equal(release.importmapHash, sha('sha256', map));
  });

  it('npm start prints the same script tag', async () => {
    const dir = tempDataDir();
    const service = await startServiceProcess(dir);
    try {
      const printed = await (await fetch(`${service.url}/sdk/integrity.json`)).json();
      assert.ok(service.output().includes(printed.script), service.output());
      assert.ok(service.output().includes(printed.importmap), service.output());
    } finally {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Opens the shop's checkout page with these lines for the SDK (its file at `url` changed by `tamper`); resolves the page and what its console said. */
  async function open(script: string, tamper?: (body: Buffer) => Buffer, { url = release.url, headers }: { url?: string; headers?: Record<string, string> } = {}) {
    shop.page('/checkout', flowPage(shop.credentials.publicKey, script), headers);
    const opened = await stack.newPage();
    const console: string[] = [];
    opened.page.on('console', (message) => console.push(message.text()));
    if (tamper)
      await opened.context.route(url, async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: tamper(await response.body()) });
      });
    await opened.page.goto(`${shop.url}/checkout`);
    return { ...opened, console };
  }

  async function assertRefused(page: Page, console: string[]) {
    // The refusal may be logged before a wait could start: the page's console is collected from the start.
    await waitFor('the browser refusing the SDK for its integrity', () => console.some((text) => /Failed to find a valid digest in the 'integrity' attribute/.test(text)), { context: () => console.join('\n') });
    assert.equal(await page.evaluate(() => customElements.get('cpe-payment-flow')), undefined, 'the SDK did not run');
    assert.equal(await page.locator('iframe').count(), 0, 'no frame was mounted');
  }

  it('a page loading the SDK with its integrity and import map takes a payment through 3-D Secure, under a CSP naming only the pinned folder and the map', async () => {
    const service = new URL(stack.serviceUrl).origin;
    const folder = release.url.slice(0, release.url.lastIndexOf('/') + 1);
    const csp = `default-src 'self'; script-src ${folder} '${release.importmapHash}'; frame-src ${service}; connect-src 'self' ${service}`;
    const { page, context, problems } = await open(release.importmap + release.script, undefined, { headers: { 'content-security-policy': csp } });
    try {
      await payWithFlow(page, CARDS.challenge);
      assert.equal((await shop.client.verify({ payment_intent_id: shop.intents.at(-1)!, unmask_fields: [] })).status, 'success');
      assert.deepEqual(problems, []);
      // Both chunks came from the pinned folder, so the map's integrity was checked for each.
      const loaded = (await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))) as string[];
      assert.deepEqual(Object.keys(release.chunks).filter((url) => !loaded.includes(url)), [], loaded.join('\n'));
    } finally {
      await context.close();
    }
  });

  it('one changed byte in a chunk (a compromised proxy): without the import map it runs; with it the browser refuses it, and Pay fails with cpe:error', async () => {
    const chunk = Object.keys(release.chunks).find((url) => /\/payment-steps-[\w-]+\.js$/.test(url))!;
    const tamper = (body: Buffer) => Buffer.concat([body, Buffer.from('\nglobalThis.__tampered = true;\n')]);
    const errors = `<script>window.errors = []; addEventListener('cpe:error', (e) => errors.push(e.detail.code), true);</script>`;
    // The attack: the page pins the SDK alone; the changed chunk runs when the shopper starts typing.
    const bare = await open(release.script, tamper, { url: chunk });
    try {
      await typeFlowCard(bare.page, CARDS.visa);
      await bare.page.waitForFunction(() => (globalThis as { __tampered?: boolean }).__tampered === true);
    } finally {
      await bare.context.close();
    }
    // The defence: the same change, with the import map.
    const { page, context, console } = await open(errors + release.importmap + release.script, tamper, { url: chunk });
    try {
      const pay = await typeFlowCard(page, CARDS.visa);
      await clickOrPress(pay, (timeout) => page.waitForFunction(() => (window as unknown as { errors: string[] }).errors.length > 0, undefined, { timeout }));
      assert.deepEqual(await page.evaluate('errors'), ['network_error']);
      assert.ok(console.some((text) => text.includes('integrity') && text.includes(chunk)), console.join('\n'));
      assert.equal(await page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered), undefined, 'the changed code never ran');
    } finally {
      await context.close();
    }
  });

  it('one changed character in the integrity: the browser refuses the SDK', async () => {
    const digest = release.integrity.slice('sha384-'.length);
    const changed = `sha384-${digest[0] === 'A' ? 'B' : 'A'}${digest.slice(1)}`;
    const { page, context, console } = await open(release.script.replace(release.integrity, changed));
    try {
      await assertRefused(page, console);
    } finally {
      await context.close();
    }
  });

  it('one changed byte in the served file (a compromised proxy): the browser refuses the SDK', async () => {
    const { page, context, console } = await open(release.script, (body) => {
      const copy = Buffer.from(body);
      copy[copy.length - 1] = copy[copy.length - 1] === 0x0a ? 0x20 : 0x0a;
      return copy;
    });
    try {
      await assertRefused(page, console);
    } finally {
      await context.close();
    }
  });
});
