// A sing-box outbound or endpoint (the keys of sing-box's option structs) as the typed form, or null when unsupported.
import type { ProxyNode } from '../proxy.js';
import type * as proxy from '../proxy.js';
import { compact, isProblem } from '../share-uri/common.js';
import { h2Transport, httpHeaderTransport, wsTransport } from '../share-uri/transport.js';
import { type Dict, dict, flag, integer, port, text, texts } from './values.js';

/** Outbounds that are not servers: left out without counting as skipped. */
export const SING_BOX_IGNORED_TYPES = new Set(['selector', 'urltest', 'direct', 'block', 'dns']);

/** sing-box holds an ECH config list as PEM lines; share links carry the base64 inside. */
function echConfig(value: unknown): string | undefined {
  const lines = texts(Array.isArray(value) ? value : text(value)?.split('\n'));
  const body = lines?.filter((line) => !line.startsWith('-----')).join('');
  return body === '' ? undefined : body;
}

function tlsOf(outbound: Dict): proxy.Tls | undefined {
  const tls = dict(outbound.tls);
  if (tls === undefined || !flag(tls.enabled)) return undefined;
  const utls = dict(tls.utls);
  const reality = dict(tls.reality);
  const ech = dict(tls.ech);
  const publicKey = reality && flag(reality.enabled) ? text(reality.public_key) : undefined;
  return compact<proxy.Tls>({
    serverName: text(tls.server_name),
    insecure: flag(tls.insecure) || undefined,
    alpn: texts(tls.alpn),
    clientFingerprint: utls && flag(utls.enabled) ? (text(utls.fingerprint) ?? 'chrome') : undefined,
    ech: ech && flag(ech.enabled) ? echConfig(ech.config) : undefined,
    disableSni: flag(tls.disable_sni) || undefined,
    reality: publicKey === undefined ? undefined : compact({ publicKey, shortId: text(reality?.short_id) }),
  });
}

/** sing-box's `http` transport is HTTP/2 under TLS and plain HTTP/1.1 (the v2ray header form) without it. */
function transportOf(outbound: Dict, tls: proxy.Tls | undefined): proxy.Transport | null {
  const transport = dict(outbound.transport);
  if (transport === undefined) return { type: 'tcp' };
  const host = text(dict(transport.headers)?.Host);
  switch (text(transport.type)) {
    case 'ws': {
      const ed = integer(transport.max_early_data);
      const ws = wsTransport(text(transport.path), host, ed?.toString(), text(transport.early_data_header_name));
      return isProblem(ws) ? null : ws;
    }
    case 'http': {
      const hosts = texts(transport.host)?.join(',');
      return tls
        ? h2Transport(hosts, text(transport.path))
        : httpHeaderTransport(hosts, text(transport.path), text(transport.method));
    }
    case 'grpc':
      return { type: 'grpc', serviceName: text(transport.service_name) ?? '' };
    case 'httpupgrade':
      return compact({ type: 'httpupgrade' as const, path: text(transport.path) ?? '/', host: text(transport.host) });
    case 'quic':
      return { type: 'quic' };
    default:
      return null;
  }
}

/** `server_ports: ["5000:6000", "443:443"]` as the hopping list `5000-6000,443`. */
function serverPorts(value: unknown): string | undefined {
  return texts(value)
    ?.map((range) => {
      const [from, to] = range.split(':');
      return to === undefined || to === from ? from : `${from}-${to}`;
    })
    .join(',');
}

function packetEncoding(value: unknown): proxy.VlessNode['packetEncoding'] {
  if (typeof value !== 'string') return undefined;
  return value === 'packetaddr' || value === 'xudp' ? value : 'none';
}

function udpOverTcp(value: unknown): boolean | undefined {
  return flag(value) || flag(dict(value)?.enabled) || undefined;
}

/** SIP003 options as sing-box writes them: `obfs=http;obfs-host=h`, flags without `=`. */
function pluginOptions(value: unknown): Record<string, string | true> {
  const options: Record<string, string | true> = {};
  for (const part of (text(value) ?? '').split(';')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (key !== '' && key !== '__proto__') options[key] = eq < 0 ? true : part.slice(eq + 1);
  }
  return options;
}

function wireguardNode(base: Omit<ProxyNode, 'protocol'>, entry: Dict): ProxyNode {
  const peer = dict(Array.isArray(entry.peers) ? entry.peers[0] : undefined) ?? entry;
  return compact<proxy.WireguardNode>({
    ...base,
    server: text(peer.address ?? peer.server) ?? base.server,
    port: port(peer.port ?? peer.server_port) ?? base.port,
    protocol: 'wireguard',
    privateKey: text(entry.private_key) ?? '',
    publicKey: text(peer.public_key ?? entry.peer_public_key) ?? '',
    preSharedKey: text(peer.pre_shared_key ?? entry.pre_shared_key),
    addresses: texts(entry.address ?? entry.local_address) ?? [],
    reserved: Array.isArray(peer.reserved ?? entry.reserved)
      ? texts(peer.reserved ?? entry.reserved)?.map(Number)
      : undefined,
    mtu: integer(entry.mtu),
  });
}

/** An outbound chained through another (`detour`) cannot travel as a share URI, so it is unsupported. */
export function singBoxNode(raw: unknown): ProxyNode | null {
  const entry = dict(raw);
  if (entry === undefined || text(entry.detour) !== undefined) return null;
  const type = text(entry.type);
  const base = {
    name: text(entry.tag)?.trim() ?? '',
    server: text(entry.server) ?? '',
    port: port(entry.server_port) ?? 0,
    uri: '',
  };
  if (type === 'wireguard') return wireguardNode(base, entry);
  if (base.server === '' || base.port === 0) return null;
  const tls = tlsOf(entry);
  switch (type) {
    case 'vless':
    case 'vmess': {
      const transport = transportOf(entry, tls);
      if (transport === null) return null;
      const common = { ...base, uuid: text(entry.uuid) ?? '', transport, tls };
      return type === 'vless'
        ? compact<proxy.VlessNode>({
            ...common,
            protocol: 'vless',
            flow: text(entry.flow),
            encryption: 'none',
            packetEncoding: packetEncoding(entry.packet_encoding),
          })
        : compact<proxy.VmessNode>({
            ...common,
            protocol: 'vmess',
            alterId: integer(entry.alter_id) ?? 0,
            cipher: text(entry.security) ?? 'auto',
          });
    }
    case 'trojan': {
      const transport = transportOf(entry, tls);
      if (transport === null || tls === undefined) return null;
      return { ...base, protocol: 'trojan', password: text(entry.password) ?? '', transport, tls };
    }
    case 'shadowsocks': {
      const plugin = text(entry.plugin);
      return compact<proxy.ShadowsocksNode>({
        ...base,
        protocol: 'shadowsocks',
        method: text(entry.method) ?? '',
        password: text(entry.password) ?? '',
        plugin: plugin === undefined ? undefined : { name: plugin, options: pluginOptions(entry.plugin_opts) },
        udpOverTcp: udpOverTcp(entry.udp_over_tcp),
      });
    }
    case 'hysteria':
      if (tls === undefined) return null;
      return compact<proxy.HysteriaNode>({
        ...base,
        protocol: 'hysteria',
        auth: text(entry.auth_str),
        upMbps: integer(entry.up_mbps),
        downMbps: integer(entry.down_mbps),
        obfs: text(entry.obfs),
        ports: serverPorts(entry.server_ports),
        tls,
      });
    case 'hysteria2': {
      const obfs = dict(entry.obfs);
      const obfsPassword = text(obfs?.password);
      if (tls === undefined || (obfs !== undefined && (text(obfs.type) !== 'salamander' || !obfsPassword))) return null;
      return compact<proxy.Hysteria2Node>({
        ...base,
        protocol: 'hysteria2',
        password: text(entry.password) ?? '',
        ports: serverPorts(entry.server_ports),
        obfs: obfsPassword === undefined ? undefined : { type: 'salamander' as const, password: obfsPassword },
        upMbps: integer(entry.up_mbps),
        downMbps: integer(entry.down_mbps),
        tls,
      });
    }
    case 'tuic':
      if (tls === undefined) return null;
      return compact<proxy.TuicNode>({
        ...base,
        protocol: 'tuic',
        uuid: text(entry.uuid),
        password: text(entry.password),
        congestionControl: text(entry.congestion_control),
        udpRelayMode: text(entry.udp_relay_mode),
        tls,
      });
    case 'socks':
      if (text(entry.version) !== undefined && text(entry.version) !== '5') return null;
      return compact<proxy.SocksNode>({
        ...base,
        protocol: 'socks',
        username: text(entry.username),
        password: text(entry.password),
      });
    case 'anytls':
      if (tls === undefined) return null;
      return { ...base, protocol: 'anytls', password: text(entry.password) ?? '', tls };
    default:
      return null;
  }
}
