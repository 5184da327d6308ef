// Masks a client address to its network (/24 for IPv4, /48 for IPv6), so the request history keeps no full address.
import { isIPv4, isIPv6 } from 'node:net';

/** `203.0.113.7` -> `203.0.113.0/24`, `2001:db8:1:2::5` -> `2001:db8:1::/48`; null for anything that is not an address. */
export function maskClient(ip: string): string | null {
  const mapped = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(mapped)) {
    const [a, b, c] = mapped.split('.');
    return `${a}.${b}.${c}.0/24`;
  }
  if (!isIPv6(ip)) return null;
  const groups = expandIPv6(ip).slice(0, 3);
  return `${groups.map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/48`;
}

/** The eight 16-bit groups of an IPv6 address, as hex (an embedded IPv4 tail becomes two groups). */
function expandIPv6(ip: string): string[] {
  let text = ip.split('%')[0]!.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -tail[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  if (rest === undefined) return left;
  const right = rest ? rest.split(':') : [];
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}
