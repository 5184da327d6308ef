// A Clash/mihomo or sing-box profile served by an upstream becomes share URIs that read back as the golden nodes.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ProxyNode } from '../../src/formats/proxy.js';
import { isValidProxyUri, parseShareUri } from '../../src/formats/share-uri/index.js';
import { profileShareUris } from '../../src/formats/upstream-profiles.js';
import { StructureRefused } from '../../src/formats/upstream/structure-scan.js';
import { PARSE_VECTORS, R07_SING_BOX } from './vectors.js';

/** A node without its `uri`, member by member for each protocol. */
type WithoutUri<T> = T extends unknown ? Omit<T, 'uri'> : never;
type Bare = WithoutUri<ProxyNode>;

const WG_PRIVATE = 'QJjrFqqqpbIqfI5qhbYWrPXhaBFmFq71jCj8mMaQE04=';
const WG_PUBLIC = 'N+K9fXobvy0vy3VFbn8a7tPRgUNcQbGRwjlyOMx4WHc=';

function parsed(uri: string): Bare {
  const result = parseShareUri(uri);
  if (!result.ok) throw new Error(`expected ${uri} to parse: ${result.reason}`);
  const { uri: _uri, ...node } = result.node;
  return node;
}

/** The node of a golden vector, with the given members replaced. */
function vectorNode(id: string, changes: Record<string, unknown> = {}): Bare {
  const vector = PARSE_VECTORS.find((candidate) => candidate.id === id);
  if (!vector) throw new Error(`no vector ${id}`);
  return { ...parsed(vector.uri), ...changes } as Bare;
}

function profileNodes(body: string): { nodes: Bare[]; skipped: number; uris: string[] } {
  const result = profileShareUris(body);
  if (result === null) throw new Error('expected a profile');
  return { nodes: result.uris.map(parsed), skipped: result.skipped, uris: result.uris };
}

/** Each case: a proxy as the profile spells it and the node it must become. */
interface Case {
  label: string;
  entry: Record<string, unknown>;
  node: Bare;
}

const MIHOMO_CASES: Case[] = [
  {
    // The map mihomo's converter produces for the hy2 test link (hi2shark/meta-core converter_test.go).
    label: 'hysteria2 as the mihomo converter writes it',
    entry: {
      name: 'hy2test',
      type: 'hysteria2',
      server: 'example.com',
      port: '8443',
      sni: 'real.example.com',
      obfs: 'salamander',
      'obfs-password': 'gawrgura',
      alpn: ['h3', 'h4'],
      password: 'letmein',
      up: '114',
      down: '514',
      'skip-cert-verify': true,
      fingerprint: '65b3acd7db555768304a16abb6f4366c1a0c0bb5cec81429617f0150d7d66726',
    },
    node: vectorNode('M01b'),
  },
  {
    label: 'vmess over ws with TLS',
    entry: {
      name: 'VMess WS',
      type: 'vmess',
      server: 'vmess-ws.example.com',
      port: 443,
      uuid: '11111111-1111-4111-8111-111111111111',
      alterId: 0,
      cipher: 'auto',
      tls: true,
      servername: 'sni.example.com',
      'skip-cert-verify': true,
      'client-fingerprint': 'chrome',
      alpn: ['h2'],
      network: 'ws',
      'ws-opts': { path: '/socket', headers: { Host: 'cdn.example.com' } },
    },
    node: vectorNode('S18'),
  },
  {
    label: 'vless over ws with early data and packet-addr encoding',
    entry: {
      name: 'VLESS WS Early',
      type: 'vless',
      server: 'vless-ws.example.com',
      port: 443,
      uuid: '11111111-1111-4111-8111-111111111111',
      tls: true,
      'packet-encoding': 'packetaddr',
      network: 'ws',
      'ws-opts': {
        path: '/ws',
        headers: { Host: 'cdn.example.com' },
        'max-early-data': 2048,
        'early-data-header-name': 'X-Data',
      },
    },
    node: vectorNode('S27'),
  },
  {
    label: 'vless httpupgrade (ws with v2ray-http-upgrade)',
    entry: {
      name: 'VLESS Upgrade',
      type: 'vless',
      server: 'vless-upgrade.example.com',
      port: 443,
      uuid: '11111111-1111-4111-8111-111111111111',
      network: 'ws',
      'ws-opts': { path: '/upgrade', headers: { Host: 'upgrade.example.com' }, 'v2ray-http-upgrade': true },
    },
    node: vectorNode('S31'),
  },
  {
    label: 'vless REALITY',
    entry: {
      name: 'vless example.com:443',
      type: 'vless',
      server: 'example.com',
      port: 443,
      uuid: 'b831381d-6324-4d53-ad4f-8cda48b30811',
      tls: true,
      network: 'tcp',
      'reality-opts': { 'public-key': 'ppQ9FwLrLIa0AOrp1WvcyiaQ37vg2WSy_CD4bIdiTUw', 'short-id': '00112233' },
    },
    node: vectorNode('M08'),
  },
  {
    label: 'vless tcp with an http header (http-opts)',
    entry: {
      name: 'VLESS HTTP',
      type: 'vless',
      server: 'vless-http.example.com',
      port: 80,
      uuid: '11111111-1111-4111-8111-111111111111',
      network: 'http',
      'http-opts': { method: 'GET', path: ['/edge'], headers: { Host: ['http.example.com'] } },
    },
    node: vectorNode('S30'),
  },
  {
    label: 'vmess h2 (h2-opts)',
    entry: {
      name: 'demo',
      type: 'vmess',
      server: 'server.example.com',
      port: 443,
      uuid: 'b831381d-6324-4d53-ad4f-8cda48b30811',
      alterId: 0,
      cipher: 'auto',
      tls: true,
      network: 'h2',
      'h2-opts': { host: ['cdn.example.com'], path: '/grpc' },
    },
    node: vectorNode('M06'),
  },
  {
    label: 'vless grpc (grpc-opts)',
    entry: {
      name: 'grpc',
      type: 'vless',
      server: 'g.example',
      port: 443,
      uuid: '12345678-abcd-abcd-abcd-123456789abc',
      network: 'grpc',
      'grpc-opts': { 'grpc-service-name': 'svc' },
    },
    node: vectorNode('X12', { name: 'grpc', transport: { type: 'grpc', serviceName: 'svc' } }),
  },
  {
    label: 'trojan',
    entry: { name: 'tname', type: 'trojan', server: 'trojan.host', port: 4443, password: 'tpw', sni: 'trojan.host' },
    node: vectorNode('X08'),
  },
  {
    label: 'shadowsocks with the obfs plugin and udp-over-tcp',
    entry: {
      name: 'SS Obfs',
      type: 'ss',
      server: 'ss.example.com',
      port: 8388,
      cipher: 'aes-128-gcm',
      password: 'secret',
      plugin: 'obfs',
      'plugin-opts': { mode: 'http', host: 'obfs.example.com' },
      'udp-over-tcp': true,
    },
    node: vectorNode('S03'),
  },
  {
    label: 'shadowsocks with v2ray-plugin',
    entry: {
      name: 'SS V2ray',
      type: 'ss',
      server: 'legacy.example.com',
      port: 443,
      cipher: 'chacha20-ietf-poly1305',
      password: 'legacy-pass',
      plugin: 'v2ray-plugin',
      'plugin-opts': { mode: 'websocket', host: 'cdn.example.com', path: '/socket', tls: true },
    },
    node: vectorNode('S07', {
      plugin: {
        name: 'v2ray-plugin',
        options: { mode: 'websocket', host: 'cdn.example.com', path: '/socket', tls: true },
      },
    }),
  },
  {
    label: 'shadowsocksr',
    entry: {
      name: 'SSR Node',
      type: 'ssr',
      server: 'ssr.example.com',
      port: 8899,
      cipher: 'aes-256-cfb',
      password: 'ssr-secret',
      protocol: 'origin',
      obfs: 'http_simple',
      'protocol-param': 'user:pass',
      'obfs-param': 'cdn.example.com',
    },
    node: vectorNode('S10'),
  },
  {
    label: 'hysteria with auth_str spelled with an underscore',
    entry: {
      name: 'remarks',
      type: 'hysteria',
      server: 'host',
      port: 443,
      auth_str: '123456',
      protocol: 'udp',
      up: '100',
      down: '100 Mbps',
      obfs: '123456',
      sni: 'sni.domain',
      'skip-cert-verify': true,
      alpn: ['hysteria'],
    },
    node: vectorNode('R05'),
  },
  {
    label: 'tuic v5',
    entry: {
      name: 'رایگان | TUIC | @V2rayCollector | CA🇨🇦 | 0️⃣1️⃣',
      type: 'tuic',
      server: '108.181.24.7',
      port: 23450,
      uuid: '3618921b-adeb-4bd3-a2a0-f98b72a674b1',
      password: 'dongtaiwang',
      'congestion-controller': 'bbr',
      'udp-relay-mode': 'native',
      sni: 'www.google.com',
      'skip-cert-verify': true,
      alpn: ['h3'],
    },
    node: vectorNode('R06'),
  },
  {
    label: 'wireguard with ip and ipv6',
    entry: {
      name: 'HK-大带宽4',
      type: 'wireguard',
      server: '120.233.41.77',
      port: 19368,
      'private-key': WG_PRIVATE,
      'public-key': WG_PUBLIC,
      ip: '10.0.20.45/16',
      ipv6: 'fd10:10:10:0:10:0:20:45/64',
      mtu: 1420,
      udp: true,
    },
    node: vectorNode('S17'),
  },
  {
    label: 'wireguard with a peers list and bare addresses',
    entry: {
      name: 'wg peers',
      type: 'wireguard',
      'private-key': WG_PRIVATE,
      ip: '172.16.0.2',
      ipv6: 'fd01::2',
      peers: [{ server: 'peer.example.com', port: 2408, 'public-key': WG_PUBLIC, reserved: [1, 2, 3] }],
      server: 'peer.example.com',
      port: 2408,
    },
    node: {
      protocol: 'wireguard',
      name: 'wg peers',
      server: 'peer.example.com',
      port: 2408,
      privateKey: WG_PRIVATE,
      publicKey: WG_PUBLIC,
      addresses: ['172.16.0.2/32', 'fd01::2/128'],
      reserved: [1, 2, 3],
    },
  },
  {
    label: 'socks5',
    entry: {
      name: 'sk',
      type: 'socks5',
      server: '127.0.0.1',
      port: 1081,
      username: 'socksuser',
      password: 'sockspass',
    },
    node: vectorNode('X09'),
  },
  {
    label: 'anytls',
    entry: {
      name: 'AnyTLS',
      type: 'anytls',
      server: 'anytls.example.com',
      port: 443,
      password: 'top-secret',
      alpn: ['h2', 'http/1.1'],
      'skip-cert-verify': true,
      udp: true,
    },
    node: vectorNode('S11'),
  },
];

/** Servers mihomo knows that cannot become a share URI here. */
const MIHOMO_UNSUPPORTED: unknown[] = [
  { name: 'http', type: 'http', server: 'h.example.com', port: 8080 },
  { name: 'snell', type: 'snell', server: 's.example.com', port: 443, psk: 'x' },
  {
    name: 'shadow-tls',
    type: 'ss',
    server: 's.example.com',
    port: 443,
    cipher: 'aes-128-gcm',
    password: 'p',
    plugin: 'shadow-tls',
  },
  { name: 'socks over tls', type: 'socks5', server: 's.example.com', port: 443, tls: true },
  {
    name: 'kcp',
    type: 'vmess',
    server: 'k.example.com',
    port: 443,
    uuid: 'b831381d-6324-4d53-ad4f-8cda48b30811',
    network: 'kcp',
  },
  { name: 'bad uuid', type: 'vless', server: 'v.example.com', port: 443, uuid: 'not-a-uuid' },
  { name: 'no server', type: 'trojan', port: 443, password: 'p' },
  'not a map',
];

describe('profileShareUris: Clash/mihomo YAML', () => {
  const profile = {
    'mixed-port': 7890,
    proxies: [...MIHOMO_CASES.map((item) => item.entry), ...MIHOMO_UNSUPPORTED, { name: 'direct-out', type: 'direct' }],
    'proxy-groups': [{ name: 'Proxy', type: 'select', proxies: ['hy2test', 'DIRECT'] }],
    rules: ['MATCH,Proxy'],
  };
  const { nodes, skipped, uris } = profileNodes(stringify(profile));

  it('turns every supported proxy into a URI the validator accepts, in order', () => {
    expect(nodes).toHaveLength(MIHOMO_CASES.length);
    for (const uri of uris) expect(isValidProxyUri(uri)).toBe(true);
  });

  it.each(MIHOMO_CASES.map((item, index) => ({ ...item, index })))('reads $label', ({ index, node }) => {
    expect(nodes[index]).toStrictEqual(node);
  });

  it('counts unsupported proxies as skipped and leaves out direct ones', () => {
    expect(skipped).toBe(MIHOMO_UNSUPPORTED.length);
  });

  it('reads a Clash profile written as JSON, with a BOM', () => {
    const result = profileShareUris(`\uFEFF${JSON.stringify({ proxies: [MIHOMO_CASES[0]?.entry] })}`);
    expect(result?.uris.map(parsed)).toStrictEqual([MIHOMO_CASES[0]?.node]);
  });

  it('parses only the proxies block: a broken rules section after it does not matter', () => {
    const yaml = `${stringify({ proxies: [MIHOMO_CASES[0]?.entry] })}rules:\n  - {broken: [\n`;
    expect(profileNodes(yaml).nodes).toStrictEqual([MIHOMO_CASES[0]?.node]);
  });

  it('reads items written at column 0 and a flow-style list', () => {
    const entry = {
      name: 'tname',
      type: 'trojan',
      server: 'trojan.host',
      port: 4443,
      password: 'tpw',
      sni: 'trojan.host',
    };
    const block = `proxies:\n- ${JSON.stringify(entry)}\n- ${JSON.stringify(entry)}\nrules: []\n`;
    expect(profileNodes(block).nodes).toStrictEqual([vectorNode('X08'), vectorNode('X08')]);
    expect(profileNodes(`proxies: [${JSON.stringify(entry)}]\n`).nodes).toStrictEqual([vectorNode('X08')]);
  });

  it('reads anchors and merge keys', () => {
    const yaml = [
      'base: &base {type: trojan, server: trojan.host, port: 4443, sni: trojan.host}',
      'proxies:',
      '  - <<: *base',
      '    name: tname',
      '    password: tpw',
    ].join('\n');
    expect(profileNodes(yaml).nodes).toStrictEqual([vectorNode('X08')]);
  });
});

const SING_BOX_CASES: Case[] = [
  {
    // ray2sing's expected outbound for its shadowsocks test link (the tag carries ray2sing's ' § 0' suffix).
    label: 'shadowsocks as ray2sing writes it',
    entry: {
      type: 'shadowsocks',
      tag: 'رایگان+|+SS+|+@iP_CF+|+RU🇷🇺+|+0️⃣1️⃣ § 0',
      server: '5.35.34.107',
      server_port: 55990,
      method: 'chacha20-ietf-poly1305',
      password: 'tOwOyvlXiY5ATJAUOpXNPN',
    },
    node: vectorNode('R01', { name: 'رایگان+|+SS+|+@iP_CF+|+RU🇷🇺+|+0️⃣1️⃣ § 0' }),
  },
  {
    label: 'shadowsocks 2022 multi-user as ray2sing writes it',
    entry: {
      type: 'shadowsocks',
      tag: 'sample-tag § 0',
      server: '10.20.30.40',
      server_port: 54321,
      method: '2022-blake3-aes-128-gcm',
      password: 'q7D74AV8BFV4QI75ejU/gMubXDxz12G+/Sj7EIrLvBw=:/mIN2/oJYG0IlvFbP5PK9VhFryS89tf1D+q8IDus04U=',
    },
    node: vectorNode('R02', { name: 'sample-tag § 0' }),
  },
  {
    label: 'vmess as ray2sing writes it',
    entry: {
      type: 'vmess',
      tag: 'vm',
      server: '51.161.130.173',
      server_port: 8080,
      uuid: 'd43ee5e3-1b07-56d7-b2ea-8d22c44fdc66',
      security: 'chacha20-poly1305',
      authenticated_length: true,
    },
    node: vectorNode('R08', { name: 'vm' }),
  },
  {
    // ray2sing also writes the default early-data header and an empty packet_encoding (no packet encoding).
    label: 'vless over ws with early data as ray2sing writes it',
    entry: { ...R07_SING_BOX, tag: 'vl', packet_encoding: '' },
    node: vectorNode('R07', {
      name: 'vl',
      packetEncoding: 'none',
      transport: {
        type: 'ws',
        path: '/',
        host: 'vless.229feb8b52a0e7e117ea76f8b591bcb3.workers.dev',
        maxEarlyData: 2048,
        earlyDataHeaderName: 'Sec-WebSocket-Protocol',
      },
    }),
  },
  {
    label: 'vless REALITY with uTLS',
    entry: {
      type: 'vless',
      tag: 'reality',
      server: 'reality.example',
      server_port: 443,
      uuid: '12345678-abcd-abcd-abcd-123456789abc',
      tls: {
        enabled: true,
        server_name: 'reality.example',
        utls: { enabled: true, fingerprint: 'chrome' },
        reality: { enabled: true, public_key: 'A'.repeat(43), short_id: 'abcd' },
      },
    },
    node: vectorNode('X07', {
      name: 'reality',
      tls: {
        serverName: 'reality.example',
        clientFingerprint: 'chrome',
        reality: { publicKey: 'A'.repeat(43), shortId: 'abcd' },
      },
    }),
  },
  {
    label: 'vless grpc and httpupgrade transports',
    entry: {
      type: 'vless',
      tag: 'up',
      server: 'hu.example',
      server_port: 443,
      uuid: '12345678-abcd-abcd-abcd-123456789abc',
      transport: { type: 'httpupgrade', path: '/up', host: 'hu.host' },
    },
    node: vectorNode('X13', { name: 'up' }),
  },
  {
    label: 'vmess with the http transport under TLS (HTTP/2)',
    entry: {
      type: 'vmess',
      tag: 'demo',
      server: 'server.example.com',
      server_port: 443,
      uuid: 'b831381d-6324-4d53-ad4f-8cda48b30811',
      security: 'auto',
      tls: { enabled: true },
      transport: { type: 'http', host: ['cdn.example.com'], path: '/grpc' },
    },
    node: vectorNode('M06'),
  },
  {
    label: 'trojan over ws',
    entry: {
      type: 'trojan',
      tag: 'tw',
      server: 'aws-ar-buenosaires-1.f1cflineb.com',
      server_port: 443,
      password: 'your_password',
      tls: { enabled: true, server_name: 'aws-ar-buenosaires-1.f1cflineb.com' },
      transport: { type: 'ws', path: '/f1rocket', headers: { Host: 'aws-ar-buenosaires-1.f1cflineb.com' } },
    },
    node: vectorNode('R09', { name: 'tw' }),
  },
  {
    label: 'shadowsocks with a SIP003 plugin and udp_over_tcp',
    entry: {
      type: 'shadowsocks',
      tag: 'SS Obfs',
      server: 'ss.example.com',
      server_port: 8388,
      method: 'aes-128-gcm',
      password: 'secret',
      plugin: 'obfs-local',
      plugin_opts: 'obfs=http;obfs-host=obfs.example.com',
      udp_over_tcp: { enabled: true, version: 2 },
    },
    node: vectorNode('S03'),
  },
  {
    label: 'hysteria',
    entry: {
      type: 'hysteria',
      tag: 'remarks',
      server: 'host',
      server_port: 443,
      auth_str: '123456',
      up_mbps: 100,
      down_mbps: 100,
      obfs: '123456',
      tls: { enabled: true, server_name: 'sni.domain', insecure: true, alpn: ['hysteria'] },
    },
    node: vectorNode('R05', { transportProtocol: undefined }),
  },
  {
    // sing-box has no certificate pin for hysteria2, so the golden node loses its pin.
    label: 'hysteria2 with port hopping and salamander',
    entry: {
      type: 'hysteria2',
      tag: 'hy2test',
      server: 'example.com',
      server_port: 8443,
      server_ports: ['5000:6000', '443:443'],
      password: 'letmein',
      obfs: { type: 'salamander', password: 'gawrgura' },
      up_mbps: 114,
      down_mbps: 514,
      tls: { enabled: true, server_name: 'real.example.com', insecure: true, alpn: ['h3', 'h4'] },
    },
    node: vectorNode('M01b', {
      ports: '5000-6000,443',
      tls: { serverName: 'real.example.com', insecure: true, alpn: ['h3', 'h4'] },
    }),
  },
  {
    label: 'tuic',
    entry: {
      type: 'tuic',
      tag: 'رایگان | TUIC | @V2rayCollector | CA🇨🇦 | 0️⃣1️⃣',
      server: '108.181.24.7',
      server_port: 23450,
      uuid: '3618921b-adeb-4bd3-a2a0-f98b72a674b1',
      password: 'dongtaiwang',
      congestion_control: 'bbr',
      udp_relay_mode: 'native',
      tls: { enabled: true, server_name: 'www.google.com', insecure: true, alpn: ['h3'] },
    },
    node: vectorNode('R06'),
  },
  {
    label: 'socks',
    entry: {
      type: 'socks',
      tag: 'sk',
      server: '127.0.0.1',
      server_port: 1081,
      version: '5',
      username: 'socksuser',
      password: 'sockspass',
    },
    node: vectorNode('X09'),
  },
  {
    label: 'anytls',
    entry: {
      type: 'anytls',
      tag: 'AnyTLS',
      server: 'anytls.example.com',
      server_port: 443,
      password: 'top-secret',
      tls: { enabled: true, insecure: true, alpn: ['h2', 'http/1.1'] },
    },
    node: vectorNode('S11'),
  },
  {
    label: 'the legacy wireguard outbound',
    entry: {
      type: 'wireguard',
      tag: 'HK-大带宽4',
      server: '120.233.41.77',
      server_port: 19368,
      local_address: ['10.0.20.45/16', 'fd10:10:10:0:10:0:20:45/64'],
      private_key: WG_PRIVATE,
      peer_public_key: WG_PUBLIC,
      mtu: 1420,
    },
    node: vectorNode('S17'),
  },
];

const WIREGUARD_ENDPOINT: Case = {
  label: 'a wireguard endpoint',
  entry: {
    type: 'wireguard',
    tag: 'wg-ep',
    address: ['10.0.0.2/32', 'fd00::2/128'],
    private_key: WG_PRIVATE,
    mtu: 1408,
    peers: [
      {
        address: 'wg.example.com',
        port: 51820,
        public_key: WG_PUBLIC,
        pre_shared_key: WG_PRIVATE,
        allowed_ips: ['0.0.0.0/0', '::/0'],
        reserved: [1, 2, 3],
      },
    ],
  },
  node: {
    protocol: 'wireguard',
    name: 'wg-ep',
    server: 'wg.example.com',
    port: 51820,
    privateKey: WG_PRIVATE,
    publicKey: WG_PUBLIC,
    preSharedKey: WG_PRIVATE,
    addresses: ['10.0.0.2/32', 'fd00::2/128'],
    reserved: [1, 2, 3],
    mtu: 1408,
  },
};

const SING_BOX_UNSUPPORTED: unknown[] = [
  { type: 'http', tag: 'h', server: 'h.example.com', server_port: 8080 },
  { type: 'tor', tag: 'tor' },
  { type: 'socks', tag: 's4', server: 's.example.com', server_port: 1080, version: '4a' },
  {
    type: 'shadowsocks',
    tag: 'chained',
    server: 's.example.com',
    server_port: 443,
    method: 'aes-128-gcm',
    password: 'p',
    detour: 'shadowtls-out',
  },
  {
    type: 'hysteria2',
    tag: 'gecko',
    server: 'h.example.com',
    server_port: 443,
    password: 'p',
    obfs: { type: 'gecko', password: 'x' },
    tls: { enabled: true },
  },
  { type: 'trojan', tag: 'no tls', server: 't.example.com', server_port: 443, password: 'p' },
];

describe('profileShareUris: sing-box JSON', () => {
  const profile = {
    log: { level: 'warn' },
    outbounds: [
      { type: 'selector', tag: 'Proxy', outbounds: ['Auto', 'direct'] },
      { type: 'urltest', tag: 'Auto', outbounds: [] },
      ...SING_BOX_CASES.map((item) => item.entry),
      ...SING_BOX_UNSUPPORTED,
      { type: 'direct', tag: 'direct' },
      { type: 'block', tag: 'block' },
      { type: 'dns', tag: 'dns-out' },
    ],
    endpoints: [WIREGUARD_ENDPOINT.entry],
    route: { final: 'Proxy' },
  };
  const cases = [...SING_BOX_CASES, WIREGUARD_ENDPOINT];
  const { nodes, skipped } = profileNodes(JSON.stringify(profile, null, 2));

  it('turns outbounds and then endpoints into nodes, in order', () => {
    expect(nodes).toHaveLength(cases.length);
  });

  it.each(cases.map((item, index) => ({ ...item, index })))('reads $label', ({ index, node }) => {
    expect(nodes[index]).toStrictEqual(JSON.parse(JSON.stringify(node)));
  });

  it('counts unsupported outbounds as skipped and leaves out groups, direct, block and dns', () => {
    expect(skipped).toBe(SING_BOX_UNSUPPORTED.length);
  });

  it('reads a profile with endpoints only', () => {
    const result = profileShareUris(JSON.stringify({ endpoints: [WIREGUARD_ENDPOINT.entry] }));
    expect(result?.uris.map(parsed)).toStrictEqual([WIREGUARD_ENDPOINT.node]);
  });
});

describe('profileShareUris: what is not a profile', () => {
  const links = PARSE_VECTORS.slice(0, 5).map((vector) => vector.uri);

  it.each([
    ['a base64 list of links', Buffer.from(links.join('\n')).toString('base64')],
    ['plain links', links.join('\n')],
    ['an empty body', ''],
    ['YAML without proxies', 'rules:\n  - MATCH,DIRECT\n'],
    ['YAML whose proxies is not a list', 'proxies: 3\n'],
    ['YAML that does not parse', 'proxies:\n  - {name: [unclosed\n'],
    ['a JSON array', '[{"type":"vless"}]'],
    ['JSON without outbounds, endpoints or proxies', '{"log":{},"route":{}}'],
    ['JSON whose outbounds is not a list', '{"outbounds":{"type":"vless"}}'],
    ['broken JSON', '{"outbounds": ['],
  ])('%s gives null', (_label, body) => {
    expect(profileShareUris(body)).toBeNull();
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    lines.push('proxies: [*a11]');
    expect(() => profileShareUris(lines.join('\n'))).toThrow(StructureRefused);
  });

  it('gives an empty result for an empty proxies list', () => {
    expect(profileShareUris('proxies: []\n')).toEqual({ uris: [], skipped: 0 });
  });
});

describe('profileShareUris: limits', () => {
  const body = stringify({ proxies: MIHOMO_CASES.slice(0, 5).map((item) => item.entry) });

  it('ignores a body larger than maxBytes', () => {
    expect(profileShareUris(body, { maxBytes: body.length - 1, maxProxies: 100 })).toBeNull();
    expect(profileShareUris(body, { maxBytes: body.length, maxProxies: 100 })?.uris).toHaveLength(5);
  });

  it('counts bytes, not characters', () => {
    const unicode = stringify({ proxies: [MIHOMO_CASES.find((item) => item.label === 'tuic v5')?.entry] });
    expect(profileShareUris(unicode, { maxBytes: unicode.length, maxProxies: 100 })).toBeNull();
  });

  it('looks at no more than maxProxies servers and counts the rest as skipped', () => {
    const result = profileShareUris(body, { maxBytes: 1_000_000, maxProxies: 2 });
    expect(result?.uris.map(parsed)).toStrictEqual(MIHOMO_CASES.slice(0, 2).map((item) => item.node));
    expect(result?.skipped).toBe(3);
  });
});
