import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp, createServices, type Services } from './app.ts';
import type { Config } from './config.ts';
import { createLogger } from './logger.ts';
import { ensureSeeded, type Credentials } from './seed.ts';
import { LowdbStore } from './store/lowdb-store.ts';

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

/** Opens the store, seeds it on first start, and serves the API on `config.port` (0: any free port). */
export async function startService(config: Config): Promise<RunningService> {
  const store = await LowdbStore.open(config.dataDir);
  const logger = createLogger(config.log);
  const services = createServices(store, logger, config);
  const adminSecret = randomBytes(24).toString('base64url');
  const app = createApp(services, { adminSecret });
  const http = createServer(app.callback());
  http.keepAliveTimeout = 65_000;
  const port = await listen(http, config.port);
  if (config.port === 0) {
    config.port = port;
    config.publicUrl = config.publicUrl.replace(/:0$/, `:${port}`);
  }
  const credentials = await ensureSeeded(services);
  if (config.dataDir) {
    writeFileSync(serviceFile(config.dataDir), JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}`, publicUrl: config.publicUrl, adminSecret }), { mode: 0o600 });
  }
  logger.log('info', 'service started', { url: config.publicUrl });
  return {
    url: config.publicUrl,
    port,
    services,
    credentials,
    async close() {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await store.close();
      if (config.dataDir) rmSync(serviceFile(config.dataDir), { force: true });
    },
  };
}
