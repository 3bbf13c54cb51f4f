import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';

/**
 * Who the client is, decided once per request and read everywhere as `ctx.ip` (every rate limiter,
 * idempotency scopes, the request log).
 *
 * With `hops` = 0 (CPE_TRUST_PROXY, the default) the client is the socket's peer and
 * `X-Forwarded-For` is ignored: anyone can write that header. Behind `hops` proxies (a load balancer
 * is 1), each of them appends the address it saw, so the client is the entry `hops` from the right:
 * what the farthest trusted proxy saw. Entries further left were written by the client and are never
 * read. An address that does not parse falls back to the next trusted hop (as strict as the proxy
 * that sent it, never looser).
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, hops: number): string {
  // Nearest first: the socket's peer, then what each proxy saw, from the right.
  const chain = [socketAddress ?? '', ...(hops > 0 && forwardedFor ? forwardedFor.split(',').reverse() : [])];
  for (let i = Math.min(hops, chain.length - 1); i > 0; i--) {
    const address = parseAddress(chain[i]!);
    if (address) return address;
  }
  return parseAddress(chain[0]!) ?? chain[0]!;
}

/** An address as one key: IPv4-mapped IPv6 as IPv4, IPv6 in lower case without zone, port or brackets. */
export function parseAddress(entry: string): string | undefined {
  let text = entry.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  return isIP(text) ? text : undefined;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail as two groups). */
function hextets(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groups = (part: string): number[] =>
    part
      .split(':')
      .filter(Boolean)
      .flatMap((group) => {
        if (!group.includes('.')) return [parseInt(group, 16)];
        const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
        return [a * 256 + b, c * 256 + d];
      });
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The unit the address-based limits count: an IPv4 address itself, and for IPv6 its /64, the
 * smallest network one subscriber is given (a host can pick any of its 2⁶⁴ addresses at will, so a
 * limit per IPv6 address would limit nothing).
 */
export function addressGroup(address: string): string {
  if (!isIPv6(address)) return address;
  return `${hextets(address).slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/** A limiter key (`rateLimit(options, byAddress('tokenise-ip'))`): the client's address group. */
export const byAddress =
  (prefix: string) =>
  (_state: AppState, ip: string): string =>
    `${prefix}:${addressGroup(ip)}`;

/** First in the app: sets `ctx.ip` to the client address (see clientAddress) for everything after it. */
export function resolveClientAddress(hops: number): Middleware<AppState> {
  if (hops === 0) {
    // The socket's peer alone: the same for every request of a connection, so worked out once per socket.
    const bySocket = new WeakMap<object, string>();
    return (ctx, next) => {
      const socket = ctx.req.socket;
      let ip = bySocket.get(socket);
      if (ip === undefined) bySocket.set(socket, (ip = clientAddress(socket.remoteAddress, undefined, 0)));
      ctx.request.ip = ip;
      return next();
    };
  }
  return (ctx, next) => {
    ctx.request.ip = clientAddress(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for'), hops);
    return next();
  };
}
