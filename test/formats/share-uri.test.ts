// Pins the share-URI parser to the golden vectors of the clients' own tests, field by field, and checks the round trip.
import { describe, expect, it } from 'vitest';
import { PROTOCOLS, type ProxyNode } from '../../src/formats/proxy.js';
import { isValidProxyUri, parseShareUri, toShareUri } from '../../src/formats/share-uri/index.js';
import { PARSE_VECTORS, REFUSED_VECTORS } from './vectors.js';

function parsed(uri: string): ProxyNode {
  const result = parseShareUri(uri);
  if (!result.ok) throw new Error(`expected ${uri} to parse: ${result.reason}`);
  return result.node;
}

const withoutUri = (node: ProxyNode): Omit<ProxyNode, 'uri'> => {
  const { uri: _uri, ...rest } = node;
  return rest;
};

describe('golden vectors', () => {
  it('hold at least 30 URIs covering every protocol and every source', () => {
    expect(PARSE_VECTORS.length).toBeGreaterThanOrEqual(30);
    const protocols = new Set(PARSE_VECTORS.map((vector) => parsed(vector.uri).protocol));
    expect([...protocols].sort()).toEqual([...PROTOCOLS].sort());
    const sources = new Set([...PARSE_VECTORS, ...REFUSED_VECTORS].map((vector) => vector.source.split(' ')[0]));
    expect(sources).toEqual(
      new Set([
        'MetaCubeX/mihomo',
        'hi2shark/meta-core',
        'XTLS/libXray',
        'sub-store-org/Sub-Store',
        'hiddify/ray2sing',
      ]),
    );
    const ids = [...PARSE_VECTORS, ...REFUSED_VECTORS].map((vector) => vector.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe.each(PARSE_VECTORS)('parseShareUri $id', (vector) => {
  const result = parseShareUri(vector.uri);

  it('parses, keeping the line as the node uri', () => {
    expect(result.ok ? null : result.reason).toBeNull();
    if (result.ok) expect(result.node.uri).toBe(vector.uri);
  });

  it.each(Object.entries(vector.expected))('has %s', (key, value) => {
    const node = parsed(vector.uri) as unknown as Record<string, unknown>;
    expect(node[key]).toStrictEqual(value);
  });

  if (vector.absent) {
    it.each(vector.absent)('has no %s', (key) => {
      expect(parsed(vector.uri)).not.toHaveProperty(key);
    });
  }

  it('writes a canonical URI the validator accepts and that parses back to the same node', () => {
    const node = parsed(vector.uri);
    const uri = toShareUri(node);
    expect(isValidProxyUri(uri)).toBe(true);
    const again = parsed(uri);
    expect(withoutUri(again)).toStrictEqual(withoutUri(node));
    expect(toShareUri(again)).toBe(uri);
  });
});

describe.each(REFUSED_VECTORS)('parseShareUri refuses $id', (vector) => {
  it(`with a reason naming '${vector.reason}'`, () => {
    const result = parseShareUri(vector.uri);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(vector.reason);
  });
});
