import type { Server } from 'node:http';
import { createServer } from 'node:http';
import Koa from 'koa';
import type { Credentials } from '../server/seed.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The demo merchant: a separate origin from the service, as every real merchant is. For now its
 * page lists what the service offers; the shop is built on the browser SDK.
 */
export function startDemo(options: { port: number; credentials: Credentials }): Promise<{ server: Server; url: string }> {
  const app = new Koa();
  const { serviceUrl, merchantId, publicKey } = options.credentials;
  app.use(async (ctx) => {
    if (ctx.path !== '/') {
      ctx.status = 404;
      ctx.body = 'Not found';
      return;
    }
    ctx.type = 'html';
    ctx.set('Content-Security-Policy', `default-src 'self'; script-src 'self' ${serviceUrl}; frame-src ${serviceUrl}; connect-src 'self' ${serviceUrl}`);
    ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>CPE demo merchant</title></head>
<body>
<h1>CPE demo merchant</h1>
<p>Service: <a href="${escape(serviceUrl)}/v1/openapi.json">${escape(serviceUrl)}</a></p>
<ul>
  <li>Merchant id: <code>${merchantId}</code></li>
  <li>Public key: <code>${escape(publicKey)}</code></li>
  <li>Messaging API: <code>${escape(serviceUrl)}/v1/contacts</code>, <code>${escape(serviceUrl)}/v1/conversations</code></li>
  <li>API description: <a href="${escape(serviceUrl)}/v1/openapi.json">/v1/openapi.json</a></li>
</ul>
</body></html>`;
  });
  const server = createServer(app.callback());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({ server, url: `http://localhost:${port}` });
    });
  });
}
