// Serving the dashboard at /app/: index.html for app paths with a fresh CSP nonce, immutable precompressed assets,
// and a 503 page while the app is not built. Runs on a small app folder written here; the browser suite uses the real build.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'subweave-app-'));
const SCRIPT = 'console.log("dashboard");'.repeat(50);
mkdirSync(join(dir, 'assets'));
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><meta property="csp-nonce" nonce="SUBWEAVE_CSP_NONCE">' +
    '<script type="module" src="/app/assets/index-abc123.js" nonce="SUBWEAVE_CSP_NONCE"></script>',
);
writeFileSync(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT));
writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
writeFileSync(join(dir, 'assets', 'plain-def456.css'), 'body{}');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dashboard serving', () => {
  const t = useTestApp('sqlite', {}, { app: { appDir: dir } });

  it.each(['/app', '/app/', '/app/subs', '/app/subs/abc/deeper', '/app/sign-in'])(
    'answers index.html for %s, not cached, with a strict CSP and a fresh nonce',
    async (url) => {
      const first = await t.call('GET', url);
      const second = await t.call('GET', url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(first.headers['cache-control']).toBe('no-cache');
      const csp = String(first.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(first.body).not.toContain('SUBWEAVE_CSP_NONCE');
      expect(first.body.split(`nonce="${nonce}"`)).toHaveLength(3);
      expect(String(second.headers['content-security-policy'])).not.toContain(nonce);
    },
  );

  it('sends brotli, gzip or the plain file as Accept-Encoding allows, cached for a year', async () => {
    const url = '/app/assets/index-abc123.js';
    const br = await t.call('GET', url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await t.call('GET', url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const refusedBr = await t.call('GET', url, { headers: { 'accept-encoding': 'br;q=0, gzip;q=0.5' } });
    expect(refusedBr.headers['content-encoding']).toBe('gzip');

    const plain = await t.call('GET', url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toBe('Accept-Encoding');
    expect(plain.body).toBe(SCRIPT);

    const none = await t.call('GET', url);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(SCRIPT);

    const star = await t.call('GET', url, { headers: { 'accept-encoding': '*' } });
    expect(star.headers['content-encoding']).toBe('br');
  });

  it('sends the plain file when no compressed form was written', async () => {
    const css = await t.call('GET', '/app/assets/plain-def456.css', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe('body{}');
  });

  it('answers 404 not_found for an unknown asset, and never serves the compressed files by name', async () => {
    for (const url of ['/app/assets/missing-000.js', '/app/assets/index-abc123.js.br', '/app/assets/..%2Findex.html']) {
      const response = await t.call('GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it('keeps the routes out of the OpenAPI document', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/app'))).toEqual([]);
  });
});

describe('dashboard files and the public budget', () => {
  const t = useTestApp(
    'sqlite',
    { RATE_LIMIT_PUBLIC_PER_MIN: '3', AUTO_BAN_VIOLATIONS: '2' },
    { app: { appDir: dir } },
  );

  it('never charges the public budget nor counts toward a ban, unlike a connect page', async () => {
    for (let load = 0; load < 10; load++) {
      for (const url of ['/app/', '/app/subs', '/app/assets/index-abc123.js', '/app/assets/plain-def456.css']) {
        const answer = await t.call('GET', url);
        expect(answer.statusCode, `${url} (load ${load + 1})`).toBe(200);
      }
    }
    // The same client's page budget is whole: three connect pages pass (404, no such provider), the fourth is refused.
    const pages = [];
    for (let n = 0; n < 4; n++) pages.push((await t.call('GET', '/connect/nobody')).statusCode);
    expect(pages).toEqual([404, 404, 404, 429]);
  });
});

describe('dashboard not built', () => {
  const t = useTestApp('sqlite', {}, { app: { appDir: join(dir, 'absent') } });

  it('answers 503 with a page saying to run npm run build, for every app path', async () => {
    for (const url of ['/app/', '/app/subs']) {
      const response = await t.call('GET', url);
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toContain('npm run build');
    }
    expect((await t.call('GET', '/app/assets/index-abc123.js')).statusCode).toBe(404);
    expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
  });
});
