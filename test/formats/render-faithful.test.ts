// What real clients found: Xray's refusal of allowInsecure, the TLS server name fallback, and transports kept as the
// link says, in every format. Each case names the client behaviour it mirrors.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ProxyNode } from '../../src/formats/proxy.js';
import { renderFormat, type RenderedFormat, type RenderOptions } from '../../src/formats/render/index.js';
import { parseShareUri } from '../../src/formats/share-uri/index.js';
import { validateMihomoProxy, validateSingBoxOutbound } from './schemas.js';
import { PIN } from './render-nodes.js';
import * as make from './render-nodes.js';
import { validateXrayOutbound } from './xray-schema.js';

type Json = Record<string, unknown>;

/** The one server a node renders to in `format`, or the skip reason; the server is checked against the schema. */
function rendered(format: RenderedFormat, node: ProxyNode, options: RenderOptions = {}): Json | string {
  const { body, skipped } = renderFormat(format, [node], undefined, options);
  if (skipped.length > 0) return skipped[0]!.reason;
  if (format === 'mihomo') {
    const proxy = ((parse(body) as Json).proxies as Json[])[0] as Json;
    expect(validateMihomoProxy(proxy)).toBeNull();
    return proxy;
  }
  if (format === 'sing-box') {
    const outbound = ((JSON.parse(body) as Json).outbounds as Json[]).find((o) => o.tag === node.name) as Json;
    expect(validateSingBoxOutbound(outbound)).toBeNull();
    return outbound;
  }
  const proxy = ((JSON.parse(body) as Json[])[0]!.outbounds as Json[]).find((o) => o.tag === 'proxy') as Json;
  expect(validateXrayOutbound(proxy)).toBeNull();
  return proxy;
}

const at = (value: Json | string, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Json | undefined)?.[key], value);

function node(uri: string): ProxyNode {
  const parsed = parseShareUri(uri);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.node;
}

const UUID = make.UUID;
const vmessJson = (fields: Json): string =>
  `vmess://${Buffer.from(JSON.stringify({ v: '2', ps: 'vm', add: 'vm.example.com', port: '443', id: UUID, aid: '0', ...fields })).toString('base64')}`;

describe('Xray and insecure TLS (Xray infra/conf TLSConfig.Build refuses allowInsecure from 26.6.22)', () => {
  it.each([
    ['allowInsecure=1', `vless://${UUID}@v.example.com:443?security=tls&sni=v.example.com&allowInsecure=1#a`],
    ['insecure=1', `trojan://secret@t.example.com:443?sni=t.example.com&insecure=1#b`],
    ['skip-cert-verify', `vless://${UUID}@v.example.com:443?security=tls&skip-cert-verify=true#c`],
    ['vmess allowInsecure', vmessJson({ tls: 'tls', sni: 'vm.example.com', allowInsecure: '1' })],
  ])('a link with %s and no pin is skipped as insecure_tls', (_label, uri) => {
    expect(rendered('xray', node(uri))).toBe('insecure_tls');
  });

  it('the same link renders with allowInsecure: true when the admin allows it (older cores still read it)', () => {
    const proxy = rendered('xray', node(`vless://${UUID}@v.example.com:443?security=tls&allowInsecure=1#a`), {
      xrayAllowInsecure: true,
    });
    expect(at(proxy, 'streamSettings.tlsSettings')).toEqual({ allowInsecure: true });
  });

  it('a pcs pin is kept as pinnedPeerCertSha256 instead, with or without the setting; vcn is verifyPeerCertByName', () => {
    const uri = `vless://${UUID}@v.example.com:443?security=tls&sni=s.example&allowInsecure=1&pcs=${PIN}&vcn=real.example#a`;
    for (const xrayAllowInsecure of [false, true]) {
      expect(at(rendered('xray', node(uri), { xrayAllowInsecure }), 'streamSettings.tlsSettings')).toEqual({
        serverName: 's.example',
        pinnedPeerCertSha256: PIN,
        verifyPeerCertByName: 'real.example',
      });
    }
  });

  it('mihomo and sing-box keep skipping verification as the link asks', () => {
    const insecure = node(`vless://${UUID}@v.example.com:443?security=tls&allowInsecure=1#a`);
    expect(at(rendered('mihomo', insecure), 'skip-cert-verify')).toBe(true);
    expect(at(rendered('sing-box', insecure), 'tls.insecure')).toBe(true);
  });
});

describe('TLS server name fallback (v2rayN fills serverName from the transport host; mihomo from the ws Host)', () => {
  const cases: [string, string, string][] = [
    [
      'ws host',
      `vless://${UUID}@1.2.3.4:443?security=tls&type=ws&host=cdn.example.com,b.example&path=%2Fw#a`,
      'cdn.example.com',
    ],
    [
      'httpupgrade host',
      `vless://${UUID}@1.2.3.4:443?security=tls&type=httpupgrade&host=up.example.com#a`,
      'up.example.com',
    ],
    [
      'h2 host',
      vmessJson({ add: '1.2.3.4', net: 'h2', host: 'h2.example.com,x.example', tls: 'tls' }),
      'h2.example.com',
    ],
    [
      'gRPC authority',
      `trojan://p@1.2.3.4:443?type=grpc&serviceName=g&authority=grpc.example.com#a`,
      'grpc.example.com',
    ],
  ];

  it.each(cases)('a TLS link without sni takes its %s, in every format', (_label, uri, name) => {
    const parsed = node(uri);
    const sniKey = parsed.protocol === 'trojan' ? 'sni' : 'servername';
    expect(at(rendered('mihomo', parsed), sniKey)).toBe(name);
    expect(at(rendered('sing-box', parsed), 'tls.server_name')).toBe(name);
    if (!('transport' in parsed && parsed.transport?.type === 'h2'))
      expect(at(rendered('xray', parsed), 'streamSettings.tlsSettings.serverName')).toBe(name);
  });

  it('xhttp host counts too (Xray and mihomo render XHTTP)', () => {
    const parsed = node(`vless://${UUID}@1.2.3.4:443?security=tls&type=xhttp&host=x.example.com&path=%2Fx#a`);
    expect(at(rendered('xray', parsed), 'streamSettings.tlsSettings.serverName')).toBe('x.example.com');
    expect(at(rendered('mihomo', parsed), 'servername')).toBe('x.example.com');
  });

  it('sni wins over the host, and a link with neither leaves the name unset', () => {
    const named = node(`vless://${UUID}@1.2.3.4:443?security=tls&sni=sni.example&type=ws&host=cdn.example.com#a`);
    expect(at(rendered('sing-box', named), 'tls.server_name')).toBe('sni.example');
    const bare = node(`vless://${UUID}@v.example.com:443?security=tls&type=grpc&serviceName=g#a`);
    expect(at(rendered('mihomo', bare), 'servername')).toBeUndefined();
    expect(at(rendered('sing-box', bare), 'tls.server_name')).toBeUndefined();
    expect(at(rendered('xray', bare), 'streamSettings.tlsSettings.serverName')).toBeUndefined();
  });

  it('REALITY takes the host as well (v2rayN fills realitySettings.serverName the same way)', () => {
    const pbk = make.PBK;
    const parsed = node(
      `vless://${UUID}@1.2.3.4:443?security=reality&pbk=${pbk}&type=grpc&serviceName=g&authority=r.example#a`,
    );
    expect(at(rendered('xray', parsed), 'streamSettings.realitySettings.serverName')).toBe('r.example');
  });
});

describe('faithful transports', () => {
  it('VMess net http/h2 without TLS: mihomo h2-opts and sing-box http (mihomo converter.go maps net http to h2)', () => {
    for (const net of ['http', 'h2']) {
      const parsed = node(vmessJson({ net, host: 'h.example.com', path: '/p' }));
      const proxy = rendered('mihomo', parsed);
      expect([at(proxy, 'network'), at(proxy, 'h2-opts')]).toEqual(['h2', { path: '/p', host: ['h.example.com'] }]);
      expect(at(rendered('sing-box', parsed), 'transport')).toEqual({
        type: 'http',
        path: '/p',
        host: ['h.example.com'],
      });
      expect(rendered('xray', parsed)).toBe('unsupported_transport');
    }
  });

  it("Shadowsocks over ws+tls keeps its stream in Xray (libXray's ShadowsocksWithStreamQuery); others skip it", () => {
    const parsed = node(
      `ss://${Buffer.from('aes-128-gcm:p').toString('base64')}@ss.example:443?type=ws&path=%2Fws&host=cdn.ws&security=tls&sni=ss.example#s`,
    );
    expect(at(rendered('xray', parsed), 'streamSettings')).toEqual({
      network: 'ws',
      wsSettings: { path: '/ws', host: 'cdn.ws' },
      security: 'tls',
      tlsSettings: { serverName: 'ss.example' },
    });
    expect(rendered('mihomo', parsed)).toBe('unsupported_transport');
    expect(rendered('sing-box', parsed)).toBe('unsupported_transport');
    const plain = node(`ss://${Buffer.from('aes-128-gcm:p').toString('base64')}@ss.example:8388?type=tcp#s`);
    expect(at(rendered('xray', plain), 'streamSettings')).toEqual({ network: 'tcp' });
    expect(at(rendered('sing-box', plain), 'method')).toBe('aes-128-gcm');
  });

  it.each([
    ['in the path', `vless://${UUID}@u.example.com:443?type=httpupgrade&host=u.example.com&path=%2Fup%3Fed%3D2048#u`],
    ['in the query', `vless://${UUID}@u.example.com:443?type=httpupgrade&host=u.example.com&path=%2Fup&ed=2048#u`],
    [
      'in a vmess path',
      vmessJson({ add: 'u.example.com', net: 'httpupgrade', host: 'u.example.com', path: '/up?ed=2048' }),
    ],
  ])('httpupgrade early data %s: mihomo fast open, sing-box path without it, Xray ed in the path', (_label, uri) => {
    const parsed = node(uri);
    expect(at(rendered('mihomo', parsed), 'ws-opts')).toEqual({
      path: '/up',
      'v2ray-http-upgrade': true,
      'v2ray-http-upgrade-fast-open': true,
      headers: { Host: 'u.example.com' },
    });
    expect(at(rendered('sing-box', parsed), 'transport')).toEqual({
      type: 'httpupgrade',
      path: '/up',
      host: 'u.example.com',
    });
    expect(at(rendered('xray', parsed), 'streamSettings.httpupgradeSettings')).toEqual({
      path: '/up?ed=2048',
      host: 'u.example.com',
    });
  });

  it.each(['none', 'zero'])(
    'VMess scy %s is kept in every format (mihomo converter.go copies scy as cipher)',
    (scy) => {
      const parsed = node(vmessJson({ scy, net: 'tcp' }));
      expect(at(rendered('mihomo', parsed), 'cipher')).toBe(scy);
      expect(at(rendered('sing-box', parsed), 'security')).toBe(scy);
      expect(at(rendered('xray', parsed), 'settings.vnext.0.users.0.security')).toBe(scy);
    },
  );
});
