// ShadowsocksR links: `ssr://base64url(host:port:protocol:method:obfs:base64url(password)/?obfsparam=&protoparam=&remarks=)`.
import { decodeBase64Loose } from './text.js';
import type { ShadowsocksrNode } from '../proxy.js';
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
  const question = decoded.indexOf('?');
  const main = (question < 0 ? decoded : decoded.slice(0, question)).replace(/\/$/, '');
  const params = readParams(question < 0 ? '' : decoded.slice(question + 1));
  const fields = main.split(':');
  const [portText, protocolName = '', method = '', obfs = '', encodedPassword = ''] = fields.slice(-5);
  const port = parsePort(portText);
  const password = decodeBase64Loose(encodedPassword);
  if (fields.length < 6 || port === null) return problem('ssr URI needs host:port:protocol:method:obfs:password');
  if (password === null || password === '') return problem('ssr password is not base64');
  return compact<Draft<ShadowsocksrNode>>({
    protocol: 'shadowsocksr',
    name: name || (params.get('remarks')?.trim() ?? ''),
    server: fields
      .slice(0, -5)
      .join(':')
      .replace(/^\[(.*)\]$/, '$1'),
    port,
    method,
    password,
    protocolName,
    protocolParam: params.get('protoparam'),
    obfs,
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
