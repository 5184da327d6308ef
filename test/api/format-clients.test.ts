// What real clients found, over HTTP: the xray_allow_insecure setting and the insecure_tls skip, and the documents
// older sing-box and original-core Clash apps get (docs/api.md, client versions).
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { subsApi, trojanUri, vlessUri } from '../support/factories.js';
import { expectError } from '../support/expect.js';

type Json = Record<string, unknown>;
interface Preview {
  format: string;
  skipped: Array<{ data: string; reason: string }>;
  headers: Record<string, string>;
}

const INSECURE = `vless://4d8a3f1e-9d8e-4a44-9c49-d2b1e7a6f5a1@insecure.example.com:443?security=tls&allowInsecure=1#insecure`;
const SFI_111 = 'SFI/1.11.4 (Build 1; sing-box 1.11.4; language en_US)';

describeEachDatabase('format settings and client versions', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'clients-secret-of-at-least-32-characters' });
  const subs = subsApi(t);

  afterEach(async () => {
    expect((await t.admin('PUT', '/format-settings', { xray_allow_insecure: false })).statusCode).toBe(200);
  });

  const preview = async (token: string, userToken: string, query: string): Promise<Preview> => {
    const res = await t.call('GET', `/api/v1/subs/${token}/preview?${query}`, { token: userToken });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Preview>();
  };

  it('reads and replaces xray_allow_insecure (default false), refusing anything but a boolean', async () => {
    expect((await t.admin('GET', '/format-settings')).json()).toEqual({ xray_allow_insecure: false });
    const put = await t.admin('PUT', '/format-settings', { xray_allow_insecure: true });
    expect([put.statusCode, put.json()]).toEqual([200, { xray_allow_insecure: true }]);
    expect((await t.admin('GET', '/format-settings')).json()).toEqual({ xray_allow_insecure: true });
    expectError(await t.admin('PUT', '/format-settings', { xray_allow_insecure: 'yes' }), 400, 'validation_failed');
    expectError(await t.admin('PUT', '/format-settings', { other: true }), 400, 'validation_failed');
    expect((await t.admin('GET', '/format-settings')).json()).toEqual({ xray_allow_insecure: true });
  });

  it('is an admin route: an unsigned request is refused', async () => {
    const res = await t.call('GET', '/api/v1/admin/format-settings');
    expect(res.statusCode).toBe(401);
  });

  it('skips insecure TLS in xray (Subweave-Skipped, preview reason insecure_tls) until the setting allows it', async () => {
    const sub = await subs.create([INSECURE, vlessUri() + '#fine']);
    const before = await t.call('GET', `/sub/${sub.token}/xray`);
    expect(before.headers['subweave-skipped']).toBe('1');
    expect(before.json<Json[]>().map((config) => config.remarks)).toEqual(['fine']);
    const shown = await preview(sub.token, sub.userToken, 'format=xray');
    expect(shown.skipped).toEqual([{ data: INSECURE, reason: 'insecure_tls' }]);
    expect(shown.headers['subweave-skipped']).toBe('1');
    // mihomo is not affected: it still skips verification as the link asks.
    expect((await t.call('GET', `/sub/${sub.token}/mihomo`)).headers['subweave-skipped']).toBeUndefined();

    expect((await t.admin('PUT', '/format-settings', { xray_allow_insecure: true })).statusCode).toBe(200);
    const after = await t.call('GET', `/sub/${sub.token}/xray`);
    expect(after.headers['subweave-skipped']).toBeUndefined();
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    const configs = after.json<Json[]>();
    expect(configs.map((config) => config.remarks)).toEqual(['insecure', 'fine']);
    const outbound = (configs[0]!.outbounds as Json[])[0] as Json;
    expect((outbound.streamSettings as Json).tlsSettings).toEqual({ allowInsecure: true });
  });

  it('serves sing-box 1.10/1.11 apps the 1.11 document, named in Subweave-Format, cached apart from 1.12', async () => {
    const sub = await subs.create([vlessUri() + '#a', trojanUri() + '#b']);
    const current = await t.call('GET', `/sub/${sub.token}`, {
      headers: { 'user-agent': 'SFA/1.12.4 (1; sing-box 1.12.4)' },
    });
    const legacy = await t.call('GET', `/sub/${sub.token}`, { headers: { 'user-agent': SFI_111 } });
    expect([current.headers['subweave-format'], legacy.headers['subweave-format']]).toEqual([
      'sing-box',
      'sing-box-1.11',
    ]);
    expect(legacy.headers['subweave-rule']).toBe('sing-box');
    expect(legacy.headers['etag']).not.toBe(current.headers['etag']);
    const document = legacy.json<Json>();
    expect((document.dns as Json).servers).toEqual([
      { tag: 'remote', address: 'https://1.1.1.1/dns-query', detour: 'Proxy' },
      { tag: 'local', address: 'local' },
    ]);
    expect(document.route).not.toHaveProperty('default_domain_resolver');
    expect((current.json<Json>().route as Json).default_domain_resolver).toBe('local');
    // The path form a page button gives sing-box apps is read the same way.
    const viaPath = await t.call('GET', `/sub/${sub.token}/sing-box`, { headers: { 'user-agent': SFI_111 } });
    expect([viaPath.headers['subweave-format'], viaPath.headers['etag']]).toEqual([
      'sing-box-1.11',
      legacy.headers['etag'],
    ]);
    const shown = await preview(sub.token, sub.userToken, `user_agent=${encodeURIComponent(SFI_111)}`);
    expect(shown.format).toBe('sing-box-1.11');
  });

  it('serves original-core Clash apps the Clash-classic document, skipping what that core lacks', async () => {
    const vless = vlessUri() + '#v';
    const sub = await subs.create([vless, trojanUri() + '#t']);
    const res = await t.call('GET', `/sub/${sub.token}`, { headers: { 'user-agent': 'ClashforWindows/0.20.39' } });
    expect([res.headers['subweave-format'], res.headers['subweave-skipped']]).toEqual(['clash-classic', '1']);
    expect(res.headers['content-type']).toBe('text/yaml; charset=utf-8');
    expect(res.body).toContain('"type":"trojan"');
    expect(res.body).not.toContain('"type":"vless"');
    const shown = await preview(sub.token, sub.userToken, 'user_agent=ClashforWindows%2F0.20.39');
    expect([shown.format, shown.skipped]).toEqual([
      'clash-classic',
      [{ data: vless, reason: 'unsupported_by_client' }],
    ]);
    const meta = await t.call('GET', `/sub/${sub.token}`, {
      headers: { 'user-agent': 'ClashMetaForAndroid/2.11.1.Meta' },
    });
    expect([meta.headers['subweave-format'], meta.headers['subweave-skipped']]).toEqual(['mihomo', undefined]);
  });
});
