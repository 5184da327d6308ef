// The sing-box renderer: 1.12+ outbound keys per protocol, WireGuard as an endpoint, the schema and the profile.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProxyNode } from '../../src/formats/proxy.js';
import { BUILTIN_TEMPLATES, renderFormat } from '../../src/formats/render/index.js';
import { singBoxProblems } from './render-checks.js';
import { CATALOGUE, PBK, PIN, SID, UUID, WG_PRIVATE, WG_PUBLIC } from './render-nodes.js';
import * as make from './render-nodes.js';
import { validateSingBoxDocument, validateSingBoxOutbound } from './schemas.js';

type Json = Record<string, unknown>;

function render(nodes: ProxyNode[], template?: string) {
  const { body, skipped } = renderFormat('sing-box', nodes, template);
  return { document: JSON.parse(body) as Json, skipped };
}

const TEMPLATE_TAGS = new Set(['Proxy', 'Auto', 'direct']);
const servers = (document: Json): Json[] => [
  ...(document.outbounds as Json[]).filter((o) => !TEMPLATE_TAGS.has(String(o.tag))),
  ...((document.endpoints ?? []) as Json[]),
];

function outboundOf(node: ProxyNode): Json {
  const { document, skipped } = render([node]);
  expect(skipped).toEqual([]);
  return servers(document)[0] as Json;
}

function skipReason(node: ProxyNode): string | undefined {
  const { document, skipped } = render([node]);
  expect(servers(document)).toEqual([]);
  return skipped[0]?.reason;
}

describe('sing-box outbounds, protocol by protocol', () => {
  it('VLESS REALITY: uuid, flow, xudp, and REALITY always with uTLS', () => {
    const tls = { serverName: 'www.microsoft.com', reality: { publicKey: PBK, shortId: SID } };
    expect(outboundOf(make.vless({ name: 'r', flow: 'xtls-rprx-vision', tls }))).toEqual({
      type: 'vless',
      tag: 'r',
      server: 'vless.example.com',
      server_port: 443,
      uuid: UUID,
      flow: 'xtls-rprx-vision',
      packet_encoding: 'xudp',
      tls: {
        enabled: true,
        server_name: 'www.microsoft.com',
        utls: { enabled: true, fingerprint: 'chrome' },
        reality: { enabled: true, public_key: PBK, short_id: SID },
      },
    });
  });

  it('VLESS over WebSocket: early data leaves the path; fingerprints and ALPN go to tls', () => {
    const node = make.vless({
      transport: { type: 'ws', path: '/ws?ed=2560', host: 'cdn.example.com' },
      tls: { serverName: 'cdn.example.com', alpn: ['http/1.1'], clientFingerprint: 'firefox', insecure: true },
    });
    const outbound = outboundOf(node);
    expect(outbound.transport).toEqual({
      type: 'ws',
      path: '/ws',
      headers: { Host: 'cdn.example.com' },
      max_early_data: 2560,
      early_data_header_name: 'Sec-WebSocket-Protocol',
    });
    expect(outbound.tls).toEqual({
      enabled: true,
      server_name: 'cdn.example.com',
      insecure: true,
      alpn: ['http/1.1'],
      utls: { enabled: true, fingerprint: 'firefox' },
    });
  });

  it('HTTPUpgrade, gRPC, HTTP/2 over TLS and the TCP HTTP header', () => {
    expect(
      outboundOf(make.vless({ transport: { type: 'httpupgrade', path: '/u', host: 'u.example.com' } })).transport,
    ).toEqual({ type: 'httpupgrade', path: '/u', host: 'u.example.com' });
    expect(outboundOf(make.vless({ transport: { type: 'grpc', serviceName: 'g' } })).transport).toEqual({
      type: 'grpc',
      service_name: 'g',
    });
    expect(
      outboundOf(make.vmess({ transport: { type: 'h2', path: '/h', host: ['a.example.com'] }, tls: {} })).transport,
    ).toEqual({ type: 'http', path: '/h', host: ['a.example.com'] });
    expect(
      outboundOf(make.vmess({ transport: { type: 'http', host: ['b.example.com'], path: ['/p'], method: 'GET' } }))
        .transport,
    ).toEqual({ type: 'http', host: ['b.example.com'], path: '/p', method: 'GET' });
    // sing-box's `http` transport without TLS is plain HTTP (its V2Ray transport docs); the link's h2 is kept.
    expect(outboundOf(make.vmess({ transport: { type: 'h2', path: '/', host: [] } })).transport).toEqual({
      type: 'http',
      path: '/',
    });
  });

  it('skips what sing-box lacks: XHTTP, mKCP, QUIC, VLESS encryption', () => {
    expect(skipReason(make.vless({ transport: { type: 'xhttp', path: '/' } }))).toMatch(/xhttp/);
    expect(skipReason(make.vless({ transport: { type: 'kcp' } }))).toMatch(/kcp/);
    expect(skipReason(make.vmess({ transport: { type: 'quic' } }))).toMatch(/quic/);
    expect(skipReason(make.vless({ encryption: 'mlkem768x25519plus.native.0rtt.key' }))).toMatch(/encryption/);
  });

  it('VMess: security and alter_id; packet encodings of VLESS', () => {
    expect(outboundOf(make.vmess({ alterId: 4, cipher: 'zero' }))).toEqual({
      type: 'vmess',
      tag: 'vmess node',
      server: 'vmess.example.com',
      server_port: 443,
      uuid: UUID,
      security: 'zero',
      alter_id: 4,
    });
    expect(outboundOf(make.vless({ packetEncoding: 'packetaddr' })).packet_encoding).toBe('packetaddr');
    expect(outboundOf(make.vless({ packetEncoding: 'none' })).packet_encoding).toBe('');
  });

  it('Trojan always has TLS; a pin is dropped when the certificate is verified, and skips the server when not', () => {
    expect(outboundOf(make.trojan({ tls: { serverName: 't', pinnedCertSha256: PIN } }))).toEqual({
      type: 'trojan',
      tag: 'trojan node',
      server: 'trojan.example.com',
      server_port: 443,
      password: 'trojan-secret',
      tls: { enabled: true, server_name: 't' },
    });
    expect(skipReason(make.trojan({ tls: { insecure: true, pinnedCertSha256: PIN } }))).toMatch(/pinning/);
  });

  it('Shadowsocks: method, SIP003 plugin text, udp_over_tcp', () => {
    expect(
      outboundOf(
        make.ss({ udpOverTcp: true, plugin: { name: 'obfs-local', options: { obfs: 'http', 'obfs-host': 'b.com' } } }),
      ),
    ).toEqual({
      type: 'shadowsocks',
      tag: 'ss node',
      server: '198.51.100.7',
      server_port: 8388,
      method: 'aes-256-gcm',
      password: 'ss-secret',
      plugin: 'obfs-local',
      plugin_opts: 'obfs=http;obfs-host=b.com',
      udp_over_tcp: { enabled: true },
    });
    const v2 = outboundOf(
      make.ss({ plugin: { name: 'v2ray-plugin', options: { mode: 'websocket', tls: true, host: 'h' } } }),
    );
    expect([v2.plugin, v2.plugin_opts]).toEqual(['v2ray-plugin', 'mode=websocket;tls;host=h']);
    expect(outboundOf(make.ss({ plugin: { name: 'simple-obfs', options: { obfs: 'tls' } } })).plugin).toBe(
      'obfs-local',
    );
    expect(skipReason(make.ss({ plugin: { name: 'kcptun', options: {} } }))).toMatch(/kcptun/);
    expect(skipReason(make.ss({ method: 'des-cfb' }))).toMatch(/cipher/);
    expect(skipReason(make.ssr())).toMatch(/ShadowsocksR/);
  });

  it('Hysteria v1: server_ports with ":", speeds in Mbps, auth_str; faketcp and missing speeds skip', () => {
    expect(outboundOf(make.hysteria({ ports: '8443,9000-9100', obfs: 'o' }))).toEqual({
      type: 'hysteria',
      tag: 'hysteria node',
      server: 'hy.example.com',
      server_port: 8443,
      server_ports: ['8443:8443', '9000:9100'],
      up_mbps: 50,
      down_mbps: 200,
      auth_str: 'hy-auth',
      obfs: 'o',
      tls: { enabled: true, server_name: 'hy.example.com', alpn: ['hysteria'] },
    });
    expect(skipReason(make.hysteria({ transportProtocol: 'faketcp' }))).toMatch(/faketcp/);
    expect(skipReason(make.hysteria({ downMbps: undefined }))).toMatch(/up\/down/);
  });

  it('Hysteria2: server_ports, salamander, speeds; no uTLS over QUIC', () => {
    const node = make.hysteria2({
      ports: '443,20000-30000',
      obfs: { type: 'salamander', password: 'op' },
      upMbps: 100,
      downMbps: 500,
      tls: { serverName: 's.example.com', insecure: true, clientFingerprint: 'chrome' },
    });
    expect(outboundOf(node)).toEqual({
      type: 'hysteria2',
      tag: 'hy2 node',
      server: 'hy2.example.com',
      server_port: 443,
      server_ports: ['443:443', '20000:30000'],
      up_mbps: 100,
      down_mbps: 500,
      obfs: { type: 'salamander', password: 'op' },
      password: 'hy2-secret',
      tls: { enabled: true, server_name: 's.example.com', insecure: true },
    });
  });

  it('TUIC v5; v4 is skipped', () => {
    expect(outboundOf(make.tuic({ tls: { serverName: 'q', alpn: ['h3'], disableSni: true } }))).toEqual({
      type: 'tuic',
      tag: 'tuic node',
      server: 'tuic.example.com',
      server_port: 10443,
      uuid: UUID,
      password: 'tuic-secret',
      congestion_control: 'bbr',
      udp_relay_mode: 'native',
      tls: { enabled: true, disable_sni: true, server_name: 'q', alpn: ['h3'] },
    });
    expect(skipReason(make.tuic({ uuid: undefined, password: undefined, token: 't' }))).toMatch(/v4/);
  });

  it('WireGuard is an endpoint with a peer, never an outbound', () => {
    const { document } = render([
      make.wireguard({ reserved: [1, 2, 3], mtu: 1280, addresses: ['10.0.0.2', 'fd00::2'] }),
    ]);
    expect((document.outbounds as Json[]).some((o) => o.type === 'wireguard')).toBe(false);
    expect(document.endpoints).toEqual([
      {
        type: 'wireguard',
        tag: 'wg node',
        address: ['10.0.0.2/32', 'fd00::2/128'],
        private_key: WG_PRIVATE,
        mtu: 1280,
        peers: [
          {
            address: '162.159.192.1',
            port: 2408,
            public_key: WG_PUBLIC,
            allowed_ips: ['0.0.0.0/0', '::/0'],
            reserved: [1, 2, 3],
          },
        ],
      },
    ]);
  });

  it('SOCKS 5 and AnyTLS', () => {
    expect(outboundOf(make.socks({ username: 'u', password: 'p' }))).toEqual({
      type: 'socks',
      tag: 'socks node',
      server: 'socks.example.com',
      server_port: 1080,
      version: '5',
      username: 'u',
      password: 'p',
    });
    expect(outboundOf(make.anytls({ tls: { serverName: 'a', clientFingerprint: 'edge' } }))).toEqual({
      type: 'anytls',
      tag: 'anytls node',
      server: 'anytls.example.com',
      server_port: 443,
      password: 'anytls-secret',
      tls: { enabled: true, server_name: 'a', utls: { enabled: true, fingerprint: 'edge' } },
    });
  });

  it('REALITY keys that are not 32 bytes skip the server', () => {
    const long = Buffer.alloc(33).toString('base64url');
    expect(skipReason(make.vless({ tls: { reality: { publicKey: long } } }))).toMatch(/32 bytes/);
  });
});

describe('sing-box documents', () => {
  let rendered: ReturnType<typeof render>;
  beforeAll(() => {
    rendered = render(CATALOGUE);
  });

  it('skip exactly what sing-box lacks from the catalogue', () => {
    expect(rendered.skipped.map((s) => s.reason).sort()).toEqual([
      'ShadowsocksR was removed from sing-box',
      'TUIC v4 is not supported by sing-box',
      'xhttp transport is not supported by sing-box',
    ]);
  });

  it('each outbound and endpoint passes its own schema definition', () => {
    for (const outbound of [...(rendered.document.outbounds as Json[]), ...(rendered.document.endpoints as Json[])])
      expect(validateSingBoxOutbound(outbound), String(outbound.tag)).toBeNull();
  });

  it('the whole document passes the sing-box schema', () => {
    expect(validateSingBoxDocument(rendered.document)).toBeNull();
  });

  it('has unique tags, resolvable references, endpoints for WireGuard, REALITY with uTLS, ports with ":"', () => {
    expect(singBoxProblems(rendered.document)).toEqual([]);
  });

  it('the schema and checks catch what they should', () => {
    const bad = { type: 'vless', tag: 'x', server: 's', server_port: '443', uuid: UUID };
    expect(validateSingBoxOutbound(bad)).toMatch(/server_port/);
    expect(validateSingBoxDocument({ outbounds: [{ ...bad, transport: { type: 'xhttp' } }] })).not.toBeNull();
    const reality = { enabled: true, reality: { enabled: true, public_key: PBK } };
    const document = {
      outbounds: [
        { type: 'selector', tag: 'S', outbounds: ['x', 'missing'] },
        { ...bad, tls: reality },
        { type: 'wireguard', tag: 'x', server_ports: ['443'] },
      ],
      route: { final: 'nowhere' },
    };
    expect(singBoxProblems(document)).toEqual([
      'duplicate tag x',
      'S lists unknown missing',
      'x: server_port is not a number',
      'x: REALITY without uTLS',
      'x: wireguard outbound is removed in sing-box 1.13',
      "x: server_ports entry 443 lacks ':'",
      'route.final nowhere unknown',
    ]);
  });

  it('fills the built-in selector and urltest and routes to Proxy', () => {
    const { document } = render([make.ss({ name: 'a' }), make.wireguard({ name: 'w' })]);
    const groups = (document.outbounds as Json[]).slice(0, 3);
    expect(groups.map((g) => [g.type, g.tag, g.outbounds])).toEqual([
      ['selector', 'Proxy', ['Auto', 'a', 'w']],
      ['urltest', 'Auto', ['a', 'w']],
      ['direct', 'direct', undefined],
    ]);
    expect((document.route as Json).final).toBe('Proxy');
    expect(((document.dns as Json).servers as Json[]).map((s) => s.type)).toEqual(['https', 'local']);
    expect((document.inbounds as Json[]).map((i) => i.type)).toEqual(['tun', 'mixed']);
  });

  it('with no servers left, groups fall back to direct and the document still validates', () => {
    const { document } = render([make.ssr()]);
    expect((document.outbounds as Json[]).map((o) => o.outbounds ?? null)).toEqual([['Auto'], ['direct'], null]);
    expect(document).not.toHaveProperty('endpoints');
    expect(validateSingBoxDocument(document)).toBeNull();
    expect(singBoxProblems(document)).toEqual([]);
  });

  it('adds a direct outbound for the fallback when a template has none', () => {
    const template = JSON.stringify({ outbounds: [{ type: 'urltest', tag: 'best', outbounds: ['{{servers}}'] }] });
    expect(render([], template).document.outbounds).toEqual([
      { type: 'urltest', tag: 'best', outbounds: ['direct'] },
      { type: 'direct', tag: 'direct' },
    ]);
    // "direct" stays free for that outbound, so a server named so is renamed.
    const named = render([make.ss({ name: 'direct' })], template).document;
    expect((named.outbounds as Json[]).map((o) => o.tag)).toEqual(['best', 'direct 2']);
  });

  it('tags are unique across outbounds and endpoints and never a template tag', () => {
    const nodes = [
      make.ss({ name: 'Proxy' }),
      make.wireguard({ name: 'x' }),
      make.ss({ name: 'x' }),
      make.ss({ name: 'direct' }),
    ];
    const tags = servers(render(nodes).document).map((o) => o.tag);
    expect(tags.sort()).toEqual(['Proxy 2', 'direct 2', 'x', 'x 2'].sort());
  });

  it('the built-in template is a valid sing-box document by itself', () => {
    const template = JSON.parse(BUILTIN_TEMPLATES['sing-box']) as Json;
    const filled = JSON.parse(JSON.stringify(template).replaceAll('"{{servers}}"', '"direct"'));
    expect(validateSingBoxDocument(filled)).toBeNull();
  });
});
