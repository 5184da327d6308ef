// AnyTLS links: `anytls://password@host:port?sni=&insecure=1&alpn=&fp=&hpkp=#name`.
import type { AnytlsNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  QueryWriter,
  encodeUserinfo,
  fragment,
  hostPort,
  isProblem,
  parsePort,
  percentDecode,
  problem,
  readTls,
  writeTls,
} from './common.js';

export function parseAnytls(link: Authority, name: string): Draft<AnytlsNode> | Problem {
  const port = parsePort(link.port);
  if (port === null) return problem('anytls URI has no port');
  // As mihomo reads it: the password part of `user:password`, else the whole userinfo.
  const userinfo = link.userinfo ?? '';
  const colon = userinfo.indexOf(':');
  const password = percentDecode(colon < 0 ? userinfo : userinfo.slice(colon + 1));
  if (password === '') return problem('anytls URI has no password');
  const tls = readTls(link.query);
  if (isProblem(tls)) return tls;
  return { protocol: 'anytls', name, server: link.host, port, password, tls };
}

export function writeAnytls(node: AnytlsNode): string {
  const query = new QueryWriter();
  writeTls(query, node.tls, { insecure: 'insecure', pin: 'hpkp' });
  const userinfo = encodeUserinfo(node.password);
  return `anytls://${userinfo}@${hostPort(node.server, node.port)}${query.toString()}${fragment(node.name)}`;
}
