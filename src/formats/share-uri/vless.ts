// VLESS links: `vless://uuid@host:port?encryption=&flow=&security=&type=...#name`.
import type { VlessNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  QueryWriter,
  authorityLink,
  compact,
  endpoint,
  isProblem,
  userinfoText,
  writeSecurity,
} from './common.js';
import { readStream, writeTransport } from './transport.js';

const PACKET_ENCODINGS: Record<string, VlessNode['packetEncoding']> = {
  none: 'none',
  packet: 'packetaddr',
  packetaddr: 'packetaddr',
  xudp: 'xudp',
};

export function parseVless(link: Authority, name: string): Draft<VlessNode> | Problem {
  const at = endpoint(link, 'vless', name);
  if (isProblem(at)) return at;
  const stream = readStream(link.query, false);
  if (isProblem(stream)) return stream;
  return compact<Draft<VlessNode>>({
    protocol: 'vless',
    ...at,
    uuid: (userinfoText(link) ?? '').toLowerCase(),
    flow: link.query.get('flow')?.toLowerCase(),
    encryption: link.query.get('encryption') ?? 'none',
    packetEncoding: PACKET_ENCODINGS[link.query.get('packetEncoding')?.toLowerCase() ?? ''],
    ...stream,
  });
}

export function writeVless(node: VlessNode): string {
  const query = new QueryWriter().set('encryption', node.encryption).set('flow', node.flow);
  query.set('packetEncoding', node.packetEncoding);
  writeSecurity(query, node.tls);
  writeTransport(query, node.transport);
  return authorityLink('vless', node.uuid, node, query);
}
