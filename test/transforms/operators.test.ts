// Each transform operator on its own over real parsed servers, with the per-operator counts the preview shows.
import { describe, expect, it } from 'vitest';
import { encodeComment, parseShareUri } from '../../src/formats/share-uri/index.js';
import { named, run, server } from './servers.js';

describe('include and exclude', () => {
  const servers = named('JP 01', 'SG 01', 'US 01', 'jp 02');

  it('keep or drop by name, case-sensitively unless the pattern says (?i)', () => {
    expect(run(servers, [{ op: 'include', pattern: 'JP|SG' }]).names).toEqual(['JP 01', 'SG 01']);
    expect(run(servers, [{ op: 'include', pattern: '(?i)jp' }]).names).toEqual(['JP 01', 'jp 02']);
    expect(run(servers, [{ op: 'exclude', pattern: 'US' }]).names).toEqual(['JP 01', 'SG 01', 'jp 02']);
  });

  it('match the server address or the protocol when asked', () => {
    const mixed = [
      server('a', { server: '10.0.0.1' }),
      server('b', { server: 'hk.example.com', protocol: 'vless' }),
      server('c', { server: 'sg.example.com', protocol: 'shadowsocks' }),
    ];
    expect(run(mixed, [{ op: 'include', pattern: '\\.example\\.com$', field: 'server' }]).names).toEqual(['b', 'c']);
    expect(run(mixed, [{ op: 'exclude', pattern: '^shadow', field: 'type' }]).names).toEqual(['a', 'b']);
  });

  it('report the servers in and out', () => {
    expect(run(servers, [{ op: 'include', pattern: 'JP' }]).steps).toEqual([
      { index: 0, op: 'include', in: 4, out: 1 },
    ]);
  });
});

describe('types', () => {
  it('keeps the listed protocols in order', () => {
    const mixed = [
      server('t', { protocol: 'trojan' }),
      server('v', { protocol: 'vless' }),
      server('s', { protocol: 'shadowsocks' }),
      server('h', { protocol: 'hysteria2' }),
    ];
    expect(run(mixed, [{ op: 'types', keep: ['hysteria2', 'vless'] }]).names).toEqual(['v', 'h']);
  });
});

describe('rename', () => {
  it('rewrites names with groups', () => {
    const servers = named('[Provider] JP-01', '[Provider] JP-12', '[Provider] SG-03');
    const chain = [{ op: 'rename', pattern: '^\\[Provider\\] JP-0*(\\d+)$', replace: '🇯🇵 Tokyo $1' }];
    expect(run(servers, chain).names).toEqual(['🇯🇵 Tokyo 1', '🇯🇵 Tokyo 12', '[Provider] SG-03']);
  });

  it('replaces every match; groups that did not take part, or do not exist, are empty', () => {
    expect(run(named('a-b-c'), [{ op: 'rename', pattern: '-', replace: ' ' }]).names).toEqual(['a b c']);
    expect(run(named('ab'), [{ op: 'rename', pattern: '(a)|(b)', replace: '<$1$2$9>' }]).names).toEqual(['<a><b>']);
    expect(run(named('x1'), [{ op: 'rename', pattern: 'x(\\d)', replace: '$1$2$$' }]).names).toEqual(['1$']);
  });

  it('cuts a grown name to 256 code points and gives an emptied one the fallback name', () => {
    const [long] = run(named('abc'), [{ op: 'rename', pattern: '.', replace: '日'.repeat(200) }]).names;
    expect(Array.from(long!)).toHaveLength(256);
    const [emptied] = run(
      [server('HK 01', { server: 'hk.example.com', port: 8443 })],
      [{ op: 'rename', pattern: '.+', replace: '' }],
    ).names;
    expect(emptied).toBe('trojan hk.example.com:8443');
  });

  it('writes the new name into the served line, and leaves untouched servers as they were', () => {
    const servers = [server('JP 01', { server: 'jp.example.com' }), server('SG 01', { server: 'sg.example.com' })];
    const { servers: out } = run(servers, [{ op: 'rename', pattern: 'JP', replace: '日本 JP' }]);
    expect(out[0]!.uri).toBe('trojan://pw@jp.example.com:443#%E6%97%A5%E6%9C%AC%20JP%2001');
    const reparsed = parseShareUri(out[0]!.uri);
    expect(reparsed.ok && reparsed.node.name).toBe('日本 JP 01');
    expect(out[1]).toBe(servers[1]);
  });

  it('percent-encodes the new name as the resolver encodes a comment, lone surrogates included', () => {
    for (const text of ["(a)!*' ~._-", '\ud800 ']) {
      const { servers: out } = run([server('x', { server: 'h.example.com' })], [{ op: 'prefix', text }]);
      expect(out[0]!.uri).toBe(`trojan://pw@h.example.com:443#${encodeComment(`${text}x`)}`);
    }
  });

  it('renames a vmess server inside its JSON', () => {
    const json = {
      v: '2',
      ps: 'HK 01',
      add: 'hk.example.com',
      port: '443',
      id: '3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13',
    };
    const line = `vmess://${Buffer.from(JSON.stringify({ ...json, aid: '0', net: 'tcp', type: 'none' })).toString('base64')}`;
    const parsed = parseShareUri(line);
    if (!parsed.ok) throw new Error(parsed.reason);
    const { servers: out } = run([parsed.node], [{ op: 'prefix', text: '🇭🇰 ' }]);
    const reparsed = parseShareUri(out[0]!.uri);
    expect(out[0]!.uri.includes('#')).toBe(false);
    expect(reparsed.ok && reparsed.node.name).toBe('🇭🇰 HK 01');
  });
});

describe('prefix and suffix', () => {
  it('add text around every name', () => {
    expect(
      run(named('a', 'b'), [
        { op: 'prefix', text: '[X] ' },
        { op: 'suffix', text: ' ✓' },
      ]).names,
    ).toEqual(['[X] a ✓', '[X] b ✓']);
  });
});

describe('flag', () => {
  it('puts the guessed flag in front, once', () => {
    const servers = named('[Provider] JP-01', '香港 01', '🇯🇵 Tokyo 01', 'Premium');
    expect(run(servers, [{ op: 'flag' }, { op: 'flag' }]).names).toEqual([
      '🇯🇵 [Provider] JP-01',
      '🇭🇰 香港 01',
      '🇯🇵 Tokyo 01',
      'Premium',
    ]);
  });
});

describe('sort', () => {
  const servers = [
    server('JP 10', { server: 'b.example.com', protocol: 'vless' }),
    server('JP 2', { server: 'c.example.com', protocol: 'trojan' }),
    server('HK 1', { server: 'a.example.com', protocol: 'vless' }),
  ];

  it('sorts names with numbers by value, and by the other keys', () => {
    expect(run(servers, [{ op: 'sort' }]).names).toEqual(['HK 1', 'JP 2', 'JP 10']);
    expect(run(servers, [{ op: 'sort', order: 'desc' }]).names).toEqual(['JP 10', 'JP 2', 'HK 1']);
    expect(run(servers, [{ op: 'sort', by: 'server' }]).names).toEqual(['HK 1', 'JP 10', 'JP 2']);
  });

  it('keeps ties in their order', () => {
    expect(run(servers, [{ op: 'sort', by: 'type' }]).names).toEqual(['JP 2', 'JP 10', 'HK 1']);
    expect(run(servers, [{ op: 'sort', by: 'type', order: 'desc' }]).names).toEqual(['JP 10', 'HK 1', 'JP 2']);
  });

  it('does not reorder the caller’s list', () => {
    run(servers, [{ op: 'sort' }]);
    expect(servers.map((node) => node.name)).toEqual(['JP 10', 'JP 2', 'HK 1']);
  });
});

describe('dedupe', () => {
  it('by endpoint keeps the first of servers with the same protocol, server, port and credentials', () => {
    const servers = [
      server('a', { server: 'x.example.com' }),
      server('same endpoint', { server: 'X.example.com' }),
      server('other password', { server: 'x.example.com', secret: 'other' }),
      server('other port', { server: 'x.example.com', port: 8443 }),
      server('other protocol', { server: 'x.example.com', protocol: 'hysteria2' }),
    ];
    expect(run(servers, [{ op: 'dedupe' }]).names).toEqual(['a', 'other password', 'other port', 'other protocol']);
  });

  it('by name keeps the first server of each name', () => {
    expect(run(named('a', 'b', 'a', 'c', 'b'), [{ op: 'dedupe', by: 'name' }]).names).toEqual(['a', 'b', 'c']);
  });
});

describe('drop_info', () => {
  it('drops notices and keeps servers', () => {
    const servers = named(
      '剩余流量：10GB',
      '套餐到期：2025-01-01',
      'HK Traffic-01',
      'Expressway JP',
      'Expire: 2025-01-01',
    );
    const { names, steps } = run(servers, [{ op: 'drop_info' }]);
    expect(names).toEqual(['HK Traffic-01', 'Expressway JP']);
    expect(steps).toEqual([{ index: 0, op: 'drop_info', in: 5, out: 2 }]);
  });
});

describe('limit', () => {
  it('keeps the first servers', () => {
    expect(run(named('a', 'b', 'c'), [{ op: 'limit', count: 2 }]).names).toEqual(['a', 'b']);
    expect(run(named('a'), [{ op: 'limit', count: 5 }]).names).toEqual(['a']);
  });
});

describe('bounds', () => {
  it('reads at most MAX_RESOLVED_CONFIGS servers', () => {
    const { names, steps } = run(named('a', 'b', 'c', 'd'), [{ op: 'flag' }], 3);
    expect(names).toEqual(['a', 'b', 'c']);
    expect(steps).toEqual([{ index: 0, op: 'flag', in: 3, out: 3 }]);
  });

  it('an empty chain hands the same servers back', () => {
    const servers = named('a', 'b');
    const { servers: out, steps } = run(servers, []);
    expect(out).toEqual(servers);
    expect(out[0]).toBe(servers[0]);
    expect(steps).toEqual([]);
  });
});
