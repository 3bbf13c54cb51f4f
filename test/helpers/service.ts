import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { createApp } from '../../server/app.ts';
import { systemClock, type Clock } from '../../server/clock.ts';
import { createServices, type Services } from '../../server/services.ts';
import type { Config } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { ensureSeeded, type Credentials } from '../../server/seed.ts';
import { openStore } from '../../server/store/open-store.ts';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { assertMatchesOpenApi } from './openapi-check.ts';

export { ManualClock } from '../../server/clock.ts';

export interface TestService {
  url: string;
  services: Services;
  credentials: Credentials;
  /** fetch against the service; every JSON answer is checked against /v1/openapi.json. */
  api: Api;
  close(): Promise<void>;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export type Api = (
  method: string,
  path: string,
  options?: { token?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; raw?: string },
) => Promise<ApiResponse>;

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    demoPort: 4243,
    dataDir: undefined,
    publicUrl: 'http://127.0.0.1:0',
    rateLimit: { perSecond: 0, burst: 0 },
    log: { level: 'silent' },
    ...overrides,
  };
}

/** The engine the server suite runs on: CPE_TEST_ENGINE=postgres, or the embedded store. */
export const testEngine = (): 'postgres' | 'embedded' => (process.env.CPE_TEST_ENGINE === 'postgres' ? 'postgres' : 'embedded');

/** For tests of the embedded store itself (its files, its process): the PostgreSQL leg does not run them again. */
export const embeddedOnly = { skip: testEngine() === 'postgres' ? 'the embedded store itself: the embedded leg runs it' : false };

/**
 * A real service on loopback port 0 (the port it got is read back), with an in-memory store unless `dataDir` is given; with
 * CPE_TEST_ENGINE=postgres (and no `dataDir`), on a fresh PostgreSQL database of its own
 * (testkit/postgres.ts). The port is bound before the services are built, so their
 * configuration is final from the start.
 */
export async function startTestService(overrides: Partial<Config> = {}, clock: Clock = systemClock): Promise<TestService> {
  const server: Server = createServer();
  // The server and the test share one event loop: a stall of the test would fire the keep-alive
  // timer under a request the client had just sent on the idle connection. Idle connections stay
  // until the client drops them (close() ends them all).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const databaseUrl = overrides.databaseUrl ?? (testEngine() === 'postgres' && !overrides.dataDir ? await freshTestDatabase() : undefined);
  const config = Object.freeze(testConfig({ publicUrl: url, ...overrides, databaseUrl }));
  const store = await openStore(config);
  const services = createServices(store, createLogger(config.log), config, clock);
  server.on('request', createApp(services).callback());
  const credentials = await ensureSeeded(services);
  services.webhooks.start();
  const api = apiClient(url);
  return {
    url,
    services,
    credentials,
    api,
    async close() {
      await services.webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The request log writes after its answers: what it queued goes in before the store closes.
      await services.dashboard.requests.close();
      await store.close();
    },
  };
}

export function apiClient(url: string): Api {
  return async (method, path, options = {}) => {
    // A connection of its own for each request: a reused one races the server's keep-alive timer
    // when the test's process stalls for its 5 s (a loaded machine: 'fetch failed', 'other side closed').
    const headers: Record<string, string> = { connection: 'close', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.raw;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    const parsed = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text;
    if (typeof parsed === 'object') await assertMatchesOpenApi(url, method, path, response.status, parsed);
    return { status: response.status, headers: response.headers, body: parsed };
  };
}
