import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { startDemo } from '../demo/server.ts';
import { dashboardLink } from '../server/admin/admin-routes.ts';
import { configFromEnv, type Config } from '../server/config.ts';
import { readSdkRelease, sdkPinning } from '../server/http/sdk-release.ts';
import { createLogger, type Logger } from '../server/logger.ts';
import type { Credentials } from '../server/seed.ts';
import { startService, type RunningService } from '../server/start.ts';
import { withoutPassword } from '../server/store/open-store.ts';
import { Supervisor, type WorkerMessage } from '../server/supervisor.ts';
import { configuredClock } from '../server/test-clock.ts';

/**
 * `npm start`: the service (one process, or CPE_PROCESSES workers) and the demo merchant, on two
 * origins. It composes the two from here, outside server/, so the service never imports the demo.
 * A failure to start is one line naming the cause (never a stack trace) and exit status 1.
 */
const config = readConfig();

function readConfig(): Config {
  try {
    return configFromEnv();
  } catch (error) {
    process.stderr.write(`CPE could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
}

/** Why a part could not start, as a line a person can act on: a taken port (the newcomer's most likely failure) says what to do. */
function whyNot(error: unknown, what: string, variable: string, port: number): string {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    return `Port ${port} (${what}) is already in use: is CPE already running? Stop it, or choose another port with ${variable}=<port>.`;
  return (error as Error)?.message ?? String(error);
}

/** The seeded credentials' file, which the demo shop watches (a Roll key of the seeded merchant rewrites it). */
const credentialsFile = () => (config.dataDir ? join(config.dataDir, 'credentials.json') : undefined);

const serviceNotStarted = (error: unknown) => whyNot(error, 'the service', 'PORT', config.port);

/**
 * The demo merchant's port, bound before the service starts: the test merchant seeded on the first
 * start is registered for the demo's origin, which with DEMO_PORT=0 (any free port) is known only
 * once bound. Or exit 1 with the reason.
 */
async function demoSocket(): Promise<NetServer> {
  try {
    return await new Promise<NetServer>((resolve, reject) => {
      const server = createNetServer().once('error', reject);
      server.listen(config.demoPort, () => resolve(server));
    });
  } catch (error) {
    process.stderr.write(`CPE could not start the demo merchant: ${whyNot(error, 'the demo merchant', 'DEMO_PORT', config.demoPort)}\n`);
    process.exit(1);
  }
}

const portOf = (server: NetServer): number => (server.address() as AddressInfo).port;

/** The demo merchant on its socket, or exit 1 with the reason. */
async function demoOrExit(socket: NetServer, credentials: Credentials): Promise<{ server: Server; url: string }> {
  try {
    return await startDemo({ port: socket, credentials, credentialsFile: credentialsFile(), dataDir: config.dataDir });
  } catch (error) {
    process.stderr.write(`CPE could not start the demo merchant: ${(error as Error).message}\n`);
    process.exit(1);
  }
}

/**
 * The process's last word on an error nothing handled: a `fatal` line in the log, every line logged
 * so far written out, the primary told why (in a worker), then exit 1.
 */
function exitOnFatal(logger: Logger): void {
  let dying = false;
  const fatal = async (what: string, error: unknown) => {
    if (dying) return;
    dying = true;
    const { name, message, stack } = (error ?? {}) as Partial<Error>;
    logger.log('fatal', what, { error: name, message, stack });
    process.stderr.write(`CPE ${what}: ${stack ?? message ?? String(error)}\n`);
    await logger.flush?.();
    tellPrimaryAndExit({ type: 'cpe:failed', error: `${what}: ${message ?? String(error)}` }, 1);
  };
  process.on('uncaughtException', (error) => fatal('uncaught exception', error));
  process.on('unhandledRejection', (error) => fatal('unhandled rejection', error));
}

/** In a worker, sends `message` to the primary first (it names the error when it gives up); then exits. */
function tellPrimaryAndExit(message: WorkerMessage, code: number): void {
  if (!cluster.isWorker || !process.connected) process.exit(code);
  process.send!(message, () => process.exit(code));
}

if (config.processes! > 1 && !config.databaseUrl) {
  process.stderr.write(
    `CPE_PROCESSES=${config.processes} needs CPE_DATABASE_URL=postgres://…: the embedded store serves one process. See docs/operations.md, "PostgreSQL and several processes".\n`,
  );
  process.exit(1);
}

if (config.processes! > 1 && cluster.isPrimary) await primary(config.processes!);
else if (cluster.isWorker) await worker();
else await single();

/** The service, and its logger (flushed after a fatal error and at a stop signal); or exit 1 with the reason. */
async function serviceOrExit(serviceConfig: Config = config): Promise<{ service: RunningService; logger: Logger }> {
  const logger = createLogger(config.log);
  exitOnFatal(logger);
  try {
    return { service: await startService(serviceConfig, configuredClock(serviceConfig.testClock), logger, { listenWhenReady: process.env.CPE_LISTEN_WHEN_READY === '1' }), logger };
  } catch (error) {
    const why = serviceNotStarted(error);
    logger.log('fatal', 'could not start', { message: why });
    await logger.flush?.();
    process.stderr.write(`CPE${cluster.isWorker ? ` worker ${process.pid}` : ''} could not start: ${why}\n`);
    tellPrimaryAndExit({ type: 'cpe:failed', error: why }, 1);
    return new Promise<never>(() => {});
  }
}

/** One process: the service and the demo merchant. */
async function single(): Promise<void> {
  const socket = await demoSocket();
  const { service, logger } = await serviceOrExit({ ...config, demoPort: portOf(socket) });
  const demo = await demoOrExit(socket, service.credentials);
  const link = await dashboardLink(service.services, service.credentials.merchantId);
  banner(service.url, demo.url, service.credentials, link.url);
  announce(service.url, demo.url);
  onStop(async () => {
    demo.server.close();
    await service.close();
    await logger.flush?.();
  });
}

/**
 * CPE_PROCESSES=N: N workers serve the API on one port (node:cluster hands connections out in turn)
 * on one PostgreSQL database, kept running by the Supervisor; this process runs the demo merchant
 * from the moment the first worker serves.
 */
async function primary(count: number): Promise<void> {
  const socket = await demoSocket();
  // The workers read it: the merchant a worker seeds is registered for the demo's origin.
  process.env.DEMO_PORT = String(portOf(socket));
  let demo: { server: Server } | undefined;
  const supervisor = new Supervisor({
    count,
    // A worker joining others that serve binds the port only once ready (no 503 from it meanwhile).
    fork: (serving) => cluster.fork(serving ? { CPE_PUBLIC_URL: serving.url, CPE_LISTEN_WHEN_READY: '1' } : {}),
    say: (line) => process.stderr.write(`${line}\n`),
    async onUp(ready) {
      const credentials = ready.credentials as Credentials;
      const started = await demoOrExit(socket, credentials);
      demo = started;
      banner(ready.url, started.url, credentials, ready.dashboardUrl ?? '', `${count} worker processes (pids ${supervisor.pids.join(', ')}) on ${withoutPassword(config.databaseUrl!)}`);
      announce(ready.url, started.url);
    },
    onGiveUp(reason) {
      process.stderr.write(`CPE stopped: ${reason}\n`);
      process.exit(1);
    },
  });
  supervisor.start();
  onStop(async () => {
    demo?.server.close();
    await supervisor.stop();
  });
}

/** A worker of CPE_PROCESSES: the service only; tells the primary when it serves, or why it could not start. */
async function worker(): Promise<void> {
  const { service, logger } = await serviceOrExit();
  const link = await dashboardLink(service.services, service.credentials.merchantId);
  process.send?.({ type: 'cpe:ready', url: service.url, credentials: service.credentials, dashboardUrl: link.url } satisfies WorkerMessage);
  onStop(async () => {
    await service.close();
    await logger.flush?.();
  });
}

/**
 * Started by a program with an IPC channel (tests and benchmarks start it with PORT=0 and
 * DEMO_PORT=0), tell it where the service and the demo listen, once both serve.
 */
function announce(serviceUrl: string, demoUrl: string): void {
  process.send?.({ type: 'cpe:listening', serviceUrl, demoUrl });
}

function banner(serviceUrl: string, demoUrl: string, credentials: Credentials, dashboardUrl: string, processes?: string): void {
  const { merchantId, licenceKey, publicKey, accessToken } = credentials;
  const release = readSdkRelease();
  const pinning = release && sdkPinning(serviceUrl, release);
  const data = config.databaseUrl ? `PostgreSQL ${withoutPassword(config.databaseUrl)}` : config.dataDir;
  process.stdout.write(`
CPE service        ${serviceUrl}
Demo merchant      ${demoUrl}
Dashboard          ${dashboardUrl}
                   (signs in the seeded merchant: works once, within an hour; another: npm run -s dashboard)
API description    ${serviceUrl}/v1/openapi.json
Data               ${data}${processes ? `\nProcesses         ${processes}` : ''}

The SDK, pinned to this build with Subresource Integrity, its chunks by the import map (also: ${serviceUrl}/sdk/integrity.json)
  ${pinning ? `${pinning.importmap}\n  ${pinning.script}` : 'not built yet: npm run build'}

Test credentials (also: npm run -s credentials)
  merchantId       ${merchantId}
  publicKey        ${publicKey}
  licenceKey       ${licenceKey}   (server side only)
  accessToken      ${accessToken}   (messaging user "demo")

Try: curl -H "Authorization: Bearer ${accessToken}" ${serviceUrl}/v1/contacts
`);
}

function onStop(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      await stop();
      process.exit(0);
    });
  }
}
