import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from './app.ts';
import { systemClock, type Clock } from './clock.ts';
import { createServices, pruneExpired, type Services } from './services.ts';
import type { Config } from './config.ts';
import { createLogger } from './logger.ts';
import { ensureSeeded, type Credentials } from './seed.ts';
import { openStore } from './store/open-store.ts';
import { startRefundSettlement } from './payments/refund-settlement.ts';

export interface RunningService {
  url: string;
  port: number;
  services: Services;
  credentials: Credentials;
  close(): Promise<void>;
}

/** Where the running service tells the CLI how to reach it (see cli/service-link.ts). */
export const serviceFile = (dataDir: string) => join(dataDir, 'service.json');

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve((server.address() as AddressInfo).port));
  });

/** How often expired idempotency records, tokens and challenges are pruned. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Opens the store, seeds it on first start, and serves the API on `config.port` (0: any free port).
 * The port is bound first, so the configuration is complete (and frozen) before any service reads it.
 */
export async function startService(requested: Config, clock: Clock = systemClock): Promise<RunningService> {
  // Until the store is open and the app built, a request gets 503 (try again) rather than no answer.
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const http = createServer((req, res) => {
    if (handle) return handle(req, res);
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ error: { type: 'api_error', code: 'starting', message: 'The service is starting: try again in a second.', param: null } }));
  });
  http.keepAliveTimeout = 65_000;
  const port = await listen(http, requested.port);
  const config: Config = Object.freeze(
    requested.port === 0 ? { ...requested, port, publicUrl: requested.publicUrl.replace(/:0$/, `:${port}`) } : { ...requested },
  );
  const store = await openStore(config);
  const logger = createLogger(config.log);
  const services = createServices(store, logger, config, clock);
  const adminSecret = randomBytes(24).toString('base64url');
  const app = createApp(services, { adminSecret });
  handle = app.callback();
  const credentials = await ensureSeeded(services);
  await pruneExpired(services);
  const pruning = setInterval(() => {
    pruneExpired(services).catch((error: Error) => logger.log('error', 'pruning failed', { error: error.name, message: error.message }));
  }, PRUNE_EVERY_MS).unref();
  const settlement = startRefundSettlement(services.payments, logger);
  // The CLI reaches an embedded store through its one process; on PostgreSQL it opens the database itself.
  const linked = config.dataDir && store.engine === 'embedded';
  if (linked) {
    writeFileSync(serviceFile(config.dataDir!), JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}`, publicUrl: config.publicUrl, adminSecret }), { mode: 0o600 });
  }
  logger.log('info', 'service started', { url: config.publicUrl });
  return {
    url: config.publicUrl,
    port,
    services,
    credentials,
    async close() {
      clearInterval(pruning);
      await settlement.stop();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await services.dashboard.requests.close();
      await store.close();
      if (linked) rmSync(serviceFile(config.dataDir!), { force: true });
    },
  };
}
