// Proxy share links come in many client dialects; this module decides which are structurally usable and renders them back with a display comment.

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
const REG_NAME_RE = /^[\p{L}\p{N}\p{M}._~!$&'()*+,;=%-]+$/u;
const UNRESERVED_RE = /^[A-Za-z0-9._~-]$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface Endpoint {
  userinfo: string | null;
  host: string;
  bracketed: boolean;
  port: string | null;
}

/** An endpoint read from a share URI body, with what follows host:port (path and query). */
export interface UriAuthority extends Endpoint {
  rest: string;
}

type Inspection = { ok: true; host: string; vmessJson?: Record<string, unknown> } | { ok: false; problem: string };

/** Why `uri` is not a usable proxy config, or null when it is. */
export function proxyUriProblem(uri: string): string | null {
  const inspection = inspect(uri);
  return inspection.ok ? null : inspection.problem;
}

export function isValidProxyUri(uri: string): boolean {
  return inspect(uri).ok;
}

export function configHost(uri: string): string | null {
  const inspection = inspect(uri);
  return inspection.ok ? inspection.host : null;
}

/** RFC 3986 percent-encoding of the UTF-8 bytes: only unreserved characters stay literal. */
export function encodeComment(comment: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(comment)) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED_RE.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
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

/** Decodes standard or URL-safe base64, padded or not, ignoring whitespace; null unless the result is UTF-8 text. */
export function decodeBase64Loose(text: string): string | null {
  const compact = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const match = /^([A-Za-z0-9+/]*)(={0,2})$/.exec(compact);
  const data = match?.[1];
  const padding = match?.[2] ?? '';
  if (data === undefined || data.length % 4 === 1) return null;
  if (padding !== '' && (data.length + padding.length) % 4 !== 0) return null;
  try {
    return UTF8.decode(Buffer.from(data, 'base64'));
  } catch {
    return null;
  }
}

function inspect(uri: string): Inspection {
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

export function splitHostPort(hostPort: string, userinfo: string | null): Endpoint | null {
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    const after = hostPort.slice(close + 1);
    if (close < 0 || (after !== '' && !after.startsWith(':'))) return null;
    return { userinfo, host: hostPort.slice(1, close), bracketed: true, port: after === '' ? null : after.slice(1) };
  }
  const colon = hostPort.indexOf(':');
  const port = colon < 0 ? null : hostPort.slice(colon + 1);
  return { userinfo, host: colon < 0 ? hostPort : hostPort.slice(0, colon), bracketed: false, port };
}

function endpointProblem(endpoint: Endpoint, portOptional: boolean): string | null {
  const problem = hostProblem(endpoint.host, endpoint.bracketed);
  if (problem !== null) return problem;
  if (endpoint.port === null) return portOptional ? null : 'has no port';
  const valid = portOptional ? isPortList(endpoint.port) : isPort(endpoint.port);
  return valid ? null : `has an invalid port '${endpoint.port}'`;
}

function hostProblem(host: string, bracketed: boolean): string | null {
  if (host === '') return 'has no host';
  if (bracketed || host.includes(':')) return isIPv6(host) ? null : `has an invalid IPv6 host '${host}'`;
  return REG_NAME_RE.test(host) ? null : `has an invalid host '${host}'`;
}

function isPort(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;
}

/** Hysteria2 multi-port syntax: `443,5000-6000`. */
export function isPortList(text: string): boolean {
  return text.split(',').every((item) => {
    const [from, to, ...extra] = item.split('-');
    if (from === undefined || !isPort(from) || extra.length > 0) return false;
    return to === undefined || (isPort(to) && Number(from) <= Number(to));
  });
}

function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

function isIPv6(text: string): boolean {
  const address = text.replace(/%25[\w.~-]+$/, ''); // RFC 6874 zone id
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  let slots = groups.length;
  const last = groups[groups.length - 1];
  if (last?.includes('.') && !address.endsWith('::')) {
    if (!isIPv4(last)) return false;
    groups.pop();
    slots += 1; // an embedded IPv4 address fills two 16-bit groups
  }
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  return halves.length === 2 ? slots <= 7 : slots === 8;
}

function inspectVmess(body: string): Inspection {
  if (hasUserinfo(body)) return inspectAuthority('vmess', body);
  const decoded = decodeBase64Loose(body);
  if (decoded === null) return fail('vmess URI is neither base64 JSON nor user@host:port');
  const record = parseJsonObject(decoded);
  if (record === null) return fail('vmess base64 payload is not a JSON object');
  const add = typeof record.add === 'string' ? record.add.trim().replace(/^\[(.*)\]$/, '$1') : '';
  const problem = add === '' ? "has no 'add' host" : hostProblem(add, false);
  if (problem !== null) return fail(`vmess JSON ${problem}`);
  const port = typeof record.port === 'number' || typeof record.port === 'string' ? String(record.port) : '';
  if (!isPort(port)) return fail('vmess JSON needs a port between 1 and 65535');
  return { ok: true, host: add, vmessJson: record };
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Base64 never contains '@', so an '@' before the query marks the `user@host:port` form. */
export function hasUserinfo(body: string): boolean {
  return (body.split('?', 1)[0] ?? '').includes('@');
}

/** Legacy form: `ss://base64(method:password@host:port)`, optionally followed by `/?plugin=...`. */
function inspectLegacySs(body: string): Inspection {
  const encoded = body.split('?', 1)[0] ?? '';
  // A trailing '/' may be base64 or the start of `/?plugin`, so both readings are tried.
  const results = [encoded, encoded.replace(/\/$/, '')].map((candidate) =>
    inspectLegacySsPayload(decodeBase64Loose(candidate)),
  );
  return results.find((result) => result.ok) ?? results[0] ?? fail('ss URI is empty');
}

function inspectLegacySsPayload(decoded: string | null): Inspection {
  const at = decoded?.lastIndexOf('@') ?? -1;
  if (decoded === null || at < 0)
    return fail('ss URI is neither user@host:port nor base64 of method:password@host:port');
  if (!isMethodPassword(decoded.slice(0, at))) return fail('ss URI needs method:password');
  const endpoint = splitHostPort(decoded.slice(at + 1), null);
  const problem = endpoint === null ? 'has no host' : endpointProblem(endpoint, false);
  return problem === null && endpoint ? { ok: true, host: endpoint.host } : fail(`ss URI ${problem ?? 'has no host'}`);
}

/** SIP002 userinfo: percent-encoded `method:password`, or base64 of it. */
function isSsUserinfo(userinfo: string): boolean {
  let plain: string;
  try {
    plain = decodeURIComponent(userinfo);
  } catch {
    return false;
  }
  return isMethodPassword(plain.includes(':') ? plain : (decodeBase64Loose(plain) ?? ''));
}

function isMethodPassword(text: string): boolean {
  const colon = text.indexOf(':');
  return colon > 0 && colon < text.length - 1;
}

/** `ssr://base64(host:port:protocol:method:obfs:base64pass/?params)`; the host may be a bare IPv6 address. */
function inspectSsr(body: string): Inspection {
  const decoded = decodeBase64Loose(body);
  if (decoded === null) return fail('ssr URI is not base64');
  const fields = (decoded.split('?', 1)[0] ?? '').replace(/\/$/, '').split(':');
  if (fields.length < 6) return fail('ssr URI needs host:port:protocol:method:obfs:password');
  const host = fields
    .slice(0, -5)
    .join(':')
    .replace(/^\[(.*)\]$/, '$1');
  const port = fields[fields.length - 5] ?? '';
  const problem = hostProblem(host, false) ?? (isPort(port) ? null : `has an invalid port '${port}'`);
  return problem === null ? { ok: true, host } : fail(`ssr URI ${problem}`);
}
