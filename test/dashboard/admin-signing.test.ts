// The admin console signs in the browser with WebCrypto (web/src/admin/signing.ts); Node's WebCrypto runs the same code
// here, and every signature must equal the server's (src/modules/admin/signature.ts) byte for byte.
import { describe, expect, it } from 'vitest';
import { signRequest, verifySignature } from '../../src/modules/admin/signature.js';
import { nextTimestamp, signAdminRequest } from '../../web/src/admin/signing.js';

const SECRET = 'console-secret-of-at-least-32-characters';

const CASES = [
  { method: 'GET', pathWithQuery: '/api/v1/admin/stats', body: '' },
  { method: 'GET', pathWithQuery: '/api/v1/admin/users?search=42&status=active&limit=50', body: '' },
  { method: 'post', pathWithQuery: '/api/v1/admin/users', body: '{"user_id":42}' },
  { method: 'PUT', pathWithQuery: '/api/v1/admin/branding', body: '{"service_name":"Сервис 订阅 اشتراک 🚀"}' },
  { method: 'DELETE', pathWithQuery: '/api/v1/admin/ban/10.0.0.0%2F24', body: '' },
];

describe('the console signs exactly as the server checks', () => {
  it.each(CASES)('$method $pathWithQuery with a body of $body.length characters', async (request) => {
    const timestamp = '1750000000000';
    const browser = await signAdminRequest(SECRET, {
      ...request,
      timestamp,
      body: new TextEncoder().encode(request.body),
    });
    expect(browser).toBe(signRequest(SECRET, { ...request, timestamp }));
    expect(verifySignature(SECRET, { ...request, timestamp }, browser, 1_750_000_000_000)).toBe('ok');
  });

  it('signs a unicode secret as the server does, and another secret differently', async () => {
    const parts = { timestamp: '1750000000001', method: 'GET', pathWithQuery: '/api/v1/admin/stats' };
    const unicodeSecret = 'секрет-管理员-رمز-of-at-least-32-characters';
    const browser = await signAdminRequest(unicodeSecret, { ...parts, body: new Uint8Array() });
    expect(browser).toBe(signRequest(unicodeSecret, { ...parts, body: '' }));
    expect(await signAdminRequest(SECRET, { ...parts, body: new Uint8Array() })).not.toBe(browser);
  });

  it('never repeats a timestamp, even within one millisecond', () => {
    const first = nextTimestamp(1_750_000_000_000);
    const second = nextTimestamp(1_750_000_000_000);
    expect(Number(second)).toBe(Number(first) + 1);
  });
});
