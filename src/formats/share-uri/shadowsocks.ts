// Shadowsocks links: SIP002 (base64url or, for 2022 ciphers, plain userinfo; SIP003 `plugin=`) and the legacy whole-base64 form.
import { hasUserinfo, legacySsCandidates, readLegacySs, ssUserinfoText } from './check.js';
import type { ShadowsocksNode } from '../proxy.js';
import type { Draft, Problem } from './common.js';
import * as uri from './common.js';
import { readStream, writeTransport } from './transport.js';

type Plugin = NonNullable<ShadowsocksNode['plugin']>;

interface Credentials {
  method: string;
  password: string;
}

/** `method:password`; the password keeps any further colons (2022 multi-user `key1:key2`). */
function splitCredentials(text: string): Credentials | null {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return null;
  return { method: text.slice(0, colon).toLowerCase(), password: text.slice(colon + 1) };
}

/** Splits at each `separator` not escaped by a backslash (at most `limit` parts); escapes are kept. */
function splitUnescaped(text: string, separator: string, limit = Number.POSITIVE_INFINITY): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '\\' && i + 1 < text.length) {
      current += char + (text[++i] ?? '');
    } else if (char === separator && parts.length < limit - 1) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  return [...parts, current];
}

const unescapePluginText = (text: string): string => text.replace(/\\(.)/g, '$1');

/** SIP003 options: `name;key=value;flag`, with `\;`, `\=` and `\\` escapes. */
function parsePlugin(text: string): Plugin | null {
  const [name = '', ...options] = splitUnescaped(text, ';');
  if (unescapePluginText(name).trim() === '') return null;
  const record: Record<string, string | true> = {};
  for (const option of options) {
    const [rawKey = '', value] = splitUnescaped(option, '=', 2);
    const key = unescapePluginText(rawKey);
    if (key !== '' && key !== '__proto__') record[key] = value === undefined ? true : unescapePluginText(value);
  }
  return { name: unescapePluginText(name).trim(), options: record };
}

function escapePluginText(text: string): string {
  return text.replace(/[\\;=]/g, (char) => `\\${char}`);
}

function pluginText(plugin: Plugin): string {
  const options = Object.entries(plugin.options).map(([key, value]) =>
    value === true ? escapePluginText(key) : `${escapePluginText(key)}=${escapePluginText(value)}`,
  );
  return [escapePluginText(plugin.name), ...options].join(';');
}

interface Located {
  credentials: Credentials | null;
  host: string;
  port: number | null;
  query: uri.Query;
}

/** Legacy `ss://base64(method:password@host:port)[/][?plugin=...]`; the trailing '/' may belong to either side. */
function locateLegacy(body: string): Located | Problem {
  const question = body.indexOf('?');
  const encoded = question < 0 ? body : body.slice(0, question);
  const query = new uri.Query(question < 0 ? '' : body.slice(question + 1));
  for (const candidate of legacySsCandidates(encoded)) {
    const payload = readLegacySs(candidate);
    if (payload === null || payload.endpoint === null) continue;
    const { endpoint } = payload;
    return {
      credentials: splitCredentials(payload.credentials),
      host: endpoint.host,
      port: uri.parsePort(endpoint.port),
      query,
    };
  }
  return uri.problem('ss URI is not base64 of method:password@host:port');
}

function locate(body: string): Located | Problem {
  if (!hasUserinfo(body)) return locateLegacy(body);
  const link = uri.readAuthority('ss', body);
  if (uri.isProblem(link)) return link;
  const credentials = splitCredentials(ssUserinfoText(link.userinfo ?? '') ?? '');
  return { credentials, host: link.host, port: uri.parsePort(link.port), query: link.query };
}

export function parseShadowsocks(body: string, name: string): Draft<ShadowsocksNode> | Problem {
  const located = locate(body);
  if (uri.isProblem(located)) return located;
  const { credentials, host, port, query } = located;
  if (credentials === null) return uri.problem('ss URI needs method:password');
  if (port === null) return uri.problem('ss URI has no port');
  const stream = readShadowsocksStream(query);
  if (uri.isProblem(stream)) return stream;
  const pluginValue = query.get('plugin');
  const plugin = pluginValue === undefined ? undefined : parsePlugin(pluginValue);
  if (plugin === null) return uri.problem('ss plugin has no name');
  return uri.compact<Draft<ShadowsocksNode>>({
    protocol: 'shadowsocks',
    name,
    server: host,
    port,
    method: credentials.method,
    password: credentials.password,
    plugin,
    udpOverTcp: query.flag('uot', 'udp-over-tcp') || undefined,
    ...stream,
  });
}

/** Xray writes a transport and TLS into Shadowsocks links as it does for VLESS; plain TCP without TLS is no stream. */
function readShadowsocksStream(query: uri.Query): Pick<ShadowsocksNode, 'transport' | 'tls'> | Problem {
  if (query.get('type') === undefined && query.get('security') === undefined) return {};
  const stream = readStream(query, false);
  if (uri.isProblem(stream)) return stream;
  return stream.tls !== undefined || stream.transport.type !== 'tcp' ? stream : {};
}

/** SIP002: base64url userinfo, except plain percent-encoded userinfo for 2022 ciphers (their keys are base64 already). */
export function writeShadowsocks(node: ShadowsocksNode): string {
  const userinfo = node.method.startsWith('2022-')
    ? `${uri.encodeUserinfo(node.method)}:${uri.encodeUserinfo(node.password)}`
    : Buffer.from(`${node.method}:${node.password}`, 'utf8').toString('base64url');
  const writer = new uri.QueryWriter()
    .set('plugin', node.plugin && pluginText(node.plugin))
    .set('uot', node.udpOverTcp);
  if (node.transport) writeTransport(writer, node.transport);
  if (node.transport || node.tls) uri.writeSecurity(writer, node.tls);
  const query = writer.toString();
  return `ss://${userinfo}@${uri.hostPort(node.server, node.port)}${query === '' ? '' : `/${query}`}${uri.fragment(node.name)}`;
}
