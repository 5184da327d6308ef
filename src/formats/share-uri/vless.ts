// VLESS links: `vless://uuid@host:port?encryption=&flow=&security=&type=...#name`.
import type { VlessNode } from '../proxy.js';
import type { Authority, Draft, Problem } from './common.js';
import * as uri from './common.js';
import { readStream, writeTransport } from './transport.js';

const PACKET_ENCODINGS: Record<string, VlessNode['packetEncoding']> = {
  none: 'none',
  packet: 'packetaddr',
  packetaddr: 'packetaddr',
  xudp: 'xudp',
};

export function parseVless(link: Authority, name: string): Draft<VlessNode> | Problem {
  const at = uri.endpoint(link, 'vless', name);
  if (uri.isProblem(at)) return at;
  const stream = readStream(link.query, false);
  if (uri.isProblem(stream)) return stream;
  return uri.compact<Draft<VlessNode>>({
    protocol: 'vless',
    ...at,
    uuid: (uri.userinfoText(link) ?? '').toLowerCase(),
    flow: link.query.get('flow')?.toLowerCase(),
    encryption: link.query.get('encryption') ?? 'none',
    packetEncoding: PACKET_ENCODINGS[link.query.get('packetEncoding')?.toLowerCase() ?? ''],
    ...stream,
  });
}

export function writeVless(node: VlessNode): string {
  const query = new uri.QueryWriter().set('encryption', node.encryption).set('flow', node.flow);
  query.set('packetEncoding', node.packetEncoding);
  uri.writeSecurity(query, node.tls);
  writeTransport(query, node.transport);
  return uri.authorityLink('vless', node.uuid, node, query);
}
