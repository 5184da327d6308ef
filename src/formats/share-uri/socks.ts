// SOCKS5 links: v2rayN's `socks://base64(user:pass)@host:port` and the plain `socks5://user:pass@host:port`.
import { decodeBase64Loose } from '../../modules/sources/uri-text.js';
import type { SocksNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  compact,
  encodeUserinfo,
  authorityLink,
  endpoint,
  isProblem,
  percentDecode,
} from './common.js';

/** Plain `user:pass` when the raw userinfo has a ':', otherwise base64 of it, otherwise a bare user name. */
function credentials(userinfo: string | null): Pick<SocksNode, 'username' | 'password'> {
  if (userinfo === null || userinfo === '') return {};
  const colon = userinfo.indexOf(':');
  if (colon >= 0) {
    return { username: percentDecode(userinfo.slice(0, colon)), password: percentDecode(userinfo.slice(colon + 1)) };
  }
  const plain = percentDecode(userinfo);
  const decoded = decodeBase64Loose(plain);
  const split = decoded?.indexOf(':') ?? -1;
  if (decoded === null || decoded === undefined || split < 0) return { username: plain };
  return { username: decoded.slice(0, split), password: decoded.slice(split + 1) };
}

export function parseSocks(link: Authority, name: string): Draft<SocksNode> | Problem {
  const at = endpoint(link, 'socks', name);
  if (isProblem(at)) return at;
  const { username, password } = credentials(link.userinfo);
  return compact<Draft<SocksNode>>({
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
    return authorityLink('socks5', `${encodeUserinfo(username)}:${encodeUserinfo(password)}`, node, '');
  }
  if (username === '' && password === '') return authorityLink('socks', undefined, node, '');
  return authorityLink(
    'socks',
    encodeUserinfo(Buffer.from(`${username}:${password}`, 'utf8').toString('base64')),
    node,
    '',
  );
}
