// Trojan links: `trojan://password@host:port?security=&sni=&type=...#name`; TLS is always on.
import type { TrojanNode } from '../proxy.js';
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
  problem,
  userinfoText,
  writeSecurity,
} from './common.js';
import { readStream, writeTransport } from './transport.js';

export function parseTrojan(link: Authority, name: string): Draft<TrojanNode> | Problem {
  const at = endpoint(link, 'trojan', name);
  if (isProblem(at)) return at;
  const password = userinfoText(link);
  if (password === undefined) return problem('trojan URI has no password');
  const stream = readStream(link.query, true);
  if (isProblem(stream)) return stream;
  if (stream.tls === undefined) return problem('trojan URI has no TLS');
  return compact<Draft<TrojanNode>>({
    protocol: 'trojan',
    ...at,
    password,
    transport: stream.transport,
    tls: stream.tls,
  });
}

export function writeTrojan(node: TrojanNode): string {
  const query = new QueryWriter();
  writeSecurity(query, node.tls);
  writeTransport(query, node.transport);
  return authorityLink('trojan', encodeUserinfo(node.password), node, query);
}
