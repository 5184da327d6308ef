// TUIC links: v5 `tuic://uuid:password@host:port?congestion_control=&udp_relay_mode=&alpn=&sni=...`, v4 `tuic://token@...`.
import { UUID_RE } from './check.js';
import type { TuicNode } from '../proxy.js';
import type { Authority, Draft, Problem } from './common.js';
import * as uri from './common.js';

/** The userinfo is split at its first raw ':' before decoding, so an encoded `%3A` stays in the password. */
function credentials(userinfo: string): Pick<TuicNode, 'uuid' | 'password' | 'token'> | Problem {
  const colon = userinfo.indexOf(':');
  if (colon < 0) {
    const token = uri.percentDecode(userinfo);
    return token === '' ? uri.problem('tuic URI has no uuid:password or token') : { token };
  }
  const uuid = uri.percentDecode(userinfo.slice(0, colon));
  const password = uri.percentDecode(userinfo.slice(colon + 1));
  if (!UUID_RE.test(uuid)) return uri.problem('tuic user is not a UUID');
  return password === '' ? uri.problem('tuic URI has no password') : { uuid: uuid.toLowerCase(), password };
}

export function parseTuic(link: Authority, name: string): Draft<TuicNode> | Problem {
  const at = uri.endpoint(link, 'tuic', name);
  if (uri.isProblem(at)) return at;
  const user = credentials(link.userinfo ?? '');
  const tls = uri.readTls(link.query);
  if (uri.isProblem(user)) return user;
  if (uri.isProblem(tls)) return tls;
  return uri.compact<Draft<TuicNode>>({
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
    node.uuid !== undefined
      ? `${node.uuid}:${uri.encodeUserinfo(node.password ?? '')}`
      : uri.encodeUserinfo(node.token ?? '');
  const query = new uri.QueryWriter()
    .set('congestion_control', node.congestionControl)
    .set('udp_relay_mode', node.udpRelayMode);
  uri.writeTls(query, node.tls, { insecure: 'allow_insecure', pin: 'pcs' });
  return uri.authorityLink('tuic', userinfo, node, query);
}
