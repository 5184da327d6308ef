// One strict parser for IP addresses and CIDR ranges, so SSRF checks, the admin allowlist, bans, the whitelist and TRUST_PROXY agree on what an address is.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 'ipv4' | 'ipv6';

export interface IpRange {
  network: string;
  prefix: number;
  family: IpFamily;
  /** Canonical form: "1.2.3.4" for one address, "10.0.0.0/8" for a range. */
  text: string;
}

interface RawIp {
  family: IpFamily;
  bytes: number[]; // 4 for IPv4, 16 for IPv6
}

const BITS: Record<IpFamily, number> = { ipv4: 32, ipv6: 128 };
const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** Strict dotted quad: no leading zeros, which some parsers read as octal. */
function parseIpv4Bytes(text: string): number[] | null {
  if (!isIPv4(text)) return null;
  const parts = text.split('.');
  if (parts.some((part) => part.length > 1 && part.startsWith('0'))) return null;
  return parts.map(Number);
}

function parseIpv6Bytes(text: string): number[] | null {
  // isIPv6 accepts zone ids ("fe80::1%eth0"); an address with a zone is not one we can store or compare.
  if (text.includes('%') || !isIPv6(text)) return null;
  let hex = text.toLowerCase();
  const lastColon = hex.lastIndexOf(':');
  const tail = hex.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4Bytes(tail);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    hex = `${hex.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const [left = '', right] = hex.split('::');
  const head = groups(left);
  const rest = right === undefined ? [] : groups(right);
  const hextets = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  return hextets.flatMap((h) => [h >> 8, h & 0xff]);
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address a.b.c.d. */
function unmap(ip: RawIp): RawIp {
  const mapped = ip.family === 'ipv6' && MAPPED_PREFIX.every((byte, i) => ip.bytes[i] === byte);
  return mapped ? { family: 'ipv4', bytes: ip.bytes.slice(12) } : ip;
}

function parseRaw(text: string): RawIp | null {
  const bracketed = /^\[(.*)\]$/.exec(text);
  if (bracketed) {
    const bytes = parseIpv6Bytes(bracketed[1] ?? '');
    return bytes && { family: 'ipv6', bytes };
  }
  const v4 = parseIpv4Bytes(text);
  if (v4) return { family: 'ipv4', bytes: v4 };
  const v6 = parseIpv6Bytes(text);
  return v6 && { family: 'ipv6', bytes: v6 };
}

/** RFC 5952: lower-case hex, no leading zeros, the longest (left-most on ties) run of 2+ zero groups as "::". */
function formatIpv6(bytes: number[]): string {
  const hextets = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && hextets[start + length] === 0) length++;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = (from: number, to: number): string => hextets.slice(from, to).map((h) => h.toString(16)).join(':');
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

function formatIp(ip: RawIp): string {
  return ip.family === 'ipv4' ? ip.bytes.join('.') : formatIpv6(ip.bytes);
}

function clearHostBits(bytes: number[], prefix: number): number[] {
  return bytes.map((byte, i) => {
    const keep = Math.min(8, Math.max(0, prefix - 8 * i));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
}

/** The 4 (IPv4) or 16 (IPv6) bytes of a canonical address; IPv4-mapped addresses give 4. */
export function ipBytes(address: string): number[] | null {
  const raw = parseRaw(address);
  return raw && unmap(raw).bytes;
}

export function normalizeIp(address: string): string | null {
  const raw = parseRaw(address);
  return raw && formatIp(unmap(raw));
}

export function parseIpRange(input: string): IpRange | null {
  const slash = input.indexOf('/');
  const raw = parseRaw(slash < 0 ? input : input.slice(0, slash));
  if (!raw) return null;
  let prefix = BITS[raw.family];
  if (slash >= 0) {
    const prefixText = input.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > BITS[raw.family]) return null;
  }
  let ip: RawIp = { family: raw.family, bytes: clearHostBits(raw.bytes, prefix) };
  // "::ffff:10.0.0.0/104" is the IPv4 range 10.0.0.0/8; a shorter prefix is a genuine IPv6 range.
  if (ip.family === 'ipv6' && prefix >= 96) {
    const unmapped = unmap(ip);
    if (unmapped !== ip) [ip, prefix] = [unmapped, prefix - 96];
  }
  const network = formatIp(ip);
  const text = prefix === BITS[ip.family] ? network : `${network}/${prefix}`;
  return { network, prefix, family: ip.family, text };
}

export function parseIpList(csv: string): { ranges: IpRange[]; invalid: string[] } {
  const ranges: IpRange[] = [];
  const invalid: string[] = [];
  for (const item of csv.split(',').map((part) => part.trim())) {
    if (item === '') continue;
    const range = parseIpRange(item);
    if (range) ranges.push(range);
    else invalid.push(item);
  }
  return { ranges, invalid };
}

/**
 * A set of addresses and ranges. Like node's BlockList it treats IPv4 and IPv4-mapped IPv6 as the same
 * address, so an IPv6 range covering ::ffff:0:0/96 (such as ::/0) also matches IPv4 clients.
 */
export class IpMatcher {
  readonly #list = new BlockList();
  readonly #texts = new Set<string>();

  constructor(ranges: Iterable<IpRange | string>) {
    for (const item of ranges) {
      const range = typeof item === 'string' ? parseIpRange(item) : item;
      if (!range) throw new TypeError(`Invalid IP address or CIDR range: ${JSON.stringify(item)}`);
      if (this.#texts.has(range.text)) continue;
      this.#texts.add(range.text);
      this.#list.addSubnet(range.network, range.prefix, range.family);
    }
  }

  get size(): number {
    return this.#texts.size;
  }

  matches(address: string): boolean {
    const normalized = normalizeIp(address);
    if (normalized === null) return false;
    return this.#list.check(normalized, isIPv4(normalized) ? 'ipv4' : 'ipv6');
  }
}

/**
 * DESIGN 7: the socket address, unless it is a trusted proxy; then the right-most X-Forwarded-For entry
 * that is not a trusted proxy. Entries left of it are client-supplied and may be forged, so they are never used.
 */
export function clientIpFrom(socketAddress: string, forwardedFor: string | undefined, trusted: IpMatcher | null): string {
  const socketIp = normalizeIp(socketAddress) ?? socketAddress;
  if (!trusted?.matches(socketIp) || forwardedFor === undefined) return socketIp;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  let lastTrusted = socketIp;
  for (const hop of hops.reverse()) {
    const ip = normalizeIp(hop);
    // Garbage means the chain can no longer be trusted: answer with the last hop we do trust.
    if (ip === null) return lastTrusted;
    if (!trusted.matches(ip)) return ip;
    lastTrusted = ip;
  }
  return lastTrusted;
}
