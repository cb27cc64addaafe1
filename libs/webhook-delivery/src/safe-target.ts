import dns from 'node:dns';
import net from 'node:net';

/**
 * Where a webhook may not point in production: loopback, private, link-local (cloud metadata
 * 169.254.169.254 included), carrier-grade NAT, multicast, reserved and documentation ranges, in
 * IPv4 and IPv6 (IPv4-mapped IPv6 addresses are judged as the IPv4 they carry).
 */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64], ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  const family = net.isIP(address);
  if (family === 0) return true; // not an address at all: never a safe target
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL's host as an address literal (the WHATWG parser already turned 2130706433 or 0x7f.1 into 127.0.0.1). */
function literalHost(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? host : undefined;
}

/**
 * Why a URL is not a safe webhook target, or undefined when it is: https only, and every
 * address its host resolves to must be public. Checked at registration and again when sending
 * (DNS can change): see `safeLookup`.
 */
export async function unsafeTargetReason(raw: string, lookup: typeof dns.promises.lookup = dns.promises.lookup): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'não é uma URL válida';
  }
  if (url.protocol !== 'https:') return 'deve usar https';
  const literal = literalHost(url);
  // A name that does not resolve (yet) cannot be judged here; the connect-time check still applies.
  const addresses = literal ? [literal] : await lookup(url.hostname, { all: true, verbatim: true }).then((list) => list.map((a) => a.address), () => [] as string[]);
  const bad = addresses.find(isPrivateAddress);
  return bad ? `o host ${url.hostname} resolve para um endereço privado, de loopback ou reservado (${bad})` : undefined;
}

/** A `lookup` for outgoing requests that refuses private answers at connect time (no DNS rebinding). */
export const safeLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return (callback as any)(error);
    const list = addresses as unknown as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const refused = Object.assign(new Error(`webhook target ${hostname} resolves to a private address (${bad.address})`), { code: 'EPRIVATETARGET' });
      return (callback as any)(refused);
    }
    if ((options as dns.LookupOptions).all) return (callback as any)(null, list);
    return (callback as any)(null, list[0].address, list[0].family);
  });
};

/** For a URL whose host is an address literal (no lookup happens): is it private? */
export function isPrivateLiteralTarget(url: URL): boolean {
  const literal = literalHost(url);
  return literal !== undefined && isPrivateAddress(literal);
}
