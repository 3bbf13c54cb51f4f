import cluster from 'node:cluster';
import { join } from 'node:path';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { startDemo } from '../demo/server.ts';
import { dashboardLink } from '../server/admin/admin-routes.ts';
import { configFromEnv } from '../server/config.ts';
import { readSdkRelease, sdkScriptTag } from '../server/http/sdk-release.ts';
import type { Credentials } from '../server/seed.ts';
import { startService } from '../server/start.ts';

/**
 * `npm start`: the service (one process, or CPE_PROCESSES workers) and the demo merchant, on two
 * origins. It composes the two from here, outside server/, so the service never imports the demo.
 */
const config = configFromEnv();

/** The seeded credentials' file, which the demo shop watches (a Roll key of the seeded merchant rewrites it). */
const credentialsFile = () => (config.dataDir ? join(config.dataDir, 'credentials.json') : undefined);

/** A taken port is the newcomer's most likely failure: say what to do instead of a stack trace. */
async function orExplain<T>(what: string, variable: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    process.stderr.write(`Port ${port} (${what}) is already in use: is CPE already running? Stop it, or choose another port with ${variable}=<port>.\n`);
    process.exit(1);
  }
}

if (config.processes! > 1 && !config.databaseUrl) {
  process.stderr.write(
    `CPE_PROCESSES=${config.processes} needs CPE_DATABASE_URL=postgres://…: the embedded store serves one process. See the README, "PostgreSQL and several processes".\n`,
  );
  process.exit(1);
}

if (config.processes! > 1 && cluster.isPrimary) await primary(config.processes!);
else if (cluster.isWorker) await worker();
else await single();

/** One process: the service and the demo merchant. */
async function single(): Promise<void> {
  const socket = await demoSocket();
  const service = await orExplain('the service', 'PORT', config.port, () => startService({ ...config, demoPort: portOf(socket) }));
  const demo = await startDemo({ port: socket, credentials: service.credentials, credentialsFile: credentialsFile() });
  const link = await dashboardLink(service.services, service.credentials.merchantId);
  banner(service.url, demo.url, service.credentials, link.url);
  announce(service.url, demo.url);
  onStop(async () => {
    demo.server.close();
    await service.close();
  });
}

interface Ready {
  type: 'cpe:ready';
  url: string;
  credentials: Credentials;
  /** A one-time dashboard sign-in link for the seeded merchant. */
  dashboardUrl: string;
}


/**
 * CPE_PROCESSES=N: N workers serve the API on one port (node:cluster hands connections out in turn)
 * on one PostgreSQL database; this process runs the demo merchant and restarts a worker that dies.
 */
async function primary(count: number): Promise<void> {
  const socket = await demoSocket();
  // The workers read it: the merchant a worker seeds is registered for the demo's origin.
  process.env.DEMO_PORT = String(portOf(socket));
  let stopping = false;
  const fork = () => {
    const child = cluster.fork();
    child.on('exit', (code, signal) => {
      if (stopping) return;
      process.stderr.write(`CPE worker ${child.process.pid} exited (${signal ?? code}): starting another.\n`);
      fork();
    });
    return child;
  };
  const first = await Promise.all(
    Array.from({ length: count }, () => {
      const child = fork();
      return new Promise<Ready>((resolve, reject) => {
        child.on('message', (message: Ready) => message?.type === 'cpe:ready' && resolve(message));
        child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
      });
    }),
  ).catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
  const demo = await startDemo({ port: socket, credentials: first[0].credentials, credentialsFile: credentialsFile() });
  banner(first[0].url, demo.url, first[0].credentials, first[0].dashboardUrl, `${count} worker processes (pids ${Object.values(cluster.workers ?? {}).map((w) => w?.process.pid).join(', ')}) on ${redacted(config.databaseUrl!)}`);
  announce(first[0].url, demo.url);
  onStop(async () => {
    stopping = true;
    demo.server.close();
    const workers = Object.values(cluster.workers ?? {});
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (!w || w.isDead()) return resolve();
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
  });
}

/** A worker of CPE_PROCESSES: the service only; tells the primary when it serves. */
async function worker(): Promise<void> {
  const service = await startService(config);
  const link = await dashboardLink(service.services, service.credentials.merchantId);
  process.send?.({ type: 'cpe:ready', url: service.url, credentials: service.credentials, dashboardUrl: link.url } satisfies Ready);
  onStop(() => service.close());
}

/**
 * The demo merchant's port, bound before the service starts: the test merchant seeded on the first
 * start is registered for the demo's origin, which with DEMO_PORT=0 (any free port) is known only
 * once bound.
 */
function demoSocket(): Promise<NetServer> {
  return orExplain('the demo merchant', 'DEMO_PORT', config.demoPort, () =>
    new Promise<NetServer>((resolve, reject) => {
      const server = createNetServer().once('error', reject);
      server.listen(config.demoPort, () => resolve(server));
    }),
  );
}

function portOf(server: NetServer): number {
  return (server.address() as AddressInfo).port;
}

/**
 * Started by a program with an IPC channel (tests and benchmarks start it with PORT=0 and
 * DEMO_PORT=0), tell it where the service and the demo listen, once both serve.
 */
function announce(serviceUrl: string, demoUrl: string): void {
  process.send?.({ type: 'cpe:listening', serviceUrl, demoUrl });
}

function redacted(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@');
}

function banner(serviceUrl: string, demoUrl: string, credentials: Credentials, dashboardUrl: string, processes?: string): void {
  const { merchantId, licenceKey, publicKey, accessToken } = credentials;
  const release = readSdkRelease();
  const data = config.databaseUrl ? `PostgreSQL ${redacted(config.databaseUrl)}` : config.dataDir;
  process.stdout.write(`
CPE service        ${serviceUrl}
Demo merchant      ${demoUrl}
Dashboard          ${dashboardUrl}
                   (signs in the seeded merchant: works once, within an hour; another: npm run -s dashboard)
API description    ${serviceUrl}/v1/openapi.json
Data               ${data}${processes ? `\nProcesses         ${processes}` : ''}

The SDK, pinned to this build with Subresource Integrity (also: ${serviceUrl}/sdk/integrity.json)
  ${release ? sdkScriptTag(serviceUrl, release) : 'not built yet: npm run build'}

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
