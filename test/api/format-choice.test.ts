// The public link's format choice over HTTP (docs/api.md, Which format a request gets): path form, ?format=, the rule table, blocking, the page, headers.
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { ssUri, subsApi, trojanUri, vlessUri } from '../support/factories.js';
import { expectError } from '../support/expect.js';

const ADMIN = { ADMIN_SECRET: 'formats-secret-of-at-least-32-characters' };

/** User-Agents of real client apps, and the format the default rules give each. */
const USER_AGENTS: Array<[string, string, string]> = [
  ['clash.meta/v1.19.11', 'mihomo', 'mihomo'],
  ['clash-verge/v2.2.3', 'mihomo', 'mihomo'],
  ['FlClash/v0.8.80 clash-verge Platform/android', 'mihomo', 'mihomo'],
  ['mihomo.party/v1.7.6 (clash.meta)', 'mihomo', 'mihomo'],
  ['Stash/3.1.1 Clash/1.11.0', 'mihomo', 'mihomo'],
  ['ClashMetaForAndroid/2.11.1.Meta', 'mihomo', 'mihomo'],
  ['ClashX Meta/1.4.13', 'mihomo', 'clash'],
  ['ClashX/1.118.0', 'clash-classic', 'clash'],
  ['ClashforWindows/0.20.39', 'clash-classic', 'clash'],
  ['ClashForAndroid/2.5.12', 'clash-classic', 'clash'],
  ['SFA/1.12.4 (587; sing-box 1.12.4; language en_US)', 'sing-box', 'sing-box'],
  ['SFI/1.11.4 (Build 1; sing-box 1.11.4; language en_US)', 'sing-box-1.11', 'sing-box'],
  ['SFA/1.10.7 (510; sing-box 1.10.7; language en_US)', 'sing-box-1.11', 'sing-box'],
  ['SFA/1.9.7 (502; sing-box 1.9.7; language en_US)', 'base64', 'sing-box'],
  ['karing/1.1.2.606 android', 'sing-box', 'sing-box'],
  ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', 'base64', 'hiddify'],
  ['Happ/3.2.1', 'base64', 'default'],
  ['v2rayNG/1.9.46', 'base64', 'default'],
  ['v2rayN/7.12.7', 'base64', 'default'],
  ['Streisand/1.6.41', 'base64', 'default'],
  ['curl/8.5.0', 'base64', 'default'],
];

describeEachDatabase('public link format choice', (kind) => {
  const t = useTestApp(kind, ADMIN);
  const subs = subsApi(t);
  const get = (url: string, headers: Record<string, string> = {}) => t.call('GET', url, { headers });

  afterEach(async () => {
    expect((await t.admin('DELETE', '/format-rules')).statusCode).toBe(200);
  });

  const newLink = async () =>
    (await subs.create([vlessUri() + '#one', trojanUri() + '#two', ssUri() + '#three'])).token;

  it('answers base64 by default, with the choice in Subweave-Format and Subweave-Rule', async () => {
    const token = await newLink();
    const res = await get(`/sub/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['subweave-format']).toBe('base64');
    expect(res.headers['subweave-rule']).toBe('default');
    expect(res.headers['subweave-skipped']).toBeUndefined();
    expect(Buffer.from(res.body, 'base64').toString('utf8').split('\n')).toHaveLength(3);
  });

  it.each(USER_AGENTS)('gives %j the %s format (rule %s)', async (userAgent, format, rule) => {
    const token = await newLink();
    const res = await get(`/sub/${token}`, { 'user-agent': userAgent });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['subweave-format']).toBe(format);
    expect(res.headers['subweave-rule']).toBe(rule);
  });

  it('serves each format on the path form of both link paths, with its content type', async () => {
    const token = await newLink();
    const types: Record<string, string> = {
      base64: 'text/plain; charset=utf-8',
      plain: 'text/plain; charset=utf-8',
      mihomo: 'text/yaml; charset=utf-8',
      clash: 'text/yaml; charset=utf-8',
      'sing-box': 'application/json; charset=utf-8',
      xray: 'application/json; charset=utf-8',
      sip008: 'application/json; charset=utf-8',
    };
    for (const prefix of ['/sub/', '/api/v1/sub/']) {
      for (const [format, type] of Object.entries(types)) {
        const res = await get(`${prefix}${token}/${format}`, { 'user-agent': 'clash-verge/v2' });
        expect(res.statusCode, `${prefix} ${format}: ${res.body}`).toBe(200);
        expect(res.headers['content-type']).toBe(type);
        expect(res.headers['subweave-format']).toBe(format === 'clash' ? 'mihomo' : format);
        expect(res.headers['subweave-rule']).toBe('path');
      }
    }
  });

  it('prefers the path form over ?format= and ?format= over the rules', async () => {
    const token = await newLink();
    const path = await get(`/sub/${token}/plain?format=sing-box`, { 'user-agent': 'clash.meta' });
    expect([path.headers['subweave-format'], path.headers['subweave-rule']]).toEqual(['plain', 'path']);
    const query = await get(`/sub/${token}?format=sing-box`, { 'user-agent': 'clash.meta' });
    expect([query.headers['subweave-format'], query.headers['subweave-rule']]).toEqual(['sing-box', 'query']);
  });

  it('answers 400 unknown_format for an unknown path format, listing the valid names', async () => {
    const token = await newLink();
    for (const url of [`/sub/${token}/json`, `/api/v1/sub/${token}/Mihomo`, `/sub/${token}/singbox`]) {
      const { details } = expectError(await get(url), 400, 'unknown_format');
      expect(details?.['formats']).toEqual(['base64', 'plain', 'mihomo', 'sing-box', 'xray', 'sip008', 'clash']);
    }
  });

  it('answers 404 for an unknown token in every format', async () => {
    expectError(await get(`/sub/${'A'.repeat(43)}/mihomo`), 404, 'subscription_not_found');
    expectError(await get(`/sub/nope/sing-box`), 404, 'subscription_not_found');
  });

  it('keeps one ETag per format and answers 304 with the choice headers', async () => {
    const token = await newLink();
    const plain = await get(`/sub/${token}/plain`);
    const yaml = await get(`/sub/${token}/mihomo`);
    expect(plain.headers.etag).not.toBe(yaml.headers.etag);
    const again = await get(`/sub/${token}/mihomo`, { 'if-none-match': yaml.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.headers['subweave-format']).toBe('mihomo');
    const other = await get(`/sub/${token}/plain`, { 'if-none-match': yaml.headers.etag as string });
    expect(other.statusCode).toBe(200);
  });

  it('names the file after the subscription with the extension of the format', async () => {
    const sub = await subs.create([vlessUri()]);
    const yaml = await get(`/sub/${sub.token}/mihomo`);
    expect(yaml.headers['content-disposition']).toContain(`filename="${sub.name}.yaml"`);
    const json = await get(`/sub/${sub.token}/sing-box`);
    expect(json.headers['content-disposition']).toContain(`filename="${sub.name}.json"`);
  });

  it('answers browsers with the page, under a strict CSP and without the download header', async () => {
    const token = await newLink();
    const res = await get(`/sub/${token}`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['subweave-format']).toBe('page');
    expect(res.headers['subweave-rule']).toBe('browser');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.body).toContain(`/sub/${token}`);
    expect(res.body).toContain('<dt>Servers</dt><dd>3</dd>');
    // Naming a format still gets the format.
    const named = await get(`/sub/${token}/plain`, { accept: 'text/html' });
    expect(named.headers['subweave-format']).toBe('plain');
  });

  it('varies on the headers the rules read', async () => {
    const token = await newLink();
    expect((await get(`/sub/${token}`)).headers.vary).toBe('accept, user-agent, accept-encoding');
  });

  it('blocks a client by rule before any format it names, naming the rule', async () => {
    const token = await newLink();
    const rules = [
      { id: 'no-curl', header: 'user-agent', match: 'prefix', value: 'curl/', result: 'block' },
      { id: 'via-header', header: 'X-Client', match: 'equals', value: 'Tool', case_sensitive: true, result: 'xray' },
    ];
    expect((await t.admin('PUT', '/format-rules', { rules })).statusCode).toBe(200);
    for (const url of [`/sub/${token}`, `/sub/${token}/plain`, `/sub/${token}?format=mihomo`]) {
      const res = await get(url, { 'user-agent': 'curl/8.5.0' });
      expectError(res, 403, 'client_blocked');
      expect(res.headers['subweave-rule']).toBe('no-curl');
    }
    // An unknown token is not revealed to a blocked client either.
    expectError(await get(`/sub/${'B'.repeat(43)}`, { 'user-agent': 'curl/1' }), 403, 'client_blocked');
    const byHeader = await get(`/sub/${token}`, { 'x-client': 'Tool' });
    expect([byHeader.headers['subweave-format'], byHeader.headers['subweave-rule']]).toEqual(['xray', 'via-header']);
    const wrongCase = await get(`/sub/${token}`, { 'x-client': 'tool' });
    expect(wrongCase.headers['subweave-rule']).toBe('default');
    expect((await get(`/sub/${token}`)).headers.vary).toBe('accept, user-agent, x-client, accept-encoding');
  });

  it('skips a disabled rule and honours an enabled copy of the xray-apps rule', async () => {
    const token = await newLink();
    const rules = [
      { id: 'off', header: 'user-agent', match: 'contains', value: 'happ', enabled: false, result: 'block' },
      { id: 'xray-apps', header: 'user-agent', match: 'regex', value: '^(happ|v2rayng)', result: 'xray' },
    ];
    expect((await t.admin('PUT', '/format-rules', { rules })).statusCode).toBe(200);
    const res = await get(`/sub/${token}`, { 'user-agent': 'Happ/3.2.1' });
    expect([res.headers['subweave-format'], res.headers['subweave-rule']]).toEqual(['xray', 'xray-apps']);
  });
});
