/**
 * A TCP proxy on a free loopback port that a test can switch off: `down()` resets every connection
 * through it and every new one until `up()`, as a database that stops (or a network that breaks)
 * does to its clients, while the real server behind it runs on. The port stays bound throughout,
 * so nothing else can take it between an outage and the return.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpSwitch {
  #up = true;
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  #port = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.#server = createServer((client) => this.#connect(client));
  }

  /** A switch in front of `target`, up. */
  static async open(target: { host: string; port: number }): Promise<TcpSwitch> {
    const proxy = new TcpSwitch(target);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    proxy.#port = (proxy.#server.address() as { port: number }).port;
    return proxy;
  }

  get port(): number {
    return this.#port;
  }

  #connect(client: Socket): void {
    if (!this.#up) return void client.resetAndDestroy();
    const upstream = connect(this.target.port, this.target.host);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#sockets.add(from);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.#sockets.delete(from);
        to.destroy();
      });
      from.pipe(to);
    }
  }

  /** Resets every connection through the switch, and every new one until up(). */
  down(): void {
    this.#up = false;
    for (const socket of this.#sockets) socket.resetAndDestroy();
  }

  up(): void {
    this.#up = true;
  }

  /** `url` (postgres://user@host:port/db…) through the switch. */
  route(url: string): string {
    return url.replace(/@[^/@]+\//, `@127.0.0.1:${this.#port}/`);
  }

  async close(): Promise<void> {
    this.down();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
