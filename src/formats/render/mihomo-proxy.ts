// One server as a mihomo `proxies` entry, in the canonical keys of mihomo's docs/config.yaml (dashed, integer ports).
import type { ProxyNode, ShadowsocksNode, Tls, Transport } from '../proxy.js';
import {
  browserFingerprint,
  canonicalUuid,
  certSha256Hex,
  colonHex,
  type Converted,
  portRanges,
  realityProblem,
  realityPublicKey,
  skip,
  SKIP,
  tlsServerName,
  visionFlow,
  vmessCipher,
} from './common.js';
import { addTransport } from './mihomo-transport.js';
import type { RenderOptions } from './renderer.js';

type Proxy = Record<string, unknown>;

const MIHOMO_FINGERPRINTS = new Set(['randomized', 'chrome_psk', 'chrome_psk_shuffle', 'chrome_padding_psk_shuffle']);
/** Shadowsocks ciphers mihomo implements (its docs and meta-json-schema). */
const SS_CIPHERS = new Set([
  'none',
  'dummy',
  'aes-128-gcm',
  'aes-192-gcm',
  'aes-256-gcm',
  'aes-128-cfb',
  'aes-192-cfb',
  'aes-256-cfb',
  'aes-128-ctr',
  'aes-192-ctr',
  'aes-256-ctr',
  'rc4-md5',
  'chacha20',
  'chacha20-ietf',
  'xchacha20',
  'chacha20-ietf-poly1305',
  'xchacha20-ietf-poly1305',
  '2022-blake3-aes-128-gcm',
  '2022-blake3-aes-256-gcm',
  '2022-blake3-chacha20-poly1305',
]);

/** Adds the TLS keys (trojan, hysteria, tuic, anytls call the server name `sni`; vless, vmess `servername`). */
function addTls(
  out: Proxy,
  tls: Tls,
  sniKey: 'sni' | 'servername',
  browser: boolean,
  transport?: Transport,
): string | null {
  const serverName = tlsServerName(tls, transport);
  if (serverName) out[sniKey] = serverName;
  if (tls.alpn?.length) out.alpn = tls.alpn;
  if (tls.insecure) out['skip-cert-verify'] = true;
  if (tls.pinnedCertSha256 !== undefined) {
    const hex = certSha256Hex(tls.pinnedCertSha256);
    if (hex === null) return 'certificate pin is not a SHA-256';
    out.fingerprint = colonHex(hex);
  }
  if (browser) {
    const fp = browserFingerprint(tls, MIHOMO_FINGERPRINTS);
    if (fp) out['client-fingerprint'] = fp;
  }
  if (tls.ech) out['ech-opts'] = { enable: true, config: tls.ech };
  if (tls.reality) {
    const reality: Proxy = { 'public-key': realityPublicKey(tls.reality.publicKey) };
    if (tls.reality.shortId) reality['short-id'] = tls.reality.shortId;
    out['reality-opts'] = reality;
  }
  return null;
}

/** The converted proxy, or the first problem found while filling it in. */
const result = (proxy: Proxy, ...problems: (string | null)[]): Converted<Proxy> => {
  const problem = problems.find((p) => p !== null);
  return problem ? skip(problem) : { ok: true, value: proxy };
};

function addPlugin(out: Proxy, node: ShadowsocksNode): string | null {
  const plugin = node.plugin;
  if (!plugin) return null;
  const opts = plugin.options;
  if (['obfs-local', 'simple-obfs', 'obfs'].includes(plugin.name)) {
    const mode = opts.obfs;
    if (mode !== 'http' && mode !== 'tls') return 'obfs plugin mode must be http or tls';
    const pluginOpts: Proxy = { mode };
    if (typeof opts['obfs-host'] === 'string') pluginOpts.host = opts['obfs-host'];
    out.plugin = 'obfs';
    out['plugin-opts'] = pluginOpts;
    return null;
  }
  if (plugin.name === 'v2ray-plugin') {
    // Newer plugins and mihomo also take `obfs` for `mode`.
    const mode = opts.mode ?? opts.obfs;
    if (mode !== undefined && mode !== 'websocket') return 'v2ray-plugin mode must be websocket';
    const pluginOpts: Proxy = { mode: 'websocket' };
    if (typeof opts.host === 'string') pluginOpts.host = opts.host;
    if (typeof opts.path === 'string') pluginOpts.path = opts.path;
    if (opts.tls !== undefined) pluginOpts.tls = true;
    if (opts['skip-cert-verify'] === true || opts['skip-cert-verify'] === '1' || opts['skip-cert-verify'] === 'true')
      pluginOpts['skip-cert-verify'] = true;
    if (typeof opts.mux === 'string') pluginOpts.mux = opts.mux !== '0';
    out.plugin = 'v2ray-plugin';
    out['plugin-opts'] = pluginOpts;
    return null;
  }
  return `Shadowsocks plugin ${plugin.name} is not supported by mihomo`;
}

const MIHOMO_TYPES: Readonly<Record<ProxyNode['protocol'], string>> = {
  vless: 'vless',
  vmess: 'vmess',
  trojan: 'trojan',
  shadowsocks: 'ss',
  shadowsocksr: 'ssr',
  hysteria: 'hysteria',
  hysteria2: 'hysteria2',
  tuic: 'tuic',
  wireguard: 'wireguard',
  socks: 'socks5',
  anytls: 'anytls',
};

/** The protocols the original (non-Meta) Clash core loads; it knows no REALITY either. */
const CLASSIC_PROTOCOLS = new Set<ProxyNode['protocol']>(['shadowsocks', 'shadowsocksr', 'vmess', 'trojan', 'socks']);

const classicProblem = (node: ProxyNode): boolean =>
  !CLASSIC_PROTOCOLS.has(node.protocol) || ('tls' in node && node.tls?.reality !== undefined);

/** Speeds in Mbps: mihomo reads a bare number as Mbps, as its converter writes it. */
const speed = (mbps: number | undefined): string | undefined => (mbps ? String(mbps) : undefined);

/** The mihomo proxy map of a node (its `name` is filled in later), or why mihomo cannot load it. */
export function mihomoProxy(node: ProxyNode, options: RenderOptions = {}): Converted<Proxy> {
  if (options.variant === 'clash-classic' && classicProblem(node)) return skip(SKIP.unsupportedByClient);
  if ('tls' in node) {
    const problem = realityProblem(node.tls);
    if (problem) return skip(problem);
  }
  const proxy: Proxy = { name: '', type: MIHOMO_TYPES[node.protocol], server: node.server, port: node.port };
  switch (node.protocol) {
    case 'vless': {
      const uuid = canonicalUuid(node.uuid);
      if (uuid === null) return skip('VLESS id is not a UUID');
      const flow = visionFlow(node.flow);
      if (flow === null) return skip(`VLESS flow ${node.flow} is not supported`);
      proxy.uuid = uuid;
      proxy.udp = true;
      if (flow) proxy.flow = flow;
      if (node.encryption && node.encryption !== 'none') proxy.encryption = node.encryption;
      if (node.packetEncoding === 'packetaddr') proxy['packet-addr'] = true;
      else if (node.packetEncoding !== 'none') proxy.xudp = true;
      if (node.tls) proxy.tls = true;
      return result(
        proxy,
        node.tls ? addTls(proxy, node.tls, 'servername', true, node.transport) : null,
        addTransport(proxy, node.transport, 'vless'),
      );
    }
    case 'vmess': {
      const uuid = canonicalUuid(node.uuid);
      if (uuid === null) return skip('VMess id is not a UUID');
      proxy.uuid = uuid;
      proxy.alterId = node.alterId;
      proxy.cipher = vmessCipher(node.cipher);
      proxy.udp = true;
      proxy.xudp = true;
      if (node.tls) proxy.tls = true;
      return result(
        proxy,
        node.tls ? addTls(proxy, node.tls, 'servername', true, node.transport) : null,
        addTransport(proxy, node.transport, 'vmess'),
      );
    }
    case 'trojan':
      proxy.password = node.password;
      proxy.udp = true;
      return result(
        proxy,
        addTls(proxy, node.tls, 'sni', true, node.transport),
        addTransport(proxy, node.transport, 'trojan'),
      );
    case 'shadowsocks': {
      if (node.transport) return skip(SKIP.unsupportedTransport);
      const cipher = node.method.toLowerCase();
      if (!SS_CIPHERS.has(cipher)) return skip(`Shadowsocks cipher ${node.method} is not supported by mihomo`);
      proxy.cipher = cipher;
      proxy.password = node.password;
      proxy.udp = true;
      if (node.udpOverTcp) proxy['udp-over-tcp'] = true;
      return result(proxy, addPlugin(proxy, node));
    }
    case 'shadowsocksr':
      proxy.cipher = node.method;
      proxy.password = node.password;
      proxy.obfs = node.obfs;
      proxy.protocol = node.protocolName;
      if (node.obfsParam) proxy['obfs-param'] = node.obfsParam;
      if (node.protocolParam) proxy['protocol-param'] = node.protocolParam;
      proxy.udp = true;
      return result(proxy);
    case 'hysteria':
      if (!node.upMbps || !node.downMbps) return skip('Hysteria link has no up/down speed');
      if (node.ports && !portRanges(node.ports)) return skip('port hopping list is not valid');
      if (node.ports) proxy.ports = node.ports;
      if (node.auth) proxy['auth-str'] = node.auth;
      if (node.transportProtocol) proxy.protocol = node.transportProtocol;
      proxy.up = speed(node.upMbps);
      proxy.down = speed(node.downMbps);
      if (node.obfs) proxy.obfs = node.obfs;
      return result(proxy, addTls(proxy, node.tls, 'sni', false));
    case 'hysteria2':
      if (node.ports && !portRanges(node.ports)) return skip('port hopping list is not valid');
      if (node.ports) proxy.ports = node.ports;
      proxy.password = node.password;
      if (node.obfs) {
        proxy.obfs = node.obfs.type;
        proxy['obfs-password'] = node.obfs.password;
      }
      if (node.upMbps) proxy.up = speed(node.upMbps);
      if (node.downMbps) proxy.down = speed(node.downMbps);
      return result(proxy, addTls(proxy, node.tls, 'sni', false));
    case 'tuic':
      if (node.uuid !== undefined && node.password !== undefined) {
        proxy.uuid = node.uuid;
        proxy.password = node.password;
      } else if (node.token !== undefined) proxy.token = node.token;
      else return skip('TUIC link has neither uuid:password nor a token');
      if (node.congestionControl && ['cubic', 'new_reno', 'bbr'].includes(node.congestionControl))
        proxy['congestion-controller'] = node.congestionControl;
      if (node.udpRelayMode === 'native' || node.udpRelayMode === 'quic') proxy['udp-relay-mode'] = node.udpRelayMode;
      if (node.tls.disableSni) proxy['disable-sni'] = true;
      proxy.udp = true;
      return result(proxy, addTls(proxy, node.tls, 'sni', false));
    case 'wireguard': {
      const ipv4 = node.addresses.find((a) => !a.includes(':'));
      const ipv6 = node.addresses.find((a) => a.includes(':'));
      if (!ipv4 && !ipv6) return skip('WireGuard link has no interface address');
      if (ipv4) proxy.ip = ipv4.split('/')[0];
      if (ipv6) proxy.ipv6 = ipv6.split('/')[0];
      proxy['private-key'] = node.privateKey;
      proxy['public-key'] = node.publicKey;
      if (node.preSharedKey) proxy['pre-shared-key'] = node.preSharedKey;
      if (node.reserved?.length) proxy.reserved = node.reserved;
      if (node.mtu) proxy.mtu = node.mtu;
      proxy.udp = true;
      return result(proxy);
    }
    case 'socks':
      if (node.username !== undefined) proxy.username = node.username;
      if (node.password !== undefined) proxy.password = node.password;
      proxy.udp = true;
      return result(proxy);
    case 'anytls':
      proxy.password = node.password;
      proxy.udp = true;
      return result(proxy, addTls(proxy, node.tls, 'sni', true));
  }
}
