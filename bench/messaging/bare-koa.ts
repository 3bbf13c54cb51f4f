/**
 * The framework's ceiling for a list page: bare Koa (no auth, limiter, router, validation or log)
 * answering the JSON page CPE returned from a string it already holds (no JSON.stringify per
 * request: CPE too writes its pages from kept JSON), in its own process. `node --import tsx
 * bench/messaging/bare-koa.ts <page.json>`: listens on port 0 of 127.0.0.1 and sends its parent
 * `{type: 'listening', port}`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const [file] = process.argv.slice(2);
const page = readFileSync(file, 'utf8');
JSON.parse(page); // CPE's page, whole
const app = new Koa();
app.use((ctx) => {
  ctx.type = 'json';
  ctx.body = page;
});
const server = createServer(app.callback()).listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port });
});
