import { existsSync, readFileSync } from 'node:fs';
import type { Answer, BodyIn } from '../../api/operations.ts';
import { pathOf, ROUTES } from '../../api/routes.ts';
import { ADMIN_HEADER } from '../admin/admin-routes.ts';
import { createServices, type Services } from '../services.ts';
import { configFromEnv, type Config } from '../config.ts';
import { createLogger } from '../logger.ts';
import { ensureSeeded } from '../seed.ts';
import { serviceFile } from '../start.ts';
import { openStore } from '../store/open-store.ts';

interface Running {
  pid: number;
  url: string;
  publicUrl: string;
  adminSecret: string;
}

export function runningService(config: Config): Running | undefined {
  if (config.databaseUrl) return undefined; // on PostgreSQL, commands use the database directly
  const file = serviceFile(config.dataDir!);
  if (!existsSync(file)) return undefined;
  const running = JSON.parse(readFileSync(file, 'utf8')) as Running;
  try {
    process.kill(running.pid, 0);
    return running;
  } catch {
    return undefined; // a crashed service left its file behind
  }
}

/**
 * Runs a CLI command without losing data: while the service runs on the embedded store, its
 * in-memory database is the only writer of the file, so the command asks the service (its loopback
 * admin routes); otherwise (no service, or PostgreSQL, running or not) it opens the store itself.
 */
/** The admin operations of the table (api/routes.ts), called on the running service. */
type AdminOperation = 'issueToken' | 'createMerchant' | 'createDashboardLink';
export type AdminCall = <K extends AdminOperation>(name: K, body: BodyIn<K>) => Promise<Answer<K>>;

export async function withService<T>(command: { viaService(call: AdminCall): Promise<T>; direct(services: Services): T | Promise<T> }): Promise<T> {
  const config = configFromEnv();
  const running = runningService(config);
  if (running) {
    return command.viaService(async <K extends AdminOperation>(name: K, body: BodyIn<K>) => {
      const route = ROUTES[name];
      const response = await fetch(`${running.url}${pathOf(route)}`, {
        method: route.method.toUpperCase(),
        headers: { 'content-type': 'application/json', [ADMIN_HEADER]: running.adminSecret },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error((answer as { error?: { message?: string } })?.error?.message ?? `service answered ${response.status}`);
      return answer as Answer<K>;
    });
  }
  const store = await openStore(config);
  try {
    const services = createServices(store, createLogger({ level: 'silent' }), config);
    await ensureSeeded(services);
    return await command.direct(services);
  } finally {
    await store.close();
  }
}

/** Prints the answer (a string as is, anything else as one JSON line), or the error on stderr, exit 1. */
export async function run(main: () => Promise<unknown>): Promise<void> {
  try {
    const answer = await main();
    process.stdout.write(`${typeof answer === 'string' ? answer : JSON.stringify(answer)}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
