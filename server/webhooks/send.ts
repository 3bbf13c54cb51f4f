import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, refusal } from './address-guard.ts';

/** The part of an answer kept with its attempt. */
export const KEPT_BODY_BYTES = 2048;
/** Bytes of an answer read (and dropped) so its connection can be reused; a longer one closes it. */
const READ_BODY_BYTES = 64 * 1024;

export interface SendOutcome {
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  durationMs: number;
  /** The first 2 KiB of the answer, as text. */
  body: string | null;
  /** What went wrong when no answer came. */
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  /** false: refuse private, loopback and link-local addresses, after DNS resolution (address-guard.ts). */
  allowPrivate: boolean;
  /** Kept-alive connections of this endpoint. */
  agent?: http.Agent;
}

/** A keep-alive agent for one endpoint: at most `sockets` connections, resolving names through the guard when asked. */
export function endpointAgent(url: URL, sockets: number, allowPrivate: boolean): http.Agent {
  const options = { keepAlive: true, maxSockets: sockets, ...(allowPrivate ? {} : { lookup: guardedLookup }) };
  return url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
}

const failure = (started: number, error: string): SendOutcome => ({ status: null, durationMs: Math.round(performance.now() - started), body: null, error });

/** What a failed connection says, without a stack: `connection refused (ECONNREFUSED)`. */
function describe(error: NodeJS.ErrnoException): string {
  const names: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS)',
    ETIMEDOUT: 'connection timed out',
    EHOSTUNREACH: 'host unreachable',
  };
  const code = error.code ?? '';
  return names[code] ? `${names[code]} (${code})` : error.message;
}

/**
 * POSTs `body` to `url` and reports what came back within `timeoutMs`: the status, the first 2 KiB
 * of the answer, or why nothing came. Redirects are not followed (an answer like any other, not a
 * 2xx), as Stripe does not follow them.
 */
export function send(url: URL, headers: Record<string, string>, body: string | Buffer, options: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  // A literal address skips DNS: checked here instead.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(literal)) {
    const why = refusal(literal);
    if (why) return Promise.resolve(failure(started, `address refused: ${why}`));
  }
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    let request: http.ClientRequest;
    const post = (retried: boolean) => {
      request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: options.agent,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
        ...(options.allowPrivate || options.agent ? {} : { lookup: guardedLookup }),
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the receiver closed as it was reused: nothing was sent on it; once more on a new one.
        if (!retried && !settled && request.reusedSocket && error.code === 'ECONNRESET') return post(true);
        finish(failure(started, error.code === 'EADDRREFUSED' ? `address refused: ${error.message}` : describe(error)));
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          // As text a database keeps: no NUL (PostgreSQL refuses it in text).
          const text = Buffer.concat(chunks).subarray(0, KEPT_BODY_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
          finish({ status: response.statusCode ?? null, durationMs: Math.round(performance.now() - started), body: text, error: null });
        };
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= READ_BODY_BYTES) chunks.push(chunk);
          else {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', done);
      });
      request.end(body);
    };
    const timer = setTimeout(() => {
      request.destroy();
      finish(failure(started, `timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    post(false);
  });
}

