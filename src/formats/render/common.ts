// Checks and value conversions that more than one renderer needs, so each client gets the same answer to "is this valid?".
import { createHash } from 'node:crypto';
import type { ProxyNode, Tls, Transport } from '../proxy.js';

/** What a converter answers for one node: the target's object, or why the target cannot express the node. */
export type Converted<T> = { ok: true; value: T } | { ok: false; reason: string };

export const skip = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** Skip reasons given as codes (docs/api.md lists them); the others are a short sentence. */
export const SKIP = {
  /** Xray from 26.6.22 refuses `allowInsecure`, and the link has no pin to verify with instead. */
  insecureTls: 'insecure_tls',
  unsupportedTransport: 'unsupported_transport',
  /** The format's variant for an older client (Clash classic, sing-box 1.11) cannot express the server. */
  unsupportedByClient: 'unsupported_by_client',
} as const;

/**
 * The TLS server name: the link's `sni`/`peer`, else the first host of its ws, httpupgrade, xhttp or h2 transport,
 * else its gRPC authority (the fallback v2rayN applies when it writes configs); undefined leaves it to the client.
 */
export function tlsServerName(tls: Tls, transport: Transport | undefined): string | undefined {
  if (tls.serverName) return tls.serverName;
  switch (transport?.type) {
    case 'ws':
    case 'httpupgrade':
    case 'xhttp':
      return splitFirst(transport.host);
    case 'h2':
      return splitFirst(transport.host[0]);
    case 'grpc':
      return transport.authority || undefined;
    default:
      return undefined;
  }
}

const splitFirst = (hosts: string | undefined): string | undefined => hosts?.split(',')[0]?.trim() || undefined;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A name-based UUID (RFC 4122 version 5) of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  return dashed(hash.subarray(0, 16).toString('hex'));
}

const dashed = (hex: string): string =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The UUID a VLESS/VMess id stands for. Xray and mihomo map a custom id of 1-30 bytes to the version 5 UUID of that
 * text in the nil namespace; sing-box and the mihomo schema want the UUID itself. Null when it is neither.
 */
export function canonicalUuid(id: string): string | null {
  if (UUID.test(id)) return dashed(id.replace(/-/g, '').toLowerCase());
  const bytes = Buffer.byteLength(id, 'utf8');
  return bytes >= 1 && bytes <= 30 ? uuidV5(NIL_UUID, id) : null;
}

/**
 * The REALITY public key as unpadded base64url (what every core decodes), or null unless it is 32 bytes: 43
 * characters once padding is dropped (Go's decoder, as the cores use it, ignores the last character's spare bits).
 */
export function realityPublicKey(key: string): string | null {
  const url = key.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return /^[A-Za-z0-9_-]{43}$/.test(url) ? url : null;
}

/** A REALITY short id is hex of at most 8 bytes, in whole bytes. */
const realityShortIdOk = (id: string): boolean => /^(?:[0-9a-f]{2}){0,8}$/i.test(id);

/** Why a node's REALITY settings would be refused by every core, or null when they are usable. */
export function realityProblem(tls: Tls | undefined): string | null {
  if (!tls?.reality) return null;
  if (realityPublicKey(tls.reality.publicKey) === null) return 'REALITY public key is not 32 bytes';
  if (tls.reality.shortId !== undefined && !realityShortIdOk(tls.reality.shortId))
    return 'REALITY short id is not hex of at most 8 bytes';
  return null;
}

/** A certificate SHA-256 as 64 lower-case hex digits (colons dropped), or null when it is not 32 bytes. */
export function certSha256Hex(pin: string): string | null {
  const hex = pin.replace(/:/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/** The OpenSSL colon form `AB:CD:...` of a certificate SHA-256. */
export const colonHex = (hex: string): string => (hex.toUpperCase().match(/../g) as string[]).join(':');

/** A port list such as `443,5000-6000` as `[from, to]` ranges; null when any part is not a port or range. */
export function portRanges(list: string): [number, number][] | null {
  const ranges: [number, number][] = [];
  for (const part of list.split(',')) {
    const match = /^\s*(\d{1,5})(?:\s*-\s*(\d{1,5}))?\s*$/.exec(part);
    if (!match) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to > 65535 || from > to) return null;
    ranges.push([from, to]);
  }
  return ranges.length > 0 ? ranges : null;
}

/** WebSocket early data from the fields or, failing that, from an `ed=` query in the path; the path without it. */
export function webSocketEarlyData(transport: Extract<Transport, { type: 'ws' }>): {
  path: string;
  maxEarlyData?: number;
  headerName?: string;
} {
  const at = transport.path.indexOf('?');
  let maxEarlyData = transport.maxEarlyData;
  let path = transport.path;
  if (at >= 0 && path.includes('ed=', at)) {
    const params = new URLSearchParams(path.slice(at + 1));
    const ed = params.get('ed');
    if (ed !== null && /^\d+$/.test(ed)) {
      maxEarlyData ??= Number(ed);
      params.delete('ed');
      const rest = params.toString();
      path = rest ? `${path.slice(0, at)}?${rest}` : path.slice(0, at);
    }
  }
  return { path: path || '/', maxEarlyData, headerName: transport.earlyDataHeaderName };
}

/** `xtls-rprx-vision-udp443` is a client-side variant of Vision; the cores that know Vision only take the base name. */
export function visionFlow(flow: string | undefined): string | undefined | null {
  if (flow === undefined || flow === '') return undefined;
  const lower = flow.toLowerCase();
  if (lower === 'xtls-rprx-vision' || lower === 'xtls-rprx-vision-udp443') return 'xtls-rprx-vision';
  return null;
}

/** The SIP003 `plugin_opts` text: `key=value` pairs and bare flags joined by `;`. */
export function sip003Options(options: Record<string, string | true>): string {
  return Object.entries(options)
    .map(([key, value]) => (value === true ? key : `${key}=${value}`))
    .join(';');
}

/** An interface address in CIDR form: a bare address is one host. */
export const withPrefix = (address: string): string =>
  address.includes('/') ? address : `${address}/${address.includes(':') ? 128 : 32}`;

/** The name a node without a remark is shown under. */
export const fallbackName = (node: ProxyNode): string =>
  `${node.protocol} ${node.server.includes(':') ? `[${node.server}]` : node.server}:${node.port}`;

/** uTLS fingerprints every core here knows; others are dropped (REALITY falls back to chrome). */
const COMMON_FINGERPRINTS = new Set(['chrome', 'firefox', 'safari', 'ios', 'android', 'edge', '360', 'qq', 'random']);

export function browserFingerprint(tls: Tls, extra: ReadonlySet<string> = new Set()): string | undefined {
  const fp = tls.clientFingerprint?.toLowerCase();
  if (fp !== undefined && (COMMON_FINGERPRINTS.has(fp) || extra.has(fp))) return fp;
  return tls.reality ? 'chrome' : undefined;
}

/** VMess ciphers the cores share; anything else is sent as `auto`, which is what Xray and v2rayN do with it. */
export function vmessCipher(cipher: string): string {
  const lower = cipher.toLowerCase();
  return ['auto', 'none', 'zero', 'aes-128-gcm', 'chacha20-poly1305'].includes(lower) ? lower : 'auto';
}

/** The xhttp `extra` settings as a JSON object ({} when there are none), or why they are not one. */
export function xhttpExtra(text: string | undefined): Converted<Record<string, unknown>> {
  if (!text) return { ok: true, value: {} };
  let extra: unknown;
  try {
    extra = JSON.parse(text);
  } catch {
    return skip('xhttp extra is not JSON');
  }
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) return skip('xhttp extra is not an object');
  return { ok: true, value: extra as Record<string, unknown> };
}
