// The owners' preview of the public link (docs/api.md, Preview) on the user and the provider mounts.
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { ssUri, subsApi, vlessUri, approvedPair } from '../support/factories.js';
import { expectEnvelope, expectError, expectStatus } from '../support/expect.js';

interface Preview {
  format: string;
  rule: string;
  served: number;
  skipped: Array<{ data: string; reason: string }>;
  headers: Record<string, string>;
  body: string;
}

const PHONE_PAGE = { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (Linux; Android 14)' };
const JUICITY = 'juicity://4d8a3f1e-9d8e-4a44-9c49-d2b1e7a6f5a1:secret@203.0.113.5:443?sni=example.com#jui';

describeEachDatabase('link preview', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'preview-secret-of-at-least-32-characters' });
  const subs = subsApi(t);

  afterEach(async () => {
    await t.admin('DELETE', '/format-rules');
  });

  it('answers exactly what the link sends for the same headers', async () => {
    const sub = await subs.create([vlessUri() + '#a', ssUri() + '#b']);
    for (const [query, headers] of [
      ['', {}],
      ['?user_agent=clash-verge%2Fv2', { 'user-agent': 'clash-verge/v2' }],
      ['?accept=text%2Fhtml', { accept: 'text/html' }],
      ['?format=plain&user_agent=SFA%2F1.12', { 'user-agent': 'SFA/1.12' }],
      ['?accept=text%2Fhtml&user_agent=Mozilla%2F5.0%20(Linux%3B%20Android%2014)', PHONE_PAGE],
    ] as const) {
      const res = await t.call('GET', `/api/v1/subs/${sub.token}/preview${query}`, { token: sub.userToken });
      expect(res.statusCode, res.body).toBe(200);
      const preview = res.json<Preview>();
      const link = await t.call('GET', `/sub/${sub.token}${query.includes('format=plain') ? '/plain' : ''}`, {
        headers,
      });
      expect(preview.body).toBe(link.body);
      expect(preview.headers['etag']).toBe(link.headers.etag);
      expect(preview.headers['content-type']).toBe(link.headers['content-type']);
      expect(preview.format).toBe(link.headers['subweave-format']);
      expect(Object.keys(preview.headers).every((name) => name === name.toLowerCase())).toBe(true);
    }
  });

  it('previews the page with the branding in force, as the link draws it', async () => {
    const sub = await subs.create([vlessUri()]);
    try {
      expectStatus(await t.admin('PUT', '/branding', { service_name: 'Preview VPN' }), 200);
      const query = '?accept=text%2Fhtml&user_agent=Mozilla%2F5.0%20(Linux%3B%20Android%2014)';
      const res = await t.call('GET', `/api/v1/subs/${sub.token}/preview${query}`, { token: sub.userToken });
      const preview = expectStatus(res, 200).json<Preview>();
      const link = await t.call('GET', `/sub/${sub.token}`, { headers: PHONE_PAGE });
      expect(preview.format).toBe('page');
      expect(preview.body).toContain('Preview VPN');
      expect(preview.body).toContain('data-platform="android"');
      expect(preview.body).toBe(link.body);
      expect(preview.headers['etag']).toBe(link.headers.etag);
    } finally {
      expectStatus(await t.admin('PUT', '/branding', { service_name: null }), 200);
    }
  });

  it('reports the rule that chose, `query` for a named format, and the skipped servers with reasons', async () => {
    const sub = await subs.create([vlessUri() + '#a', JUICITY]);
    const byRule = await t.call('GET', `/api/v1/subs/${sub.token}/preview?user_agent=clash.meta`, {
      token: sub.userToken,
    });
    expect(byRule.json<Preview>()).toMatchObject({ format: 'mihomo', rule: 'mihomo', served: 1 });
    expect(byRule.json<Preview>().skipped).toEqual([{ data: JUICITY, reason: expect.any(String) }]);
    expect(byRule.json<Preview>().headers['subweave-skipped']).toBe('1');
    const named = await t.call('GET', `/api/v1/subs/${sub.token}/preview?format=base64`, { token: sub.userToken });
    expect(named.json<Preview>()).toMatchObject({ format: 'base64', rule: 'query', served: 2, skipped: [] });
  });

  it('shows a blocking rule as format block with the refusal', async () => {
    await t.admin('PUT', '/format-rules', {
      rules: [{ id: 'no-bots', header: 'user-agent', match: 'contains', value: 'bot', result: 'block' }],
    });
    const sub = await subs.create([vlessUri()]);
    const res = await t.call('GET', `/api/v1/subs/${sub.token}/preview?user_agent=somebot`, { token: sub.userToken });
    const preview = res.json<Preview>();
    expect(preview).toMatchObject({ format: 'block', rule: 'no-bots', served: 0 });
    expectEnvelope(JSON.parse(preview.body), 'client_blocked');
  });

  it('refuses unknown formats, strangers and unknown tokens', async () => {
    const sub = await subs.create([vlessUri()]);
    const url = `/api/v1/subs/${sub.token}/preview`;
    expectError(await t.call('GET', `${url}?format=json`, { token: sub.userToken }), 400, 'unknown_format');
    const stranger = await t.newUser();
    expectError(await t.call('GET', url, { token: stranger.token }), 403, 'forbidden');
    expectError(await t.call('GET', url), 401, 'missing_token');
    expectError(
      await t.call('GET', `/api/v1/subs/${'C'.repeat(43)}/preview`, { token: sub.userToken }),
      404,
      'subscription_not_found',
    );
  });

  it('works on the provider mount for subscriptions the provider manages', async () => {
    const { provider, subs: base } = await approvedPair(t);
    const created = await t.call('POST', base, {
      token: provider.token,
      body: { name: 'managed', sources: [vlessUri() + '#p'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json<{ token: string }>().token;
    const res = await t.call('GET', `${base}/${token}/preview?format=sing-box`, { token: provider.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Preview>()).toMatchObject({ format: 'sing-box', rule: 'query', served: 1 });
  });
});
