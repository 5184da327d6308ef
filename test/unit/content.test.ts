// Upstream bodies come in several encodings; these pin down which lines survive parsing.
import { describe, expect, it } from 'vitest';
import { parseUpstreamLines } from '../../src/modules/fetch/content.js';

const VLESS = 'vless://3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13@vl.example.com:443?security=tls&type=ws#Frankfurt';
const TROJAN = 'trojan://secret@tr.example.net:443?sni=example.org';
const SS = `ss://${Buffer.from('chacha20-ietf-poly1305:pw').toString('base64')}@ss.example.org:8388#%F0%9F%87%A9%F0%9F%87%AA%20DE`;
const HY2 = 'hy2://pw@hy.example.net:8443/?sni=x';
const LINES = [VLESS, TROJAN, SS, HY2];
const PLAIN = LINES.join('\n');

const parse = (body: string): Promise<string[]> => parseUpstreamLines(body, Number.POSITIVE_INFINITY);
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const base64Url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const wrap = (text: string, width: number): string => text.match(new RegExp(`.{1,${width}}`, 'g'))?.join('\n') ?? '';

describe('parseUpstreamLines: encodings and skipped lines', () => {
  it('reads plain text, one URI per line, keeping each remark', async () => {
    expect(await parse(PLAIN)).toEqual(LINES);
  });

  it('decodes standard padded base64', async () => {
    const body = base64(PLAIN.length % 3 === 0 ? `${PLAIN}\n` : PLAIN); // a length that needs padding
    expect(body.endsWith('=')).toBe(true);
    expect(await parse(body)).toEqual(LINES);
  });

  it('decodes URL-safe base64 without padding', async () => {
    const text = `${PLAIN}\n# ???>>>`; // the comment forces '-' and '_' into the encoding
    const body = base64Url(text);
    expect(body).toMatch(/[-_]/);
    expect(body).not.toMatch(/=/);
    expect(await parse(body)).toEqual(LINES);
  });

  it('decodes line-wrapped base64 (76 columns, CRLF) with surrounding whitespace', async () => {
    const body = `\n  ${wrap(base64(PLAIN), 76).replace(/\n/g, '\r\n')}\r\n\n`;
    expect(body.split('\r\n').length).toBeGreaterThan(2);
    expect(await parse(body)).toEqual(LINES);
  });

  it('splits CRLF lines and trims them', async () => {
    expect(await parse(LINES.map((line) => `  ${line}\t`).join('\r\n'))).toEqual(LINES);
  });

  it('skips blank lines and # or // comment lines, plain and inside base64', async () => {
    const text = ['# Upstream: example', '', VLESS, '   ', '// updated daily', TROJAN, '#vless://not-really'].join(
      '\n',
    );
    expect(await parse(text)).toEqual([VLESS, TROJAN]);
    expect(await parse(base64(text))).toEqual([VLESS, TROJAN]);
  });

  it('drops lines that are not configs', async () => {
    const text = [
      'STATUS=ok',
      VLESS,
      'https://other.example.com/sub',
      'vless://not-a-uuid@host.example.com:443',
      'trojan://pw@',
      '<html><body>Blocked</body></html>',
      TROJAN,
      'REMAINS=10GB',
    ].join('\n');
    expect(await parse(text)).toEqual([VLESS, TROJAN]);
  });

  it('strips a UTF-8 BOM from the body and from decoded base64', async () => {
    expect(await parse(`\uFEFF${PLAIN}`)).toEqual(LINES);
    expect(await parse(base64(`\uFEFF${PLAIN}`))).toEqual(LINES);
  });

  it('keeps the order and the first of each duplicate', async () => {
    expect(await parse([TROJAN, VLESS, TROJAN].join('\n'))).toEqual([TROJAN, VLESS]);
  });

  it('returns nothing for empty, whitespace-only and non-subscription bodies', async () => {
    expect(await parse('')).toEqual([]);
    expect(await parse(' \r\n\n ')).toEqual([]);
    expect(await parse('{"error":"not found"}')).toEqual([]);
    expect(await parse('SGVsbG8gd29ybGQ=')).toEqual([]); // base64 of "Hello world"
  });

  it('falls back to the raw text when the body is not valid base64', async () => {
    expect(await parse(`${base64(VLESS)}\n${TROJAN}`)).toEqual([TROJAN]);
  });
});

describe('parseUpstreamLines (the stored form)', () => {
  const many = (count: number, label: string) =>
    Array.from({ length: count }, (_, i) => `trojan://pw${i}@${label}-${i}.example.net:443?sni=example.org#r${i}`);

  it('keeps the first occurrence of each identity and stops at the cap', async () => {
    const lines = many(5, 'a');
    const withDuplicates = [lines[0], `${lines[0]?.split('#')[0]}#other`, ...lines].join('\n');
    expect(await parseUpstreamLines(withDuplicates, 100)).toEqual(lines);
    expect(await parseUpstreamLines(withDuplicates, 3)).toEqual(lines.slice(0, 3));
  });

  it('drops lines holding NUL, other control characters or lone surrogates', async () => {
    const [a, b, c] = many(3, 'ctl');
    const body = [`${a}\u0000x`, `${b}#bad\u0085remark`, `${c}#\ud800`, VLESS].join('\n');
    expect(await parseUpstreamLines(body, 100)).toEqual([VLESS]);
  });

  it('decodes a multi-megabyte line-wrapped base64 body in slices with the same result', async () => {
    const lines = many(40_000, 'big');
    const body = base64(lines.join('\n')).replace(/(.{76})/g, '$1\r\n');
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(await parseUpstreamLines(body, 50_000)).toEqual(lines);
    expect(await parseUpstreamLines(`${body}!`, 10)).toEqual([]); // not base64, and no config lines as text
  });

  it('reads a body of bytes piece by piece with the same result, characters split across pieces included', async () => {
    const lines = many(8_000, 'bytes').map((line, i) => `${line}-%F0%9F%87%A9${i % 2 ? 'é中' : ''}`);
    const text = `\uFEFF${lines.join('\r\n')}`;
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.length).toBeGreaterThan(512 * 1024);
    expect(await parseUpstreamLines(bytes, 10_000)).toEqual(lines);
    expect(await parseUpstreamLines(bytes, 10)).toEqual(lines.slice(0, 10));
    expect(await parseUpstreamLines(Buffer.from(base64(text)), 10_000)).toEqual(lines);
    expect(await parseUpstreamLines(Buffer.from(`\uFEFF${base64(text)}`), 10_000)).toEqual(lines);
  });
});
