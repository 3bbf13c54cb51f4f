import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a shared sandbox must not post to (CPE_WEBHOOK_ALLOW_PRIVATE=0): this machine, private
 * networks, link-local (cloud metadata services at 169.254.169.254), and the like. Checked after DNS
 * resolution, on the address the connection then uses, so a name that resolves (or rebinds) to one
 * is refused too.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(network, prefix, 'ipv6');

/** Why an address is refused (CPE_WEBHOOK_ALLOW_PRIVATE=0), or undefined when it is a public one. */
export function refusal(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const blocked = mapped ? refused.check(mapped, 'ipv4') : refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
  return blocked ? `${address}, a private, loopback or link-local address (CPE_WEBHOOK_ALLOW_PRIVATE=0)` : undefined;
}

/** A DNS lookup for http.request that refuses what `refusal` refuses: the connection can only go to an address it let through. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { all: true, family: options.family }, (error, addresses) => {
    if (error) return callback(error, '');
    for (const { address } of addresses) {
      const why = refusal(address);
      if (why) return callback(Object.assign(new Error(`${hostname} resolves to ${why}`), { code: 'EADDRREFUSED' }), '');
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};
