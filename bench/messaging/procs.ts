import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Every child this benchmark started, so that any exit path can end them. */
const children = new Set<ChildProcess>();

export interface Child {
  name: string;
  proc: ChildProcess;
  /** The last few KB of its stdout and stderr, for the error message when it dies. */
  output(): string;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; closed again before the child binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function start(name: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Child {
  const proc = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  proc.once('exit', () => children.delete(proc));
  return { name, proc, output: () => tail };
}

const alive = (proc: ChildProcess) => proc.exitCode === null && proc.signalCode === null;

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stop(child: Child, graceMs = 5_000): Promise<void> {
  const { proc } = child;
  if (!alive(proc)) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => alive(proc) && proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Last resort, synchronous (usable from process 'exit'): SIGKILL every child still running. */
export function killAll(): void {
  for (const proc of children) if (alive(proc)) proc.kill('SIGKILL');
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** `node --import tsx server/main.ts` on free ports with its own data folder, unthrottled and quiet. */
export async function startCpe(root: string, dataDir: string): Promise<CpeService> {
  const [port, demoPort] = [await freePort(), await freePort()];
  const child = start('CPE service', ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      CPE_DATA_DIR: dataDir,
      CPE_RATE_LIMIT: '0',
      CPE_LOG_LEVEL: 'warn',
      CPE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const credentials = join(dataDir, 'credentials.json');
  const token = await waitFor(child, 'the service to answer and write credentials.json', async () => {
    const health = await fetch(`${url}/healthz`);
    await health.arrayBuffer();
    if (!health.ok || !existsSync(credentials)) return undefined;
    return (JSON.parse(readFileSync(credentials, 'utf8')) as { accessToken?: string }).accessToken;
  });
  return { child, url, token };
}

/** json-server 0.17.4's own CLI on a db.json, without its request log (CPE runs at log level warn). */
export async function startJsonServer(root: string, dbFile: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const bin = join(root, 'node_modules/json-server/lib/cli/bin.js');
  const child = start('json-server', [bin, '--host', '127.0.0.1', '--port', String(port), '--quiet', dbFile], { cwd: root });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(child, 'json-server to answer', async () => {
    const res = await fetch(`${url}/contacts?_limit=1`);
    await res.arrayBuffer();
    return res.ok ? true : undefined;
  });
  return { child, url };
}
