// The stored parse result of a line must give back exactly what parsing the line gives, so a render from stored forms is byte-identical.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderFormat, type RenderedFormat } from '../../src/formats/render/index.js';
import { parseShareUri, renderConfig } from '../../src/formats/share-uri/index.js';
import {
  PARSED_FORM_FINGERPRINT,
  PARSED_FORM_VERSION,
  readStoredForm,
  storedForm,
} from '../../src/formats/share-uri/stored.js';
import { configForm, storedConfigLine } from '../../src/modules/sources/config-form.js';
import { PARSE_VECTORS, REFUSED_VECTORS } from '../formats/vectors.js';

const LINES = [
  ...PARSE_VECTORS.map((v) => v.uri),
  ...REFUSED_VECTORS.map((v) => v.uri),
  // A name that needs escaping in every format, and a lone surrogate (PostgreSQL stores JSON escapes of it fine).
  'trojan://pw@example.com:443?sni=a.example#%22q%22%3A%20%5Cb%20%E2%9C%93',
  'trojan://pw@example.com:443#\ud800x',
];
const FORMATS: RenderedFormat[] = ['mihomo', 'sing-box', 'xray', 'sip008'];
const roundTrip = (line: string) => readStoredForm(JSON.parse(storedForm(parseShareUri(line))), line);

describe('stored parse results', () => {
  it('give back the parse result of every golden line, member for member', () => {
    for (const line of LINES) expect(roundTrip(line), line).toStrictEqual(parseShareUri(line));
  });

  it('render every format byte for byte as the parsed lines do', () => {
    const nodes = LINES.flatMap((line) => {
      const result = parseShareUri(line);
      return result.ok ? [result.node] : [];
    });
    const stored = LINES.flatMap((line) => {
      const result = roundTrip(line);
      return result.ok ? [result.node] : [];
    });
    expect(stored.length).toBeGreaterThan(50);
    for (const format of FORMATS) expect(renderFormat(format, stored).body).toBe(renderFormat(format, nodes).body);
  });

  it('a config row holds its served line and is read for its own comment only', () => {
    const uri = PARSE_VECTORS.find((v) => v.uri.startsWith('vmess://'))?.uri.split('#')[0] as string;
    const form = configForm(uri, 'a comment');
    expect(form.line).toBe(renderConfig(uri, 'a comment'));
    expect(storedConfigLine({ ...form, comment: 'a comment' })?.parsed()).toStrictEqual(
      parseShareUri(form.line as string),
    );
    expect(storedConfigLine({ ...form, comment: 'changed by an older instance' })).toBeNull();
    expect(storedConfigLine({ ...form, parsed_version: PARSED_FORM_VERSION + 1, comment: 'a comment' })).toBeNull();
  });

  it('are of the version whose fingerprint matches the parser (bump both when a line parses differently)', () => {
    const hash = createHash('sha256');
    for (const line of LINES) {
      const identity = line.split('#')[0] as string;
      for (const comment of [null, 'ü 1']) hash.update(storedForm(parseShareUri(renderConfig(identity, comment))));
      hash.update(storedForm(parseShareUri(line))).update('\n');
    }
    expect(hash.digest('base64url')).toBe(PARSED_FORM_FINGERPRINT);
  });
});
