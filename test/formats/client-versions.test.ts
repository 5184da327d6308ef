// Client versions: the User-Agent reading, the sing-box 1.11 document (sing-box docs/migration.md, 1.12.0: legacy DNS
// servers and no domain resolvers before 1.12) and the Clash-classic document (the original core's proxy types).
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES, renderFormat } from '../../src/formats/render/index.js';
import { isClashClassic, servedFormat, singBoxVersion } from '../../src/modules/formats/client-versions.js';
import { mihomoProblems, singBoxProblems } from './render-checks.js';
import { CATALOGUE } from './render-nodes.js';
import * as make from './render-nodes.js';
import { validateMihomoDocument, validateSingBoxDocument } from './schemas.js';

type Json = Record<string, unknown>;

describe('reading versions from the User-Agent (docs/api.md, Client versions)', () => {
  it.each([
    ['SFA/1.12.4 (587; sing-box 1.12.4; language en_US)', [1, 12]],
    ['SFI/1.11.4 (Build 1; sing-box 1.11.4; language en_US)', [1, 11]],
    ['SFM/1.9.3', [1, 9]],
    ['sing-box/v1.10.1', [1, 10]],
    ['karing/1.1.2.606 android', null],
    ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', null],
  ])('%s reads as %j', (ua, version) => {
    expect(singBoxVersion(ua)).toEqual(version);
  });

  it.each([
    ['ClashforWindows/0.20.39', true],
    ['ClashX/1.118.0 (com.west2online.ClashX; build:1.118.0; macOS 14.0.0) Alamofire/5.6.4', true],
    ['ClashForAndroid/2.5.12', true],
    ['ClashX Meta/1.4.13', false],
    ['ClashMetaForAndroid/2.11.1.Meta', false],
    ['ClashForAndroid/2.5.12.meta', false],
    ['clash.meta/v1.19.11', false],
    ['clash-verge/v2.2.3', false],
  ])('%s is on the original Clash core: %s', (ua, classic) => {
    expect(isClashClassic(ua)).toBe(classic);
  });

  it('changes only sing-box and mihomo choices: 1.12+ as is, 1.10-1.11 the 1.11 document, older base64', () => {
    expect(servedFormat('sing-box', 'SFA/1.13.0 (1; sing-box 1.13.0)')).toEqual({ format: 'sing-box' });
    expect(servedFormat('sing-box', 'SFA/1.10.7 (1; sing-box 1.10.7)')).toEqual({
      format: 'sing-box',
      variant: 'sing-box-1.11',
    });
    expect(servedFormat('sing-box', 'SFA/1.9.7 (1; sing-box 1.9.7)')).toEqual({ format: 'base64' });
    expect(servedFormat('sing-box', undefined)).toEqual({ format: 'sing-box' });
    expect(servedFormat('mihomo', ['ClashforWindows/0.20.39'])).toEqual({ format: 'mihomo', variant: 'clash-classic' });
    expect(servedFormat('xray', 'SFA/1.9.7 (1; sing-box 1.9.7)')).toEqual({ format: 'xray' });
    expect(servedFormat('plain', 'ClashforWindows/0.20.39')).toEqual({ format: 'plain' });
  });
});

describe('the sing-box 1.11 document', () => {
  const render = (nodes = CATALOGUE, template?: string) => {
    const { body, skipped } = renderFormat('sing-box', nodes, template, { variant: 'sing-box-1.11' });
    return { document: JSON.parse(body) as Json, skipped };
  };

  it('is the built-in profile with legacy DNS servers and no default_domain_resolver, valid and consistent', () => {
    const { document } = render();
    expect(validateSingBoxDocument(document)).toBeNull();
    expect(singBoxProblems(document)).toEqual([]);
    expect((document.dns as Json).servers).toEqual([
      { tag: 'remote', address: 'https://1.1.1.1/dns-query', detour: 'Proxy' },
      { tag: 'local', address: 'local' },
    ]);
    expect(document.route).not.toHaveProperty('default_domain_resolver');
    expect(JSON.stringify(document)).not.toContain('domain_resolver');
  });

  it('skips what arrived in 1.12 (AnyTLS, Hysteria v1 port hopping) as unsupported_by_client', () => {
    const anytls = make.anytls();
    const hopping = make.hysteria({ ports: '443,5000-6000' });
    const { skipped } = render([anytls, hopping, make.vless()]);
    expect(skipped).toEqual([
      { data: anytls.uri, reason: 'unsupported_by_client' },
      { data: hopping.uri, reason: 'unsupported_by_client' },
    ]);
    expect(renderFormat('sing-box', [anytls, hopping]).skipped).toEqual([]);
  });

  it('rewrites every typed DNS server of an admin template, fakeip included, and drops what 1.11 cannot name', () => {
    const template = JSON.parse(BUILTIN_TEMPLATES['sing-box']) as Json;
    template.dns = {
      servers: [
        { type: 'udp', tag: 'u', server: '8.8.8.8', server_port: 5353 },
        { type: 'tls', tag: 't', server: 'dns.google', domain_resolver: { server: 'u', strategy: 'ipv4_only' } },
        { type: 'h3', tag: 'h', server: '2001:db8::1', path: '/q' },
        { type: 'dhcp', tag: 'd' },
        { type: 'fakeip', tag: 'f', inet4_range: '198.18.0.0/15' },
        { type: 'hosts', tag: 'hosts' },
      ],
      rules: [
        { query_type: ['A'], server: 'f' },
        { domain: ['example.com'], server: 'hosts' },
      ],
      final: 'hosts',
    };
    template.outbounds = [...(template.outbounds as Json[]), { type: 'direct', tag: 'd2', domain_resolver: 'u' }];
    const { document } = render([make.vless()], JSON.stringify(template));
    expect(document.dns).toEqual({
      servers: [
        { tag: 'u', address: 'udp://8.8.8.8:5353' },
        { tag: 't', address: 'tls://dns.google', address_resolver: 'u', address_strategy: 'ipv4_only' },
        { tag: 'h', address: 'h3://[2001:db8::1]/q' },
        { tag: 'd', address: 'dhcp://auto' },
        { tag: 'f', address: 'fakeip' },
      ],
      rules: [{ query_type: ['A'], server: 'f' }],
      fakeip: { enabled: true, inet4_range: '198.18.0.0/15' },
    });
    expect((document.outbounds as Json[]).find((o) => o.tag === 'd2')).toEqual({ type: 'direct', tag: 'd2' });
    expect(validateSingBoxDocument(document)).toBeNull();
  });
});

describe('the Clash-classic document', () => {
  it('keeps ss, ssr, vmess, trojan and socks5 (without REALITY); the rest is unsupported_by_client', () => {
    const { body, skipped } = renderFormat('mihomo', CATALOGUE, undefined, { variant: 'clash-classic' });
    const document = parse(body) as Json;
    expect(validateMihomoDocument(document)).toBeNull();
    expect(mihomoProblems(document)).toEqual([]);
    const types = new Set((document.proxies as Json[]).map((proxy) => proxy.type));
    expect([...types].sort()).toEqual(['socks5', 'ss', 'ssr', 'trojan', 'vmess']);
    expect((document.proxies as Json[]).some((proxy) => proxy['reality-opts'] !== undefined)).toBe(false);
    const reasons = new Set(skipped.map((s) => s.reason));
    expect(reasons.has('unsupported_by_client')).toBe(true);
    const uris = new Set(skipped.filter((s) => s.reason === 'unsupported_by_client').map((s) => s.data));
    for (const node of CATALOGUE)
      if (['vless', 'hysteria', 'hysteria2', 'tuic', 'wireguard', 'anytls'].includes(node.protocol))
        expect(uris.has(node.uri), node.name).toBe(true);
  });
});
