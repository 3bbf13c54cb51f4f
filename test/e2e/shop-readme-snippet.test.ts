import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { boundSocket, handSocket, spawnNode, type Child } from '../../testkit/processes.ts';
import { CARDS, cscFor, digitsOf } from './helpers/checkout.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { answerChallenge, clickOrPress } from './helpers/frame-click.ts';
import { docBlock, LISTEN_LINE, LISTEN_ON_SOCKET } from '../../testkit/docs.ts';

/**
 * The documentation's shop (docs/components.md, "Your page"): its page and its Koa backend, taken as
 * they stand, run against the service for a merchant registered for their origin, with this
 * repository's packages (no registry: `npm run test:recipes` installs them in a new project, from the
 * registry, as the quickstart says). Its `merchant.json` is what `npm run -s merchant` prints; its
 * last line, `app.listen(3000, …)`, listens on the socket handed to it instead (port 0). Pay waits
 * for a complete form; a declined card says so in the shopper's words and keeps all but the number;
 * a payment through 3-D Secure ends with the backend's verify saying paid.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

let stack: Stack;
let backend: Child;
let folder: string;
let origin: string;
before(async () => {
  stack = await startStack();
  // The backend's port is bound here (port 0) and handed to it: its origin, and so its merchant, is
  // known before it starts.
  const { server: socket, port } = await boundSocket('localhost');
  origin = `http://localhost:${port}`;
  const merchant = await Promise.resolve(stack.service.services.merchants.create({ name: 'README shop', origins: [origin] }));
  folder = mkdtempSync(join(tmpdir(), 'cpe-readme-'));
  mkdirSync(join(folder, 'public'));
  writeFileSync(join(folder, 'merchant.json'), JSON.stringify({ serviceUrl: stack.serviceUrl, ...merchant }));
  writeFileSync(join(folder, 'public/index.html'), docBlock('docs/components.md', 'The page (`public/index.html`)', 'html'));
  // The packages by their files here (the temp folder has no node_modules); cpe/server from source.
  const require = createRequire(import.meta.url);
  const file = (name: string) => pathToFileURL(require.resolve(name)).href;
  const js = docBlock('docs/components.md', 'The backend (`server.js`)', 'js')
    .replace("from 'koa'", `from '${file('koa')}'`)
    .replace("from 'koa-static'", `from '${file('koa-static')}'`)
    .replace("from '@koa/bodyparser'", `from '${file('@koa/bodyparser')}'`)
    .replace("from 'cpe/server'", `from '${pathToFileURL(join(root, 'client/index.ts')).href}'`)
    .replace(LISTEN_LINE, LISTEN_ON_SOCKET);
  assert.ok(js.includes(LISTEN_ON_SOCKET), `the documented backend ends with ${LISTEN_LINE}`);
  writeFileSync(join(folder, 'server.mjs'), js);
  backend = spawnNode('the README backend', ['--import', import.meta.resolve('tsx'), 'server.mjs'], { cwd: folder, env: {} });
  await handSocket(backend.proc, socket);
  await backend.line(/^listening$/);
});
after(async () => {
  backend?.proc.kill();
  await stack?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/**
 * Presses the page's Pay (by keyboard if the click is lost, as the demo's Pay: see clickOrPress):
 * pressed once the page's status says something else than before (its "Paying…").
 */
async function pressDocsPay(page: Page): Promise<void> {
  const earlier = await page.locator('#status').textContent();
  const started = (timeout: number) => page.waitForFunction((said) => document.getElementById('status')?.textContent !== said, earlier, { timeout, polling: 100 });
  await clickOrPress(page.locator('#pay:not([disabled])'), started);
}

describe("the documentation's page and backend", () => {
  it('Pay waits for a complete form; a decline says so and keeps all but the number; a payment through 3-D Secure is verified by the backend as paid', async () => {
    const { page, context, problems } = await stack.newPage();
    try {
      await page.goto(origin);
      const frame = page.frameLocator('#card iframe');
      await frame.getByLabel('Card number').pressSequentially(digitsOf(CARDS.declined));
      await frame.getByLabel('Expiry date').pressSequentially('1230');
      await frame.getByLabel('Security code').pressSequentially(cscFor(CARDS.declined));
      assert.equal(await page.locator('#pay').isDisabled(), true, 'Pay waits while the form is incomplete');
      await frame.getByLabel('Name on card').fill('Ada Lovelace');
      await pressDocsPay(page);
      await page.locator('#status', { hasText: 'Your card was declined. Use another card.' }).waitFor();
      assert.equal(await frame.getByLabel('Card number').inputValue(), '');
      assert.equal(await frame.getByLabel('Expiry date').inputValue(), '12 / 30');
      await page.locator('#pay[disabled]').waitFor();
      await frame.getByLabel('Card number').pressSequentially(digitsOf(CARDS.challenge));
      await pressDocsPay(page);
      await answerChallenge(page);
      await page.locator('#status', { hasText: 'Paid. Thank you!' }).waitFor();
      assert.deepEqual(problems.filter((p) => !p.includes('404')), []);
    } finally {
      await context.close();
    }
  });
});
