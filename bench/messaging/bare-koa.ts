/**
 * The framework's ceiling for a list page: bare Koa (no auth, limiter, router, validation or log)
 * answering the JSON page CPE returned, from memory, in its own process. `node --import tsx
 * bench/messaging/bare-koa.ts <port> <page.json>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import Koa from 'koa';

const [port, file] = process.argv.slice(2);
const page: unknown = JSON.parse(readFileSync(file, 'utf8'));
const app = new Koa();
app.use((ctx) => {
  ctx.body = page;
});
createServer(app.callback()).listen(Number(port), '127.0.0.1');
