// ShadowsocksR links: `ssr://base64url(host:port:protocol:method:obfs:base64url(password)/?obfsparam=&protoparam=&remarks=)`.
import { readSsr } from './check.js';
import type { ShadowsocksrNode } from '../proxy.js';
import { decodeBase64Loose } from './text.js';
import { type Draft, type Problem, compact, parsePort, problem } from './common.js';

const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Parameter values are base64url text; one that does not decode is ignored. */
function readParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const value = decodeBase64Loose(part.slice(eq + 1));
    if (value !== null && value !== '') params.set(part.slice(0, eq).toLowerCase(), value);
  }
  return params;
}

export function parseSsr(body: string, name: string): Draft<ShadowsocksrNode> | Problem {
  const decoded = decodeBase64Loose(body);
  if (decoded === null) return problem('ssr URI is not base64');
  const payload = readSsr(decoded);
  const port = parsePort(payload?.port);
  if (payload === null || port === null) return problem('ssr URI needs host:port:protocol:method:obfs:password');
  const password = decodeBase64Loose(payload.password);
  if (password === null || password === '') return problem('ssr password is not base64');
  const params = readParams(payload.params);
  return compact<Draft<ShadowsocksrNode>>({
    protocol: 'shadowsocksr',
    name: name || (params.get('remarks')?.trim() ?? ''),
    server: payload.host,
    port,
    method: payload.method,
    password,
    protocolName: payload.protocolName,
    protocolParam: params.get('protoparam'),
    obfs: payload.obfs,
    obfsParam: params.get('obfsparam'),
  });
}

/** The name travels in `remarks`, as SSR clients read it. */
export function writeSsr(node: ShadowsocksrNode): string {
  const main = [node.server, node.port, node.protocolName, node.method, node.obfs, b64url(node.password)].join(':');
  const params = [
    `obfsparam=${b64url(node.obfsParam ?? '')}`,
    `protoparam=${b64url(node.protocolParam ?? '')}`,
    `remarks=${b64url(node.name)}`,
  ].join('&');
  return `ssr://${b64url(`${main}/?${params}`)}`;
}
