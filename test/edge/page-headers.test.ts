// Every HTML page, /docs included, carries a Content-Security-Policy that forbids framing (docs/security.md), and the
// docs' policy admits everything Swagger UI's page loads.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { vlessUri } from '../support/factories.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The directives of a Content-Security-Policy header, by name. */
function directives(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, `${res.statusCode} ${res.headers['content-type']}`).toBe('string');
  return new Map(
    (header as string)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

function expectUnframeable(res: LightMyRequestResponse): void {
  expect(directives(res).get('frame-ancestors')).toEqual(["'none'"]);
  expect(res.headers['x-frame-options']).toBe('DENY');
}

describeEachDatabase('edge: page headers', (kind) => {
  const t = useTestApp(kind);

  it('gives every HTML page a Content-Security-Policy with frame-ancestors none', async () => {
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token: owner.token,
      body: { name: 'paged', sources: [vlessUri()] },
    });
    const token = created.json<{ token: string }>().token;
    const provider = await t.newProvider();
    const pages = [
      '/docs',
      '/docs/',
      `/sub/${token}`,
      `/api/v1/sub/${token}`,
      '/sub/no-such-token-here',
      `/connect/${provider.name}`,
      '/connect/nobody-here',
    ];
    for (const url of pages) {
      const res = await t.call('GET', url, { headers: BROWSER });
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expectUnframeable(res);
    }
  });

  it('lets Swagger UI load what its page names and nothing else: same-origin files, no inline code', async () => {
    const page = await t.call('GET', '/docs', { headers: BROWSER });
    expect(page.statusCode).toBe(200);
    const policy = directives(page);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toContain("'self'");
    // Nothing inline that 'self' would refuse: no <script> without src, no <style>, no style or on* attributes.
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son\w+=/i);
    const assets = [...page.body.matchAll(/<(?:script|link)[^>]*\s(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of assets) {
      const url = new URL(asset, 'http://docs.test/docs');
      expect(url.origin, asset).toBe('http://docs.test');
      const res = await t.call('GET', url.pathname);
      expect(res.statusCode, asset).toBe(200);
      expectUnframeable(res);
    }
    // The spec the page fetches is same-origin too.
    expect((await t.call('GET', '/docs/json')).statusCode).toBe(200);
  });
});

describe('edge: docs policy and PUBLIC_BASE_URL', () => {
  const t = useTestApp('sqlite', { PUBLIC_BASE_URL: 'https://api.example.com/base' });

  it('lets "Try it out" call the API at PUBLIC_BASE_URL', async () => {
    const policy = directives(await t.call('GET', '/docs/'));
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.example.com']);
  });
});

describe('edge: docs servers', () => {
  const t = useTestApp('sqlite', { PUBLIC_BASE_URL: 'https://api.example.com/base', TRUST_PROXY: '10.0.0.0/8' });
  const configured = { url: 'https://api.example.com/base', description: 'PUBLIC_BASE_URL' };
  const servers = async (path: string, headers: Record<string, string>, ip?: string) => {
    const res = await t.call('GET', path, { headers, ...(ip ? { ip } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    // The policy is the same whatever host the page was opened on.
    expect(directives(res).get('connect-src')).toEqual(["'self'", 'https://api.example.com']);
    expect(directives(res).get('frame-ancestors')).toEqual(["'none'"]);
    return res.json<{ servers: unknown[] }>().servers;
  };

  it('offers PUBLIC_BASE_URL and the origin the docs were opened from, in /docs/json and /openapi.json', async () => {
    const opened = { url: 'http://192.168.1.5:8080', description: 'this page' };
    expect(await servers('/docs/json', { host: '192.168.1.5:8080' })).toEqual([configured, opened]);
    expect(await servers('/openapi.json', { host: '192.168.1.5:8080' })).toEqual([configured, opened]);
    // The next request on another host gets its own origin: nothing is kept in the shared document.
    expect(await servers('/docs/json', { host: 'localhost:8080' })).toEqual([
      configured,
      { url: 'http://localhost:8080', description: 'this page' },
    ]);
  });

  it('takes the scheme from X-Forwarded-Proto only when a TRUST_PROXY address sent it', async () => {
    const headers = { host: 'subs.lan', 'x-forwarded-proto': 'https' };
    expect(await servers('/docs/json', headers, '10.1.2.3')).toEqual([
      configured,
      { url: 'https://subs.lan', description: 'this page' },
    ]);
    expect(await servers('/docs/json', headers, '203.0.113.9')).toEqual([
      configured,
      { url: 'http://subs.lan', description: 'this page' },
    ]);
  });

  it('adds nothing when the page was opened at PUBLIC_BASE_URL, or the Host header is not a host', async () => {
    const viaProxy = { host: 'api.example.com', 'x-forwarded-proto': 'https' };
    expect(await servers('/docs/json', viaProxy, '10.1.2.3')).toEqual([configured]);
    expect(await servers('/docs/json', { host: 'evil.example/x?y' })).toEqual([configured]);
    expect(await servers('/docs/json', { host: 'user@evil.example' })).toEqual([configured]);
  });
});
