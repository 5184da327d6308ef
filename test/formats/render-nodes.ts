// Proxy nodes for the renderer tests: one builder per protocol, and a catalogue covering every protocol and transport.
import type {
  AnytlsNode,
  Hysteria2Node,
  HysteriaNode,
  ShadowsocksNode,
  ShadowsocksrNode,
  SocksNode,
  TrojanNode,
  TuicNode,
  VlessNode,
  VmessNode,
  WireguardNode,
} from '../../src/formats/proxy.js';
import type { ProxyNode } from '../../src/formats/proxy.js';

export const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
/** A 32-byte X25519 public key in unpadded base64url, as REALITY links carry it. */
export const PBK = 'CrrQSjAG_YkHLwvM2M-7XkKJilgL5upBKCp0od0tLhE';
export const SID = '10f897e26c4b9478';
export const PIN = 'ab'.repeat(32);
export const WG_PRIVATE = 'eCtXsJZ27+4PbhDkHnB923tkUn2Gj59wZw5wFA75MnU=';
export const WG_PUBLIC = 'Cr8hWlKvtDt7nrvf+f0brNQQzabAqrjfBvas9pmowjo=';

let counter = 0;
const uri = (scheme: string): string => `${scheme}://node-${++counter}`;
/** The fields every node has: its name, its endpoint and a `uri` of its scheme unique to it. */
const endpoint = (scheme: string, name: string, server: string, port: number) => ({
  name,
  server,
  port,
  uri: uri(scheme),
});

export const vless = (over: Partial<VlessNode> = {}): VlessNode => ({
  protocol: 'vless',
  ...endpoint('vless', 'vless node', 'vless.example.com', 443),
  uuid: UUID,
  encryption: 'none',
  transport: { type: 'tcp' },
  ...over,
});

export const vmess = (over: Partial<VmessNode> = {}): VmessNode => ({
  protocol: 'vmess',
  ...endpoint('vmess', 'vmess node', 'vmess.example.com', 443),
  uuid: UUID,
  alterId: 0,
  cipher: 'auto',
  transport: { type: 'tcp' },
  ...over,
});

export const trojan = (over: Partial<TrojanNode> = {}): TrojanNode => ({
  protocol: 'trojan',
  ...endpoint('trojan', 'trojan node', 'trojan.example.com', 443),
  password: 'trojan-secret',
  transport: { type: 'tcp' },
  tls: { serverName: 'trojan.example.com' },
  ...over,
});

export const ss = (over: Partial<ShadowsocksNode> = {}): ShadowsocksNode => ({
  protocol: 'shadowsocks',
  ...endpoint('ss', 'ss node', '198.51.100.7', 8388),
  method: 'aes-256-gcm',
  password: 'ss-secret',
  ...over,
});

export const ssr = (over: Partial<ShadowsocksrNode> = {}): ShadowsocksrNode => ({
  protocol: 'shadowsocksr',
  ...endpoint('ssr', 'ssr node', 'ssr.example.com', 8989),
  method: 'chacha20-ietf',
  password: 'ssr-secret',
  protocolName: 'auth_aes128_sha1',
  protocolParam: '64#user',
  obfs: 'tls1.2_ticket_auth',
  obfsParam: 'cdn.example.com',
  ...over,
});

export const hysteria = (over: Partial<HysteriaNode> = {}): HysteriaNode => ({
  protocol: 'hysteria',
  ...endpoint('hysteria', 'hysteria node', 'hy.example.com', 8443),
  auth: 'hy-auth',
  transportProtocol: 'udp',
  upMbps: 50,
  downMbps: 200,
  tls: { serverName: 'hy.example.com', alpn: ['hysteria'] },
  ...over,
});

export const hysteria2 = (over: Partial<Hysteria2Node> = {}): Hysteria2Node => ({
  protocol: 'hysteria2',
  ...endpoint('hysteria2', 'hy2 node', 'hy2.example.com', 443),
  password: 'hy2-secret',
  tls: { serverName: 'hy2.example.com' },
  ...over,
});

export const tuic = (over: Partial<TuicNode> = {}): TuicNode => ({
  protocol: 'tuic',
  ...endpoint('tuic', 'tuic node', 'tuic.example.com', 10443),
  uuid: UUID,
  password: 'tuic-secret',
  congestionControl: 'bbr',
  udpRelayMode: 'native',
  tls: { serverName: 'tuic.example.com', alpn: ['h3'] },
  ...over,
});

export const wireguard = (over: Partial<WireguardNode> = {}): WireguardNode => ({
  protocol: 'wireguard',
  ...endpoint('wireguard', 'wg node', '162.159.192.1', 2408),
  privateKey: WG_PRIVATE,
  publicKey: WG_PUBLIC,
  addresses: ['172.16.0.2/32', 'fd01:5ca1:ab1e:80fa::2/128'],
  ...over,
});

export const socks = (over: Partial<SocksNode> = {}): SocksNode => ({
  protocol: 'socks',
  ...endpoint('socks', 'socks node', 'socks.example.com', 1080),
  ...over,
});

export const anytls = (over: Partial<AnytlsNode> = {}): AnytlsNode => ({
  protocol: 'anytls',
  ...endpoint('anytls', 'anytls node', 'anytls.example.com', 443),
  password: 'anytls-secret',
  tls: { serverName: 'anytls.example.com' },
  ...over,
});

const reality = {
  serverName: 'www.microsoft.com',
  clientFingerprint: 'chrome',
  reality: { publicKey: PBK, shortId: SID },
};

/** Every protocol, each V2Ray transport and the TLS variants: what the schema tests render in every format. */
export const CATALOGUE: ProxyNode[] = [
  vless({ name: 'vless reality', flow: 'xtls-rprx-vision', tls: reality }),
  vless({ name: 'vless reality grpc', transport: { type: 'grpc', serviceName: 'grpc' }, tls: reality }),
  vless({
    name: 'vless ws',
    transport: { type: 'ws', path: '/ws', host: 'cdn.example.com', maxEarlyData: 2048 },
    tls: { serverName: 'cdn.example.com', alpn: ['http/1.1'], clientFingerprint: 'firefox' },
  }),
  vless({ name: 'vless httpupgrade', transport: { type: 'httpupgrade', path: '/up', host: 'up.example.com' } }),
  vless({ name: 'vless h2', transport: { type: 'h2', path: '/h2', host: ['h2.example.com'] }, tls: {} }),
  vless({ name: 'vless http', transport: { type: 'http', host: ['www.example.com'], path: ['/'], method: 'GET' } }),
  vless({
    name: 'vless xhttp',
    transport: { type: 'xhttp', path: '/x', host: 'x.example.com', mode: 'packet-up' },
    tls: { serverName: 'x.example.com' },
  }),
  vless({
    name: 'vless packetaddr',
    packetEncoding: 'packetaddr',
    tls: { serverName: 'p.example.com', insecure: true },
  }),
  vmess({
    name: 'vmess ws tls',
    transport: { type: 'ws', path: '/vmess', host: 'vm.example.com' },
    tls: { serverName: 'vm.example.com' },
  }),
  vmess({ name: 'vmess grpc', transport: { type: 'grpc', serviceName: 'svc' }, tls: { serverName: 'g.example.com' } }),
  vmess({ name: 'vmess tcp', cipher: 'aes-128-gcm' }),
  vmess({ name: 'vmess http', transport: { type: 'http', host: ['a.example.com'], path: ['/p'] } }),
  trojan({ name: 'trojan tcp', tls: { serverName: 'trojan.example.com', alpn: ['h2', 'http/1.1'] } }),
  trojan({ name: 'trojan ws', transport: { type: 'ws', path: '/t', host: 't.example.com' } }),
  trojan({ name: 'trojan grpc', transport: { type: 'grpc', serviceName: 'tg' } }),
  trojan({ name: 'trojan pinned', tls: { serverName: 'pin.example.com', pinnedCertSha256: PIN } }),
  ss({ name: 'ss aead' }),
  ss({ name: 'ss 2022', method: '2022-blake3-aes-128-gcm', password: 'AAAAAAAAAAAAAAAAAAAAAA==' }),
  ss({ name: 'ss obfs', plugin: { name: 'obfs-local', options: { obfs: 'http', 'obfs-host': 'bing.com' } } }),
  ss({
    name: 'ss v2ray-plugin',
    plugin: { name: 'v2ray-plugin', options: { mode: 'websocket', host: 'v.example.com', path: '/v', tls: true } },
  }),
  ss({ name: 'ss uot', udpOverTcp: true }),
  ssr(),
  hysteria({ name: 'hysteria ports', ports: '8443,9000-9100', obfs: 'hy-obfs' }),
  hysteria2({
    name: 'hy2 full',
    ports: '443,20000-30000',
    obfs: { type: 'salamander', password: 'obfs-pass' },
    upMbps: 100,
    downMbps: 500,
    tls: { serverName: 'hy2.example.com', insecure: true, alpn: ['h3'] },
  }),
  hysteria2({ name: 'hy2 pinned', tls: { serverName: 'hy2.example.com', pinnedCertSha256: PIN } }),
  tuic(),
  tuic({ name: 'tuic v4', uuid: undefined, password: undefined, token: 'tuic-token' }),
  wireguard({ reserved: [209, 98, 59], mtu: 1280, preSharedKey: WG_PUBLIC }),
  wireguard({ name: 'wg v6 endpoint', server: '2606:4700:d0::a29f:c001', addresses: ['10.0.0.2'] }),
  socks(),
  socks({ name: 'socks auth', username: 'user', password: 'pass' }),
  anytls({ tls: { serverName: 'anytls.example.com', insecure: true, clientFingerprint: 'chrome' } }),
];
