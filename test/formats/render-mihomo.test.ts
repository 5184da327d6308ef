// The mihomo renderer: each protocol's keys as mihomo's docs/config.yaml names them, the schema, and the profile.
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProxyNode } from '../../src/formats/proxy.js';
import { renderFormat } from '../../src/formats/render/index.js';
import { mihomoProblems } from './render-checks.js';
import { CATALOGUE, PBK, PIN, SID, UUID, WG_PRIVATE, WG_PUBLIC } from './render-nodes.js';
import * as make from './render-nodes.js';
import { validateMihomoDocument, validateMihomoProxy } from './schemas.js';

type Json = Record<string, unknown>;
const PIN_COLONS = Array(32).fill('AB').join(':');

function render(nodes: ProxyNode[], template?: string) {
  const { body, skipped } = renderFormat('mihomo', nodes, template);
  return { document: parse(body) as Json, skipped, body };
}

/** The one proxy a node renders to, read back from the YAML text. */
function proxyOf(node: ProxyNode): Json {
  const { document, skipped } = render([node]);
  expect(skipped).toEqual([]);
  return (document.proxies as Json[])[0] as Json;
}

function skipReason(node: ProxyNode): string | undefined {
  const { document, skipped } = render([node]);
  expect(document.proxies).toEqual([]);
  return skipped[0]?.reason;
}

describe('mihomo proxies, protocol by protocol', () => {
  it('VLESS REALITY with Vision: uuid, flow, servername, client-fingerprint, reality-opts', () => {
    const tls = { serverName: 'www.microsoft.com', reality: { publicKey: PBK, shortId: SID } };
    expect(proxyOf(make.vless({ name: 'r', flow: 'xtls-rprx-vision', tls }))).toEqual({
      name: 'r',
      type: 'vless',
      server: 'vless.example.com',
      port: 443,
      uuid: UUID,
      udp: true,
      flow: 'xtls-rprx-vision',
      xudp: true,
      tls: true,
      servername: 'www.microsoft.com',
      'client-fingerprint': 'chrome',
      'reality-opts': { 'public-key': PBK, 'short-id': SID },
      network: 'tcp',
    });
  });

  it('VLESS over WebSocket takes early data out of the path', () => {
    const proxy = proxyOf(
      make.vless({ transport: { type: 'ws', path: '/ws?ed=2048', host: 'cdn.example.com' }, tls: { alpn: ['h2'] } }),
    );
    expect(proxy.network).toBe('ws');
    expect(proxy['ws-opts']).toEqual({
      path: '/ws',
      headers: { Host: 'cdn.example.com' },
      'max-early-data': 2048,
      'early-data-header-name': 'Sec-WebSocket-Protocol',
    });
    expect(proxy.alpn).toEqual(['h2']);
    expect(proxy).not.toHaveProperty('client-fingerprint');
  });

  it('HTTPUpgrade is ws with v2ray-http-upgrade, never network httpupgrade', () => {
    const proxy = proxyOf(make.vless({ transport: { type: 'httpupgrade', path: '/up', host: 'h.example.com' } }));
    expect(proxy.network).toBe('ws');
    expect(proxy['ws-opts']).toEqual({ path: '/up', 'v2ray-http-upgrade': true, headers: { Host: 'h.example.com' } });
  });

  it('gRPC, HTTP/2 and the TCP HTTP header', () => {
    expect(proxyOf(make.vless({ transport: { type: 'grpc', serviceName: 'svc' } }))['grpc-opts']).toEqual({
      'grpc-service-name': 'svc',
    });
    const h2 = proxyOf(make.vmess({ transport: { type: 'h2', path: '/h2', host: ['a.example.com'] }, tls: {} }));
    expect([h2.network, h2['h2-opts']]).toEqual(['h2', { path: '/h2', host: ['a.example.com'] }]);
    // mihomo converter.go writes a VMess `net: h2` link as network h2 with or without `tls` (docs/templates.md).
    const plain = proxyOf(make.vmess({ transport: { type: 'h2', path: '/', host: ['c.example.com'] } }));
    expect([plain.network, plain['h2-opts'], plain.tls]).toEqual([
      'h2',
      { path: '/', host: ['c.example.com'] },
      undefined,
    ]);
    const http = proxyOf(make.vmess({ transport: { type: 'http', host: ['b.example.com'], path: [], method: 'GET' } }));
    expect([http.network, http['http-opts']]).toEqual([
      'http',
      { path: ['/'], method: 'GET', headers: { Host: ['b.example.com'] } },
    ]);
  });

  it('XHTTP keeps path, host, mode and the extras mihomo has keys for; others skip the server', () => {
    const extra = JSON.stringify({ noGRPCHeader: true, xPaddingBytes: '100-1000' });
    const proxy = proxyOf(
      make.vless({ transport: { type: 'xhttp', path: '/x', host: 'x.example.com', mode: 'auto', extra } }),
    );
    expect([proxy.network, proxy['xhttp-opts']]).toEqual([
      'xhttp',
      { path: '/x', host: 'x.example.com', mode: 'auto', 'no-grpc-header': true, 'x-padding-bytes': '100-1000' },
    ]);
    const download = JSON.stringify({ downloadSettings: { address: 'd.example.com' } });
    expect(skipReason(make.vless({ transport: { type: 'xhttp', path: '/', extra: download } }))).toMatch(
      /downloadSettings/,
    );
    expect(skipReason(make.vmess({ transport: { type: 'xhttp', path: '/' } }))).toMatch(/xhttp/);
  });

  it('VLESS encryption and packet encodings', () => {
    expect(proxyOf(make.vless({ encryption: 'mlkem768x25519plus.native.0rtt.key' })).encryption).toBe(
      'mlkem768x25519plus.native.0rtt.key',
    );
    expect(proxyOf(make.vless())).not.toHaveProperty('encryption');
    const packet = proxyOf(make.vless({ packetEncoding: 'packetaddr' }));
    expect([packet['packet-addr'], packet.xudp]).toEqual([true, undefined]);
    const none = proxyOf(make.vless({ packetEncoding: 'none' }));
    expect([none['packet-addr'], none.xudp]).toEqual([undefined, undefined]);
    expect(proxyOf(make.vless({ flow: 'xtls-rprx-vision-udp443' })).flow).toBe('xtls-rprx-vision');
  });

  it('a custom VLESS id becomes the UUID Xray and mihomo derive from it', () => {
    // Xray-core common/uuid tests: "example" stands for feb54431-301b-52bb-a6dd-e1e93e81bb9e.
    expect(proxyOf(make.vless({ uuid: 'example' })).uuid).toBe('feb54431-301b-52bb-a6dd-e1e93e81bb9e');
    expect(skipReason(make.vless({ uuid: 'x'.repeat(31) }))).toMatch(/UUID/);
    expect(proxyOf(make.vless({ uuid: UUID.replace(/-/g, '').toUpperCase() })).uuid).toBe(UUID);
  });

  it('VMess: alterId, cipher, servername, fingerprint only when the link names one', () => {
    const proxy = proxyOf(
      make.vmess({
        alterId: 64,
        cipher: 'chacha20-poly1305',
        tls: { serverName: 'v.example.com', clientFingerprint: 'ios' },
      }),
    );
    expect(proxy).toMatchObject({ type: 'vmess', uuid: UUID, alterId: 64, cipher: 'chacha20-poly1305', tls: true });
    expect([proxy.servername, proxy['client-fingerprint'], proxy.udp]).toEqual(['v.example.com', 'ios', true]);
    expect(proxyOf(make.vmess({ cipher: 'aes-128-cfb' })).cipher).toBe('auto');
    expect(proxyOf(make.vmess())).not.toHaveProperty('tls');
  });

  it('Trojan uses sni, not servername; a certificate pin is fingerprint in colon form', () => {
    const proxy = proxyOf(
      make.trojan({ tls: { serverName: 't.example.com', insecure: true, alpn: ['h2'], pinnedCertSha256: PIN } }),
    );
    expect(proxy).toEqual({
      name: 'trojan node',
      type: 'trojan',
      server: 'trojan.example.com',
      port: 443,
      password: 'trojan-secret',
      udp: true,
      sni: 't.example.com',
      alpn: ['h2'],
      'skip-cert-verify': true,
      fingerprint: PIN_COLONS,
    });
    const ws = proxyOf(make.trojan({ transport: { type: 'ws', path: '/t', host: 'w.example.com' } }));
    expect(ws['ws-opts']).toEqual({ path: '/t', headers: { Host: 'w.example.com' } });
    expect(skipReason(make.trojan({ transport: { type: 'h2', path: '/', host: [] } }))).toMatch(/h2/);
  });

  it('Shadowsocks: cipher, udp-over-tcp, obfs and v2ray-plugin', () => {
    expect(proxyOf(make.ss({ udpOverTcp: true }))).toEqual({
      name: 'ss node',
      type: 'ss',
      server: '198.51.100.7',
      port: 8388,
      cipher: 'aes-256-gcm',
      password: 'ss-secret',
      udp: true,
      'udp-over-tcp': true,
    });
    const obfs = proxyOf(
      make.ss({ plugin: { name: 'obfs-local', options: { obfs: 'tls', 'obfs-host': 'bing.com' } } }),
    );
    expect([obfs.plugin, obfs['plugin-opts']]).toEqual(['obfs', { mode: 'tls', host: 'bing.com' }]);
    const v2 = proxyOf(
      make.ss({
        plugin: { name: 'v2ray-plugin', options: { host: 'v.example.com', path: '/v', tls: true, mux: '0' } },
      }),
    );
    expect(v2['plugin-opts']).toEqual({ mode: 'websocket', host: 'v.example.com', path: '/v', tls: true, mux: false });
    expect(skipReason(make.ss({ plugin: { name: 'kcptun', options: {} } }))).toMatch(/kcptun/);
    expect(skipReason(make.ss({ plugin: { name: 'v2ray-plugin', options: { mode: 'quic' } } }))).toMatch(/websocket/);
    expect(skipReason(make.ss({ method: 'des-cfb' }))).toMatch(/cipher/);
  });

  it('ShadowsocksR', () => {
    expect(proxyOf(make.ssr())).toEqual({
      name: 'ssr node',
      type: 'ssr',
      server: 'ssr.example.com',
      port: 8989,
      cipher: 'chacha20-ietf',
      password: 'ssr-secret',
      obfs: 'tls1.2_ticket_auth',
      protocol: 'auth_aes128_sha1',
      'obfs-param': 'cdn.example.com',
      'protocol-param': '64#user',
      udp: true,
    });
  });

  it('Hysteria v1: auth-str, protocol, up/down with units, ports; no speeds means skipped', () => {
    const proxy = proxyOf(
      make.hysteria({ ports: '8443,9000-9100', obfs: 'o', tls: { serverName: 'h', insecure: true } }),
    );
    expect(proxy).toEqual({
      name: 'hysteria node',
      type: 'hysteria',
      server: 'hy.example.com',
      port: 8443,
      ports: '8443,9000-9100',
      'auth-str': 'hy-auth',
      protocol: 'udp',
      up: '50',
      down: '200',
      obfs: 'o',
      sni: 'h',
      'skip-cert-verify': true,
    });
    expect(skipReason(make.hysteria({ upMbps: undefined }))).toMatch(/up\/down/);
  });

  it('Hysteria2: ports, salamander, sni, pin', () => {
    const proxy = proxyOf(
      make.hysteria2({
        ports: '443,20000-30000',
        obfs: { type: 'salamander', password: 'op' },
        upMbps: 30,
        tls: { serverName: 's.example.com', alpn: ['h3'], pinnedCertSha256: PIN },
      }),
    );
    expect(proxy).toEqual({
      name: 'hy2 node',
      type: 'hysteria2',
      server: 'hy2.example.com',
      port: 443,
      ports: '443,20000-30000',
      password: 'hy2-secret',
      obfs: 'salamander',
      'obfs-password': 'op',
      up: '30',
      sni: 's.example.com',
      alpn: ['h3'],
      fingerprint: PIN_COLONS,
    });
    expect(skipReason(make.hysteria2({ ports: '443,70000' }))).toMatch(/port/);
  });

  it('TUIC v5 and v4', () => {
    expect(proxyOf(make.tuic({ tls: { serverName: 'q.example.com', alpn: ['h3'], disableSni: true } }))).toEqual({
      name: 'tuic node',
      type: 'tuic',
      server: 'tuic.example.com',
      port: 10443,
      uuid: UUID,
      password: 'tuic-secret',
      'congestion-controller': 'bbr',
      'udp-relay-mode': 'native',
      'disable-sni': true,
      udp: true,
      sni: 'q.example.com',
      alpn: ['h3'],
    });
    const v4 = proxyOf(make.tuic({ uuid: undefined, password: undefined, token: 'tok' }));
    expect([v4.token, v4.uuid]).toEqual(['tok', undefined]);
  });

  it('WireGuard: ip and ipv6 without prefix, keys, reserved, mtu', () => {
    expect(proxyOf(make.wireguard({ reserved: [1, 2, 3], mtu: 1280, preSharedKey: WG_PUBLIC }))).toEqual({
      name: 'wg node',
      type: 'wireguard',
      server: '162.159.192.1',
      port: 2408,
      ip: '172.16.0.2',
      ipv6: 'fd01:5ca1:ab1e:80fa::2',
      'private-key': WG_PRIVATE,
      'public-key': WG_PUBLIC,
      'pre-shared-key': WG_PUBLIC,
      reserved: [1, 2, 3],
      mtu: 1280,
      udp: true,
    });
    expect(skipReason(make.wireguard({ addresses: [] }))).toMatch(/address/);
  });

  it('SOCKS is socks5; AnyTLS takes sni, skip-cert-verify and fingerprints', () => {
    expect(proxyOf(make.socks({ username: 'u', password: 'p' }))).toEqual({
      name: 'socks node',
      type: 'socks5',
      server: 'socks.example.com',
      port: 1080,
      username: 'u',
      password: 'p',
      udp: true,
    });
    expect(
      proxyOf(
        make.anytls({ tls: { serverName: 'a', insecure: true, clientFingerprint: 'safari', pinnedCertSha256: PIN } }),
      ),
    ).toEqual({
      name: 'anytls node',
      type: 'anytls',
      server: 'anytls.example.com',
      port: 443,
      password: 'anytls-secret',
      udp: true,
      sni: 'a',
      'skip-cert-verify': true,
      fingerprint: PIN_COLONS,
      'client-fingerprint': 'safari',
    });
  });

  it('REALITY keys every core refuses skip the server', () => {
    const short = Buffer.alloc(31).toString('base64url');
    expect(skipReason(make.vless({ tls: { reality: { publicKey: short } } }))).toMatch(/32 bytes/);
    expect(skipReason(make.vless({ tls: { reality: { publicKey: PBK, shortId: 'abc' } } }))).toMatch(/short id/);
    // Standard base64 of a good key is rewritten to the base64url the cores decode.
    const standard = `${Buffer.from(PBK, 'base64url').toString('base64')}`;
    const reality = proxyOf(make.vless({ tls: { reality: { publicKey: standard } } }))['reality-opts'] as Json;
    expect(reality['public-key']).toBe(PBK);
  });
});

describe('mihomo documents', () => {
  let rendered: ReturnType<typeof render>;
  beforeAll(() => {
    rendered = render(CATALOGUE);
  });

  it('render every catalogue server mihomo supports', () => {
    expect(rendered.skipped.map((s) => s.reason)).toEqual([]);
    expect((rendered.document.proxies as Json[]).length).toBe(CATALOGUE.length);
  });

  it('each proxy passes its own meta-json-schema definition', () => {
    for (const proxy of rendered.document.proxies as Json[])
      expect(validateMihomoProxy(proxy), String(proxy.name)).toBeNull();
  });

  it('the whole document passes meta-json-schema', () => {
    expect(validateMihomoDocument(rendered.document)).toBeNull();
  });

  it('has no duplicate or dangling names, integer ports and dashed keys only', () => {
    expect(mihomoProblems(rendered.document)).toEqual([]);
  });

  it('the schema and checks catch what they should (a converter-style proxy fails)', () => {
    const bad = { name: 'x', type: 'vless', server: 's', port: 1, uuid: UUID, network: 'httpupgrade' };
    expect(validateMihomoProxy(bad)).toMatch(/network/);
    expect(validateMihomoDocument({ proxies: [bad] })).not.toBeNull();
    expect(validateMihomoDocument({ proxies: [{ ...bad, network: 'ws', port: '443' }] })).toBeNull();
    expect(
      mihomoProblems({ proxies: [bad, { ...bad, port: '1' }], 'proxy-groups': [{ name: 'G', proxies: ['y'] }] }),
    ).toEqual([
      'duplicate name x',
      'group G lists unknown y',
      'x: network httpupgrade',
      'x: port is not an integer',
      'x: network httpupgrade',
    ]);
  });

  it('fills the built-in groups: Proxy holds Auto and every server, Auto every server, MATCH goes to Proxy', () => {
    const { document } = render([make.ss({ name: 'a' }), make.ss({ name: 'b' })]);
    expect(document['proxy-groups']).toEqual([
      { name: 'Proxy', type: 'select', proxies: ['Auto', 'a', 'b'] },
      {
        name: 'Auto',
        type: 'url-test',
        proxies: ['a', 'b'],
        url: 'https://www.gstatic.com/generate_204',
        interval: 300,
        tolerance: 50,
      },
    ]);
    expect(document.rules).toEqual(['MATCH,Proxy']);
    expect(document['mixed-port']).toBe(7890);
  });

  it('with no servers left, a group of only the marker falls back to DIRECT and the profile is still valid', () => {
    const { document, skipped } = render([make.vless({ tls: { reality: { publicKey: 'short' } } })]);
    expect(skipped).toHaveLength(1);
    expect(document.proxies).toEqual([]);
    expect((document['proxy-groups'] as Json[]).map((g) => g.proxies)).toEqual([['Auto'], ['DIRECT']]);
    expect(validateMihomoDocument(document)).toBeNull();
    expect(mihomoProblems(document)).toEqual([]);
  });

  it('names that would clash get suffixes: repeats, group names and reserved words', () => {
    const nodes = ['A', 'A', 'A 2', 'Proxy', 'DIRECT', 'Auto', ''].map((name) => make.ss({ name }));
    const { document } = render(nodes);
    expect((document.proxies as Json[]).map((p) => p.name)).toEqual([
      'A',
      'A 2',
      'A 2 2',
      'Proxy 2',
      'DIRECT 2',
      'Auto 2',
      'shadowsocks 198.51.100.7:8388',
    ]);
    expect(mihomoProblems(document)).toEqual([]);
  });

  it('writes YAML that reads back to the same strings, whatever the name holds', () => {
    const names = ['yes', 'No', '~', 'null', '0x1F', '1e3', '- dash', 'a: b', '#hash', "it's", '"q"', ' pad ', 'é 🇩🇪'];
    const odd = ['tab\there', 'line\nbreak', 'nel\u0085x', 'ls\u2028x', 'del\u007fx', '{flow}', '*alias', '&anchor'];
    const nodes = [...names, ...odd].map((name) => make.ss({ name, password: name }));
    const { document } = render(nodes);
    expect((document.proxies as Json[]).map((p) => [p.name, p.password])).toEqual(
      [...names, ...odd].map((name) => [name, name]),
    );
    expect(((document['proxy-groups'] as Json[])[1] as Json).proxies).toEqual([...names, ...odd]);
  });

  it('replaces a lone surrogate, which YAML readers refuse even escaped, in proxies and in groups', () => {
    // The password is a backslash, the text "ud800", then a lone low surrogate: only the surrogate goes.
    const { document, body } = render([make.ss({ name: 'a\ud800b', password: '\\ud800\udc00' })]);
    expect(body).not.toMatch(/(?<!\\)(?:\\\\)*\\ud[89a-f]/i);
    expect((document.proxies as Json[])[0]).toMatchObject({ name: 'a\ufffdb', password: '\\ud800\ufffd' });
    expect(((document['proxy-groups'] as Json[])[1] as Json).proxies).toEqual(['a\ufffdb']);
  });

  it('writes one proxy per line in JSON flow form, keys in their canonical order', () => {
    const { body } = render([make.ss({ name: 'a' }), make.ss({ name: 'b' })]);
    const lines = body.split('\n').filter((line) => line.startsWith('  - {'));
    expect(lines).toEqual([
      '  - {"name":"a","type":"ss","server":"198.51.100.7","port":8388,"cipher":"aes-256-gcm","password":"ss-secret","udp":true}',
      '  - {"name":"b","type":"ss","server":"198.51.100.7","port":8388,"cipher":"aes-256-gcm","password":"ss-secret","udp":true}',
    ]);
  });
});
