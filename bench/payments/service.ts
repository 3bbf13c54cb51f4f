import { Agent, request } from 'node:http';
import { stop, type ServiceChild } from '../../testkit/processes.ts';
import { scaled } from '../../testkit/time.ts';

export { startServiceChild as startService, type ServiceChild } from '../../testkit/processes.ts';

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
export function jsonClient(port: number, sockets: number, timeoutMs = scaled(10_000)) {
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
