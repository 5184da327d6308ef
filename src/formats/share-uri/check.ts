// Proxy share links come in many client dialects; this module decides which are structurally usable and renders them back with a display comment.
import { type Endpoint, endpointProblem, hostProblem, isPort, splitHostPort, unbracketed } from './endpoint.js';
import { decodeBase64Loose, encodeComment, parseJsonObject } from './text.js';

export const CONFIG_SCHEMES: readonly string[] = [
  'vless',
  'vmess',
  'trojan',
  'ss',
  'ssr',
  'hysteria',
  'hysteria2',
  'hy2',
  'tuic',
  'wireguard',
  'wg',
  'socks',
  'socks5',
  'anytls',
  'juicity',
];

const SCHEME_SET = new Set(CONFIG_SCHEMES);
const PORT_OPTIONAL_SCHEMES = new Set(['hysteria2', 'hy2']);
const SCHEME_RE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHITESPACE_OR_CONTROL_RE = /[\s\p{Cc}]/u;

/** An endpoint read from a share URI body, with what follows host:port (path and query). */
export interface UriAuthority extends Endpoint {
  rest: string;
}

/** Full readings of a share URI so far (every parse and every rendering with a comment reads it once): tests count them. */
export const uriReadings = { count: 0 };

/** What the check read of a URI: the host of a usable one (and the JSON of a v2rayN vmess link), or why it is not usable. */
export type Inspection =
  { ok: true; host: string; vmessJson?: Record<string, unknown> } | { ok: false; problem: string };

/** Why `uri` is not a usable proxy config, or null when it is. */
export function proxyUriProblem(uri: string): string | null {
  const inspection = inspect(uri);
  return inspection.ok ? null : inspection.problem;
}

export function isValidProxyUri(uri: string): boolean {
  return inspect(uri).ok;
}

/** The server name a v2rayN-style `vmess://<base64 JSON>` link carries in its `ps` field, or null. */
export function vmessName(uri: string): string | null {
  const inspection = inspect(uri);
  const ps = inspection.ok ? inspection.vmessJson?.['ps'] : undefined;
  return typeof ps === 'string' ? ps : null;
}

export function configHost(uri: string): string | null {
  const inspection = inspect(uri);
  return inspection.ok ? inspection.host : null;
}

export function renderConfig(uri: string, comment: string | null): string {
  const inspection = inspect(uri);
  const label = comment || (inspection.ok ? inspection.host : null);
  // v2rayN drops a base64 vmess link that carries a '#', so the name goes into the JSON instead.
  if (inspection.ok && inspection.vmessJson) {
    const json = { ...inspection.vmessJson, ps: label ?? '' };
    return `vmess://${Buffer.from(JSON.stringify(json), 'utf8').toString('base64')}`;
  }
  return label ? `${uri}#${encodeComment(label)}` : uri;
}

/** Reads `uri` (no fragment) once; the parsers in this folder build on what it read. */
export function inspect(uri: string): Inspection {
  uriReadings.count++;
  if (WHITESPACE_OR_CONTROL_RE.test(uri)) return fail('proxy URI must not contain whitespace or control characters');
  const scheme = SCHEME_RE.exec(uri)?.[1]?.toLowerCase();
  if (scheme === undefined) return fail("proxy URI must start with 'scheme://'");
  if (!SCHEME_SET.has(scheme)) return fail(`unsupported scheme '${scheme}'`);
  const body = uri.slice(scheme.length + 3).split('#', 1)[0] ?? '';
  if (body === '') return fail(`${scheme} URI is empty`);
  switch (scheme) {
    case 'vmess':
      return inspectVmess(body);
    case 'ss':
      return hasUserinfo(body) ? inspectAuthority('ss', body) : inspectLegacySs(body);
    case 'ssr':
      return inspectSsr(body);
    default:
      return inspectAuthority(scheme, body);
  }
}

/**
 * The userinfo, host, port and rest of a `userinfo@host:port/path?query` body (no fragment) exactly as the validator
 * reads it, or null when the validator would refuse it.
 */
export function uriAuthority(scheme: string, body: string): UriAuthority | null {
  const portOptional = PORT_OPTIONAL_SCHEMES.has(scheme);
  return (
    endpointCandidates(body).find(
      (endpoint) =>
        endpointProblem(endpoint, portOptional) === null && userinfoProblem(scheme, endpoint.userinfo) === null,
    ) ?? null
  );
}

function fail(problem: string): Inspection {
  return { ok: false, problem };
}

function inspectAuthority(scheme: string, body: string): Inspection {
  let firstProblem: string | null = null;
  for (const endpoint of endpointCandidates(body)) {
    const problem =
      endpointProblem(endpoint, PORT_OPTIONAL_SCHEMES.has(scheme)) ?? userinfoProblem(scheme, endpoint.userinfo);
    if (problem === null) return { ok: true, host: endpoint.host };
    firstProblem ??= problem;
  }
  return fail(`${scheme} URI ${firstProblem ?? 'has no host'}`);
}

function userinfoProblem(scheme: string, userinfo: string | null): string | null {
  if (scheme === 'vless' && !UUID_RE.test(userinfo ?? '')) return 'needs a UUID user';
  if (scheme === 'vmess' && !userinfo) return 'needs a user id';
  if (scheme === 'ss' && !isSsUserinfo(userinfo ?? '')) return 'user must be base64 or percent-encoded method:password';
  return null;
}

/**
 * The RFC split ends the authority at the first '/', but share links often leave '/' unescaped in
 * passwords and base64 keys, so a second reading takes the userinfo up to the last '@' before the query.
 */
function endpointCandidates(body: string): UriAuthority[] {
  const beforeQuery = body.split('?', 1)[0] ?? '';
  const scopes = new Set([beforeQuery.split('/', 1)[0] ?? '', beforeQuery]);
  return [...scopes].flatMap((scope) => {
    const at = scope.lastIndexOf('@');
    const hostPort = scope.slice(at + 1).split('/', 1)[0] ?? '';
    const endpoint = splitHostPort(hostPort, at >= 0 ? scope.slice(0, at) : null);
    return endpoint === null ? [] : [{ ...endpoint, rest: body.slice(at + 1 + hostPort.length) }];
  });
}

function inspectVmess(body: string): Inspection {
  if (hasUserinfo(body)) return inspectAuthority('vmess', body);
  const decoded = decodeBase64Loose(body);
  if (decoded === null) return fail('vmess URI is neither base64 JSON nor user@host:port');
  const record = parseJsonObject(decoded);
  if (record === null) return fail('vmess base64 payload is not a JSON object');
  const add = typeof record.add === 'string' ? unbracketed(record.add.trim()) : '';
  const problem = add === '' ? "has no 'add' host" : hostProblem(add, false);
  if (problem !== null) return fail(`vmess JSON ${problem}`);
  const port = typeof record.port === 'number' || typeof record.port === 'string' ? String(record.port) : '';
  if (!isPort(port)) return fail('vmess JSON needs a port between 1 and 65535');
  return { ok: true, host: add, vmessJson: record };
}

/** Base64 never contains '@', so an '@' before the query marks the `user@host:port` form. */
export function hasUserinfo(body: string): boolean {
  return (body.split('?', 1)[0] ?? '').includes('@');
}

/** A trailing '/' may be base64 or the start of `/?plugin`, so both readings are tried, in this order. */
export function legacySsCandidates(encoded: string): string[] {
  return [encoded, encoded.replace(/\/$/, '')];
}

/** Legacy form: `ss://base64(method:password@host:port)`, optionally followed by `/?plugin=...`. */
function inspectLegacySs(body: string): Inspection {
  const encoded = body.split('?', 1)[0] ?? '';
  const results = legacySsCandidates(encoded).map((candidate) => inspectLegacySsPayload(readLegacySs(candidate)));
  return results.find((result) => result.ok) ?? results[0] ?? fail('ss URI is empty');
}

function inspectLegacySsPayload(payload: LegacySsPayload | null): Inspection {
  if (payload === null) return fail('ss URI is neither user@host:port nor base64 of method:password@host:port');
  if (!isMethodPassword(payload.credentials)) return fail('ss URI needs method:password');
  const { endpoint } = payload;
  const problem = endpoint === null ? 'has no host' : endpointProblem(endpoint, false);
  return problem === null && endpoint ? { ok: true, host: endpoint.host } : fail(`ss URI ${problem ?? 'has no host'}`);
}

/** The two parts of a legacy ss payload: `method:password` and the endpoint after the last '@'. */
export interface LegacySsPayload {
  credentials: string;
  endpoint: Endpoint | null;
}

/** One reading of `base64(method:password@host:port)`, or null when it is not base64 text with an '@'. */
export function readLegacySs(encoded: string): LegacySsPayload | null {
  const decoded = decodeBase64Loose(encoded);
  const at = decoded?.lastIndexOf('@') ?? -1;
  if (decoded === null || at < 0) return null;
  return { credentials: decoded.slice(0, at), endpoint: splitHostPort(decoded.slice(at + 1), null) };
}

function isSsUserinfo(userinfo: string): boolean {
  const credentials = ssUserinfoText(userinfo);
  return credentials !== null && isMethodPassword(credentials);
}

/**
 * SIP002 userinfo as `method:password` text: percent-encoded plain text (required for 2022 ciphers, never
 * base64-decoded; base64 never holds a ':'), or base64 of it. Null when an escape is malformed.
 */
export function ssUserinfoText(userinfo: string): string | null {
  let plain: string;
  try {
    plain = decodeURIComponent(userinfo);
  } catch {
    return null;
  }
  return plain.includes(':') ? plain : (decodeBase64Loose(plain) ?? '');
}

function isMethodPassword(text: string): boolean {
  const colon = text.indexOf(':');
  return colon > 0 && colon < text.length - 1;
}

function inspectSsr(body: string): Inspection {
  const decoded = decodeBase64Loose(body);
  if (decoded === null) return fail('ssr URI is not base64');
  const payload = readSsr(decoded);
  if (payload === null) return fail('ssr URI needs host:port:protocol:method:obfs:password');
  const { host, port } = payload;
  const problem = hostProblem(host, false) ?? (isPort(port) ? null : `has an invalid port '${port}'`);
  return problem === null ? { ok: true, host } : fail(`ssr URI ${problem}`);
}

/** The fields of a decoded ssr payload; `password` is still base64 and `params` the raw text after '?'. */
export interface SsrPayload {
  host: string;
  port: string;
  protocolName: string;
  method: string;
  obfs: string;
  password: string;
  params: string;
}

/** `host:port:protocol:method:obfs:base64pass/?params`, the host possibly a bare IPv6 address; null with fewer fields. */
export function readSsr(decoded: string): SsrPayload | null {
  const question = decoded.indexOf('?');
  const fields = (question < 0 ? decoded : decoded.slice(0, question)).replace(/\/$/, '').split(':');
  if (fields.length < 6) return null;
  const [port = '', protocolName = '', method = '', obfs = '', password = ''] = fields.slice(-5);
  const host = unbracketed(fields.slice(0, -5).join(':'));
  return { host, port, protocolName, method, obfs, password, params: question < 0 ? '' : decoded.slice(question + 1) };
}
