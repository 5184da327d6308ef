// External subscription URLs are fetched by the server, so they must not be able to reach loopback, private networks or cloud metadata (docs/security.md, SSRF).
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { normalizeIp, parseIp, type ParsedIp } from './ip.js';

/** Name resolution; `signal` aborts when the caller no longer waits (a lookup that cannot be cancelled may ignore it). */
export type LookupFn = (hostname: string, signal?: AbortSignal) => Promise<Array<{ address: string; family: number }>>;

export type HostCheck = { ok: true } | { ok: false; reason: string };

const LOOKUP_TIMEOUT_MS = 3000;

const cidrs = (list: string[]) => list.map((cidr) => ipaddr.parseCIDR(cidr));

/** Special-purpose ranges (IANA registries, RFC 6890) that are not ordinary public destinations. */
const FORBIDDEN = cidrs([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  // Reserved by IETF: ::, ::1, IPv4-compatible (::127.0.0.1), IPv4-translated (::ffff:0:a.b.c.d), and whatever some
  // stack may yet read as local. IPv4-mapped addresses (::ffff:a.b.c.d) lie inside too, but parseIp has already
  // turned those into the IPv4 address they carry, which is judged instead.
  '::/8',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
]);

/**
 * IPv6 prefixes that carry an IPv4 address, with the byte offset where it sits; the verdict is the one for that
 * IPv4 address. The local-use NAT64 prefix is assumed to be deployed as a /96, like the well-known one.
 * IPv4-mapped addresses (::ffff:0:0/96) need no entry: parseIp already turns them into IPv4.
 */
const EMBEDS_IPV4: Array<{ range: [ParsedIp, number]; offset: number }> = [
  { range: ipaddr.parseCIDR('64:ff9b::/96'), offset: 12 },
  { range: ipaddr.parseCIDR('64:ff9b:1::/48'), offset: 12 },
  { range: ipaddr.parseCIDR('2002::/16'), offset: 2 }, // 6to4
];

const FORBIDDEN_NAMES = new Set(['localhost', 'metadata.google.internal']);
const FORBIDDEN_SUFFIXES = ['.localhost', '.local', '.internal'];

const inRange = (address: ParsedIp, [network, bits]: [ParsedIp, number]) =>
  address.kind() === network.kind() && address.match(network, bits);

function embeddedIpv4(address: ParsedIp): ParsedIp | null {
  if (address.kind() !== 'ipv6') return null;
  const embed = EMBEDS_IPV4.find(({ range }) => inRange(address, range));
  return embed ? ipaddr.fromByteArray(address.toByteArray().slice(embed.offset, embed.offset + 4)) : null;
}

export function isForbiddenAddress(text: string): boolean {
  const address = parseIp(text);
  if (!address) return true;
  const checked = embeddedIpv4(address) ?? address;
  return FORBIDDEN.some((range) => inRange(checked, range));
}

/** Lower-case, without the trailing root dot ("localhost." is localhost). */
function canonicalHostname(hostname: string): string {
  return hostname.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The IP a hostname literally denotes, if any. The WHATWG URL parser already turns "2130706433" or "0x7f.1" into
 * dotted form; hostnames that did not come through it get the same treatment here.
 */
function literalIp(hostname: string): string | null {
  const direct = normalizeIp(hostname);
  if (direct !== null || !/^[\da-fx.]+$/i.test(hostname)) return direct;
  try {
    return normalizeIp(new URL(`http://${hostname}/`).hostname);
  } catch {
    return null;
  }
}

export function isForbiddenHostname(hostname: string): boolean {
  const host = canonicalHostname(hostname);
  if (host === '') return true;
  const ip = literalIp(host);
  if (ip !== null) return isForbiddenAddress(ip);
  return FORBIDDEN_NAMES.has(host) || FORBIDDEN_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** The refusal of a name that resolved to a forbidden address; the addresses are not named (internal DNS stays private). */
export function notPublicReason(hostname: string): string {
  return `host "${canonicalHostname(hostname)}" does not resolve to a public address`;
}

const systemLookup: LookupFn = (hostname) => dnsLookup(hostname, { all: true });

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Refuses hosts that are, or resolve to, forbidden addresses. A failed lookup passes: the fetch itself will fail
 * and be reported, and only addresses we can see can be refused.
 */
export async function checkPublicHost(
  hostname: string,
  lookup: LookupFn = systemLookup,
  signal?: AbortSignal,
): Promise<HostCheck> {
  const host = canonicalHostname(hostname);
  const ip = literalIp(host);
  if (ip !== null) {
    return isForbiddenAddress(ip) ? { ok: false, reason: `address ${ip} is not a public address` } : { ok: true };
  }
  if (isForbiddenHostname(host)) return { ok: false, reason: `host "${host}" is an internal name` };
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await withTimeout(lookup(host, signal), LOOKUP_TIMEOUT_MS);
  } catch {
    return { ok: true };
  }
  if (answers.some(({ address }) => isForbiddenAddress(address))) {
    return { ok: false, reason: notPublicReason(host) };
  }
  return { ok: true };
}
