/**
 * The packed package in a new Node project: it installs without the service's dependencies, and a
 * plain Node script (no TypeScript loader) pays nothing but does everything a merchant backend does
 * with `cpe/server` against a running service: CpeClient, cpeNodeHandler on `http.createServer`,
 * toSession; `cpe/sdk` imports on the server without defining anything.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningService } from '../../server/start.ts';
import { startService } from '../../server/start.ts';
import { freshProject, installed, packTarball, sh, shAsync, temporary, write } from './fresh-project.ts';

const folder = temporary('cpe-package-node-');
let service: RunningService;
let project: string;

before(async () => {
  service = await startService({ port: 0, demoPort: 0, dataDir: folder.dir + '/data', publicUrl: 'http://127.0.0.1:0', rateLimit: { perSecond: 0, burst: 0 }, log: { level: 'silent' } });
  project = freshProject(folder.dir, 'backend', packTarball(folder.dir));
});
after(async () => {
  await service?.close();
  folder.remove();
});

describe('npm install <tarball> into a new Node project', () => {
  it("brings the package and zod (its types' schemas) only: none of the service's dependencies", () => {
    assert.deepEqual(installed(project), ['cpe', 'zod']);
    const manifest = JSON.parse(sh('node', ['-p', 'JSON.stringify(require("./node_modules/cpe/package.json"))'], project));
    assert.deepEqual(Object.keys(manifest.exports).sort(), ['./custom-elements.json', './package.json', './react', './sdk', './server']);
    assert.equal(manifest.customElements, 'custom-elements.json');
  });

  it('a plain Node script runs cpe/server against the service: the client, the Node handler, toSession', async () => {
    write(project, {
      'backend.mjs': `
import { createServer } from 'node:http';
import { CpeApiError, CpeClient, cpeNodeHandler, toSession } from 'cpe/server';

const { SERVICE_URL, LICENCE_KEY, MERCHANT_ID } = process.env;
const cpe = new CpeClient({ licenceKey: LICENCE_KEY, baseUrl: SERVICE_URL });
const merchantid = Number(MERCHANT_ID);
const out = {};

const created = await cpe.createPaymentIntent({ merchantid, amount: 1234, currency: 'GBP', identifier: 'order-1' });
out.session = Object.keys(toSession(created)).sort();
out.retrieved = (await cpe.retrievePaymentIntent(created.paymentIntentId)).status;
out.verify = (await cpe.verify({ payment_intent_id: created.paymentIntentId, unmask_fields: [] })).status;
out.cancelled = (await cpe.cancel({ payment_intent_id: created.paymentIntentId })).status;
try {
  await cpe.retrievePaymentIntent('pi_nothing');
} catch (error) {
  out.missing = error instanceof CpeApiError && [error.status, error.code];
}

// The middleware routes on plain Node: only intents this backend made are allowed.
const mine = new Set();
const handler = cpeNodeHandler({
  client: cpe,
  prefix: '/api/cpe',
  allowIntent: (req, id) => mine.has(id),
  exchange: () => ({ merchantid, amount: 990, currency: 'GBP', identifier: 'basket-7' }),
  onCreated: (session) => void mine.add(session.paymentIntentId),
});
const server = createServer((req, res) => handler(req, res));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = 'http://127.0.0.1:' + server.address().port;
const post = async (path, body) => {
  const response = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return [response.status, await response.json()];
};
const [status, exchanged] = await post('/api/cpe/exchange', { context: { amount: 990, currency: 'GBP', reference: 'basket-7' } });
out.exchange = [status, Object.keys(exchanged).sort()];
out.exchangedAmount = (await cpe.retrievePaymentIntent(exchanged.paymentIntentId)).amount;
out.notMine = (await post('/api/cpe/confirm', { payment_intent_id: created.paymentIntentId }))[0];
out.mismatch = (await post('/api/cpe/exchange', { context: { amount: 1, currency: 'GBP' } }))[1].error.code;
server.close();

// The browser module on the server (SSR): importing it defines nothing and throws nothing.
const sdk = await import('cpe/sdk');
out.sdk = [typeof sdk.createElements, typeof globalThis.customElements];
console.log(JSON.stringify(out));
`,
    });
    const { credentials } = service;
    const out = JSON.parse(await shAsync(process.execPath, ['backend.mjs'], project, { SERVICE_URL: service.url, LICENCE_KEY: credentials.licenceKey, MERCHANT_ID: String(credentials.merchantId) }));
    assert.deepEqual(out, {
      session: ['opaqueKey', 'paymentIntentId', 'sessionToken'],
      retrieved: 'open',
      verify: 'pending',
      cancelled: 'cancelled',
      missing: [404, 'resource_missing'],
      exchange: [200, ['opaqueKey', 'paymentIntentId', 'sessionToken']],
      exchangedAmount: 990,
      notMine: 404,
      mismatch: 'context_mismatch',
      sdk: ['function', 'undefined'],
    });
  });
});
