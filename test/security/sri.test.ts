import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { startServiceProcess } from '../helpers/service-process.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { flowPage, payWithFlow, startMerchantSite, type MerchantSite } from './helpers/merchant-site.ts';
import { scaled } from '../../testkit/time.ts';
import { waitFor } from '../../testkit/wait.ts';

/**
 * Subresource Integrity: a merchant page can pin the exact SDK build it reviewed. The service serves
 * it at an immutable versioned address beside /sdk/cpe.js, names it and its sha384 in
 * /sdk/integrity.json (and `npm start` prints the script tag); a browser refuses a file that is not
 * byte for byte that build, whether the hash or the file was changed (a compromised CDN or proxy).
 */
interface Integrity {
  version: string;
  url: string;
  integrity: string;
  script: string;
}

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
    assert.equal(release.integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`);

    // Another build's address is not silently served the current bytes (its integrity would fail): a 404 naming the current one.
    const stale = await fetch(release.url.replace(/cpe\.[0-9a-f]{16}\.js$/, 'cpe.0123456789abcdef.js'));
    assert.equal(stale.status, 404);
    assert.ok((await stale.json()).error.message.includes(release.url));
  });

  it('npm start prints the same script tag', async () => {
    const dir = tempDataDir();
    const service = await startServiceProcess(dir);
    try {
      const printed = await (await fetch(`${service.url}/sdk/integrity.json`)).json();
      assert.ok(service.output().includes(printed.script), service.output());
    } finally {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Opens the shop's checkout page with this script tag; resolves the page and what its console said. */
  async function open(script: string, tamper?: (body: Buffer) => Buffer) {
    shop.page('/checkout', flowPage(shop.credentials.publicKey, script));
    const opened = await stack.newPage();
    const console: string[] = [];
    opened.page.on('console', (message) => console.push(message.text()));
    if (tamper)
      await opened.context.route(release.url, async (route) => {
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

  it('a page loading the SDK with its integrity takes a payment', async () => {
    const { page, context, problems } = await open(release.script);
    try {
      await payWithFlow(page);
      assert.equal((await shop.client.verify({ payment_intent_id: shop.intents.at(-1)!, unmask_fields: [] })).status, 'success');
      assert.deepEqual(problems, []);
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
