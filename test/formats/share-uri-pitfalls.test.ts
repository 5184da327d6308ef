// The reading rules of docs/architecture.md (Reading share URIs) and bad input, which must be refused, never thrown.
import { describe, expect, it } from 'vitest';
import type { ProxyNode } from '../../src/formats/proxy.js';
import { parseShareUri } from '../../src/formats/share-uri/index.js';
import { PARSE_VECTORS, REFUSED_VECTORS } from './vectors.js';

const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const WG_PRIVATE = 'QJjrFqqqpbIqfI5qhbYWrPXhaBFmFq71jCj8mMaQE04=';
const WG_PUBLIC = 'N+K9fXobvy0vy3VFbn8a7tPRgUNcQbGRwjlyOMx4WHc=';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

function parsed(uri: string): ProxyNode {
  const result = parseShareUri(uri);
  if (!result.ok) throw new Error(`expected ${uri} to parse: ${result.reason}`);
  return result.node;
}

function reason(uri: string): string {
  const result = parseShareUri(uri);
  if (result.ok) throw new Error(`expected ${uri} to be refused`);
  return result.reason;
}

describe('+ in query values is not form-decoded', () => {
  it('keeps + and = of wireguard keys in the query and of the userinfo key', () => {
    const node = parsed(`wireguard://${WG_PRIVATE}@wg.example.com:51820?publickey=${WG_PUBLIC}&address=10.0.0.2/32`);
    expect(node).toMatchObject({ privateKey: WG_PRIVATE, publicKey: WG_PUBLIC });
  });

  it('reads %2B as + and a literal + as +, never as a space', () => {
    const encoded = parsed(
      `wg://wg.example.com:51820?privatekey=${encodeURIComponent(WG_PRIVATE)}&publickey=${WG_PUBLIC}&ip=10.0.0.2`,
    );
    expect(encoded).toMatchObject({ privateKey: WG_PRIVATE, publicKey: WG_PUBLIC, addresses: ['10.0.0.2/32'] });
    const hy2 = parsed('hy2://pass@h.example.com:443?obfs=salamander&obfs-password=a+b%2Bc');
    expect(hy2).toMatchObject({ obfs: { type: 'salamander', password: 'a+b+c' } });
  });

  it('keeps + in a plain shadowsocks 2022 password written without escapes', () => {
    const key = 'YctPZ6U7xPPcU+gp3u+0tx/tRizJN9K8y+uKlW2qjlI=';
    const node = parsed(`ss://2022-blake3-aes-256-gcm:${key.replace(/\//g, '%2F')}@192.168.100.1:8888#k`);
    expect(node).toMatchObject({ method: '2022-blake3-aes-256-gcm', password: key });
  });
});

describe('vmess port and aid may be strings or numbers', () => {
  const json = (port: unknown, aid: unknown): string =>
    `vmess://${b64(JSON.stringify({ v: 2, ps: 'n', add: 'vm.example.com', port, id: UUID, aid, net: 'tcp' }))}`;

  it.each([
    ['strings', '8443', '2'],
    ['numbers', 8443, 2],
    ['mixed', 8443, '2'],
  ])('reads %s alike', (_label, port, aid) => {
    expect(parsed(json(port, aid))).toMatchObject({ port: 8443, alterId: 2 });
  });

  it('defaults a missing or empty aid to 0 and refuses one that is not a number', () => {
    expect(parsed(json('443', undefined))).toMatchObject({ alterId: 0 });
    expect(parsed(json('443', ''))).toMatchObject({ alterId: 0 });
    expect(reason(json('443', 'two'))).toContain('alterId');
  });
});

describe('hysteria2 userinfo is percent-decoded exactly once', () => {
  it('decodes the password once', () => {
    expect(parsed('hysteria2://p%40ss%3Aw%2Bd@h.example.com:443/?sni=a')).toMatchObject({ password: 'p@ss:w+d' });
    expect(parsed('hy2://p%2540@h.example.com:443')).toMatchObject({ password: 'p%40' });
  });

  it('keeps user:pass authentication whole', () => {
    expect(parsed('hy2://user:secret@h.example.com:443')).toMatchObject({ password: 'user:secret' });
  });
});

describe('a link without a name gets <protocol> <host>:<port>', () => {
  it.each([
    [`vless://${UUID}@vl.example.com:443`, 'vless vl.example.com:443'],
    [`vless://${UUID}@[2001:db8::1]:443#%20`, 'vless [2001:db8::1]:443'],
    ['trojan://pw@tr.example.com:8443#', 'trojan tr.example.com:8443'],
    [`socks5://u:p@127.0.0.1:1080`, 'socks 127.0.0.1:1080'],
    ['anytls://pw@any.example.com:443', 'anytls any.example.com:443'],
    ['hy2://pw@example.com', 'hysteria2 example.com:443'],
    [
      `vmess://${b64(JSON.stringify({ add: 'vm.example.com', port: 443, id: UUID, ps: '' }))}`,
      'vmess vm.example.com:443',
    ],
    [
      `ssr://${b64(`ssr.example.com:8899:origin:aes-256-cfb:plain:${b64('pw')}/?remarks=`)}`,
      'shadowsocksr ssr.example.com:8899',
    ],
  ])('%s', (uri, name) => {
    expect(parsed(uri).name).toBe(name);
  });

  it('takes the fragment over the vmess ps and trims the line', () => {
    const uri = `vmess://${b64(JSON.stringify({ add: 'vm.example.com', port: 443, id: UUID, ps: 'inner' }))}`;
    expect(parsed(`  ${uri}#outer  `)).toMatchObject({ name: 'outer', uri: `${uri}#outer` });
    expect(parsed(uri).name).toBe('inner');
  });

  it('keeps a malformed percent escape in the name as written', () => {
    expect(parsed(`trojan://pw@tr.example.com:443#100%`).name).toBe('100%');
  });
});

describe('IPv6 hosts', () => {
  it('are stored without brackets in server', () => {
    expect(parsed(`vless://${UUID}@[2001:db8::1]:443`).server).toBe('2001:db8::1');
    const vmess = `vmess://${b64(JSON.stringify({ add: '[2001:db8::2]', port: 443, id: UUID }))}`;
    expect(parsed(vmess).server).toBe('2001:db8::2');
    const legacySs = `ss://${b64('aes-128-gcm:pw@[2001:db8::3]:8388')}`;
    expect(parsed(legacySs).server).toBe('2001:db8::3');
    const ssr = `ssr://${b64(`2001:db8::4:8899:origin:aes-256-cfb:plain:${b64('pw')}`)}`;
    expect(parsed(ssr)).toMatchObject({ server: '2001:db8::4', port: 8899 });
  });
});

describe('bad input is refused with a reason', () => {
  it.each([
    ['broken base64 vmess', 'vmess://!!!not-base64', 'neither base64 JSON'],
    ['base64 of something else', `vmess://${b64('hello world')}`, 'not a JSON object'],
    [
      'vmess JSON without a UUID id',
      `vmess://${b64(JSON.stringify({ add: 'a.example', port: 1, id: 'nope' }))}`,
      'UUID',
    ],
    ['vmess URI form with a bad uuid', 'vmess://not-a-uuid@a.example:443', 'UUID'],
    ['vless with a bad uuid', 'vless://1234@a.example:443', 'UUID'],
    ['tuic with a bad uuid', 'tuic://1234:pw@a.example:443', 'UUID'],
    ['a missing port', `vless://${UUID}@a.example`, 'has no port'],
    ['a missing port (trojan)', 'trojan://pw@a.example', 'has no port'],
    ['a missing port (ss)', `ss://${b64('aes-128-gcm:pw')}@a.example`, 'has no port'],
    ['broken legacy ss base64', 'ss://%%%', 'neither user@host:port nor base64'],
    ['ss without method:password', `ss://${b64('only-method')}@a.example:8388`, 'method:password'],
    ['broken ssr base64', 'ssr://***', 'not base64'],
    ['ssr with too few fields', `ssr://${b64('a.example:1:origin')}`, 'needs host:port'],
    [
      'an unknown transport',
      `vless://${UUID}@a.example:443?type=carrier-pigeon`,
      "unsupported transport 'carrier-pigeon'",
    ],
    ['an unknown security', `vless://${UUID}@a.example:443?security=rot13`, "unsupported security 'rot13'"],
    ['REALITY without a key', `vless://${UUID}@a.example:443?security=reality`, 'REALITY public key'],
    [
      'a bad REALITY short id',
      `vless://${UUID}@a.example:443?security=reality&pbk=${'A'.repeat(43)}&sid=xyz`,
      'short id',
    ],
    ['a trojan without password', 'trojan://@a.example:443', 'no password'],
    ['an unknown hysteria2 obfs', 'hy2://pw@a.example:443?obfs=gecko&obfs-password=x', "obfs 'gecko'"],
    ['a malformed port list', 'hy2://pw@a.example:443?mport=5-x', 'port list'],
    [
      'a wireguard key that is not 32 bytes',
      `wireguard://short@a.example:51820?publickey=${WG_PUBLIC}&address=10.0.0.2`,
      'private key',
    ],
    [
      'a wireguard link without address',
      `wireguard://${WG_PRIVATE}@a.example:51820?publickey=${WG_PUBLIC}`,
      'no interface address',
    ],
    [
      'a malformed wireguard address',
      `wireguard://${WG_PRIVATE}@a.example:51820?publickey=${WG_PUBLIC}&address=10.0.0.300`,
      'malformed',
    ],
    [
      'bad wireguard reserved bytes',
      `wireguard://${WG_PRIVATE}@a.example:51820?publickey=${WG_PUBLIC}&address=10.0.0.2&reserved=1,2,300`,
      'reserved',
    ],
    [
      'juicity',
      `juicity://${UUID}:pw@a.example:443?congestion_control=bbr`,
      'juicity is not supported by mihomo, sing-box or Xray',
    ],
    ['an unknown scheme', 'naive+https://u:p@a.example:443', "unsupported scheme 'naive+https'"],
    ['an http URL', 'https://a.example/sub', "unsupported scheme 'https'"],
    ['no scheme at all', 'just-some-text', "must start with 'scheme://'"],
    ['an empty line', '', "must start with 'scheme://'"],
    ['whitespace in the link', `vless://${UUID}@a.example:443?path=/a b`, 'whitespace'],
  ])('%s', (_label, uri, expected) => {
    expect(reason(uri)).toContain(expected);
  });
});

describe('no input throws', () => {
  const lines = [...PARSE_VECTORS, ...REFUSED_VECTORS].map((vector) => vector.uri);

  /** The inputs among `inputs` on which parseShareUri throws. */
  function throwing(inputs: Iterable<string>): string[] {
    const thrown: string[] = [];
    for (const input of inputs) {
      try {
        parseShareUri(input);
      } catch {
        thrown.push(input);
      }
    }
    return thrown;
  }

  it('for every prefix of every vector', () => {
    const prefixes = lines.flatMap((line) => Array.from({ length: line.length + 1 }, (_, end) => line.slice(0, end)));
    expect(throwing(prefixes)).toEqual([]);
  });

  it('for every vector with one character replaced by a URI delimiter', () => {
    const mutated = lines.flatMap((line) =>
      Array.from({ length: line.length }, (_, i) =>
        ['%', '@', ':'].map((char) => line.slice(0, i) + char + line.slice(i + 1)),
      ).flat(),
    );
    expect(throwing(mutated)).toEqual([]);
  });
});
