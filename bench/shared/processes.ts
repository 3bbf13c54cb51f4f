/**
 * Child-process plumbing shared by the benchmarks and the tests: the one free-port finder, Node
 * children that are tracked (and keep the tail of their output), the one way to start the service
 * as a child, stopping them, and making sure none outlives its parent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Every child started here and not yet exited, so that any exit path can end them. */
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True until the process has exited or been ended by a signal. */
export const alive = (proc: ChildProcess) => proc.exitCode === null && proc.signalCode === null;

/** `node <args>` (this Node binary) with `env` over this process's environment, tracked until it exits. */
export function spawnNode(name: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; keepBytes?: number }): Child {
  const keepBytes = options.keepBytes ?? 8_000;
  const proc = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-keepBytes);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  return { name, proc, output: () => tail };
}

export interface ServiceChild extends Child {
  url: string;
  port: number;
  credentials: { merchantId: number; licenceKey: string; publicKey: string; accessToken: string };
}

/**
 * `npm start`'s service process (`node --import tsx scripts/start.ts`, without the npm wrapper and its
 * build check) on free loopback ports, with its own data folder and the given environment; resolves
 * once it answers and has written its credentials.
 */
export async function startServiceChild(
  root: string,
  dataDir: string,
  env: Record<string, string> = {},
  options: { nodeFlags?: string[]; keepBytes?: number; startTimeoutMs?: number } = {},
): Promise<ServiceChild> {
  const [port, demoPort] = [await freePort(), await freePort()];
  const child = spawnNode('the service', [...(options.nodeFlags ?? []), '--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: { PORT: String(port), DEMO_PORT: String(demoPort), CPE_DATA_DIR: dataDir, CPE_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    keepBytes: options.keepBytes,
  });
  const { proc } = child;
  const url = `http://127.0.0.1:${port}`;
  const credentialsFile = join(dataDir, 'credentials.json');
  const limit = options.startTimeoutMs ?? 30_000;
  const deadline = Date.now() + limit;
  let credentials: ServiceChild['credentials'];
  for (;;) {
    if (!alive(proc)) throw new Error(`the service exited (code ${proc.exitCode}) before answering:\n${child.output()}`);
    try {
      const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await health.arrayBuffer();
      // The file may be seen half written: it counts once it parses.
      if (health.ok && existsSync(credentialsFile)) {
        credentials = JSON.parse(readFileSync(credentialsFile, 'utf8'));
        break;
      }
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`the service did not answer within ${limit / 1000} s:\n${child.output()}`);
    await sleep(100);
  }
  return { ...child, url, port, credentials };
}

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

/**
 * Children die with us, whatever way we go: kills them on exit and on SIGINT/SIGTERM (exit 130),
 * and after `timeoutSeconds` (exit 2). Returns the watchdog timer, for `clearTimeout` at the end.
 */
export function guardChildren(timeoutSeconds: number): NodeJS.Timeout {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping`);
      killAll();
      process.exit(130);
    });
  }
  return setTimeout(() => {
    console.error(`Benchmark exceeded ${timeoutSeconds} s: stopping.`);
    killAll();
    process.exit(2);
  }, timeoutSeconds * 1000);
}
