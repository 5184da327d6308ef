// Hysteria links: v1 `hysteria://host:port?auth=&peer=&upmbps=&obfsParam=...` and v2 `hysteria2://`/`hy2://auth@host[:ports]/?...`.
import { isPortList } from './endpoint.js';
import type { Hysteria2Node, HysteriaNode } from '../proxy.js';
import type { Authority, Draft, Problem } from './common.js';
import * as uri from './common.js';

/** A port hopping list from `mport=`/`ports=`, or a problem when it is malformed. */
function readPorts(text: string | undefined): string | undefined | Problem {
  if (text === undefined) return undefined;
  const ports = text.replace(/\s+/g, '');
  return isPortList(ports) ? ports : uri.problem(`port list '${text}' is malformed`);
}

export function parseHysteria(link: Authority, name: string): Draft<HysteriaNode> | Problem {
  const at = uri.endpoint(link, 'hysteria', name);
  if (uri.isProblem(at)) return at;
  const { query } = link;
  const tls = uri.readTls(query);
  const ports = readPorts(query.get('mport', 'ports'));
  if (uri.isProblem(tls)) return tls;
  if (ports !== undefined && uri.isProblem(ports)) return ports;
  // `obfs` names the method (xplus) and `obfsParam` holds the password; mihomo reads a password from `obfs` itself.
  const obfs = query.get('obfsParam') ?? (query.get('obfs')?.toLowerCase() === 'xplus' ? undefined : query.get('obfs'));
  return uri.compact<Draft<HysteriaNode>>({
    protocol: 'hysteria',
    ...at,
    auth: query.get('auth', 'auth_str') ?? uri.userinfoText(link),
    transportProtocol: query.get('protocol'),
    upMbps: uri.parseMbps(query.get('upmbps', 'up')),
    downMbps: uri.parseMbps(query.get('downmbps', 'down')),
    obfs,
    ports,
    tls,
  });
}

export function writeHysteria(node: HysteriaNode): string {
  const query = new uri.QueryWriter()
    .set('protocol', node.transportProtocol)
    .set('auth', node.auth)
    .set('peer', node.tls.serverName)
    .set('upmbps', node.upMbps)
    .set('downmbps', node.downMbps)
    .set('obfs', node.obfs === undefined ? undefined : 'xplus')
    .set('obfsParam', node.obfs)
    .set('mport', node.ports);
  uri.writeTls(query, { ...node.tls, serverName: undefined }, { insecure: 'insecure', pin: 'pinSHA256' });
  return uri.authorityLink('hysteria', undefined, node, query);
}

/** The host may carry a port list (`443,5000-6000`): the first port is the port and the list is kept for hopping. */
function hysteria2Ports(text: string | null): { port: number; ports?: string } | null {
  if (text === null) return { port: 443 };
  const single = uri.parsePort(text);
  if (single !== null) return { port: single };
  const first = uri.parsePort(/^\d+/.exec(text)?.[0]);
  return first === null || !isPortList(text) ? null : { port: first, ports: text };
}

export function parseHysteria2(link: Authority, name: string): Draft<Hysteria2Node> | Problem {
  const { query } = link;
  const ports = hysteria2Ports(link.port);
  if (ports === null) return uri.problem('hysteria2 URI has an invalid port');
  const hopping = readPorts(query.get('mport', 'ports'));
  const tls = uri.readTls(query);
  if (hopping !== undefined && uri.isProblem(hopping)) return hopping;
  if (uri.isProblem(tls)) return tls;
  const obfsType = query.get('obfs')?.toLowerCase();
  const obfsPassword = query.get('obfs-password', 'obfsParam');
  if (obfsType !== undefined && obfsType !== 'none' && obfsType !== 'salamander') {
    return uri.problem(`hysteria2 obfs '${obfsType}' is not supported`);
  }
  if (obfsType === 'salamander' && obfsPassword === undefined)
    return uri.problem('hysteria2 salamander needs a password');
  // Decoded exactly once (docs/architecture.md, Reading share URIs): mihomo's converter keeps the percent-encoded userinfo.
  const password = link.userinfo === null ? (query.get('auth') ?? '') : uri.percentDecode(link.userinfo);
  return uri.compact<Draft<Hysteria2Node>>({
    protocol: 'hysteria2',
    name,
    server: link.host,
    port: ports.port,
    password,
    ports: hopping ?? ports.ports,
    obfs:
      obfsType === 'salamander' && obfsPassword !== undefined
        ? { type: 'salamander', password: obfsPassword }
        : undefined,
    upMbps: uri.parseMbps(query.get('up', 'upmbps')),
    downMbps: uri.parseMbps(query.get('down', 'downmbps')),
    tls,
  });
}

export function writeHysteria2(node: Hysteria2Node): string {
  const query = new uri.QueryWriter();
  uri.writeTls(query, node.tls, { insecure: 'insecure', pin: 'pinSHA256' });
  query
    .set('obfs', node.obfs?.type)
    .set('obfs-password', node.obfs?.password)
    .set('up', node.upMbps)
    .set('down', node.downMbps)
    .set('mport', node.ports);
  const userinfo = node.password === '' ? undefined : uri.encodeUserinfo(node.password);
  return uri.authorityLink('hysteria2', userinfo, node, `/${query.toString()}`);
}
