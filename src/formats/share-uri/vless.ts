// VLESS links: `vless://uuid@host:port?encryption=&flow=&security=&type=...#name`.
import type { VlessNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  QueryWriter,
  compact,
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

const PACKET_ENCODINGS: Record<string, VlessNode['packetEncoding']> = {
  none: 'none',
  packet: 'packetaddr',
  packetaddr: 'packetaddr',
  xudp: 'xudp',
};

export function parseVless(link: Authority, name: string): Draft<VlessNode> | Problem {
  const port = parsePort(link.port);
  if (port === null) return problem('vless URI has no port');
  const transport = readTransport(link.query);
  if (isProblem(transport)) return transport;
  const tls = readSecurity(link.query, false);
  if (tls !== undefined && isProblem(tls)) return tls;
  return compact<Draft<VlessNode>>({
    protocol: 'vless',
    name,
    server: link.host,
    port,
    uuid: percentDecode(link.userinfo ?? '').toLowerCase(),
    flow: link.query.get('flow')?.toLowerCase(),
    encryption: link.query.get('encryption') ?? 'none',
    packetEncoding: PACKET_ENCODINGS[link.query.get('packetEncoding')?.toLowerCase() ?? ''],
    transport,
    tls,
  });
}

export function writeVless(node: VlessNode): string {
  const query = new QueryWriter().set('encryption', node.encryption).set('flow', node.flow);
  query.set('packetEncoding', node.packetEncoding);
  writeSecurity(query, node.tls);
  writeTransport(query, node.transport);
  return `vless://${node.uuid}@${hostPort(node.server, node.port)}${query.toString()}${fragment(node.name)}`;
}
