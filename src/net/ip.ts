// One strict parser for IP addresses and CIDR ranges (on ipaddr.js), so SSRF checks, the admin allowlist, bans, the whitelist and TRUST_PROXY agree on what an address is.
import { BlockList, isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

export type IpFamily = 'ipv4' | 'ipv6';

export interface IpRange {
  network: string;
  prefix: number;
  family: IpFamily;
  /** Canonical form: "1.2.3.4" for one address, "10.0.0.0/8" for a range. */
  text: string;
}

export type ParsedIp = ipaddr.IPv4 | ipaddr.IPv6;

const BITS: Record<IpFamily, number> = { ipv4: 32, ipv6: 128 };

/**
 * A dotted IPv4 tail ("::ffff:1.2.3.4") becomes two hex groups first: ipaddr.js reads any such tail as IPv4-mapped
 * (even "::1.2.3.4") and accepts leading zeros in it, which some parsers read as octal.
 */
function hexTail(text: string): string | null {
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (!tail.includes('.')) return text;
  if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return null;
  const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(tail).octets;
  return `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function parseIpv6(text: string): ipaddr.IPv6 | null {
  const hex = hexTail(text);
  if (hex === null || !ipaddr.IPv6.isValid(hex)) return null;
  const address = ipaddr.IPv6.parse(hex);
  // A zone id ("fe80::1%eth0") names an interface of one host: not an address we can store or compare.
  return address.zoneId === undefined ? address : null;
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address a.b.c.d. */
function unmap(address: ParsedIp): ParsedIp {
  return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

function parseRaw(text: string): ParsedIp | null {
  const bracketed = /^\[(.*)\]$/.exec(text);
  if (bracketed) return parseIpv6(bracketed[1] ?? '');
  // Strict dotted quad: ipaddr.js's general parser also takes "0x7f.1", "2130706433" and octal parts.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  return parseIpv6(text);
}

function format(address: ParsedIp): string {
  return address instanceof ipaddr.IPv6 ? address.toRFC5952String() : address.toString();
}

/** One address, parsed and unmapped (IPv4-mapped IPv6 becomes IPv4); null for anything else. */
export function parseIp(text: string): ParsedIp | null {
  const raw = parseRaw(text);
  return raw && unmap(raw);
}

/** The 4 (IPv4) or 16 (IPv6) bytes of an address; IPv4-mapped addresses give 4. */
export function ipBytes(address: string): number[] | null {
  return parseIp(address)?.toByteArray() ?? null;
}

export function normalizeIp(address: string): string | null {
  const ip = parseIp(address);
  return ip && format(ip);
}

function networkOf(address: ParsedIp, prefix: number): ParsedIp {
  const bytes = address.toByteArray().map((byte, i) => {
    const keep = Math.min(8, Math.max(0, prefix - 8 * i));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return ipaddr.fromByteArray(bytes);
}

export function parseIpRange(input: string): IpRange | null {
  const slash = input.indexOf('/');
  const raw = parseRaw(slash < 0 ? input : input.slice(0, slash));
  if (!raw) return null;
  let prefix = BITS[raw.kind()];
  if (slash >= 0) {
    const prefixText = input.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > BITS[raw.kind()]) return null;
  }
  let ip = networkOf(raw, prefix);
  // "::ffff:10.0.0.0/104" is the IPv4 range 10.0.0.0/8; a shorter prefix is a genuine IPv6 range.
  if (ip instanceof ipaddr.IPv6 && prefix >= 96 && ip.isIPv4MappedAddress())
    [ip, prefix] = [ip.toIPv4Address(), prefix - 96];
  const network = format(ip);
  const family = ip.kind();
  const text = prefix === BITS[family] ? network : `${network}/${prefix}`;
  return { network, prefix, family, text };
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
 * The unit rate limits, strikes and automatic bans count (docs/security.md, Who the client is): an IPv4 address itself, an IPv6 address's
 * /64, since one subscriber line usually gets a whole /64 to pick addresses from. Answers canonical text.
 */
export function clientGroup(address: string): string {
  const ip = parseIp(address);
  if (!ip) return address;
  return ip.kind() === 'ipv4' ? format(ip) : `${format(networkOf(ip, 64))}/64`;
}

const MATCHER_MEMO_SIZE = 10_000;

/**
 * A set of addresses and ranges. Like node's BlockList it treats IPv4 and IPv4-mapped IPv6 as the same
 * address, so an IPv6 range covering ::ffff:0:0/96 (such as ::/0) also matches IPv4 clients.
 */
export class IpMatcher {
  readonly #list = new BlockList();
  readonly #texts = new Set<string>();
  /** Answers already given: the list never changes, and the same clients come back on every request. */
  readonly #answers = new Map<string, boolean>();

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
    if (this.#texts.size === 0) return false;
    const known = this.#answers.get(address);
    if (known !== undefined) return known;
    const normalized = normalizeIp(address);
    const answer = normalized !== null && this.#list.check(normalized, isIPv4(normalized) ? 'ipv4' : 'ipv6');
    if (this.#answers.size >= MATCHER_MEMO_SIZE) this.#answers.clear();
    this.#answers.set(address, answer);
    return answer;
  }
}

/** An X-Forwarded-For entry as an address: a port is dropped ("203.0.113.5:4711", "[2001:db8::1]:4711"). */
function forwardedAddress(entry: string): string | null {
  const withPort = /^\[([^\]]*)\]:\d{1,5}$/.exec(entry) ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return normalizeIp(withPort ? (withPort[1] ?? '') : entry);
}

/**
 * docs/security.md (Who the client is): the socket address, unless it is a trusted proxy; then X-Forwarded-For is read right to left, trusted
 * entries skipped, and the first untrusted entry is the client (entries left of it are client-supplied and may be
 * forged). When every entry is trusted, the left-most is the client. Null when the entry that would be the client
 * is not an address (`unknown`, empty, garbage): the caller refuses the request rather than guess.
 */
export function clientIpFrom(
  socketAddress: string,
  forwardedFor: string | undefined,
  trusted: IpMatcher | null,
): string | null {
  const socketIp = normalizeIp(socketAddress) ?? socketAddress;
  if (!trusted?.matches(socketIp) || forwardedFor === undefined) return socketIp;
  let leftMost = socketIp;
  for (const entry of forwardedFor.split(',').reverse()) {
    const ip = forwardedAddress(entry.trim());
    if (ip === null) return null;
    if (!trusted.matches(ip)) return ip;
    leftMost = ip;
  }
  return leftMost;
}
