// Checks how source strings are sorted into configs, external URLs and internal references, and their ids.
import { createHash } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import {
  classifySource,
  copiedLinkToken,
  isConfigLine,
  sourceId,
  type ClassifiedSource,
  type ClassifyResult,
} from '../../src/modules/sources/classify.js';

const BASE = 'https://subs.example.org';
const UUID = '3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13';
const VLESS = `vless://${UUID}@edge.example.net:443?type=grpc&security=tls`;
const VMESS = `vmess://${Buffer.from(JSON.stringify({ v: '2', ps: 'x', add: 'vm.example.net', port: 443, id: UUID })).toString('base64')}`;
const TOKEN = 'Abc_123-xyz_TOKEN_0123456789abcdefghijklmno';

function accepted(result: ClassifyResult): ClassifiedSource {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.reason}`);
  return result.source;
}

function refused(result: ClassifyResult): { code: string; reason: string } {
  if (result.ok) throw new Error(`expected failure, got ${result.source.type}`);
  return { code: result.code, reason: result.reason };
}

const sha32 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

describe('classifySource: empty input', () => {
  it.each(['', '   ', '\n\t '])('refuses %j as invalid_source', (input) => {
    expect(refused(classifySource(input, BASE)).code).toBe('invalid_source');
  });
});

describe('classifySource: configs', () => {
  it('classifies a proxy URI without a comment', () => {
    expect(accepted(classifySource(VLESS, BASE))).toEqual({ type: 'config', identity: VLESS, comment: null });
  });

  it('trims the input and the identity', () => {
    expect(accepted(classifySource(`\n  ${VLESS}  \r\n`, BASE)).identity).toBe(VLESS);
    expect(accepted(classifySource(`${VLESS} #Berlin`, BASE))).toMatchObject({ identity: VLESS, comment: 'Berlin' });
  });

  it('accepts schemes case-insensitively and keeps the identity as typed', () => {
    const upper = VLESS.replace('vless://', 'VLess://');
    expect(accepted(classifySource(upper, BASE))).toMatchObject({ type: 'config', identity: upper });
  });

  it('classifies base64 vmess JSON', () => {
    expect(accepted(classifySource(VMESS, BASE))).toMatchObject({ type: 'config', identity: VMESS });
  });

  it.each([
    ['plain text', 'Berlin 1', 'Berlin 1'],
    ['percent-encoded text', 'Berlin%201%20%E2%9C%93', 'Berlin 1 ✓'],
    ['percent-encoded Cyrillic', '%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0', 'Москва'],
    ['raw unicode and emoji', '🇳🇱 Амстердам', '🇳🇱 Амстердам'],
    ['an invalid percent sequence (kept raw)', '100% fast', '100% fast'],
    ['a truncated UTF-8 sequence (kept raw)', 'bad%E2%82', 'bad%E2%82'],
    ['surrounding spaces', '   Paris  ', 'Paris'],
    ['encoded surrounding spaces', '%20%20Paris%20', 'Paris'],
    ['a second "#"', 'one#two', 'one#two'],
    ['an encoded "#"', 'node%231', 'node#1'],
    ['an encoded percent, decoded only once', '50%2541', '50%41'],
  ])('decodes a comment with %s', (_label, raw, comment) => {
    expect(accepted(classifySource(`${VLESS}#${raw}`, BASE))).toEqual({ type: 'config', identity: VLESS, comment });
  });

  it.each(['', '   ', '%20', '%09%20'])('turns the empty comment %j into null', (raw) => {
    expect(accepted(classifySource(`${VLESS}#${raw}`, BASE)).comment).toBeNull();
  });

  it('does not limit the comment length', () => {
    expect(accepted(classifySource(`${VLESS}#${'x'.repeat(1000)}`, BASE)).comment).toHaveLength(1000);
  });

  it.each([
    [`vless://not-a-uuid@edge.example.net:443`, 'vless URI needs a UUID user'],
    [`vless://${UUID}@edge.example.net`, 'vless URI has no port'],
    [`trojan://pw@edge.example.net:70000#name`, "trojan URI has an invalid port '70000'"],
    [`vless://${UUID}@edge example.net:443`, 'proxy URI must not contain whitespace or control characters'],
  ])('refuses the invalid config %s', (input, reason) => {
    expect(refused(classifySource(input, BASE))).toEqual({ code: 'invalid_source', reason });
  });
});

describe('classifySource: internal references', () => {
  it.each([
    ['the canonical path', `${BASE}/api/v1/sub/${TOKEN}`],
    ['the alias path', `${BASE}/sub/${TOKEN}`],
    ['an upper-case scheme and host', `HTTPS://SUBS.Example.ORG/sub/${TOKEN}`],
    ['an explicit default port', `https://subs.example.org:443/api/v1/sub/${TOKEN}`],
    ['a trailing query', `${BASE}/api/v1/sub/${TOKEN}?format=plain`],
    ['a trailing path segment', `${BASE}/sub/${TOKEN}/extra`],
    ['a fragment', `${BASE}/sub/${TOKEN}#not-a-comment`],
  ])('recognises %s', (_label, input) => {
    expect(accepted(classifySource(input, BASE))).toEqual({
      type: 'internal_token',
      identity: TOKEN,
      comment: null,
      refToken: TOKEN,
    });
  });

  it('honours a base URL with a path prefix and a trailing slash', () => {
    const base = 'https://example.org/subweave/';
    expect(accepted(classifySource(`https://EXAMPLE.org/subweave/api/v1/sub/${TOKEN}`, base)).refToken).toBe(TOKEN);
    expect(accepted(classifySource(`https://example.org/subweave/sub/${TOKEN}`, base)).refToken).toBe(TOKEN);
    expect(accepted(classifySource(`https://example.org/sub/${TOKEN}`, base)).type).toBe('external_url');
  });

  it('honours a base URL with a non-default port', () => {
    const base = 'http://localhost:8080';
    expect(accepted(classifySource(`http://LOCALHOST:8080/sub/${TOKEN}`, base)).type).toBe('internal_token');
    expect(accepted(classifySource(`http://localhost:8081/sub/${TOKEN}`, base)).type).toBe('external_url');
  });

  it.each([
    ['another host', `https://other.example.org/sub/${TOKEN}`],
    ['another scheme', `http://subs.example.org/sub/${TOKEN}`],
    ['a look-alike path', `${BASE}/api/v1/subs/${TOKEN}`],
    ['a host suffix', `https://subs.example.org.evil.test/sub/${TOKEN}`],
  ])('treats %s as an external URL', (_label, input) => {
    expect(accepted(classifySource(input, BASE)).type).toBe('external_url');
  });

  it.each([
    ['an empty token', `${BASE}/api/v1/sub/`],
    ['an empty token before a query', `${BASE}/sub/?x=1`],
    ['a token with forbidden characters', `${BASE}/sub/abc.def`],
    ['a percent-encoded token', `${BASE}/sub/abc%20def`],
    ['a token longer than 128 characters', `${BASE}/sub/${'a'.repeat(129)}`],
  ])('refuses %s as invalid_source', (_label, input) => {
    expect(refused(classifySource(input, BASE)).code).toBe('invalid_source');
  });

  it('accepts a token of exactly 128 characters', () => {
    expect(accepted(classifySource(`${BASE}/sub/${'a'.repeat(128)}`, BASE)).refToken).toHaveLength(128);
  });
});

describe('copied links', () => {
  it.each([
    ['a LAN address', `http://192.168.1.2:8080/sub/${TOKEN}`],
    ['the API path on loopback', `http://127.0.0.1/api/v1/sub/${TOKEN}`],
    ['a format segment, a slash, a query and a fragment', `https://old.example/sub/${TOKEN}/sing-box/?a=b#c`],
    ["the base URL's path on another host", `https://old.example/prefix/sub/${TOKEN}/mihomo`],
  ])('finds the token in a link from %s', (_label, input) => {
    expect(copiedLinkToken(input, 'https://subs.example.org/prefix')).toBe(TOKEN);
  });

  it.each([
    ['a non-http scheme', `ftp://old.example/sub/${TOKEN}`],
    ['two segments after the token', `https://old.example/sub/${TOKEN}/a/b`],
    ['an unknown prefix', `https://old.example/x/sub/${TOKEN}`],
    ['a malformed token', 'https://old.example/sub/a.b'],
    ['no token', 'https://old.example/sub/'],
    ['a proxy URI', VLESS],
  ])('finds none in %s', (_label, input) => {
    expect(copiedLinkToken(input, BASE)).toBeNull();
  });

  it('classifies a copied link as a reference only when its token is known', () => {
    const link = `http://10.0.0.1/sub/${TOKEN}/clash`;
    expect(accepted(classifySource(link, BASE, new Set([TOKEN])))).toEqual({
      type: 'internal_token',
      identity: TOKEN,
      comment: null,
      refToken: TOKEN,
    });
    expect(accepted(classifySource(link, BASE, new Set(['other'])))).toMatchObject({
      type: 'external_url',
      identity: link,
    });
  });
});

describe('vmess ps as the comment', () => {
  const vmess = (ps: unknown) =>
    `vmess://${Buffer.from(JSON.stringify({ ps, add: 'vm.example.net', port: 443, id: UUID })).toString('base64')}`;

  it('keeps a non-empty ps, trimmed, when there is no #', () => {
    expect(accepted(classifySource(vmess(' Name '), BASE)).comment).toBe('Name');
  });

  it.each([
    ['a # fragment', `${vmess('Name')}#Other`, 'Other'],
    ['a bare #', `${vmess('Name')}#`, null],
    ['a blank ps', vmess('  '), null],
    ['a ps that is not a string', vmess(7), null],
  ])('does not use ps with %s', (_label, input, comment) => {
    expect(accepted(classifySource(input, BASE)).comment).toBe(comment);
  });
});

describe('classifySource: external URLs', () => {
  it('keeps the URL as typed, minus the fragment', () => {
    const url = 'https://Upstream.example.com/feeds/Sub?token=a%2Fb&flag';
    expect(accepted(classifySource(`  ${url}#section `, BASE))).toEqual({
      type: 'external_url',
      identity: url,
      comment: null,
    });
  });

  it('accepts http and mixed-case schemes', () => {
    expect(accepted(classifySource('http://upstream.example.com/s', BASE)).type).toBe('external_url');
    expect(accepted(classifySource('HtTpS://upstream.example.com/s', BASE)).identity).toBe(
      'HtTpS://upstream.example.com/s',
    );
  });

  it.each([
    ['a username', 'https://alice@upstream.example.com/s'],
    ['a username and password', 'https://alice:secret@upstream.example.com/s'],
    ['an empty username with a password', 'https://:secret@upstream.example.com/s'],
    ['no host', 'https://'],
    ['a broken IPv6 host', 'http://[::1/s'],
    ['no slashes after the scheme', 'https:upstream.example.com/s'],
    ['a space', 'https://upstream.example.com/a b'],
    ['a backslash', 'https://upstream.example.com\\@evil.test/'],
  ])('refuses %s as invalid_url', (_label, input) => {
    expect(refused(classifySource(input, BASE)).code).toBe('invalid_url');
  });
});

describe('classifySource: anything else', () => {
  it.each([
    ['ftp://files.example.com/sub.txt', "unsupported scheme 'ftp'"],
    ['foo://bar', "unsupported scheme 'foo'"],
    ['javascript:alert(1)', "unsupported scheme 'javascript'"],
    ['just some words', 'not a proxy config URI or an http(s) URL'],
    ["'; DROP TABLE sources; --", 'not a proxy config URI or an http(s) URL'],
  ])('refuses %s with a reason', (input, reason) => {
    expect(refused(classifySource(input, BASE))).toEqual({ code: 'invalid_source', reason });
  });
});

describe('sourceId', () => {
  it('is 32 lower-case hex characters and stable', () => {
    const id = sourceId('config', VLESS);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(sourceId('config', VLESS)).toBe(id);
  });

  it('hashes the identity, or "internal:" plus the token for references', () => {
    expect(sourceId('config', VLESS)).toBe(sha32(VLESS));
    expect(sourceId('external_url', 'https://upstream.example.com/s')).toBe(sha32('https://upstream.example.com/s'));
    expect(sourceId('internal_token', TOKEN)).toBe(sha32(`internal:${TOKEN}`));
    expect(sourceId('internal_token', TOKEN)).not.toBe(sourceId('config', TOKEN));
  });

  it('gives the same config the same id whatever its comment', () => {
    const ids = ['#Berlin', '#Paris', '', ' #  '].map((suffix) => {
      const source = accepted(classifySource(`${VLESS}${suffix}`, BASE));
      return sourceId(source.type, source.identity);
    });
    expect(new Set(ids).size).toBe(1);
  });

  it('distinguishes different sources', () => {
    expect(sourceId('config', VLESS)).not.toBe(sourceId('config', VLESS.replace('443', '8443')));
  });
});

describe('isConfigLine', () => {
  it.each([VLESS, `${VLESS}#remark`, `  ${VMESS}  `, 'hy2://pw@hy.example.net/?sni=x#HY'])('accepts %s', (line) => {
    expect(isConfigLine(line)).toBe(true);
  });

  it.each(['', '   ', '# a comment', '// note', 'https://upstream.example.com/s', 'vless://bad@host:443', 'STATUS=ok'])(
    'rejects %j',
    (line) => {
      expect(isConfigLine(line)).toBe(false);
    },
  );
});
