/**
 * The quickstart's shop, as a merchant makes it: a new folder, the commands of the README's
 * quickstart (`npm run -s merchant -- --origin …` into merchant.json, `npm init -y`, `npm pkg set
 * type=module`, `npm install koa koa-static @koa/bodyparser <the packed cpe>` from the registry) and
 * the two files of docs/components.md's "Your page" exactly as they are there. The one change: the
 * backend's last line listens on the socket handed to it (port 0) instead of port 3000, so the
 * merchant is registered for its real origin first. Then Chromium pays with it: a decline said in
 * the shopper's words with the number alone cleared, a cancelled 3-D Secure challenge keeping every
 * field, and a payment the backend verifies as paid.
 *
 *   npm run test:recipes   (the packages come from the registry, through npm's cache)
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from '../../scripts/chromium-path.mjs';
import { startService, type RunningService } from '../../server/start.ts';
import { docBlock, LISTEN_LINE, LISTEN_ON_SOCKET } from '../../testkit/docs.ts';
import { boundSocket, handSocket, spawnNode, type Child } from '../../testkit/processes.ts';
import { scaled } from '../../testkit/time.ts';
import { openShop, packTarball, root, shAsync, temporary } from '../package/fresh-project.ts';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const folder = temporary('cpe-readme-shop-');
let service: RunningService;
let browser: Browser;
let backend: Child;
let origin: string;

before(async () => {
  const tarball = packTarball(folder.dir);
  const dataDir = join(folder.dir, 'data');
  service = await startService({ port: 0, demoPort: 0, dataDir, publicUrl: 'http://127.0.0.1:0', rateLimit: { perSecond: 0, burst: 0 }, log: { level: 'silent' } });
  const { server: socket, port } = await boundSocket('localhost');
  origin = `http://localhost:${port}`;
  const shop = join(folder.dir, 'shop');
  mkdirSync(join(shop, 'public'), { recursive: true });
  // 1. The merchant, by the CLI, against the running service (through its data folder).
  // Not spawnSync: the CLI talks to the service this process runs.
  const merchant = await shAsync(npm, ['run', '-s', 'merchant', '--', '--origin', origin], root, { CPE_DATA_DIR: dataDir });
  writeFileSync(join(shop, 'merchant.json'), merchant);
  // 2. A new project: an ES module project with the packages the quickstart names.
  await shAsync(npm, ['init', '-y', '--loglevel=error'], shop);
  await shAsync(npm, ['pkg', 'set', 'type=module'], shop);
  await shAsync(npm, ['install', 'koa', 'koa-static', '@koa/bodyparser', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], shop);
  // 3. The two files, as the documentation has them.
  const server = docBlock('docs/components.md', 'The backend (`server.js`)', 'js');
  assert.ok(server.includes(LISTEN_LINE), `the documented backend ends with ${LISTEN_LINE}`);
  writeFileSync(join(shop, 'server.js'), server.replace(LISTEN_LINE, LISTEN_ON_SOCKET));
  writeFileSync(join(shop, 'public/index.html'), docBlock('docs/components.md', 'The page (`public/index.html`)', 'html'));
  backend = spawnNode('the quickstart shop', ['server.js'], { cwd: shop, env: { NODE_OPTIONS: '' } });
  await handSocket(backend.proc, socket);
  await backend.line(/^listening$/);
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS] });
});
after(async () => {
  backend?.proc.kill();
  await browser?.close();
  await service?.close();
  folder.remove();
});

describe("the quickstart's shop, built from the documentation in a new project", { timeout: scaled(180_000) }, () => {
  it('a decline keeps all but the number, a cancelled challenge keeps everything, then it pays and the backend verifies', async () => {
    const { page, problems, close } = await openShop(browser, origin);
    try {
      const card = page.frameLocator('#card iframe');
      const field = (label: string) => card.getByLabel(label);
      await field('Card number').pressSequentially('4000000000000002');
      await field('Expiry date').pressSequentially('1230');
      await field('Security code').pressSequentially('123');
      assert.equal(await page.locator('#pay').isDisabled(), true, 'Pay waits for a complete form');
      await field('Name on card').fill('Ada Lovelace');
      await page.locator('#pay:not([disabled])').click();
      await page.locator('#status', { hasText: 'Your card was declined. Use another card.' }).waitFor();
      assert.deepEqual(await Promise.all(['Card number', 'Expiry date', 'Security code', 'Name on card'].map((l) => field(l).inputValue())), ['', '12 / 30', '123', 'Ada Lovelace']);
      await page.locator('#pay[disabled]').waitFor();
      // A card with 3-D Secure: the shopper closes the challenge.
      await field('Card number').pressSequentially('4000000000003220');
      await page.locator('#pay:not([disabled])').click();
      await page.frameLocator('dialog iframe').getByRole('button', { name: 'Complete' }).waitFor();
      await page.locator('dialog button.close').click();
      await page.locator('#status', { hasText: 'You closed the check with your bank, so nothing was paid. You can try again.' }).waitFor();
      assert.equal(await field('Card number').inputValue(), '4000 0000 0000 3220');
      // Again, completed this time: paid, as the backend's verify says.
      await page.locator('#pay:not([disabled])').click();
      const complete = page.frameLocator('dialog iframe').getByRole('button', { name: 'Complete' });
      await complete.click();
      await page.locator('#status', { hasText: 'Paid. Thank you!' }).waitFor();
      // The decline and the closed challenge are cpe:error events (said in the console by openShop); a missing favicon is a 404.
      assert.deepEqual(problems.filter((p) => !p.startsWith('cpe:error') && !p.includes('404')), []);
    } finally {
      await close();
    }
  });
});
