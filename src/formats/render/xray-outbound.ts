// One server as the Xray `proxy` outbound, in the infra/conf keys v2rayN and libXray write.
import type { ProxyNode, Tls, Transport } from '../proxy.js';
import {
  browserFingerprint,
  certSha256Hex,
  type Converted,
  realityProblem,
  realityPublicKey,
  skip,
  SKIP,
  tlsServerName,
  vmessCipher,
  webSocketEarlyData,
  withPrefix,
  xhttpExtra,
} from './common.js';
import type { RenderOptions } from './renderer.js';

type Json = Record<string, unknown>;

const XRAY_FINGERPRINTS = new Set(['randomized', 'randomizednoalpn']);
/** Shadowsocks methods current Xray builds; stream ciphers and `none` are refused. */
const SS_METHODS = new Set([
  'aes-128-gcm',
  'aes-256-gcm',
  'chacha20-poly1305',
  'chacha20-ietf-poly1305',
  'xchacha20-poly1305',
  'xchacha20-ietf-poly1305',
  '2022-blake3-aes-128-gcm',
  '2022-blake3-aes-256-gcm',
  '2022-blake3-chacha20-poly1305',
]);

/**
 * Adds `security` and its settings. Xray refuses `allowInsecure` since v26.6.22 (infra/conf TLSConfig.Build fails the
 * whole config), so a link asking for insecure TLS is checked against its `pcs` pin when it has one, written with
 * `allowInsecure` only when the admin allows it for older cores, and skipped otherwise.
 */
function addSecurity(out: Json, tls: Tls | undefined, transport: Transport, options: RenderOptions): string | null {
  if (!tls) {
    out.security = 'none';
    return null;
  }
  const fingerprint = browserFingerprint(tls, XRAY_FINGERPRINTS);
  const serverName = tlsServerName(tls, transport);
  if (tls.reality) {
    const reality: Json = {};
    if (serverName) reality.serverName = serverName;
    reality.fingerprint = fingerprint;
    reality.publicKey = realityPublicKey(tls.reality.publicKey);
    if (tls.reality.shortId) reality.shortId = tls.reality.shortId;
    if (tls.reality.spiderX) reality.spiderX = tls.reality.spiderX;
    out.security = 'reality';
    out.realitySettings = reality;
    return null;
  }
  const settings: Json = {};
  if (serverName) settings.serverName = serverName;
  if (tls.alpn?.length) settings.alpn = tls.alpn;
  if (fingerprint) settings.fingerprint = fingerprint;
  if (tls.pinnedCertSha256 !== undefined) {
    const hex = certSha256Hex(tls.pinnedCertSha256);
    if (hex === null) return 'certificate pin is not a SHA-256';
    settings.pinnedPeerCertSha256 = hex;
  } else if (tls.insecure) {
    if (!options.xrayAllowInsecure) return SKIP.insecureTls;
    settings.allowInsecure = true;
  }
  if (tls.verifyPeerCertByName) settings.verifyPeerCertByName = tls.verifyPeerCertByName;
  if (tls.ech) settings.echConfigList = tls.ech;
  out.security = 'tls';
  out.tlsSettings = settings;
  return null;
}

/** Adds `network` and its settings object under the key Xray reads for it. */
function addTransport(out: Json, transport: Transport): string | null {
  let settings: Json;
  switch (transport.type) {
    case 'tcp':
      out.network = 'tcp';
      return null;
    case 'http': {
      const request: Json = { path: transport.path.length ? transport.path : ['/'] };
      if (transport.method) request.method = transport.method;
      if (transport.host.length) request.headers = { Host: transport.host };
      out.network = 'tcp';
      out.tcpSettings = { header: { type: 'http', request } };
      return null;
    }
    case 'ws': {
      // Xray reads early data from `?ed=` in the path, and only with the Sec-WebSocket-Protocol header.
      const ws = webSocketEarlyData(transport);
      const sent = (ws.headerName ?? 'Sec-WebSocket-Protocol') === 'Sec-WebSocket-Protocol';
      settings = { path: withQuery(ws.path, 'ed', sent ? ws.maxEarlyData : undefined) };
      if (transport.host) settings.host = transport.host;
      out.network = 'ws';
      out.wsSettings = settings;
      return null;
    }
    case 'httpupgrade':
      // Xray reads httpupgrade early data from `?ed=` in the path, as for ws.
      settings = { path: withQuery(transport.path || '/', 'ed', transport.earlyData) };
      if (transport.host) settings.host = transport.host;
      out.network = 'httpupgrade';
      out.httpupgradeSettings = settings;
      return null;
    case 'grpc':
      settings = { serviceName: transport.serviceName };
      if (transport.authority) settings.authority = transport.authority;
      if (transport.multiMode) settings.multiMode = true;
      out.network = 'grpc';
      out.grpcSettings = settings;
      return null;
    case 'xhttp': {
      settings = { path: transport.path || '/' };
      if (transport.host) settings.host = transport.host;
      if (transport.mode) settings.mode = transport.mode;
      const extra = xhttpExtra(transport.extra);
      if (!extra.ok) return extra.reason;
      if (transport.extra) settings.extra = extra.value;
      out.network = 'xhttp';
      out.xhttpSettings = settings;
      return null;
    }
    case 'kcp':
      // mKCP header and seed moved to finalmask in v26.1.31, which refuses the old keys: no form suits every client.
      if (transport.seed || (transport.headerType && transport.headerType !== 'none'))
        return 'mKCP header or seed is not supported by Xray';
      out.network = 'kcp';
      out.kcpSettings = {};
      return null;
    case 'h2':
    case 'quic':
      // Both were removed in Xray 25.1.1 ("use XHTTP"); a config naming them no longer loads.
      return SKIP.unsupportedTransport;
  }
}

const withQuery = (path: string, key: string, value: number | undefined): string =>
  value ? `${path}${path.includes('?') ? '&' : '?'}${key}=${value}` : path;

function streamSettings(tls: Tls | undefined, transport: Transport, options: RenderOptions): Converted<Json> {
  const out: Json = {};
  const problem = addTransport(out, transport) ?? addSecurity(out, tls, transport, options);
  return problem ? skip(problem) : { ok: true, value: out };
}

const endpointOf = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** The Xray `proxy` outbound of a node, or why Xray (as the clients that import this format run it) cannot load it. */
export function xrayOutbound(node: ProxyNode, options: RenderOptions = {}): Converted<Json> {
  const outbound = (protocol: string, settings: Json, stream?: Converted<Json>): Converted<Json> => {
    if (stream && !stream.ok) return stream;
    const out: Json = { tag: 'proxy', protocol, settings };
    if (stream) out.streamSettings = stream.value;
    return { ok: true, value: out };
  };
  if ('tls' in node) {
    const problem = realityProblem(node.tls);
    if (problem) return skip(problem);
  }
  switch (node.protocol) {
    case 'vless': {
      const user: Json = { id: node.uuid, encryption: node.encryption || 'none' };
      if (node.flow) user.flow = node.flow;
      return outbound(
        'vless',
        { vnext: [{ address: node.server, port: node.port, users: [user] }] },
        streamSettings(node.tls, node.transport, options),
      );
    }
    case 'vmess': {
      if (node.alterId > 0) return skip('VMess alterId above 0 is not supported by Xray');
      // Written as the link says, as v2rayN does; current Xray reads all but aes-128-gcm and chacha20-poly1305 as auto.
      const users = [{ id: node.uuid, security: vmessCipher(node.cipher) }];
      return outbound(
        'vmess',
        { vnext: [{ address: node.server, port: node.port, users }] },
        streamSettings(node.tls, node.transport, options),
      );
    }
    case 'trojan':
      return outbound(
        'trojan',
        { servers: [{ address: node.server, port: node.port, password: node.password }] },
        streamSettings(node.tls, node.transport, options),
      );
    case 'shadowsocks': {
      if (node.plugin) return skip('Shadowsocks plugins are not supported by Xray');
      const method = node.method.toLowerCase();
      if (!SS_METHODS.has(method)) return skip(`Shadowsocks cipher ${node.method} is not supported by Xray`);
      const server = { address: node.server, port: node.port, method, password: node.password };
      const stream: Converted<Json> = node.transport
        ? streamSettings(node.tls, node.transport, options)
        : { ok: true, value: { network: 'tcp' } };
      return outbound('shadowsocks', { servers: [server] }, stream);
    }
    case 'socks': {
      const server: Json = { address: node.server, port: node.port };
      if (node.username !== undefined || node.password !== undefined)
        server.users = [{ user: node.username ?? '', pass: node.password ?? '' }];
      return outbound('socks', { servers: [server] });
    }
    case 'wireguard': {
      if (node.addresses.length === 0) return skip('WireGuard link has no interface address');
      const peer: Json = { publicKey: node.publicKey };
      if (node.preSharedKey) peer.preSharedKey = node.preSharedKey;
      peer.endpoint = endpointOf(node.server, node.port);
      const settings: Json = { secretKey: node.privateKey, address: node.addresses.map(withPrefix), peers: [peer] };
      if (node.mtu) settings.mtu = node.mtu;
      if (node.reserved?.length) settings.reserved = node.reserved;
      return outbound('wireguard', settings);
    }
    case 'hysteria2':
      // Xray's own hysteria outbound arrived in v26.1.13; most clients that import this format run older cores.
      return skip('Hysteria2 needs Xray v26.1.13 or newer');
    case 'shadowsocksr':
      return skip('ShadowsocksR is not supported by Xray');
    case 'hysteria':
      return skip('Hysteria v1 is not supported by Xray');
    case 'tuic':
      return skip('TUIC is not supported by Xray');
    case 'anytls':
      return skip('AnyTLS is not supported by Xray');
  }
}
