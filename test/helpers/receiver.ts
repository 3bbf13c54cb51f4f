import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: Record<string, any>;
  /** The status it was answered (once answered). */
  status?: number;
}

/** What the receiver answers a request: a status (and body), or `hang` (no answer until released). */
export type Reply = { status: number; body?: string; delayMs?: number } | 'hang';

/**
 * A webhook receiver on a free loopback port (node:http, port 0): records every request, answers as
 * `reply` says, and lets a test await what it expects (a count, an event id) instead of sleeping.
 * It tracks how many requests for one `webhook-id` are open at once (`maxConcurrentPerId`), and how
 * many in all (`maxOpen`).
 */
export class Receiver {
  readonly received: Received[] = [];
  url = '';
  reply: (request: Received, n: number) => Reply = () => ({ status: 200, body: '{"ok":true}' });
  maxConcurrentPerId = 0;
  /** The most requests open at once, whatever their ids. */
  maxOpen = 0;
  #openNow = 0;
  readonly #open = new Map<string, number>();
  readonly #hanging: [Received, ServerResponse][] = [];
  readonly #waiters: { test: () => boolean; resolve: () => void }[] = [];
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((req, res) => {
      // Open from its first byte until its connection closes (however that comes: an answer, or the sender killed).
      const id = String(req.headers['webhook-id'] ?? '');
      const open = (this.#open.get(id) ?? 0) + 1;
      this.#open.set(id, open);
      this.maxConcurrentPerId = Math.max(this.maxConcurrentPerId, open);
      this.maxOpen = Math.max(this.maxOpen, ++this.#openNow);
      res.once('close', () => {
        this.#open.set(id, (this.#open.get(id) ?? 1) - 1);
        this.#openNow--;
      });
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let event: Record<string, any> = {};
        try {
          event = JSON.parse(body);
        } catch {
          // not JSON: recorded as is
        }
        const request: Received = { id, headers: req.headers, body, event };
        this.received.push(request);
        const reply = this.reply(request, this.received.length);
        if (reply === 'hang') this.#hanging.push([request, res]);
        else {
          const answer = () => {
            if (res.writableEnded || res.destroyed) return;
            request.status = reply.status;
            res.writeHead(reply.status, { 'content-type': 'application/json' });
            res.end(reply.body ?? '');
          };
          // A receiver that takes its time (the deliverer's timeout is the test's subject, not this wait).
          if (reply.delayMs) setTimeout(() => (answer(), this.#check()), reply.delayMs);
          else answer();
        }
        this.#check();
      });
    });
  }

  static async start(path = '/webhooks'): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.#server.address() as AddressInfo).port}${path}`;
    return receiver;
  }

  /** Resolves once `test` holds (checked at every request). */
  until(test: (received: Received[]) => boolean): Promise<void> {
    if (test(this.received)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ test: () => test(this.received), resolve }));
  }

  /** Resolves once `count` requests have come. */
  count(count: number): Promise<void> {
    return this.until((r) => r.length >= count);
  }

  /** Event ids received, each once. */
  ids(): Set<string> {
    return new Set(this.received.map((r) => r.id));
  }

  /** Event ids answered 200. */
  delivered(): Set<string> {
    return new Set(this.received.filter((r) => r.status === 200).map((r) => r.id));
  }

  /** Answers every hanging request with `status`. */
  release(status = 200): void {
    for (const [request, res] of this.#hanging.splice(0)) {
      if (res.writableEnded) continue;
      request.status = status;
      res.writeHead(status).end();
    }
    this.#check();
  }

  #check(): void {
    for (const waiter of [...this.#waiters])
      if (waiter.test()) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  }

  async close(): Promise<void> {
    this.release(503);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
