// The admin signature as a pure function, and the worked examples of docs/admin-api.md kept in sync with it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SIGNATURE_WINDOW_MS,
  signRequest,
  verifySignature,
  type SignedRequest,
} from '../../src/modules/admin/signature.js';

const SECRET = 'unit-secret-of-at-least-32-characters';
const NOW = 1_750_000_000_000;
const request: SignedRequest = {
  timestamp: String(NOW),
  method: 'POST',
  pathWithQuery: '/api/v1/admin/users?x=1',
  body: '{"user_id":42}',
};
const signed = signRequest(SECRET, request);

describe('verifySignature', () => {
  it('accepts the signature of the same request', () => {
    expect(signed).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(SECRET, request, signed, NOW)).toBe('ok');
    expect(verifySignature(SECRET, { ...request, body: Buffer.from(request.body) }, signed, NOW)).toBe('ok');
  });

  it('reports a missing signature or timestamp', () => {
    expect(verifySignature(SECRET, request, undefined, NOW)).toBe('missing_signature');
    expect(verifySignature(SECRET, request, '', NOW)).toBe('missing_signature');
    expect(verifySignature(SECRET, { ...request, timestamp: '' }, signed, NOW)).toBe('missing_signature');
  });

  it('accepts timestamps up to the window on either side and refuses beyond it', () => {
    for (const offset of [-SIGNATURE_WINDOW_MS, SIGNATURE_WINDOW_MS]) {
      const shifted = { ...request, timestamp: String(NOW + offset) };
      expect(verifySignature(SECRET, shifted, signRequest(SECRET, shifted), NOW)).toBe('ok');
    }
    for (const offset of [-SIGNATURE_WINDOW_MS - 1, SIGNATURE_WINDOW_MS + 1]) {
      const shifted = { ...request, timestamp: String(NOW + offset) };
      expect(verifySignature(SECRET, shifted, signRequest(SECRET, shifted), NOW)).toBe('signature_expired');
    }
  });

  it('refuses timestamps that are not milliseconds as digits', () => {
    for (const timestamp of ['abc', '-1', '1.5e12', ` ${NOW}`, String(NOW / 1000), '1'.repeat(17)]) {
      const odd = { ...request, timestamp };
      expect(verifySignature(SECRET, odd, signRequest(SECRET, odd), NOW), timestamp).toBe('signature_expired');
    }
  });

  it('refuses a wrong key', () => {
    expect(verifySignature('other-secret', request, signed, NOW)).toBe('invalid_signature');
  });

  it.each([
    ['body', { body: '{"user_id":43}' }],
    ['body whitespace', { body: '{"user_id": 42}' }],
    ['query', { pathWithQuery: '/api/v1/admin/users?x=2' }],
    ['dropped query', { pathWithQuery: '/api/v1/admin/users' }],
    ['path', { pathWithQuery: '/api/v1/admin/user?x=1' }],
    ['percent-encoding', { pathWithQuery: '/api/v1/admin/%75sers?x=1' }],
    ['method', { method: 'PATCH' }],
    ['timestamp', { timestamp: String(NOW + 1) }],
  ])('refuses a tampered %s', (_what, change) => {
    expect(verifySignature(SECRET, { ...request, ...change }, signed, NOW)).toBe('invalid_signature');
  });

  it('signs the method case-insensitively (it is upper-cased)', () => {
    expect(signRequest(SECRET, { ...request, method: 'post' })).toBe(signed);
  });

  it('expects the lowercase hex the HTTP layer normalises to; other shapes are invalid', () => {
    // The admin plugin lowercases X-Signature before calling verifySignature, so upper-case hex works over HTTP.
    expect(verifySignature(SECRET, request, signed.toUpperCase(), NOW)).toBe('invalid_signature');
    for (const bad of [
      signed.slice(2),
      `${signed}00`,
      `${signed.slice(0, 63)}g`,
      Buffer.from(signed, 'hex').toString('base64'),
    ]) {
      expect(verifySignature(SECRET, request, bad, NOW)).toBe('invalid_signature');
    }
  });
});

interface DocExample {
  secret: string;
  timestamp: string;
  method: string;
  path: string;
  body: string;
  signature: string;
}

/** The ```text blocks of docs/admin-api.md that start with `secret:`, as key/value records. */
function docExamples(): DocExample[] {
  const doc = readFileSync(new URL('../../docs/admin-api.md', import.meta.url), 'utf8');
  return [...doc.matchAll(/```text\n(secret:[\s\S]*?)```/g)].map((match) => {
    const fields: Record<string, string> = {};
    for (const line of (match[1] as string).trim().split('\n')) {
      const colon = line.indexOf(':');
      fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    return { ...fields, body: fields['body'] === '(empty)' ? '' : (fields['body'] ?? '') } as DocExample;
  });
}

describe('docs/admin-api.md worked examples', () => {
  const examples = docExamples();

  it('has the examples the page promises', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    expect(examples.some((e) => e.body !== '')).toBe(true);
    expect(examples.some((e) => e.path.includes('%2F'))).toBe(true);
    expect(examples.some((e) => e.path.includes('?'))).toBe(true);
  });

  it('shows signatures that signRequest computes and verifySignature accepts', () => {
    for (const example of examples) {
      const req = {
        timestamp: example.timestamp,
        method: example.method,
        pathWithQuery: example.path,
        body: example.body,
      };
      expect(signRequest(example.secret, req), example.path).toBe(example.signature);
      expect(verifySignature(example.secret, req, example.signature, Number(example.timestamp))).toBe('ok');
    }
  });

  const openssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!openssl)('matches the openssl recipe of the page', () => {
    for (const example of examples) {
      const input = `${example.timestamp}${example.method}${example.path}${example.body}`;
      const output = execFileSync('openssl', ['dgst', '-sha256', '-hmac', example.secret, '-hex'], {
        input,
      }).toString();
      expect(output.trim().replace(/^.* /, '')).toBe(example.signature);
    }
  });
});
