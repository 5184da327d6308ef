// Trojan links: `trojan://password@host:port?security=&sni=&type=...#name`; TLS is always on.
import type { TrojanNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  QueryWriter,
  compact,
  encodeUserinfo,
  fragment,
  hostPort,
  isProblem,
  parsePort,
  percentDecode,
  problem,
  readSecurity,
  writeSecurity,
} from './common.js';
import { readTransport, writeTransport } from './transport.js';

export function parseTrojan(link: Authority, name: string): Draft<TrojanNode> | Problem {
  const port = parsePort(link.port);
  if (port === null) return problem('trojan URI has no port');
  const password = percentDecode(link.userinfo ?? '');
  if (password === '') return problem('trojan URI has no password');
  const transport = readTransport(link.query);
  if (isProblem(transport)) return transport;
  const tls = readSecurity(link.query, true);
  if (tls === undefined || isProblem(tls)) return tls ?? problem('trojan URI has no TLS');
  return compact<Draft<TrojanNode>>({ protocol: 'trojan', name, server: link.host, port, password, transport, tls });
}

export function writeTrojan(node: TrojanNode): string {
  const query = new QueryWriter();
  writeSecurity(query, node.tls);
  writeTransport(query, node.transport);
  const userinfo = encodeUserinfo(node.password);
  return `trojan://${userinfo}@${hostPort(node.server, node.port)}${query.toString()}${fragment(node.name)}`;
}
