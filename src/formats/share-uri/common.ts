// The pieces every share-URI dialect shares: query strings read without form decoding, endpoints, names and TLS keys.
import { uriAuthority } from './check.js';
import { encodeComment } from './text.js';
import type { ProxyNode, Tls } from '../proxy.js';

/** Why a line cannot become a node; parsers return it instead of throwing. */
export interface Problem {
  problem: string;
}

export function problem(text: string): Problem {
  return { problem: text };
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

/** A node before the line-level fields are known: its name may still be empty and `uri` is set by the caller. */
export type Draft<T extends ProxyNode = ProxyNode> = T extends unknown ? Omit<T, 'uri'> : never;

/** Percent-decodes once; a malformed escape leaves the text as written. `+` stays `+` (base64 keys; docs/architecture.md, Reading share URIs). */
export function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Query keys are matched case-insensitively and without `-`/`_`, so `allow_insecure` equals `allowInsecure`. */
function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

/** Query parameters; the first occurrence of a key wins and an empty value counts as absent. */
export class Query {
  private readonly values = new Map<string, string>();

  constructor(text: string) {
    for (const part of text.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const key = normalizeKey(percentDecode(eq < 0 ? part : part.slice(0, eq)));
      if (!this.values.has(key)) this.values.set(key, eq < 0 ? '' : percentDecode(part.slice(eq + 1)));
    }
  }

  /** Reads a JSON object's string and number members as if they were query parameters (vmess v2rayN form). */
  static fromRecord(record: Record<string, unknown>): Query {
    const query = new Query('');
    for (const [key, value] of Object.entries(record)) {
      const text =
        typeof value === 'string'
          ? value.trim()
          : typeof value === 'number' || typeof value === 'boolean'
            ? String(value)
            : null;
      const normalized = normalizeKey(key);
      if (text !== null && !query.values.has(normalized)) query.values.set(normalized, text);
    }
    return query;
  }

  get(...keys: string[]): string | undefined {
    for (const key of keys) {
      const value = this.values.get(normalizeKey(key));
      if (value !== undefined && value !== '') return value;
    }
    return undefined;
  }

  flag(...keys: string[]): boolean {
    const value = this.get(...keys)?.toLowerCase();
    return value === '1' || value === 'true';
  }

  list(...keys: string[]): string[] | undefined {
    const items = splitList(this.get(...keys));
    return items.length > 0 ? items : undefined;
  }
}

export function splitList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Writes `key=value` pairs in order; empty, undefined and false values are left out, true is written `1`. */
export class QueryWriter {
  private readonly parts: string[] = [];

  set(key: string, value: string | number | boolean | undefined): this {
    if (value === undefined || value === '' || value === false) return this;
    this.parts.push(`${key}=${value === true ? '1' : encodeComment(String(value))}`);
    return this;
  }

  toString(): string {
    return this.parts.length > 0 ? `?${this.parts.join('&')}` : '';
  }
}

/** The `userinfo@host:port/path?query` parts of a body the validator accepted (`host` without IPv6 brackets). */
export interface Authority {
  userinfo: string | null;
  host: string;
  port: string | null;
  path: string;
  query: Query;
}

export function readAuthority(scheme: string, body: string): Authority | Problem {
  const found = uriAuthority(scheme, body);
  if (found === null) return problem(`${scheme} URI has no usable host`);
  const question = found.rest.indexOf('?');
  return {
    userinfo: found.userinfo,
    host: found.host,
    port: found.port,
    path: question < 0 ? found.rest : found.rest.slice(0, question),
    query: new Query(question < 0 ? '' : found.rest.slice(question + 1)),
  };
}

export function parsePort(text: string | null | undefined): number | null {
  if (text === null || text === undefined || !/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Userinfo (passwords, keys) is written percent-encoded except for RFC 3986 unreserved characters. */
export function encodeUserinfo(text: string): string {
  return encodeComment(text);
}

/** The share URI's last part: the name as an RFC 3986 fragment. */
export function fragment(name: string): string {
  return name === '' ? '' : `#${encodeComment(name)}`;
}

/** The fields every authority dialect reads first: the name, and the host with a valid port, or why there is none. */
export function endpoint(link: Authority, scheme: string, name: string): EndpointFields | Problem {
  const port = parsePort(link.port);
  return port === null ? problem(`${scheme} URI has no port`) : { name, server: link.host, port };
}

export interface EndpointFields {
  name: string;
  server: string;
  port: number;
}

/** The whole userinfo percent-decoded, or undefined when there is none or it is empty. */
export function userinfoText(link: Authority): string | undefined {
  return link.userinfo === null ? undefined : percentDecode(link.userinfo) || undefined;
}

/** `scheme://userinfo@host:port` with what follows (a path and query) and the name; no userinfo, no `@`. */
export function authorityLink(
  scheme: string,
  userinfo: string | undefined,
  node: ProxyNode,
  rest: string | QueryWriter,
): string {
  const user = userinfo === undefined ? '' : `${userinfo}@`;
  return `${scheme}://${user}${hostPort(node.server, node.port)}${rest.toString()}${fragment(node.name)}`;
}

/** Drops undefined members so parsed nodes compare equal whatever optional fields a dialect spells out. */
export function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}

/** A SHA-256 certificate pin as 64 lower-case hex digits (colons allowed on input), or null. */
export function normalizePin(text: string): string | null {
  const hex = text.replace(/:/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

const REALITY_KEY_RE = /^[A-Za-z0-9_-]{43}$/;
const REALITY_SHORT_ID_RE = /^(?:[0-9a-f]{2}){0,8}$/i;

/**
 * The TLS keys links spell in several ways (`sni`/`peer`, `allowInsecure`/`insecure`, `pcs`/`pinSHA256`/`hpkp`).
 * A pin that is not a SHA-256 digest is refused: mihomo refuses the whole profile for it and dropping it would
 * silently turn off the only check of an `insecure` link.
 */
export function readTls(query: Query): Tls | Problem {
  const pin = query.get('pcs', 'pinSHA256', 'hpkp');
  const pinnedCertSha256 = pin === undefined ? undefined : normalizePin(pin);
  if (pinnedCertSha256 === null) return problem('certificate pin is not a SHA-256 hex digest');
  return compact<Tls>({
    serverName: query.get('sni', 'peer', 'serverName'),
    insecure: query.flag('allowInsecure', 'insecure', 'skip-cert-verify') || undefined,
    alpn: query.list('alpn'),
    clientFingerprint: query.get('fp'),
    pinnedCertSha256,
    verifyPeerCertByName: query.get('vcn', 'verifyPeerCertByName'),
    ech: query.get('ech'),
    disableSni: query.flag('disable_sni') || undefined,
  });
}

/** REALITY keys as sing-box and Xray accept them: a 32-byte base64url public key and an even-length hex short id. */
export function readReality(query: Query): Tls['reality'] | Problem {
  const publicKey = query.get('pbk', 'publicKey') ?? '';
  if (!REALITY_KEY_RE.test(publicKey)) return problem('REALITY public key (pbk) is not 32 bytes of base64url');
  const shortId = query.get('sid', 'shortId');
  if (shortId !== undefined && !REALITY_SHORT_ID_RE.test(shortId)) {
    return problem('REALITY short id (sid) is not up to 8 bytes of hex');
  }
  return compact({ publicKey, shortId, spiderX: query.get('spx', 'spiderX') });
}

/**
 * `security=` of the v2ray family: `tls` (or anything ending in tls), `reality` (also a `pbk` with TLS on), `none`.
 * Returns undefined for a link without TLS unless `alwaysTls` (trojan).
 */
export function readSecurity(query: Query, alwaysTls: boolean): Tls | undefined | Problem {
  const security = (query.get('security') ?? 'none').toLowerCase();
  const tlsOn = security.endsWith('tls') || security === 'reality' || alwaysTls;
  if (!tlsOn && security !== 'none') return problem(`unsupported security '${security}'`);
  if (!tlsOn) return undefined;
  const tls = readTls(query);
  if (isProblem(tls)) return tls;
  if (security !== 'reality' && query.get('pbk') === undefined) return tls;
  const reality = readReality(query);
  return isProblem(reality) ? reality : { ...tls, reality };
}

export interface TlsKeys {
  insecure: string;
  pin: string;
}

/** Writes the TLS members under the names this dialect reads first; REALITY only when `reality` is set. */
export function writeTls(query: QueryWriter, tls: Tls, keys: TlsKeys): void {
  query
    .set('sni', tls.serverName)
    .set('fp', tls.clientFingerprint)
    .set('alpn', tls.alpn?.join(','))
    .set(keys.insecure, tls.insecure)
    .set(keys.pin, tls.pinnedCertSha256)
    .set('vcn', tls.verifyPeerCertByName)
    .set('ech', tls.ech)
    .set('disable_sni', tls.disableSni)
    .set('pbk', tls.reality?.publicKey)
    .set('sid', tls.reality?.shortId)
    .set('spx', tls.reality?.spiderX);
}

export function writeSecurity(query: QueryWriter, tls: Tls | undefined): void {
  query.set('security', tls === undefined ? 'none' : tls.reality ? 'reality' : 'tls');
  if (tls) writeTls(query, tls, { insecure: 'allowInsecure', pin: 'pcs' });
}

/** Bandwidth as links write it (`100`, `100 mbps`, `100+mbps`, `1 gbps`) in Mbps, or undefined. */
export function parseMbps(text: string | undefined): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*\+?\s*([kmgt]?)(?:bps|b)?$/i.exec((text ?? '').trim());
  if (!match) return undefined;
  const scale: Record<string, number> = { k: 0.001, '': 1, m: 1, g: 1000, t: 1_000_000 };
  const mbps = Number(match[1]) * (scale[(match[2] ?? '').toLowerCase()] ?? 1);
  return mbps > 0 && Number.isFinite(mbps) ? mbps : undefined;
}
