// SOCKS5 links: v2rayN's `socks://base64(user:pass)@host:port` and the plain `socks5://user:pass@host:port`.
import { decodeBase64Loose } from './text.js';
import type { SocksNode } from '../proxy.js';
import type { Authority, Draft, Problem } from './common.js';
import * as uri from './common.js';

/** Plain `user:pass` when the raw userinfo has a ':', otherwise base64 of it, otherwise a bare user name. */
function credentials(userinfo: string | null): Pick<SocksNode, 'username' | 'password'> {
  if (userinfo === null || userinfo === '') return {};
  const colon = userinfo.indexOf(':');
  if (colon >= 0) {
    return {
      username: uri.percentDecode(userinfo.slice(0, colon)),
      password: uri.percentDecode(userinfo.slice(colon + 1)),
    };
  }
  const plain = uri.percentDecode(userinfo);
  const decoded = decodeBase64Loose(plain);
  const split = decoded?.indexOf(':') ?? -1;
  if (decoded === null || decoded === undefined || split < 0) return { username: plain };
  return { username: decoded.slice(0, split), password: decoded.slice(split + 1) };
}

export function parseSocks(link: Authority, name: string): Draft<SocksNode> | Problem {
  const at = uri.endpoint(link, 'socks', name);
  if (uri.isProblem(at)) return at;
  const { username, password } = credentials(link.userinfo);
  return uri.compact<Draft<SocksNode>>({
    protocol: 'socks',
    ...at,
    username: username || undefined,
    password: password || undefined,
  });
}

/** v2rayN's base64 form, or the plain `socks5://` form when the user name holds a ':' that base64 could not keep apart. */
export function writeSocks(node: SocksNode): string {
  const username = node.username ?? '';
  const password = node.password ?? '';
  if (username.includes(':')) {
    return uri.authorityLink('socks5', `${uri.encodeUserinfo(username)}:${uri.encodeUserinfo(password)}`, node, '');
  }
  if (username === '' && password === '') return uri.authorityLink('socks', undefined, node, '');
  return uri.authorityLink(
    'socks',
    uri.encodeUserinfo(Buffer.from(`${username}:${password}`, 'utf8').toString('base64')),
    node,
    '',
  );
}
