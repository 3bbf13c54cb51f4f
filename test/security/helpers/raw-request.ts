import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: any;
}

/**
 * An HTTP request as a client without a browser makes it, with what fetch will not let a caller set:
 * the `Host` header, and the local address the connection comes from (`localAddress`: 127.0.0.2, …,
 * so that one test speaks as several clients).
 */
export function rawRequest(
  url: string,
  { method = 'GET', headers = {}, json, localAddress }: { method?: string; headers?: Record<string, string>; json?: unknown; localAddress?: string } = {},
): Promise<RawAnswer> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, localAddress, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: /json/.test(res.headers['content-type'] ?? '') && text ? JSON.parse(text) : text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
