// Trojan links: `trojan://password@host:port?security=&sni=&type=...#name`; TLS is always on.
import type { TrojanNode } from '../proxy.js';
import type { Authority, Draft, Problem } from './common.js';
import * as uri from './common.js';
import { readStream, writeTransport } from './transport.js';

export function parseTrojan(link: Authority, name: string): Draft<TrojanNode> | Problem {
  const at = uri.endpoint(link, 'trojan', name);
  if (uri.isProblem(at)) return at;
  const password = uri.userinfoText(link);
  if (password === undefined) return uri.problem('trojan URI has no password');
  const stream = readStream(link.query, true);
  if (uri.isProblem(stream)) return stream;
  if (stream.tls === undefined) return uri.problem('trojan URI has no TLS');
  return uri.compact<Draft<TrojanNode>>({
    protocol: 'trojan',
    ...at,
    password,
    transport: stream.transport,
    tls: stream.tls,
  });
}

export function writeTrojan(node: TrojanNode): string {
  const query = new uri.QueryWriter();
  uri.writeSecurity(query, node.tls);
  writeTransport(query, node.transport);
  return uri.authorityLink('trojan', uri.encodeUserinfo(node.password), node, query);
}
