// The Xray renderer: one complete config per server, the proxy outbound in infra/conf keys, nothing Xray removed.
import { describe, expect, it } from 'vitest';
import type { ProxyNode } from '../../src/formats/proxy.js';
import { BUILTIN_TEMPLATES, renderFormat } from '../../src/formats/render/index.js';
import { xrayProblems } from './render-checks.js';
import { CATALOGUE, PBK, PIN, SID, UUID, WG_PRIVATE, WG_PUBLIC } from './render-nodes.js';
import * as make from './render-nodes.js';
import { validateXrayOutbound } from './xray-schema.js';

type Json = Record<string, unknown>;

function render(nodes: ProxyNode[], template?: string) {
  const { body, skipped } = renderFormat('xray', nodes, template);
  return { configs: JSON.parse(body) as Json[], skipped, body };
}

const proxyOutbound = (config: Json): Json => (config.outbounds as Json[]).find((o) => o.tag === 'proxy') as Json;

function outboundOf(node: ProxyNode): Json {
  const { configs, skipped } = render([node]);
  expect(skipped).toEqual([]);
  return proxyOutbound(configs[0] as Json);
}

function skipReason(node: ProxyNode): string | undefined {
  const { configs, skipped } = render([node]);
  expect(configs).toEqual([]);
  return skipped[0]?.reason;
}

describe('Xray proxy outbounds, protocol by protocol', () => {
  it('VLESS REALITY Vision: vnext user, realitySettings with a fingerprint', () => {
    const tls = { serverName: 'www.microsoft.com', reality: { publicKey: PBK, shortId: SID, spiderX: '/s' } };
    expect(outboundOf(make.vless({ flow: 'xtls-rprx-vision', tls }))).toEqual({
      tag: 'proxy',
      protocol: 'vless',
      settings: {
        vnext: [
          {
            address: 'vless.example.com',
            port: 443,
            users: [{ id: UUID, encryption: 'none', flow: 'xtls-rprx-vision' }],
          },
        ],
      },
      streamSettings: {
        network: 'tcp',
        security: 'reality',
        realitySettings: {
          serverName: 'www.microsoft.com',
          fingerprint: 'chrome',
          publicKey: PBK,
          shortId: SID,
          spiderX: '/s',
        },
      },
    });
  });

  it('VLESS keeps ML-KEM encryption and custom ids as they are', () => {
    const users = (
      outboundOf(make.vless({ uuid: 'my-id', encryption: 'mlkem768x25519plus.native.0rtt.k' })).settings as Json
    ).vnext as Json[];
    expect(users[0]?.users).toEqual([{ id: 'my-id', encryption: 'mlkem768x25519plus.native.0rtt.k' }]);
  });

  it('TLS: serverName, alpn, fingerprint, pin; insecure only with a pin or the admin setting', () => {
    const node = make.vless({
      tls: {
        serverName: 's',
        alpn: ['h2'],
        clientFingerprint: 'firefox',
        insecure: true,
        pinnedCertSha256: PIN.toUpperCase(),
      },
    });
    expect(outboundOf(node).streamSettings).toEqual({
      network: 'tcp',
      security: 'tls',
      tlsSettings: { serverName: 's', alpn: ['h2'], fingerprint: 'firefox', pinnedPeerCertSha256: PIN },
    });
    expect(skipReason(make.vless({ tls: { insecure: true } }))).toBe('insecure_tls');
  });

  it('WebSocket keeps early data in the path; HTTPUpgrade, gRPC, XHTTP and the TCP HTTP header', () => {
    const ws = outboundOf(make.vless({ transport: { type: 'ws', path: '/ws', host: 'h', maxEarlyData: 2048 } }));
    expect(ws.streamSettings).toEqual({
      network: 'ws',
      wsSettings: { path: '/ws?ed=2048', host: 'h' },
      security: 'none',
    });
    const custom = make.vless({
      transport: { type: 'ws', path: '/ws', maxEarlyData: 2048, earlyDataHeaderName: 'X-Ed' },
    });
    expect((outboundOf(custom).streamSettings as Json).wsSettings).toEqual({ path: '/ws' });
    expect(
      (outboundOf(make.vless({ transport: { type: 'httpupgrade', path: '/u', host: 'u' } })).streamSettings as Json)
        .httpupgradeSettings,
    ).toEqual({ path: '/u', host: 'u' });
    const grpc = make.vmess({
      transport: { type: 'grpc', serviceName: 'g', authority: 'a.example.com', multiMode: true },
    });
    expect((outboundOf(grpc).streamSettings as Json).grpcSettings).toEqual({
      serviceName: 'g',
      authority: 'a.example.com',
      multiMode: true,
    });
    const extra = JSON.stringify({ xPaddingBytes: '100-1000', downloadSettings: { address: 'd.example.com' } });
    const xhttp = make.vless({ transport: { type: 'xhttp', path: '/x', host: 'x', mode: 'stream-up', extra } });
    expect((outboundOf(xhttp).streamSettings as Json).xhttpSettings).toEqual({
      path: '/x',
      host: 'x',
      mode: 'stream-up',
      extra: { xPaddingBytes: '100-1000', downloadSettings: { address: 'd.example.com' } },
    });
    expect(skipReason(make.vless({ transport: { type: 'xhttp', path: '/', extra: '{bad' } }))).toMatch(/JSON/);
    const http = make.vmess({ transport: { type: 'http', host: ['a.com', 'b.com'], path: ['/p'] } });
    expect((outboundOf(http).streamSettings as Json).tcpSettings).toEqual({
      header: { type: 'http', request: { path: ['/p'], headers: { Host: ['a.com', 'b.com'] } } },
    });
  });

  it('skips the transports Xray removed, and mKCP with a header or seed', () => {
    expect(skipReason(make.vless({ transport: { type: 'h2', path: '/', host: [] }, tls: {} }))).toBe(
      'unsupported_transport',
    );
    expect(skipReason(make.vmess({ transport: { type: 'quic' } }))).toBe('unsupported_transport');
    expect(skipReason(make.vless({ transport: { type: 'kcp', seed: 's' } }))).toMatch(/mKCP/);
    expect(outboundOf(make.vless({ transport: { type: 'kcp', headerType: 'none' } })).streamSettings).toEqual({
      network: 'kcp',
      kcpSettings: {},
      security: 'none',
    });
  });

  it('VMess: AEAD only (alterId 0), security as the link says', () => {
    expect(outboundOf(make.vmess({ cipher: 'chacha20-poly1305' })).settings).toEqual({
      vnext: [{ address: 'vmess.example.com', port: 443, users: [{ id: UUID, security: 'chacha20-poly1305' }] }],
    });
    const none = (outboundOf(make.vmess({ cipher: 'none' })).settings as Json).vnext as Json[];
    expect((none[0]?.users as Json[])[0]?.security).toBe('none');
    expect(skipReason(make.vmess({ alterId: 64 }))).toMatch(/alterId/);
  });

  it('Trojan, Shadowsocks, SOCKS and WireGuard settings', () => {
    expect(outboundOf(make.trojan()).settings).toEqual({
      servers: [{ address: 'trojan.example.com', port: 443, password: 'trojan-secret' }],
    });
    expect(outboundOf(make.ss({ method: 'chacha20-ietf-poly1305' }))).toEqual({
      tag: 'proxy',
      protocol: 'shadowsocks',
      settings: {
        servers: [{ address: '198.51.100.7', port: 8388, method: 'chacha20-ietf-poly1305', password: 'ss-secret' }],
      },
      streamSettings: { network: 'tcp' },
    });
    expect(skipReason(make.ss({ method: 'rc4-md5' }))).toMatch(/cipher/);
    expect(skipReason(make.ss({ plugin: { name: 'obfs-local', options: { obfs: 'http' } } }))).toMatch(/plugin/);
    expect(outboundOf(make.socks({ username: 'u', password: 'p' })).settings).toEqual({
      servers: [{ address: 'socks.example.com', port: 1080, users: [{ user: 'u', pass: 'p' }] }],
    });
    expect(outboundOf(make.socks()).settings).toEqual({ servers: [{ address: 'socks.example.com', port: 1080 }] });
    const wg = make.wireguard({
      server: '2001:db8::1',
      addresses: ['10.0.0.2', 'fd00::2/128'],
      mtu: 1420,
      reserved: [1, 2, 3],
    });
    expect(outboundOf(wg)).toEqual({
      tag: 'proxy',
      protocol: 'wireguard',
      settings: {
        secretKey: WG_PRIVATE,
        address: ['10.0.0.2/32', 'fd00::2/128'],
        peers: [{ publicKey: WG_PUBLIC, endpoint: '[2001:db8::1]:2408' }],
        mtu: 1420,
        reserved: [1, 2, 3],
      },
    });
  });

  it('skips what Xray cannot run; Hysteria2 because most clients run Xray older than v26.1.13', () => {
    expect(skipReason(make.hysteria2())).toBe('Hysteria2 needs Xray v26.1.13 or newer');
    for (const node of [make.ssr(), make.hysteria(), make.tuic(), make.anytls()])
      expect(skipReason(node)).toMatch(/not supported by Xray/);
  });
});

describe('Xray documents', () => {
  it('are an array of complete configs, one per server, remarks = name, the proxy outbound first', () => {
    const { configs } = render([make.ss({ name: 'a' }), make.vless({ name: 'b' })]);
    const template = JSON.parse(BUILTIN_TEMPLATES.xray) as Json;
    expect(configs.map((c) => c.remarks)).toEqual(['a', 'b']);
    for (const config of configs) {
      expect(Object.keys(config)).toEqual(['remarks', ...Object.keys(template)]);
      expect((config.outbounds as Json[]).map((o) => o.tag)).toEqual(['proxy', 'direct', 'block']);
      expect(config.inbounds).toEqual(template.inbounds);
      expect(config.routing).toEqual(template.routing);
      expect(config.dns).toEqual(template.dns);
    }
    const inbounds = (configs[0]?.inbounds as Json[]).map((i) => [i.protocol, i.listen, i.port]);
    expect(inbounds).toEqual([
      ['socks', '127.0.0.1', 10808],
      ['http', '127.0.0.1', 10809],
    ]);
  });

  it('every catalogue server Xray accepts passes the outbound schema and the structural checks', () => {
    const { configs, skipped } = render(CATALOGUE);
    expect(configs.length + skipped.length).toBe(CATALOGUE.length);
    for (const config of configs)
      expect(validateXrayOutbound(proxyOutbound(config)), String(config.remarks)).toBeNull();
    expect(xrayProblems(configs)).toEqual([]);
  });

  it('the checks catch allowInsecure, removed transports and dangling routes', () => {
    const bad = {
      remarks: 'x',
      outbounds: [
        { tag: 'proxy', protocol: 'vless', streamSettings: { network: 'h2', tlsSettings: { allowInsecure: true } } },
      ],
      routing: { rules: [{ outboundTag: 'direct' }] },
    };
    expect(xrayProblems([bad, bad])).toEqual([
      'duplicate remarks x',
      'x: allowInsecure',
      'x: rule targets unknown direct',
      'x: network h2',
      'x: allowInsecure',
      'x: rule targets unknown direct',
      'x: network h2',
    ]);
    expect(validateXrayOutbound({ tag: 'proxy', protocol: 'vless', settings: { vnext: [] } })).not.toBeNull();
  });

  it('an empty document is []', () => {
    expect(render([]).body).toBe('[]\n');
    expect(render([make.hysteria2()]).body).toBe('[]\n');
  });

  it('one config per line, and remarks unique', () => {
    const { body, configs } = render([make.ss({ name: 'n' }), make.ss({ name: 'n' }), make.ss({ name: 'direct' })]);
    expect(body.split('\n')).toHaveLength(configs.length + 3);
    expect(configs.map((c) => c.remarks)).toEqual(['n', 'n 2', 'direct 2']);
  });

  it('uses an admin template: its marker becomes the proxy outbound, everything else is kept', () => {
    const template = JSON.stringify({
      remarks: 'ignored',
      log: { loglevel: 'debug' },
      outbounds: [{ tag: 'direct', protocol: 'freedom' }, { tag: 'proxy' }],
      routing: { rules: [{ type: 'field', domain: ['geosite:cn'], outboundTag: 'direct' }] },
    });
    const { configs } = render([make.trojan({ name: 't' })], template);
    expect(configs[0]).toEqual({
      remarks: 't',
      log: { loglevel: 'debug' },
      outbounds: [{ tag: 'direct', protocol: 'freedom' }, outboundOf(make.trojan())],
      routing: { rules: [{ type: 'field', domain: ['geosite:cn'], outboundTag: 'direct' }] },
    });
  });
});
