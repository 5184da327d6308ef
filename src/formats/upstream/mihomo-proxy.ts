// A proxy map of a Clash/mihomo profile (the keys mihomo's adapter reads) as the typed form, or null when unsupported.
import type { ProxyNode } from '../proxy.js';
import type * as proxy from '../proxy.js';
import { compact, isProblem, parseMbps } from '../share-uri/common.js';
import { h2Transport, httpHeaderTransport, wsTransport } from '../share-uri/transport.js';
import { type Dict, dict, flag, integer, port, text, texts } from './values.js';

/** Proxies that are not servers: left out without counting as skipped. */
export const MIHOMO_IGNORED_TYPES = new Set(['direct', 'reject', 'dns', 'pass']);

/** mihomo itself accepts `auth_str` for `auth-str`: keys are read with `_` as `-`. */
function dashed(map: Dict): Dict {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key.replace(/_/g, '-'), value]));
}

function opts(map: Dict, key: string): Dict {
  return dashed(dict(map[key]) ?? {});
}

/** The TLS members; `sniKey` is `servername` for vless/vmess and `sni` for everything else. */
function tlsOf(map: Dict, sniKey: 'servername' | 'sni'): proxy.Tls {
  const reality = opts(map, 'reality-opts');
  const ech = opts(map, 'ech-opts');
  const publicKey = text(reality['public-key']);
  return compact<proxy.Tls>({
    serverName: text(map[sniKey] ?? map.sni ?? map.servername),
    insecure: flag(map['skip-cert-verify']) || undefined,
    alpn: texts(map.alpn),
    clientFingerprint: text(map['client-fingerprint']),
    pinnedCertSha256: text(map.fingerprint),
    ech: flag(ech.enable) ? text(ech.config) : undefined,
    disableSni: flag(map['disable-sni']) || undefined,
    reality: publicKey === undefined ? undefined : compact({ publicKey, shortId: text(reality['short-id']) }),
  });
}

function transportOf(map: Dict): proxy.Transport | null {
  const network = text(map.network)?.toLowerCase() ?? 'tcp';
  switch (network) {
    case 'tcp':
      return { type: 'tcp' };
    case 'ws': {
      const ws = opts(map, 'ws-opts');
      const host = text(dict(ws.headers)?.Host);
      if (flag(ws['v2ray-http-upgrade']))
        return compact({ type: 'httpupgrade' as const, path: text(ws.path) ?? '/', host });
      const ed = integer(ws['max-early-data']);
      const transport = wsTransport(text(ws.path), host, ed?.toString(), text(ws['early-data-header-name']));
      return isProblem(transport) ? null : transport;
    }
    case 'http': {
      const http = opts(map, 'http-opts');
      const host = texts(dict(http.headers)?.Host)?.join(',');
      return httpHeaderTransport(host, texts(http.path)?.join(','), text(http.method));
    }
    case 'h2': {
      const h2 = opts(map, 'h2-opts');
      return h2Transport(texts(h2.host)?.join(','), text(h2.path));
    }
    case 'grpc':
      return { type: 'grpc', serviceName: text(opts(map, 'grpc-opts')['grpc-service-name']) ?? '' };
    case 'xhttp': {
      const xhttp = opts(map, 'xhttp-opts');
      return compact({
        type: 'xhttp' as const,
        path: text(xhttp.path) ?? '/',
        host: text(xhttp.host),
        mode: text(xhttp.mode),
      });
    }
    default:
      return null;
  }
}

function packetEncoding(map: Dict): proxy.VlessNode['packetEncoding'] {
  const value = text(map['packet-encoding'])?.toLowerCase();
  if (value === 'packetaddr' || flag(map['packet-addr'])) return 'packetaddr';
  if (value === 'xudp' || flag(map.xudp)) return 'xudp';
  return value === undefined ? undefined : 'none';
}

/** mihomo's `obfs` and `v2ray-plugin` plugins as the SIP003 plugins share links carry. */
function ssPlugin(map: Dict): proxy.ShadowsocksNode['plugin'] | null {
  const plugin = text(map.plugin);
  if (plugin === undefined) return undefined;
  const options = opts(map, 'plugin-opts');
  if (plugin === 'obfs') {
    const obfs = compact({ obfs: text(options.mode), 'obfs-host': text(options.host) });
    return { name: 'obfs-local', options: obfs as Record<string, string> };
  }
  if (plugin !== 'v2ray-plugin') return null;
  const v2ray = compact({
    mode: text(options.mode),
    host: text(options.host),
    path: text(options.path),
    tls: flag(options.tls) ? (true as const) : undefined,
  });
  return { name: 'v2ray-plugin', options: v2ray as Record<string, string | true> };
}

/** The interface addresses of a wireguard proxy: `ip`/`ipv6` with or without a prefix. */
function wireguardAddresses(map: Dict): string[] {
  return [text(map.ip), text(map.ipv6)].filter((address): address is string => address !== undefined);
}

function reservedOf(value: unknown): number[] | undefined {
  if (Array.isArray(value)) return value.map(integer).filter((byte): byte is number => byte !== undefined);
  const encoded = text(value);
  return encoded === undefined ? undefined : [...Buffer.from(encoded, 'base64')];
}

export function mihomoProxyNode(raw: unknown): ProxyNode | null {
  const entry = dict(raw);
  if (entry === undefined) return null;
  const map = dashed(entry);
  const server = text(map.server);
  const serverPort = port(map.port);
  if (server === undefined || serverPort === undefined) return null;
  const base = { name: text(map.name)?.trim() ?? '', server, port: serverPort, uri: '' };
  switch (text(map.type)?.toLowerCase()) {
    case 'vless': {
      const transport = transportOf(map);
      const tls = flag(map.tls) || dict(map['reality-opts']) ? tlsOf(map, 'servername') : undefined;
      if (transport === null) return null;
      return compact<proxy.VlessNode>({
        ...base,
        protocol: 'vless',
        uuid: text(map.uuid) ?? '',
        flow: text(map.flow),
        encryption: text(map.encryption) ?? 'none',
        packetEncoding: packetEncoding(map),
        transport,
        tls,
      });
    }
    case 'vmess': {
      const transport = transportOf(map);
      if (transport === null) return null;
      return compact<proxy.VmessNode>({
        ...base,
        protocol: 'vmess',
        uuid: text(map.uuid) ?? '',
        alterId: integer(map.alterId) ?? 0,
        cipher: text(map.cipher) ?? 'auto',
        transport,
        tls: flag(map.tls) || dict(map['reality-opts']) ? tlsOf(map, 'servername') : undefined,
      });
    }
    case 'trojan': {
      const transport = transportOf(map);
      if (transport === null) return null;
      return { ...base, protocol: 'trojan', password: text(map.password) ?? '', transport, tls: tlsOf(map, 'sni') };
    }
    case 'ss': {
      const plugin = ssPlugin(map);
      if (plugin === null) return null;
      return compact<proxy.ShadowsocksNode>({
        ...base,
        protocol: 'shadowsocks',
        method: text(map.cipher) ?? '',
        password: text(map.password) ?? '',
        plugin,
        udpOverTcp: flag(map['udp-over-tcp']) || undefined,
      });
    }
    case 'ssr':
      return compact<proxy.ShadowsocksrNode>({
        ...base,
        protocol: 'shadowsocksr',
        method: text(map.cipher) ?? '',
        password: text(map.password) ?? '',
        protocolName: text(map.protocol) ?? 'origin',
        protocolParam: text(map['protocol-param']),
        obfs: text(map.obfs) ?? 'plain',
        obfsParam: text(map['obfs-param']),
      });
    case 'hysteria':
      return compact<proxy.HysteriaNode>({
        ...base,
        protocol: 'hysteria',
        auth: text(map['auth-str']),
        transportProtocol: text(map.protocol),
        upMbps: parseMbps(text(map.up)),
        downMbps: parseMbps(text(map.down)),
        obfs: text(map.obfs),
        ports: text(map.ports),
        tls: tlsOf(map, 'sni'),
      });
    case 'hysteria2': {
      const obfsPassword = text(map['obfs-password']);
      return compact<proxy.Hysteria2Node>({
        ...base,
        protocol: 'hysteria2',
        password: text(map.password) ?? '',
        ports: text(map.ports),
        obfs:
          text(map.obfs) === 'salamander' && obfsPassword
            ? { type: 'salamander' as const, password: obfsPassword }
            : undefined,
        upMbps: parseMbps(text(map.up)),
        downMbps: parseMbps(text(map.down)),
        tls: tlsOf(map, 'sni'),
      });
    }
    case 'tuic':
      return compact<proxy.TuicNode>({
        ...base,
        protocol: 'tuic',
        uuid: text(map.uuid),
        password: text(map.password),
        token: text(map.token),
        congestionControl: text(map['congestion-controller']),
        udpRelayMode: text(map['udp-relay-mode']),
        tls: tlsOf(map, 'sni'),
      });
    case 'wireguard': {
      const peer = dashed(dict(Array.isArray(map.peers) ? map.peers[0] : undefined) ?? {});
      return compact<proxy.WireguardNode>({
        ...base,
        server: text(peer.server) ?? server,
        port: port(peer.port) ?? serverPort,
        protocol: 'wireguard',
        privateKey: text(map['private-key']) ?? '',
        publicKey: text(peer['public-key'] ?? map['public-key']) ?? '',
        preSharedKey: text(peer['pre-shared-key'] ?? map['pre-shared-key']),
        addresses: wireguardAddresses(map),
        reserved: reservedOf(peer.reserved ?? map.reserved),
        mtu: integer(map.mtu),
      });
    }
    case 'socks5':
      if (flag(map.tls)) return null;
      return compact<proxy.SocksNode>({
        ...base,
        protocol: 'socks',
        username: text(map.username),
        password: text(map.password),
      });
    case 'anytls':
      return { ...base, protocol: 'anytls', password: text(map.password) ?? '', tls: tlsOf(map, 'sni') };
    default:
      return null;
  }
}
