import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The service's child process, and every one this benchmark started (so any exit path ends them). */
const children = new Set<ChildProcess>();

export interface ServiceChild {
  proc: ChildProcess;
  url: string;
  port: number;
  credentials: { merchantId: number; licenceKey: string; publicKey: string };
  /** The last few KB of its stdout and stderr. */
  output(): string;
}

/** A free TCP port on 127.0.0.1 (closed again before the child binds it). */
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

const alive = (proc: ChildProcess) => proc.exitCode === null && proc.signalCode === null;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `npm start`'s service process (`node --import tsx server/main.ts`, without the npm wrapper and its
 * build check) on free loopback ports, with its own data folder and the given environment.
 */
export async function startService(root: string, dataDir: string, env: Record<string, string>, nodeFlags: string[] = []): Promise<ServiceChild> {
  const [port, demoPort] = [await freePort(), await freePort()];
  const proc = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DEMO_PORT: String(demoPort), CPE_DATA_DIR: dataDir, CPE_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-8_000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const credentialsFile = join(dataDir, 'credentials.json');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!alive(proc)) throw new Error(`the service exited (code ${proc.exitCode}) before answering:\n${tail}`);
    try {
      const health = await fetch(`${url}/healthz`);
      await health.arrayBuffer();
      if (health.ok && existsSync(credentialsFile)) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`the service did not answer within 30 s:\n${tail}`);
    await sleep(100);
  }
  return { proc, url, port, credentials: JSON.parse(readFileSync(credentialsFile, 'utf8')), output: () => tail };
}

/** SIGTERM (the service commits and exits), then SIGKILL after `graceMs`. */
export async function stopService(child: ServiceChild, graceMs = 10_000): Promise<void> {
  const { proc } = child;
  if (!alive(proc)) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => alive(proc) && proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Last resort, synchronous (usable from process 'exit'). */
export function killAll(): void {
  for (const proc of children) if (alive(proc)) proc.kill('SIGKILL');
}

export interface Answer {
  status: number;
  body: any;
}

/**
 * A small keep-alive JSON client on node:http (cheaper per request than fetch, so that the load
 * generator, which shares the machine, takes as little CPU as it can).
 */
export function jsonClient(port: number, sockets: number, timeoutMs = 10_000) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  const send = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          agent,
          headers: { ...headers, ...(data !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
            } catch {
              resolve({ status: res.statusCode ?? 0, body: text });
            }
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(data);
    });
  return { send, close: () => agent.destroy() };
}
