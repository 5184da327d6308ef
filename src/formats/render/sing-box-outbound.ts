// One server as a sing-box 1.12+ (or 1.11) outbound (or, for WireGuard, an endpoint), in the keys of sing-box's option structs.
import type { ProxyNode, Tls, Transport } from '../proxy.js';
import {
  browserFingerprint,
  canonicalUuid,
  certSha256Hex,
  type Converted,
  portRanges,
  realityProblem,
  realityPublicKey,
  sip003Options,
  skip,
  SKIP,
  tlsServerName,
  withPrefix,
  visionFlow,
  vmessCipher,
  webSocketEarlyData,
} from './common.js';
import type { RenderOptions } from './renderer.js';

type Json = Record<string, unknown>;
/** Where a server goes in the sing-box document. */
export interface SingBoxItem {
  kind: 'outbound' | 'endpoint';
  value: Json;
}

const SING_BOX_FINGERPRINTS = new Set(['randomized']);
const SS_METHODS = new Set([
  '2022-blake3-aes-128-gcm',
  '2022-blake3-aes-256-gcm',
  '2022-blake3-chacha20-poly1305',
  'none',
  'aes-128-gcm',
  'aes-192-gcm',
  'aes-256-gcm',
  'chacha20-ietf-poly1305',
  'xchacha20-ietf-poly1305',
  'aes-128-ctr',
  'aes-192-ctr',
  'aes-256-ctr',
  'aes-128-cfb',
  'aes-192-cfb',
  'aes-256-cfb',
  'rc4-md5',
  'chacha20-ietf',
  'xchacha20',
]);

/** The `tls` object; `stream` is false for the QUIC protocols, which have no uTLS or REALITY. */
function tlsObject(tls: Tls, stream: boolean, transport?: Transport): Converted<Json> {
  // sing-box cannot pin a certificate: with verification on, dropping the pin still verifies; with it off, it would not.
  if (tls.pinnedCertSha256 !== undefined && (tls.insecure || certSha256Hex(tls.pinnedCertSha256) === null))
    return skip('certificate pinning is not supported by sing-box');
  const out: Json = { enabled: true };
  if (tls.disableSni) out.disable_sni = true;
  const serverName = tlsServerName(tls, transport);
  if (serverName) out.server_name = serverName;
  if (tls.insecure) out.insecure = true;
  if (tls.alpn?.length) out.alpn = tls.alpn;
  if (tls.ech)
    out.ech = { enabled: true, config: ['-----BEGIN ECH CONFIGS-----', tls.ech, '-----END ECH CONFIGS-----'] };
  if (stream) {
    // REALITY is refused without uTLS ("uTLS is required by reality client"), so it always gets a fingerprint.
    const fingerprint = browserFingerprint(tls, SING_BOX_FINGERPRINTS);
    if (fingerprint) out.utls = { enabled: true, fingerprint };
    if (tls.reality) {
      const reality: Json = { enabled: true, public_key: realityPublicKey(tls.reality.publicKey) };
      if (tls.reality.shortId) reality.short_id = tls.reality.shortId;
      out.reality = reality;
    }
  } else if (tls.reality) return skip('REALITY is not supported over QUIC');
  return { ok: true, value: out };
}

function transportObject(transport: Transport): Converted<Json | undefined> {
  switch (transport.type) {
    case 'tcp':
      return { ok: true, value: undefined };
    case 'http': {
      const out: Json = { type: 'http' };
      if (transport.host.length) out.host = transport.host;
      if (transport.path[0]) out.path = transport.path[0];
      if (transport.method) out.method = transport.method;
      return { ok: true, value: out };
    }
    case 'ws': {
      const ws = webSocketEarlyData(transport);
      const out: Json = { type: 'ws', path: ws.path };
      if (transport.host) out.headers = { Host: transport.host };
      if (ws.maxEarlyData) {
        out.max_early_data = ws.maxEarlyData;
        out.early_data_header_name = ws.headerName ?? 'Sec-WebSocket-Protocol';
      }
      return { ok: true, value: out };
    }
    case 'httpupgrade': {
      // sing-box has no httpupgrade early data; the link's `ed` was taken out of the path when it was parsed.
      const out: Json = { type: 'httpupgrade', path: transport.path || '/' };
      if (transport.host) out.host = transport.host;
      return { ok: true, value: out };
    }
    case 'grpc':
      return { ok: true, value: { type: 'grpc', service_name: transport.serviceName } };
    case 'h2': {
      // sing-box's `http` transport: HTTP/2 over TLS, plain HTTP without it (its docs, V2Ray transport).
      const out: Json = { type: 'http', path: transport.path || '/' };
      if (transport.host.length) out.host = transport.host;
      return { ok: true, value: out };
    }
    case 'xhttp':
    case 'kcp':
    case 'quic':
      return skip(`${transport.type} transport is not supported by sing-box`);
  }
}

function streamProxy(out: Json, tls: Tls | undefined, transport: Transport): Converted<SingBoxItem> {
  if (tls) {
    const tlsPart = tlsObject(tls, true, transport);
    if (!tlsPart.ok) return tlsPart;
    out.tls = tlsPart.value;
  }
  const transportPart = transportObject(transport);
  if (!transportPart.ok) return transportPart;
  if (transportPart.value) out.transport = transportPart.value;
  return { ok: true, value: { kind: 'outbound', value: out } };
}

function quicProxy(out: Json, tls: Tls): Converted<SingBoxItem> {
  const tlsPart = tlsObject(tls, false);
  if (!tlsPart.ok) return tlsPart;
  out.tls = tlsPart.value;
  return { ok: true, value: { kind: 'outbound', value: out } };
}

/** Adds `server_ports`: sing-box port ranges are `from:to`, and a single port is `port:port`. */
function addServerPorts(out: Json, list: string | undefined): string | null {
  if (list === undefined) return null;
  const ranges = portRanges(list);
  if (!ranges) return 'port hopping list is not valid';
  out.server_ports = ranges.map(([from, to]) => `${from}:${to}`);
  return null;
}

/** AnyTLS and Hysteria v1 port hopping arrived in sing-box 1.12 (docs/changelog.md). */
const needs112 = (node: ProxyNode): boolean =>
  node.protocol === 'anytls' || (node.protocol === 'hysteria' && node.ports !== undefined);

/** The sing-box outbound or endpoint of a node (its `tag` is filled in later), or why sing-box cannot load it. */
export function singBoxOutbound(node: ProxyNode, options: RenderOptions = {}): Converted<SingBoxItem> {
  if (options.variant === 'sing-box-1.11' && needs112(node)) return skip(SKIP.unsupportedByClient);
  if ('tls' in node) {
    const problem = realityProblem(node.tls);
    if (problem) return skip(problem);
  }
  const out: Json = { type: node.protocol, tag: '', server: node.server, server_port: node.port };
  switch (node.protocol) {
    case 'vless': {
      if (node.encryption && node.encryption !== 'none') return skip('VLESS encryption is not supported by sing-box');
      const uuid = canonicalUuid(node.uuid);
      if (uuid === null) return skip('VLESS id is not a UUID');
      const flow = visionFlow(node.flow);
      if (flow === null) return skip(`VLESS flow ${node.flow} is not supported`);
      out.uuid = uuid;
      if (flow) out.flow = flow;
      out.packet_encoding = node.packetEncoding === 'none' ? '' : (node.packetEncoding ?? 'xudp');
      return streamProxy(out, node.tls, node.transport);
    }
    case 'vmess': {
      const uuid = canonicalUuid(node.uuid);
      if (uuid === null) return skip('VMess id is not a UUID');
      out.uuid = uuid;
      out.security = vmessCipher(node.cipher);
      out.alter_id = node.alterId;
      return streamProxy(out, node.tls, node.transport);
    }
    case 'trojan':
      out.password = node.password;
      return streamProxy(out, node.tls, node.transport);
    case 'shadowsocks': {
      if (node.transport) return skip(SKIP.unsupportedTransport);
      const method = node.method.toLowerCase();
      if (!SS_METHODS.has(method)) return skip(`Shadowsocks cipher ${node.method} is not supported by sing-box`);
      out.method = method;
      out.password = node.password;
      if (node.plugin) {
        const name = node.plugin.name === 'simple-obfs' ? 'obfs-local' : node.plugin.name;
        if (name !== 'obfs-local' && name !== 'v2ray-plugin')
          return skip(`Shadowsocks plugin ${node.plugin.name} is not supported by sing-box`);
        out.plugin = name;
        out.plugin_opts = sip003Options(node.plugin.options);
      }
      if (node.udpOverTcp) out.udp_over_tcp = { enabled: true };
      return { ok: true, value: { kind: 'outbound', value: out } };
    }
    case 'shadowsocksr':
      return skip('ShadowsocksR was removed from sing-box');
    case 'hysteria': {
      if (!node.upMbps || !node.downMbps) return skip('Hysteria link has no up/down speed');
      if (node.transportProtocol && node.transportProtocol !== 'udp')
        return skip(`Hysteria protocol ${node.transportProtocol} is not supported by sing-box`);
      const problem = addServerPorts(out, node.ports);
      if (problem) return skip(problem);
      out.up_mbps = node.upMbps;
      out.down_mbps = node.downMbps;
      if (node.auth) out.auth_str = node.auth;
      if (node.obfs) out.obfs = node.obfs;
      return quicProxy(out, node.tls);
    }
    case 'hysteria2': {
      const problem = addServerPorts(out, node.ports);
      if (problem) return skip(problem);
      if (node.upMbps) out.up_mbps = node.upMbps;
      if (node.downMbps) out.down_mbps = node.downMbps;
      if (node.obfs) out.obfs = { type: node.obfs.type, password: node.obfs.password };
      out.password = node.password;
      return quicProxy(out, node.tls);
    }
    case 'tuic': {
      if (node.uuid === undefined || node.password === undefined) return skip('TUIC v4 is not supported by sing-box');
      const uuid = canonicalUuid(node.uuid);
      if (uuid === null) return skip('TUIC id is not a UUID');
      out.uuid = uuid;
      out.password = node.password;
      if (node.congestionControl) out.congestion_control = node.congestionControl;
      if (node.udpRelayMode) out.udp_relay_mode = node.udpRelayMode;
      return quicProxy(out, node.tls);
    }
    case 'wireguard': {
      if (node.addresses.length === 0) return skip('WireGuard link has no interface address');
      const peer: Json = { address: node.server, port: node.port, public_key: node.publicKey };
      if (node.preSharedKey) peer.pre_shared_key = node.preSharedKey;
      peer.allowed_ips = ['0.0.0.0/0', '::/0'];
      if (node.reserved?.length) peer.reserved = node.reserved;
      const endpoint: Json = { type: 'wireguard', tag: '', address: node.addresses.map(withPrefix) };
      endpoint.private_key = node.privateKey;
      if (node.mtu) endpoint.mtu = node.mtu;
      endpoint.peers = [peer];
      return { ok: true, value: { kind: 'endpoint', value: endpoint } };
    }
    case 'socks':
      out.version = '5';
      if (node.username !== undefined) out.username = node.username;
      if (node.password !== undefined) out.password = node.password;
      return { ok: true, value: { kind: 'outbound', value: out } };
    case 'anytls': {
      if (node.tls.reality) return skip('REALITY is not supported by sing-box AnyTLS');
      const tls = tlsObject(node.tls, true);
      if (!tls.ok) return tls;
      out.password = node.password;
      out.tls = tls.value;
      return { ok: true, value: { kind: 'outbound', value: out } };
    }
  }
}
