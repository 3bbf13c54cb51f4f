import type { Server } from 'node:http';
import { createServer } from 'node:http';
import Koa from 'koa';
import { CpeClient, cpeMiddleware, toSession } from '../server/client/index.ts';
import type { Credentials } from '../server/seed.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside a `<script type="application/json">` block. */
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page's script, served from the demo's own origin (its CSP allows 'self' and the service, no
 * inline script). It loads the SDK cross-origin from the service, exactly as a merchant page would.
 */
const APP_JS = `// The demo merchant's page script. The SDK comes from the service's origin.
const config = JSON.parse(document.getElementById('cpe-config').textContent);
const output = document.getElementById('sdk-result');
const form = document.getElementById('sdk-form');

function show(state, text) {
  output.dataset.state = state;
  output.textContent = text;
}

// The page asks its own backend for a Payment Intent; the backend prices the order and calls the
// service with its licence key, which never reaches this page.
const createServerIntent = async () => {
  const response = await fetch('/api/payment-intents', { method: 'POST' });
  if (!response.ok) throw new Error('The demo backend could not create a Payment Intent (' + response.status + ')');
  return response.json();
};

let sdk;
async function run(pubKey) {
  show('loading', 'Loading the SDK…');
  try {
    sdk ??= await import(config.serviceUrl + '/sdk/cpe.js');
  } catch (error) {
    show('error', 'The SDK could not be loaded from ' + config.serviceUrl + '/sdk/cpe.js (is the service running, and built with npm run build?)');
    return;
  }
  try {
    const elements = await sdk.createElements({ pubKey, createServerIntent });
    const id = await elements.getPaymentIntentId();
    show('ready', 'Elements ready for Payment Intent ' + id + ' (service ' + elements.serviceOrigin + ')');
  } catch (error) {
    show('error', (error && error.name) + ': ' + (error && error.message));
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  run(new FormData(form).get('pubKey'));
});
run(config.publicKey);
`;

const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6feb"/></svg>';

/**
 * The demo merchant: a separate origin from the service, as every real merchant is. For now its
 * page lists what the service offers and checks that the browser SDK loads; the shop is built on
 * the browser SDK.
 */
export function startDemo(options: { port: number; credentials: Credentials }): Promise<{ server: Server; url: string; port: number }> {
  const app = new Koa();
  const { serviceUrl, merchantId, publicKey, licenceKey } = options.credentials;
  // The demo's backend: it alone holds the licence key.
  const cpe = new CpeClient({ licenceKey, baseUrl: serviceUrl });
  let order = 0;
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/api/payment-intents') return next();
    // The backend decides what is paid for: the browser never sends the amount.
    const created = await cpe.createPaymentIntent({ merchantid: merchantId, amount: 1234, currency: 'GBP', identifier: `demo-order-${Date.now()}-${++order}` });
    ctx.body = toSession(created);
  });
  // Middleware mode: /api/cpe/attach, /confirm, /authorise, /verify-auth forward to the service.
  app.use(cpeMiddleware({ client: cpe }).router('/api/cpe').routes());
  app.use(async (ctx) => {
    if (ctx.path === '/app.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = APP_JS;
      return;
    }
    if (ctx.path === '/favicon.svg' || ctx.path === '/favicon.ico') {
      ctx.type = 'image/svg+xml';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = FAVICON;
      return;
    }
    if (ctx.path !== '/') {
      ctx.status = 404;
      ctx.body = 'Not found';
      return;
    }
    ctx.type = 'html';
    ctx.set('Content-Security-Policy', `default-src 'self'; script-src 'self' ${serviceUrl}; frame-src ${serviceUrl}; connect-src 'self' ${serviceUrl}`);
    ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>CPE demo merchant</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body>
<h1>CPE demo merchant</h1>
<p>Service: <a href="${escape(serviceUrl)}/v1/openapi.json">${escape(serviceUrl)}</a></p>
<ul>
  <li>Merchant id: <code>${merchantId}</code></li>
  <li>Public key: <code>${escape(publicKey)}</code></li>
  <li>Messaging API: <code>${escape(serviceUrl)}/v1/contacts</code>, <code>${escape(serviceUrl)}/v1/conversations</code></li>
  <li>API description: <a href="${escape(serviceUrl)}/v1/openapi.json">/v1/openapi.json</a></li>
  <li>Browser SDK: <code>${escape(serviceUrl)}/sdk/cpe.js</code></li>
</ul>
<section aria-labelledby="sdk-title">
<h2 id="sdk-title">Browser SDK</h2>
<form id="sdk-form">
  <label>Public key <input name="pubKey" value="${escape(publicKey)}" size="40" autocomplete="off" spellcheck="false"></label>
  <button type="submit">Create elements</button>
</form>
<p>Status: <output id="sdk-result" aria-live="polite" data-state="loading">Loading the SDK…</output></p>
</section>
<script type="application/json" id="cpe-config">${jsonForScript({ serviceUrl, publicKey })}</script>
<script type="module" src="/app.js"></script>
</body></html>`;
  });
  const server = createServer(app.callback());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({ server, url: `http://localhost:${port}`, port });
    });
  });
}
