import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from './app.ts';
import { ManualClock, type Clock } from './clock.ts';
import { createServices, pruneExpired, type Services } from './services.ts';
import { httpLimitsOf, type Config } from './config.ts';
import { capConnections } from './http/connection-cap.ts';
import { ApiError } from './http/api-error.ts';
import { createLogger, type Logger } from './logger.ts';
import { ensureSeeded, type Credentials } from './seed.ts';
import { openStore, withoutPassword } from './store/open-store.ts';
import type { Store } from './store/store.ts';
import { databaseUnavailable, isOutage } from './store/pg-availability.ts';
import { startRefundSettlement } from './payments/refund-settlement.ts';
import { configuredClock, obeyClockMoves } from './test-clock.ts';

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

/** While the database cannot be reached at start, how often the log says so again. */
const WAITING_SAID_EVERY_MS = 30_000;

const starting = () => new ApiError('starting', 'The service is starting: try again in a second.', null, { 'Retry-After': '1' });

/**
 * Opens the store, seeds it on first start, and serves the API on `config.port` (0: any free port).
 * The port is bound first, so the configuration is complete (and frozen) before any service reads it.
 * A PostgreSQL database that cannot be reached yet is waited for (with backoff, said in the log).
 * The clock: the system's, or with `testClock` (CPE_TEST_CLOCK) one held still and moved by the
 * parent process (test-clock.ts).
 */
export async function startService(
  requested: Config,
  clock: Clock = configuredClock(requested.testClock),
  logger: Logger = createLogger(requested.log),
  {
    listenWhenReady = false,
  }: {
    /**
     * Bind the port only once ready to serve: a worker joining others that serve already (on the
     * port `requested.port` shares, at `requested.publicUrl`), so none of their connections is
     * answered 503 while this one starts.
     */
    listenWhenReady?: boolean;
  } = {},
): Promise<RunningService> {
  if (listenWhenReady && /:0$/.test(requested.publicUrl)) throw new Error('listenWhenReady needs the public URL the service serves at');
  // Until the store is open and the app built, a request gets 503 (try again) rather than no answer:
  // database_unavailable while the database cannot be reached, else starting.
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let waitingForDatabase = false;
  const { headersTimeoutMs, requestTimeoutMs, maxConnections } = httpLimitsOf(requested);
  const notYet = (_req: IncomingMessage, res: ServerResponse) => {
    const refusal = waitingForDatabase ? databaseUnavailable() : starting();
    res.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers });
    res.end(JSON.stringify(refusal.toBody()));
  };
  // Node checks the two timeouts every connectionsCheckingInterval (30 s by default): often enough here to keep them.
  const limits = { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1_000, headersTimeoutMs / 2)) };
  const http = createServer(limits, (req, res) => (handle ?? notYet)(req, res));
  // Longer than a load balancer's idle timeout (60 s on AWS), so the balancer closes first.
  http.keepAliveTimeout = 65_000;
  capConnections(http, maxConnections);
  let port = listenWhenReady ? requested.port : await listen(http, requested.port);
  const config: Config = Object.freeze(
    requested.port === 0 ? { ...requested, port, publicUrl: requested.publicUrl.replace(/:0$/, `:${port}`) } : { ...requested },
  );
  if (!listenWhenReady) logger.log('info', 'listening', { port });
  // A start that fails part way (no database, a schema too new, another data folder's database)
  // leaves nothing behind: the port is freed and the store closed before the error goes on.
  let store: Store | undefined;
  try {
    let saidAt: number | undefined;
    const opened = (store = await openStore(config, {
      logger,
      onWaiting({ reason, attempt, delayMs }) {
        waitingForDatabase = true;
        if (saidAt !== undefined && performance.now() - saidAt < WAITING_SAID_EVERY_MS) return;
        saidAt = performance.now();
        logger.log('warn', 'waiting for the database: answering 503 until it can be reached', { database: withoutPassword(config.databaseUrl!), reason, attempts: attempt, retry_in_ms: delayMs });
      },
    }));
    const services = createServices(opened, logger, config, clock);
    const adminSecret = randomBytes(24).toString('base64url');
    const app = createApp(services, { adminSecret });
    handle = app.callback();
    const credentials = await ensureSeeded(services);
    // Webhook deliveries: what is pending (from before a restart, or another process's) goes out now.
    services.webhooks.start();
    await pruneExpired(services);
    const pruning = setInterval(() => {
      pruneExpired(services).catch((error: Error) => {
        // An outage is logged once by the store, not again by each pruning that meets it.
        if (!isOutage(error)) logger.log('error', 'pruning failed', { error: error.name, message: error.message });
      });
    }, PRUNE_EVERY_MS).unref();
    const settlement = startRefundSettlement(services.payments, logger);
    if (config.testClock !== undefined && clock instanceof ManualClock) {
      obeyClockMoves(clock, settlement.passNow);
      // Said at the default level: a service whose time stands still is never what production wants.
      logger.log('warn', 'CPE_TEST_CLOCK is set: the clock stands still, moved only by the parent process (tests only)', { now: clock.now() });
    }
    if (listenWhenReady) port = await listen(http, requested.port);
    // The CLI reaches an embedded store through its one process; on PostgreSQL it opens the database itself.
    const linked = config.dataDir && opened.engine === 'embedded';
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
        await services.webhooks.stop();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        await services.dashboard.requests.close();
        await opened.close();
        if (linked) rmSync(serviceFile(config.dataDir!), { force: true });
      },
    };
  } catch (error) {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await store?.close();
    throw error;
  }
}
