/** The messaging benchmark's two servers (CPE and json-server) as child processes, started and ready. */
import { join } from 'node:path';
import { alive, freePort, sleep, spawnNode, startServiceChild, type Child } from '../shared/processes.ts';

/** Polls `check` until it returns a value, failing early if the child exits or after `timeoutMs`. */
export async function waitFor<T>(child: Child, what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive(child.proc)) throw new Error(`${child.name} exited (code ${child.proc.exitCode}) before ${what}:\n${child.output()}`);
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${child.name}: timed out waiting for ${what}:\n${child.output()}`);
    await sleep(100);
  }
}

export interface CpeService {
  child: Child;
  url: string;
  token: string;
}

/** The service as a child (startServiceChild) with its own data folder, unthrottled and quiet. */
export async function startCpe(root: string, dataDir: string): Promise<CpeService> {
  const service = await startServiceChild(root, dataDir, { CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn' });
  return { child: service, url: service.url, token: service.credentials.accessToken };
}

/** Bare Koa answering one JSON page from memory (bare-koa.ts): the framework's ceiling for a list. */
export async function startBareKoa(root: string, pageFile: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode('bare Koa', ['--import', 'tsx', join(root, 'bench/messaging/bare-koa.ts'), String(port), pageFile], { cwd: root });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(child, 'bare Koa to answer', async () => {
    const res = await fetch(`${url}/v1/contacts?limit=10`);
    await res.arrayBuffer();
    return res.ok ? true : undefined;
  });
  return { child, url };
}

/** json-server 0.17.4's own CLI on a db.json, without its request log (CPE runs at log level warn). */
export async function startJsonServer(root: string, dbFile: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const bin = join(root, 'node_modules/json-server/lib/cli/bin.js');
  const child = spawnNode('json-server', [bin, '--host', '127.0.0.1', '--port', String(port), '--quiet', dbFile], { cwd: root });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(child, 'json-server to answer', async () => {
    const res = await fetch(`${url}/contacts?_limit=1`);
    await res.arrayBuffer();
    return res.ok ? true : undefined;
  });
  return { child, url };
}
