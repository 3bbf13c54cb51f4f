import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { boundSocket, handSocket, spawnNode, type Child } from '../../testkit/processes.ts';
import { CARDS, cscFor, digitsOf } from './helpers/checkout.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { answerChallenge } from './helpers/frame-click.ts';

/**
 * The README's "On your page": its page and its Koa backend, taken from the README as they stand,
 * run against the service for a merchant registered for their origin. The Pay button waits for a
 * complete form; a payment through 3-D Secure ends with the backend's verify saying paid.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The first ```lang block after `heading` in the README. */
function block(heading: string, lang: string): string {
  const at = readme.indexOf(heading);
  assert.ok(at >= 0, `the README says "${heading}"`);
  const start = readme.indexOf(`\`\`\`${lang}\n`, at) + lang.length + 4;
  return readme.slice(start, readme.indexOf('```', start));
}

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
  const html = block('The page (`public/index.html`)', 'html');
  writeFileSync(join(folder, 'public/index.html'), html.replaceAll('http://localhost:4242', stack.serviceUrl).replace("'pk_test_…'", JSON.stringify(merchant.publicKey)));
  // The packages by their files here (the temp folder has no node_modules); cpe/server from source.
  const require = createRequire(import.meta.url);
  const file = (name: string) => pathToFileURL(require.resolve(name)).href;
  const js = block('Its backend (Koa', 'js')
    .replace("from 'koa'", `from '${file('koa')}'`)
    .replace("from 'koa-static'", `from '${file('koa-static')}'`)
    .replace("from '@koa/bodyparser'", `from '${file('@koa/bodyparser')}'`)
    .replace("from 'cpe/server'", `from '${pathToFileURL(join(root, 'client/index.ts')).href}'`)
    .replace("'http://localhost:4242'", JSON.stringify(stack.serviceUrl))
    .replace('app.listen(3000)', "process.once('message', (_, socket) => app.listen(socket, () => console.log('listening')))");
  assert.match(js, /process\.once\('message'/, 'the README backend ends with app.listen(3000)');
  writeFileSync(join(folder, 'server.mjs'), js);
  backend = spawnNode('the README backend', ['--import', import.meta.resolve('tsx'), 'server.mjs'], {
    cwd: folder,
    env: { CPE_MERCHANT_ID: String(merchant.merchantId), CPE_LICENCE_KEY: merchant.licenceKey },
  });
  await handSocket(backend.proc, socket);
  await backend.line(/^listening$/);
});
after(async () => {
  backend?.proc.kill();
  await stack?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("the README's page and backend", () => {
  it('Pay waits for a complete form; a payment through 3-D Secure is verified by the backend as paid', async () => {
    const { page, context, problems } = await stack.newPage();
    try {
      await page.goto(origin);
      const frame = page.frameLocator('#card iframe');
      await frame.getByLabel('Card number').pressSequentially(digitsOf(CARDS.challenge));
      await frame.getByLabel('Expiry date').pressSequentially('1230');
      await frame.getByLabel('Security code').pressSequentially(cscFor(CARDS.challenge));
      assert.equal(await page.locator('#pay').isDisabled(), true, 'Pay waits while the form is incomplete');
      await frame.getByLabel('Name on card').fill('Ada Lovelace');
      await page.locator('#pay:not([disabled])').click();
      await answerChallenge(page);
      await page.locator('#status', { hasText: 'Paid. Thank you!' }).waitFor();
      assert.deepEqual(problems.filter((p) => !p.includes('404')), []);
    } finally {
      await context.close();
    }
  });
});
