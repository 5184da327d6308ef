// AnyTLS links: `anytls://password@host:port?sni=&insecure=1&alpn=&fp=&hpkp=#name`.
import type { AnytlsNode } from '../proxy.js';
import type { Authority, Draft, Problem } from './common.js';
import * as uri from './common.js';

export function parseAnytls(link: Authority, name: string): Draft<AnytlsNode> | Problem {
  const at = uri.endpoint(link, 'anytls', name);
  if (uri.isProblem(at)) return at;
  // As mihomo reads it: the password part of `user:password`, else the whole userinfo.
  const userinfo = link.userinfo ?? '';
  const colon = userinfo.indexOf(':');
  const password = uri.percentDecode(colon < 0 ? userinfo : userinfo.slice(colon + 1));
  if (password === '') return uri.problem('anytls URI has no password');
  const tls = uri.readTls(link.query);
  if (uri.isProblem(tls)) return tls;
  return { protocol: 'anytls', ...at, password, tls };
}

export function writeAnytls(node: AnytlsNode): string {
  const query = new uri.QueryWriter();
  uri.writeTls(query, node.tls, { insecure: 'insecure', pin: 'hpkp' });
  return uri.authorityLink('anytls', uri.encodeUserinfo(node.password), node, query);
}
