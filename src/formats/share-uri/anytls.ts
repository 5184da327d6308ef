// AnyTLS links: `anytls://password@host:port?sni=&insecure=1&alpn=&fp=&hpkp=#name`.
import type { AnytlsNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  QueryWriter,
  authorityLink,
  encodeUserinfo,
  endpoint,
  isProblem,
  percentDecode,
  problem,
  readTls,
  writeTls,
} from './common.js';

export function parseAnytls(link: Authority, name: string): Draft<AnytlsNode> | Problem {
  const at = endpoint(link, 'anytls', name);
  if (isProblem(at)) return at;
  // As mihomo reads it: the password part of `user:password`, else the whole userinfo.
  const userinfo = link.userinfo ?? '';
  const colon = userinfo.indexOf(':');
  const password = percentDecode(colon < 0 ? userinfo : userinfo.slice(colon + 1));
  if (password === '') return problem('anytls URI has no password');
  const tls = readTls(link.query);
  if (isProblem(tls)) return tls;
  return { protocol: 'anytls', ...at, password, tls };
}

export function writeAnytls(node: AnytlsNode): string {
  const query = new QueryWriter();
  writeTls(query, node.tls, { insecure: 'insecure', pin: 'hpkp' });
  return authorityLink('anytls', encodeUserinfo(node.password), node, query);
}
