import dns from 'node:dns';
import net from 'node:net';
import { resolveTarget } from './target-dns';

/**
 * Where a webhook may not point in production: loopback, private, link-local (cloud metadata
 * 169.254.169.254 included), carrier-grade NAT, multicast, reserved and documentation ranges, in
 * IPv4 and IPv6. IPv6 forms that carry an IPv4 address (mapped, compatible, 6to4, NAT64) are
 * judged as that IPv4 address too.
 */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible addresses; 64:ff9b:1::/48 is local-use NAT64.
  ['::', 96], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64], ['64:ff9b:1::', 48],
  // Teredo tunnels reach arbitrary IPv4 hosts through a relay: never a webhook receiver.
  ['2001::', 32],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (already known to be valid). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part?: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address an IPv6 address carries: ::ffff:a.b.c.d, 64:ff9b::a.b.c.d (NAT64), 2002:aabb:ccdd:: (6to4). */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4Of(g[1], g[2]);
  return undefined;
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true; // not an address at all: never a safe target
  if (family === 4) return blocked.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  return blocked.check(address, 'ipv6') || (v4 !== undefined && isPrivateAddress(v4));
}

/**
 * Names that lead inside whatever their DNS says: localhost (RFC 6761), mDNS `.local`, the private
 * `.internal` (metadata.google.internal), `.home.arpa`, and single labels (completed by search domains).
 */
export function isPrivateName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (net.isIP(name)) return false;
  if (!name.includes('.')) return true;
  return name === 'localhost' || /\.(localhost|local|localdomain|internal|home\.arpa)$/.test(name);
}

/** The URL's host as an address literal (the WHATWG parser already turned 2130706433, 0x7f.1, 0177.0.0.1 or 127.1 into 127.0.0.1). */
function literalHost(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? host : undefined;
}

/** How the registration check resolves a name (tests pass their own). */
export type RegistrationLookup = (hostname: string, options: { all: true; verbatim: true }) => Promise<dns.LookupAddress[]>;

/**
 * Why a URL is not a safe webhook target, or undefined when it is: https only, no private names,
 * and every address its host resolves to must be public. Checked at registration and again when
 * sending (DNS can change): see `createSafeLookup`.
 */
export async function unsafeTargetReason(raw: string, lookup: RegistrationLookup = (hostname) => resolveTarget(hostname)): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'não é uma URL válida';
  }
  if (url.protocol !== 'https:') return 'deve usar https';
  const literal = literalHost(url);
  if (!literal && isPrivateName(url.hostname)) return `o host ${url.hostname} é um nome local ou interno`;
  // A name that does not resolve (yet, or within the deadline) cannot be judged here; the
  // connect-time check still applies.
  const addresses = literal ? [literal] : await lookup(url.hostname, { all: true, verbatim: true }).then((list) => list.map((a) => a.address), () => [] as string[]);
  const bad = addresses.find(isPrivateAddress);
  if (!bad) return undefined;
  // A literal is named as it is read (2130706433 is 127.0.0.1); what a name resolves to is not
  // said: with split-horizon DNS it would be the PSP's internal address, and the registration a
  // tenant's oracle for the internal network's names.
  return literal ? `o host ${url.hostname} é um endereço privado, de loopback ou reservado (${bad})` : `o host ${url.hostname} resolve para um endereço privado, de loopback ou reservado`;
}

/** The callback form of `dns.lookup` with `all: true`, as a connect-time lookup calls it. */
export type LookupAll = (hostname: string, options: dns.LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

// Both checks resolve with c-ares under a deadline, never getaddrinfo (target-dns.ts).
const systemLookupAll: LookupAll = (hostname, options, callback) => {
  const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : undefined;
  resolveTarget(hostname).then((list) => callback(null, family ? list.filter((a) => a.family === family) : list), (error) => callback(error, []));
};

/**
 * A `lookup` for outgoing requests that refuses private names and answers at connect time, so a
 * name that resolved to a public address at registration cannot be rebound to an internal one.
 */
export function createSafeLookup(resolve: LookupAll = systemLookupAll): net.LookupFunction {
  return (hostname, options, callback) => {
    const refuse = (why: string) => (callback as any)(Object.assign(new Error(`webhook target ${hostname} ${why}`), { code: 'EPRIVATETARGET' }));
    if (isPrivateName(hostname)) return refuse('is a local or internal name (private)');
    resolve(hostname, { ...(options as dns.LookupOptions), all: true }, (error, list) => {
      if (error) return (callback as any)(error);
      if (list.length === 0) return (callback as any)(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad) return refuse(`resolves to a private address (${bad.address})`);
      if ((options as dns.LookupOptions).all) return (callback as any)(null, list);
      return (callback as any)(null, list[0].address, list[0].family);
    });
  };
}

export const safeLookup: net.LookupFunction = createSafeLookup();

/** For a URL whose host is an address literal (no lookup happens): is it private? */
export function isPrivateLiteralTarget(url: URL): boolean {
  const literal = literalHost(url);
  return literal !== undefined && isPrivateAddress(literal);
}
