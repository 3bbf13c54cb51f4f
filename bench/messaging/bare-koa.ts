/**
 * The framework's ceiling for a list page: bare Koa (no auth, limiter, router, validation or log)
 * answering the JSON page CPE returned from a string it already holds (no JSON.stringify per
 * request: CPE too writes its pages from kept JSON), in its own process. `node --import tsx
 * bench/messaging/bare-koa.ts <port> <page.json>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import Koa from 'koa';

const [port, file] = process.argv.slice(2);
const page = readFileSync(file, 'utf8');
JSON.parse(page); // CPE's page, whole
const app = new Koa();
app.use((ctx) => {
  ctx.type = 'json';
  ctx.body = page;
});
createServer(app.callback()).listen(Number(port), '127.0.0.1');
