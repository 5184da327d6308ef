// The typed intermediate form of one proxy server: share URIs are parsed into it once, and every format renders from it.

export const PROTOCOLS = [
  'vless',
  'vmess',
  'trojan',
  'shadowsocks',
  'shadowsocksr',
  'hysteria',
  'hysteria2',
  'tuic',
  'wireguard',
  'socks',
  'anytls',
] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** TLS (or REALITY) on top of a transport; absent fields mean "client default". */
export interface Tls {
  serverName?: string;
  /** Skip certificate verification (URI `allowInsecure=1` / `insecure=1`). */
  insecure?: boolean;
  alpn?: string[];
  /** uTLS browser fingerprint (`fp`): chrome, firefox, safari, ios, android, edge, 360, qq, random. */
  clientFingerprint?: string;
  /** Certificate pinning: hex SHA-256 of the server certificate (`pcs`, `pinSHA256`, `hpkp`). */
  pinnedCertSha256?: string;
  /** Names the certificate is verified against instead of the server name (`vcn`, Xray's verifyPeerCertByName). */
  verifyPeerCertByName?: string;
  /** ECH config list (base64) from `ech`. */
  ech?: string;
  disableSni?: boolean;
  reality?: { publicKey: string; shortId?: string; spiderX?: string };
}

/** How the proxy stream is carried; `tcp` is plain TCP (Xray `raw`). */
export type Transport =
  | { type: 'tcp' }
  /** TCP with HTTP/1.1 header obfuscation (`type=tcp&headerType=http`). */
  | { type: 'http'; host: string[]; path: string[]; method?: string }
  | { type: 'ws'; path: string; host?: string; maxEarlyData?: number; earlyDataHeaderName?: string }
  /** `earlyData` is the `ed=` of the link (in the path or the query): the request is sent with the first data. */
  | { type: 'httpupgrade'; path: string; host?: string; earlyData?: number }
  | { type: 'grpc'; serviceName: string; authority?: string; multiMode?: boolean }
  /** HTTP/2 transport (`type=http`/`h2` in VLESS/VMess links). */
  | { type: 'h2'; path: string; host: string[] }
  | { type: 'xhttp'; path: string; host?: string; mode?: string; extra?: string }
  | { type: 'kcp'; seed?: string; headerType?: string }
  | { type: 'quic' };

interface NodeBase {
  /** The served remark (URI fragment or vmess `ps`); made unique per document before rendering. */
  name: string;
  server: string;
  port: number;
  /** The share URI this node was parsed from, as served in the base64 list. */
  uri: string;
}

export interface VlessNode extends NodeBase {
  protocol: 'vless';
  uuid: string;
  flow?: string;
  /** VLESS encryption; `none` unless the link says otherwise. */
  encryption: string;
  packetEncoding?: 'packetaddr' | 'xudp' | 'none';
  transport: Transport;
  /** Absent when the link has no TLS/REALITY security. */
  tls?: Tls;
}

export interface VmessNode extends NodeBase {
  protocol: 'vmess';
  uuid: string;
  alterId: number;
  /** VMess security: auto, none, zero, aes-128-gcm, chacha20-poly1305, ... */
  cipher: string;
  transport: Transport;
  tls?: Tls;
}

export interface TrojanNode extends NodeBase {
  protocol: 'trojan';
  password: string;
  transport: Transport;
  /** Trojan always runs over TLS (or REALITY). */
  tls: Tls;
}

export interface ShadowsocksNode extends NodeBase {
  protocol: 'shadowsocks';
  method: string;
  password: string;
  /** SIP003 plugin, e.g. `obfs-local` with `{obfs: 'http', 'obfs-host': 'h'}` or `v2ray-plugin`; `true` is a bare flag. */
  plugin?: { name: string; options: Record<string, string | true> };
  udpOverTcp?: boolean;
  /** A V2Ray transport and TLS, as Xray writes Shadowsocks links (`type=ws&security=tls`); absent for plain TCP. */
  transport?: Transport;
  tls?: Tls;
}

export interface ShadowsocksrNode extends NodeBase {
  protocol: 'shadowsocksr';
  method: string;
  password: string;
  protocolName: string;
  protocolParam?: string;
  obfs: string;
  obfsParam?: string;
}

export interface HysteriaNode extends NodeBase {
  protocol: 'hysteria';
  auth?: string;
  /** udp, wechat-video or faketcp. */
  transportProtocol?: string;
  /** Bandwidth in Mbps. */
  upMbps?: number;
  downMbps?: number;
  obfs?: string;
  /** Port hopping list such as `443,5000-6000`. */
  ports?: string;
  tls: Tls;
}

export interface Hysteria2Node extends NodeBase {
  protocol: 'hysteria2';
  password: string;
  /** Port hopping list such as `443,5000-6000` (from a multi-port host or `mport`). */
  ports?: string;
  obfs?: { type: 'salamander'; password: string };
  upMbps?: number;
  downMbps?: number;
  tls: Tls;
}

export interface TuicNode extends NodeBase {
  protocol: 'tuic';
  /** TUIC v5: uuid and password; v4: token only. */
  uuid?: string;
  password?: string;
  token?: string;
  congestionControl?: string;
  udpRelayMode?: string;
  tls: Tls;
}

export interface WireguardNode extends NodeBase {
  protocol: 'wireguard';
  privateKey: string;
  publicKey: string;
  preSharedKey?: string;
  /** Interface addresses in CIDR form, IPv4 and IPv6. */
  addresses: string[];
  reserved?: number[];
  mtu?: number;
}

export interface SocksNode extends NodeBase {
  protocol: 'socks';
  username?: string;
  password?: string;
}

export interface AnytlsNode extends NodeBase {
  protocol: 'anytls';
  password: string;
  tls: Tls;
}

export type ProxyNode =
  | VlessNode
  | VmessNode
  | TrojanNode
  | ShadowsocksNode
  | ShadowsocksrNode
  | HysteriaNode
  | Hysteria2Node
  | TuicNode
  | WireguardNode
  | SocksNode
  | AnytlsNode;

/** A line that could not become a node, or a node a format cannot express. */
export interface Skipped {
  /** The share URI as served. */
  data: string;
  reason: string;
}

export type ParseResult = { ok: true; node: ProxyNode } | { ok: false; reason: string };
