// Golden conversions, URI -> parse -> render, field by field: the expected values are those the clients' own converter
// tests assert (mihomo converter_test.go, libXray parse_share_test.go, Sub-Store parser specs, ray2sing tests), in the
// canonical form where a source writes a variant the client also reads. Where we differ on purpose, a note says so.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ProxyNode } from '../../src/formats/proxy.js';
import { renderFormat, type RenderedFormat } from '../../src/formats/render/index.js';
import { parseShareUri } from '../../src/formats/share-uri/index.js';
import { mihomoProblems, singBoxProblems, xrayProblems } from './render-checks.js';
import { validateMihomoDocument, validateMihomoProxy, validateSingBoxDocument } from './schemas.js';
import { PARSE_VECTORS, R07_SING_BOX } from './vectors.js';
import { validateXrayOutbound } from './xray-schema.js';

type Json = Record<string, unknown>;
/** Dotted paths into the rendered proxy and their values; `absent` paths must not exist; or the skip reason. */
type Expectation = { fields: Record<string, unknown>; absent?: string[] } | { skipped: RegExp };

interface Golden {
  id: string;
  mihomo?: Expectation;
  'sing-box'?: Expectation;
  xray?: Expectation;
  note?: string;
}

const SUB_UUID = '11111111-1111-4111-8111-111111111111';
const XRAY_UUID = '12345678-abcd-abcd-abcd-123456789abc';
const MIHOMO_REALITY = { 'public-key': 'ppQ9FwLrLIa0AOrp1WvcyiaQ37vg2WSy_CD4bIdiTUw', 'short-id': '00112233' };
const SS2022_KEY = 'YctPZ6U7xPPcU+gp3u+0tx/tRizJN9K8y+uKlW2qjlI=';
const EIH = 'q7D74AV8BFV4QI75ejU/gMubXDxz12G+/Sj7EIrLvBw=:/mIN2/oJYG0IlvFbP5PK9VhFryS89tf1D+q8IDus04U=';
/** mihomo's converter writes the pin as plain hex; meta-json-schema wants the colon form, which mihomo also reads. */
const colons = (hex: string): string => (hex.toUpperCase().match(/../g) as string[]).join(':');

const GOLDEN: Golden[] = [
  // mihomo converter_test.go (upstream M01 with a 32-byte pin, as the derived copies carry it)
  {
    id: 'M01b',
    note: 'the converter writes port "8443" as a string; the canonical form is an integer',
    mihomo: {
      fields: {
        name: 'hy2test',
        type: 'hysteria2',
        server: 'example.com',
        port: 8443,
        sni: 'real.example.com',
        obfs: 'salamander',
        'obfs-password': 'gawrgura',
        alpn: ['h3', 'h4'],
        password: 'letmein',
        up: '114',
        down: '514',
        'skip-cert-verify': true,
        fingerprint: colons('65b3acd7db555768304a16abb6f4366c1a0c0bb5cec81429617f0150d7d66726'),
      },
    },
    'sing-box': { skipped: /pinning/ },
    xray: { skipped: /Hysteria2/ },
  },
  {
    id: 'M02',
    mihomo: { fields: { server: 'example.com', port: 443, ports: '443,5000-6000' } },
    'sing-box': { fields: { server_port: 443, server_ports: ['443:443', '5000:6000'] } },
  },
  {
    id: 'M06',
    mihomo: {
      fields: { network: 'h2', 'h2-opts': { path: '/grpc', host: ['cdn.example.com'] } },
      absent: ['http-opts'],
    },
    'sing-box': {
      fields: {
        'transport.type': 'http',
        'transport.host': ['cdn.example.com'],
        'tls.enabled': true,
        'tls.server_name': 'cdn.example.com',
      },
    },
    xray: { skipped: /^unsupported_transport$/ },
  },
  {
    id: 'M07',
    mihomo: {
      fields: { network: 'h2', 'h2-opts': { path: '/grpc', host: ['cdn.example.com'] } },
      absent: ['http-opts'],
    },
  },
  {
    id: 'M08',
    mihomo: { fields: { type: 'vless', 'reality-opts': MIHOMO_REALITY, 'client-fingerprint': 'chrome' } },
    'sing-box': {
      fields: {
        'tls.reality.public_key': MIHOMO_REALITY['public-key'],
        'tls.reality.short_id': '00112233',
        'tls.utls.enabled': true,
      },
    },
    xray: { fields: { 'streamSettings.realitySettings.shortId': '00112233' } },
  },
  { id: 'M09', mihomo: { fields: { type: 'vmess', 'reality-opts': MIHOMO_REALITY } } },

  // libXray parse_share_test.go
  {
    id: 'X26',
    xray: {
      fields: {
        protocol: 'shadowsocks',
        'streamSettings.network': 'ws',
        'streamSettings.wsSettings': { path: '/ws', host: 'cdn.ws' },
        'streamSettings.security': 'tls',
        'streamSettings.tlsSettings.serverName': 'ss-ws.example',
      },
    },
    mihomo: { skipped: /^unsupported_transport$/ },
    'sing-box': { skipped: /^unsupported_transport$/ },
  },
  {
    id: 'X01',
    note: 'libXray renders Hysteria2 for Xray >= v26.1.13; this format gates it out (docs/templates.md)',
    xray: { skipped: /v26\.1\.13/ },
    mihomo: { fields: { type: 'hysteria2', password: 'auth', port: 443, sni: 'example.com' } },
  },
  {
    id: 'X06',
    note: 'vcn (verifyPeerCertByName) is not carried by the typed form',
    xray: {
      fields: {
        'streamSettings.security': 'tls',
        'streamSettings.wsSettings.path': '/ws',
        'streamSettings.wsSettings.host': 'cdn.edge',
        'streamSettings.tlsSettings.serverName': 'edge.example',
        'streamSettings.tlsSettings.fingerprint': 'chrome',
        'streamSettings.tlsSettings.alpn': ['h2', 'h3'],
      },
    },
  },
  {
    id: 'X07',
    xray: {
      fields: {
        'streamSettings.security': 'reality',
        'streamSettings.realitySettings.publicKey': 'A'.repeat(43),
        'streamSettings.realitySettings.shortId': 'abcd',
        'streamSettings.realitySettings.fingerprint': 'chrome',
        'streamSettings.realitySettings.spiderX': '/',
      },
    },
  },
  {
    id: 'X08',
    xray: {
      fields: {
        'settings.servers.0.password': 'tpw',
        'settings.servers.0.port': 4443,
        'streamSettings.security': 'tls',
      },
    },
  },
  {
    id: 'X09',
    xray: {
      fields: { 'settings.servers.0.users.0.user': 'socksuser', 'settings.servers.0.users.0.pass': 'sockspass' },
    },
  },
  {
    id: 'X10',
    note: 'libXray fills rawSettings; tcpSettings is the same object under the name every Xray version reads',
    xray: {
      fields: {
        'settings.vnext.0.users.0.id': XRAY_UUID,
        'settings.vnext.0.users.0.security': 'auto',
        'streamSettings.tcpSettings.header.request.path': ['/path1', '/path2'],
        'streamSettings.tcpSettings.header.request.headers.Host': ['h1', 'h2'],
      },
    },
  },
  {
    id: 'X11',
    xray: {
      fields: {
        'settings.vnext.0.users.0.id': XRAY_UUID,
        'streamSettings.wsSettings.path': '/w',
        'streamSettings.security': 'tls',
        'streamSettings.tlsSettings.serverName': 'tls.sni',
      },
    },
  },
  {
    id: 'X12',
    xray: {
      fields: { 'streamSettings.grpcSettings': { serviceName: 'svc', authority: 'auth.here', multiMode: true } },
    },
  },
  {
    id: 'X13',
    xray: { fields: { 'streamSettings.httpupgradeSettings': { path: '/up', host: 'hu.host' } } },
  },
  {
    id: 'X14',
    xray: {
      fields: {
        'streamSettings.xhttpSettings.mode': 'stream-up',
        'streamSettings.xhttpSettings.extra.host': 'xh.extra',
      },
      absent: ['streamSettings.splithttpSettings'],
    },
  },
  { id: 'X15', xray: { skipped: /mKCP header or seed/ }, mihomo: { skipped: /kcp/ }, 'sing-box': { skipped: /kcp/ } },
  {
    id: 'X16',
    xray: {
      fields: { 'streamSettings.grpcSettings.serviceName': 'svcname', 'streamSettings.grpcSettings.multiMode': true },
    },
  },
  {
    id: 'X17',
    xray: {
      fields: {
        protocol: 'shadowsocks',
        'settings.servers.0.method': 'chacha20-ietf-poly1305',
        'settings.servers.0.password': 'mypass',
        'settings.servers.0.port': 8388,
      },
    },
  },
  {
    id: 'X18',
    xray: {
      fields: {
        'settings.servers.0.method': '2022-blake3-aes-256-gcm',
        'settings.servers.0.password': SS2022_KEY,
        'settings.servers.0.port': 8888,
      },
    },
  },
  { id: 'X19', xray: { fields: { 'settings.servers.0.password': 'p@ss:word/with+symbols' } } },
  { id: 'X20', xray: { fields: { protocol: 'trojan' } } },
  { id: 'X21', xray: { fields: { protocol: 'vless', 'streamSettings.security': 'none' } } },
  { id: 'X22', xray: { fields: { protocol: 'shadowsocks', 'settings.servers.0.method': 'aes-128-gcm' } } },

  // Sub-Store uri.spec.js (mihomo-shaped objects)
  {
    id: 'S01',
    mihomo: {
      fields: {
        type: 'socks5',
        name: 'SOCKS',
        server: 'socks.example.com',
        port: 1080,
        username: 'bob',
        password: 'secret',
      },
    },
  },
  { id: 'S02', mihomo: { fields: { name: 'SOCKS#Remark', username: 'bob', password: 'secret' } } },
  {
    id: 'S03',
    note: 'Sub-Store also keeps tfo, which the typed form does not carry',
    mihomo: {
      fields: {
        type: 'ss',
        cipher: 'aes-128-gcm',
        password: 'secret',
        plugin: 'obfs',
        'plugin-opts': { mode: 'http', host: 'obfs.example.com' },
        'udp-over-tcp': true,
      },
    },
  },
  { id: 'S04', mihomo: { fields: { cipher: 'aes-128-gcm', password: 'aa>' } } },
  { id: 'S05', mihomo: { fields: { password: 'sec:ret@/plus+' } } },
  {
    id: 'S06',
    mihomo: {
      fields: { server: '192.168.100.1', port: 8888, cipher: '2022-blake3-aes-256-gcm', password: SS2022_KEY },
    },
  },
  {
    id: 'S07',
    mihomo: {
      fields: {
        server: 'legacy.example.com',
        port: 443,
        cipher: 'chacha20-ietf-poly1305',
        password: 'legacy-pass',
        plugin: 'v2ray-plugin',
        'plugin-opts': { mode: 'websocket', host: 'cdn.example.com', path: '/socket', tls: true },
      },
    },
  },
  {
    id: 'S08',
    mihomo: { fields: { 'plugin-opts': { mode: 'websocket', host: 'cdn.example.com', path: '/?enc=aes-128-gcm' } } },
  },
  {
    id: 'S09',
    note: 'Sub-Store also writes sni and mux: 1; mihomo v2ray-plugin has no sni key and takes mux as a boolean',
    mihomo: {
      fields: {
        'plugin-opts.mode': 'websocket',
        'plugin-opts.host': 'cdn.example.com',
        'plugin-opts.path': '/socket',
        'plugin-opts.tls': true,
        'plugin-opts.skip-cert-verify': true,
        'plugin-opts.mux': true,
      },
    },
  },
  {
    id: 'S10',
    mihomo: {
      fields: {
        type: 'ssr',
        name: 'SSR Node',
        server: 'ssr.example.com',
        port: 8899,
        protocol: 'origin',
        cipher: 'aes-256-cfb',
        obfs: 'http_simple',
        password: 'ssr-secret',
        'protocol-param': 'user:pass',
        'obfs-param': 'cdn.example.com',
      },
    },
    'sing-box': { skipped: /ShadowsocksR/ },
  },
  {
    id: 'S11',
    note: 'Sub-Store fills sni with the server name, which is what mihomo does when sni is absent',
    mihomo: {
      fields: {
        type: 'anytls',
        password: 'top-secret',
        alpn: ['h2', 'http/1.1'],
        udp: true,
        'skip-cert-verify': true,
      },
      absent: ['network'],
    },
    xray: { skipped: /AnyTLS/ },
  },
  {
    id: 'S12',
    mihomo: { fields: { port: 443, ports: '9000,9002-9004', password: 'hy2-secret' } },
    'sing-box': { fields: { server_ports: ['9000:9000', '9002:9004'] } },
  },
  { id: 'S13', mihomo: { fields: { up: '50', down: '100' } }, 'sing-box': { fields: { up_mbps: 50, down_mbps: 100 } } },
  { id: 'S14', mihomo: { fields: { 'ech-opts': { enable: true, config: 'ECHCONFIG' } } } },
  { id: 'S15', mihomo: { fields: { server: '2001:db8::1', port: 443, password: 'trojan-pass' } } },
  {
    id: 'S17',
    mihomo: {
      fields: {
        type: 'wireguard',
        name: 'HK-大带宽4',
        server: '120.233.41.77',
        port: 19368,
        'public-key': 'N+K9fXobvy0vy3VFbn8a7tPRgUNcQbGRwjlyOMx4WHc=',
        'private-key': 'QJjrFqqqpbIqfI5qhbYWrPXhaBFmFq71jCj8mMaQE04=',
        ip: '10.0.20.45',
        ipv6: 'fd10:10:10:0:10:0:20:45',
        mtu: 1420,
        udp: true,
      },
    },
    'sing-box': { fields: { type: 'wireguard', address: ['10.0.20.45/16', 'fd10:10:10:0:10:0:20:45/64'] } },
  },

  // Sub-Store v2ray-and-platforms.spec.js
  {
    id: 'S18',
    note: 'Sub-Store keeps sni for vmess; mihomo names it servername',
    mihomo: {
      fields: {
        type: 'vmess',
        name: 'VMess WS',
        server: 'vmess-ws.example.com',
        port: 443,
        uuid: SUB_UUID,
        alterId: 0,
        tls: true,
        servername: 'sni.example.com',
        'skip-cert-verify': true,
        'client-fingerprint': 'chrome',
        alpn: ['h2'],
        network: 'ws',
        'ws-opts': { path: '/socket', headers: { Host: 'cdn.example.com' } },
      },
    },
  },
  {
    id: 'S19',
    mihomo: {
      fields: {
        name: 'Outer Fragment Remark',
        cipher: 'none',
        tls: true,
        servername: 'sni.fragment.example.com',
        'client-fingerprint': 'chrome',
        network: 'ws',
        'ws-opts': {
          path: '/fragment',
          headers: { Host: 'fragment.example.com' },
          'max-early-data': 2560,
          'early-data-header-name': 'Sec-WebSocket-Protocol',
        },
      },
    },
  },
  { id: 'S20', mihomo: { fields: { cipher: 'zero', alterId: 0 } }, 'sing-box': { fields: { security: 'zero' } } },
  {
    id: 'S21',
    note: 'Sub-Store emits h2 without TLS; mihomo converter.go writes net http as network h2 whatever the TLS',
    mihomo: {
      fields: { network: 'h2', 'h2-opts': { path: '/a,/b', host: ['h1.example.com', 'h2.example.com'] } },
      absent: ['tls'],
    },
    'sing-box': { fields: { 'transport.type': 'http', 'transport.path': '/a,/b' }, absent: ['tls'] },
    xray: { skipped: /alterId|unsupported_transport/ },
  },
  {
    id: 'S22',
    note: 'Sub-Store keeps only the first Host and the unsplit path; like v2rayN and libXray (X10) we split both',
    mihomo: {
      fields: {
        alterId: 1,
        cipher: 'auto',
        network: 'http',
        'http-opts': { path: ['/a', '/b'], headers: { Host: ['h1.example.com', 'h2.example.com'] } },
      },
    },
    xray: { skipped: /alterId/ },
  },
  {
    id: 'S23',
    mihomo: { fields: { network: 'grpc', 'grpc-opts': { 'grpc-service-name': 'grpc-service' } } },
    xray: {
      fields: {
        'streamSettings.grpcSettings': { serviceName: 'grpc-service', authority: 'grpc.example.com', multiMode: true },
      },
    },
  },
  {
    id: 'S24',
    mihomo: { skipped: /quic/ },
    'sing-box': { skipped: /quic/ },
    xray: { skipped: /^unsupported_transport$/ },
  },
  {
    id: 'S25',
    mihomo: {
      fields: {
        network: 'ws',
        'ws-opts': { path: '/upgrade', headers: { Host: 'upgrade.example.com' }, 'v2ray-http-upgrade': true },
      },
      absent: ['ws-opts.v2ray-http-upgrade-fast-open'],
    },
    'sing-box': { fields: { transport: { type: 'httpupgrade', path: '/upgrade', host: 'upgrade.example.com' } } },
  },
  {
    id: 'S26',
    note: "Sub-Store writes packet-encoding: xudp; the converter's xudp: true is the same setting",
    mihomo: {
      fields: {
        type: 'vless',
        name: 'VLESS WS',
        uuid: SUB_UUID,
        tls: true,
        servername: 'sni.example.com',
        'skip-cert-verify': true,
        'client-fingerprint': 'chrome',
        alpn: ['h2'],
        udp: true,
        xudp: true,
        network: 'ws',
        'ws-opts': { path: '/ws', headers: { Host: 'cdn.example.com' } },
      },
    },
  },
  {
    id: 'S27',
    mihomo: {
      fields: {
        'packet-addr': true,
        'ws-opts': {
          path: '/ws',
          headers: { Host: 'cdn.example.com' },
          'max-early-data': 2048,
          'early-data-header-name': 'X-Data',
        },
      },
      absent: ['xudp'],
    },
  },
  { id: 'S28', mihomo: { fields: { xudp: true } }, 'sing-box': { fields: { packet_encoding: 'xudp' } } },
  { id: 'S29', mihomo: { fields: { 'ech-opts': { enable: true, config: 'ECHCONFIG' } } } },
  {
    id: 'S30',
    mihomo: {
      fields: {
        network: 'http',
        'http-opts': { method: 'GET', path: ['/edge'], headers: { Host: ['http.example.com'] } },
      },
      absent: ['h2-opts', 'tls'],
    },
  },
  {
    id: 'S31',
    mihomo: { fields: { network: 'ws', 'ws-opts.v2ray-http-upgrade': true, 'ws-opts.path': '/upgrade' } },
    xray: { fields: { 'streamSettings.httpupgradeSettings': { path: '/upgrade', host: 'upgrade.example.com' } } },
  },
  {
    id: 'S32',
    mihomo: { fields: { 'ws-opts.path': '/ws?a=1&b=2', 'ws-opts.max-early-data': 2048 } },
    xray: { fields: { 'streamSettings.wsSettings.path': '/ws?a=1&b=2&ed=2048' } },
  },
  { id: 'S33', mihomo: { skipped: /kcp/ }, 'sing-box': { skipped: /kcp/ }, xray: { skipped: /mKCP/ } },
  {
    id: 'S35',
    mihomo: {
      fields: {
        network: 'xhttp',
        'xhttp-opts': {
          path: '/xhttp',
          host: 'cdn.example.com',
          mode: 'stream-up',
          'no-grpc-header': true,
          'x-padding-bytes': '64-128',
          'sc-max-each-post-bytes': 1000000,
          'sc-min-posts-interval-ms': 300,
          'session-table': 'abcXYZ012',
          'session-length': '16',
          'reuse-settings': {
            'max-connections': '0',
            'max-concurrency': '16-32',
            'c-max-reuse-times': '64-128',
            'h-max-request-times': '600-900',
            'h-max-reusable-secs': '1800-3000',
          },
        },
      },
    },
    'sing-box': { skipped: /xhttp/ },
    xray: { fields: { 'streamSettings.xhttpSettings.extra.sessionIDLength': 16 } },
  },

  // ray2sing tests (sing-box outbounds; ray2sing appends " § <n>" to every tag, which is its own convention)
  {
    id: 'R01',
    'sing-box': {
      fields: {
        type: 'shadowsocks',
        tag: 'رایگان+|+SS+|+@iP_CF+|+RU🇷🇺+|+0️⃣1️⃣',
        server: '5.35.34.107',
        server_port: 55990,
        method: 'chacha20-ietf-poly1305',
        password: 'tOwOyvlXiY5ATJAUOpXNPN',
      },
    },
  },
  { id: 'R02', 'sing-box': { fields: { method: '2022-blake3-aes-128-gcm', password: EIH, server_port: 54321 } } },
  { id: 'R03', 'sing-box': { fields: { method: '2022-blake3-aes-128-gcm', password: EIH } } },
  {
    id: 'R05',
    'sing-box': {
      fields: {
        type: 'hysteria',
        server: 'host',
        server_port: 443,
        'tls.enabled': true,
        'tls.server_name': 'sni.domain',
        'tls.insecure': true,
      },
    },
  },
  {
    id: 'R06',
    note: "ray2sing's expected ALPN adds its own default spdy/3.1; the link says h3",
    'sing-box': {
      fields: {
        type: 'tuic',
        uuid: '3618921b-adeb-4bd3-a2a0-f98b72a674b1',
        password: 'dongtaiwang',
        congestion_control: 'bbr',
        udp_relay_mode: 'native',
        'tls.server_name': 'www.google.com',
        'tls.insecure': true,
        'tls.alpn': ['h3'],
      },
    },
  },
  {
    id: 'R07',
    note: 'ray2sing writes packet_encoding ""; we keep sing-box default xudp, which Xray servers speak',
    'sing-box': {
      fields: R07_SING_BOX,
    },
  },
  {
    id: 'R08',
    'sing-box': {
      fields: {
        type: 'vmess',
        server: '51.161.130.173',
        server_port: 8080,
        uuid: 'd43ee5e3-1b07-56d7-b2ea-8d22c44fdc66',
        security: 'chacha20-poly1305',
      },
      absent: ['tls', 'transport'],
    },
  },
  {
    id: 'R09',
    note: 'ray2sing adds a chrome uTLS fingerprint the link does not ask for',
    'sing-box': {
      fields: {
        type: 'trojan',
        password: 'your_password',
        'tls.server_name': 'aws-ar-buenosaires-1.f1cflineb.com',
        transport: {
          type: 'ws',
          path: '/f1rocket',
          headers: { Host: 'aws-ar-buenosaires-1.f1cflineb.com' },
        },
      },
    },
  },
];

function nodeOf(id: string): ProxyNode {
  const vector = PARSE_VECTORS.find((v) => v.id === id);
  if (!vector) throw new Error(`no vector ${id}`);
  const parsed = parseShareUri(vector.uri);
  if (!parsed.ok) throw new Error(`${id} does not parse: ${parsed.reason}`);
  return parsed.node;
}

/** The one server a format rendered for a node, or why it skipped it. */
function rendered(format: RenderedFormat, node: ProxyNode): Json | { skipped: string } {
  const { body, skipped } = renderFormat(format, [node]);
  if (skipped.length > 0) return { skipped: skipped[0]?.reason ?? '' };
  if (format === 'mihomo') return ((parse(body) as Json).proxies as Json[])[0] as Json;
  if (format === 'xray') {
    const config = (JSON.parse(body) as Json[])[0] as Json;
    return (config.outbounds as Json[]).find((o) => o.tag === 'proxy') as Json;
  }
  const document = JSON.parse(body) as Json;
  return [...(document.outbounds as Json[]), ...((document.endpoints ?? []) as Json[])].find(
    (o) => !['Proxy', 'Auto', 'direct'].includes(String(o.tag)),
  ) as Json;
}

const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((current, key) => (current as Json | undefined)?.[key], value);
function has(value: unknown, path: string): boolean {
  const keys = path.split('.');
  const last = keys.pop() as string;
  const parent = keys.length > 0 ? at(value, keys.join('.')) : value;
  return typeof parent === 'object' && parent !== null && last in parent;
}

const FORMATS = ['mihomo', 'sing-box', 'xray'] as const;
const CASES = GOLDEN.flatMap((golden) =>
  FORMATS.flatMap((format) => {
    const expectation = golden[format];
    return expectation ? [{ id: golden.id, format, expectation }] : [];
  }),
);

describe('golden conversions', () => {
  it('cover at least 30 URIs from every source, each vector known', () => {
    expect(new Set(GOLDEN.map((g) => g.id)).size).toBeGreaterThanOrEqual(30);
    for (const golden of GOLDEN) expect(() => nodeOf(golden.id)).not.toThrow();
    expect(new Set(GOLDEN.map((g) => g.id[0]))).toEqual(new Set(['M', 'X', 'S', 'R']));
  });

  it.each(CASES)('$id -> $format', ({ id, format, expectation }) => {
    const result = rendered(format, nodeOf(id));
    if ('skipped' in expectation) {
      expect(result).toHaveProperty('skipped');
      expect((result as { skipped: string }).skipped).toMatch(expectation.skipped);
      return;
    }
    expect(result, JSON.stringify(result)).not.toHaveProperty('skipped');
    for (const [path, value] of Object.entries(expectation.fields))
      expect(at(result, path), `${id} ${format} ${path}`).toStrictEqual(value);
    for (const path of expectation.absent ?? []) expect(has(result, path), `${id} ${format} has ${path}`).toBe(false);
  });
});

describe('every golden vector, rendered together', () => {
  const nodes = PARSE_VECTORS.map((vector) => nodeOf(vector.id));

  it('makes a mihomo profile that passes meta-json-schema, proxy by proxy and whole, and the checks', () => {
    const document = parse(renderFormat('mihomo', nodes).body) as Json;
    for (const proxy of document.proxies as Json[]) expect(validateMihomoProxy(proxy), String(proxy.name)).toBeNull();
    expect(validateMihomoDocument(document)).toBeNull();
    expect(mihomoProblems(document)).toEqual([]);
  });

  it('makes a sing-box profile that passes the sing-box schema and the checks', () => {
    const document = JSON.parse(renderFormat('sing-box', nodes).body) as Json;
    expect(validateSingBoxDocument(document)).toBeNull();
    expect(singBoxProblems(document)).toEqual([]);
  });

  it('makes Xray configs whose proxy outbounds pass the outbound schema and the checks', () => {
    const configs = JSON.parse(renderFormat('xray', nodes).body) as Json[];
    for (const config of configs) {
      const proxy = (config.outbounds as Json[]).find((o) => o.tag === 'proxy');
      expect(validateXrayOutbound(proxy), String(config.remarks)).toBeNull();
    }
    expect(xrayProblems(configs)).toEqual([]);
  });
});
