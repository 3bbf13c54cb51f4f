import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { apiLink } from './api-link.ts';

/**
 * `npm run -s listen -- --forward-to http://localhost:3000/webhooks [--events a,b]`: as `stripe
 * listen`, receives the seeded merchant's events on a temporary webhook endpoint (a loopback port of
 * this command), prints each, forwards it (the same body and webhook-* headers, so the printed
 * secret verifies it) and prints the forward's answer, which is also this endpoint's answer: a
 * failed forward is retried on the schedule. The endpoint is deleted on exit (Ctrl-C).
 */
const { values } = parseArgs({ options: { 'forward-to': { type: 'string' }, events: { type: 'string' } } });
const forwardTo = values['forward-to'];
if (!forwardTo) {
  process.stderr.write('Usage: npm run -s listen -- --forward-to <url> [--events payment_intent.succeeded,payment_intent.*]\n');
  process.exit(2);
}
const events = values.events ? values.events.split(',').map((e) => e.trim()).filter(Boolean) : ['*'];

const now = () => new Date().toISOString().replace('T', ' ').slice(0, 19);
const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

const server = createServer(async (req, res) => {
  const body = await readBody(req);
  let label = '';
  try {
    const event = JSON.parse(body) as { id: string; type: string };
    label = `${event.type} [${event.id}]`;
  } catch {
    label = '(not an event)';
  }
  process.stdout.write(`${now()}   --> ${label}\n`);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'user-agent']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
  let status: number;
  try {
    const forwarded = await fetch(forwardTo, { method: 'POST', headers, body, signal: AbortSignal.timeout(9_000) });
    await forwarded.arrayBuffer();
    status = forwarded.status;
    process.stdout.write(`${now()}  <--  [${status}] POST ${forwardTo} ${label}\n`);
  } catch (error) {
    status = 502;
    process.stdout.write(`${now()}  <--  [ERR] POST ${forwardTo} ${label}: ${(error as Error).cause ?? (error as Error).message}\n`);
  }
  res.writeHead(status >= 200 && status < 300 ? 200 : status).end();
});

const api = apiLink();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
let endpoint: { id: string; secret: string };
try {
  endpoint = await api.call('POST', '/v1/webhook_endpoints', { url, enabled_events: events, description: `npm run listen → ${forwardTo} (temporary)` });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  server.close();
  process.exit(1);
}
process.stderr.write(`Ready! Your webhook signing secret is ${endpoint.secret} (endpoint ${endpoint.id}, events ${events.join(', ')}, forwarding to ${forwardTo}). Ctrl-C to stop.\n`);

let stopping = false;
const stopListening = async () => {
  if (stopping) return;
  stopping = true;
  try {
    await api.call('DELETE', `/v1/webhook_endpoints/${endpoint.id}`);
    process.stderr.write(`Removed the temporary endpoint ${endpoint.id}.\n`);
  } catch (error) {
    process.stderr.write(`Could not remove ${endpoint.id}: ${(error as Error).message}\n`);
  }
  server.closeAllConnections();
  server.close();
  process.exit(0);
};
process.on('SIGINT', stopListening);
process.on('SIGTERM', stopListening);
