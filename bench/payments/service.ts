import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { alive, freePort, sleep, spawnNode, stop, type Child } from '../shared/processes.ts';

export interface ServiceChild extends Child {
  url: string;
  port: number;
  credentials: { merchantId: number; licenceKey: string; publicKey: string };
}

/**
 * `npm start`'s service process (`node --import tsx server/main.ts`, without the npm wrapper and its
 * build check) on free loopback ports, with its own data folder and the given environment.
 */
export async function startService(root: string, dataDir: string, env: Record<string, string>, nodeFlags: string[] = []): Promise<ServiceChild> {
  const [port, demoPort] = [await freePort(), await freePort()];
  const child = spawnNode('the service', [...nodeFlags, '--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { PORT: String(port), DEMO_PORT: String(demoPort), CPE_DATA_DIR: dataDir, CPE_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
  });
  const { proc } = child;
  const url = `http://127.0.0.1:${port}`;
  const credentialsFile = join(dataDir, 'credentials.json');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!alive(proc)) throw new Error(`the service exited (code ${proc.exitCode}) before answering:\n${child.output()}`);
    try {
      const health = await fetch(`${url}/healthz`);
      await health.arrayBuffer();
      if (health.ok && existsSync(credentialsFile)) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`the service did not answer within 30 s:\n${child.output()}`);
    await sleep(100);
  }
  return { ...child, url, port, credentials: JSON.parse(readFileSync(credentialsFile, 'utf8')) };
}

/** SIGTERM (the service commits and exits), then SIGKILL after `graceMs`. */
export const stopService = (service: ServiceChild, graceMs = 10_000): Promise<void> => stop(service, graceMs);

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
