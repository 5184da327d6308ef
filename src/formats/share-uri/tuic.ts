// TUIC links: v5 `tuic://uuid:password@host:port?congestion_control=&udp_relay_mode=&alpn=&sni=...`, v4 `tuic://token@...`.
import { UUID_RE } from '../../modules/sources/proxy-uri.js';
import type { TuicNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  QueryWriter,
  authorityLink,
  compact,
  encodeUserinfo,
  endpoint,
  isProblem,
  percentDecode,
  problem,
  readTls,
  writeTls,
} from './common.js';

/** The userinfo is split at its first raw ':' before decoding, so an encoded `%3A` stays in the password. */
function credentials(userinfo: string): Pick<TuicNode, 'uuid' | 'password' | 'token'> | Problem {
  const colon = userinfo.indexOf(':');
  if (colon < 0) {
    const token = percentDecode(userinfo);
    return token === '' ? problem('tuic URI has no uuid:password or token') : { token };
  }
  const uuid = percentDecode(userinfo.slice(0, colon));
  const password = percentDecode(userinfo.slice(colon + 1));
  if (!UUID_RE.test(uuid)) return problem('tuic user is not a UUID');
  return password === '' ? problem('tuic URI has no password') : { uuid: uuid.toLowerCase(), password };
}

export function parseTuic(link: Authority, name: string): Draft<TuicNode> | Problem {
  const at = endpoint(link, 'tuic', name);
  if (isProblem(at)) return at;
  const user = credentials(link.userinfo ?? '');
  const tls = readTls(link.query);
  if (isProblem(user)) return user;
  if (isProblem(tls)) return tls;
  return compact<Draft<TuicNode>>({
    protocol: 'tuic',
    ...at,
    ...user,
    congestionControl: link.query.get('congestion_control', 'congestion-controller'),
    udpRelayMode: link.query.get('udp_relay_mode'),
    tls,
  });
}

export function writeTuic(node: TuicNode): string {
  const userinfo =
    node.uuid !== undefined ? `${node.uuid}:${encodeUserinfo(node.password ?? '')}` : encodeUserinfo(node.token ?? '');
  const query = new QueryWriter()
    .set('congestion_control', node.congestionControl)
    .set('udp_relay_mode', node.udpRelayMode);
  writeTls(query, node.tls, { insecure: 'allow_insecure', pin: 'pcs' });
  return authorityLink('tuic', userinfo, node, query);
}
