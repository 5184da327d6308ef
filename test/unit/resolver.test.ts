// The pure resolver, rule by rule (docs/api.md, Resolution): order, in-place expansion, depth, hidden, cycles, dedupe, comments, cap.
import { describe, expect, it } from 'vitest';
import { parseShareUri, uriReadings } from '../../src/formats/share-uri/index.js';
import { readStoredForm, storedForm } from '../../src/formats/share-uri/stored.js';
import {
  resolve,
  resolveWith,
  type Need,
  type ResolvableSource,
  type ResolveInput,
} from '../../src/modules/resolve/resolver.js';
import { configForm, storedConfigLine } from '../../src/modules/sources/config-form.js';

const UUID = '3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13';

/** A vless URI (no fragment) on host `<name>.example.com`. */
const vless = (name: string): string => `vless://${UUID}@${name}.example.com:443?security=tls&type=ws`;
const hostOf = (name: string): string => `${name}.example.com`;
/** What a comment-less config line looks like when served: the URI with its host as the comment. */
const served = (name: string): string => `${vless(name)}#${hostOf(name)}`;

type Options = Partial<Pick<ResolvableSource, 'comment' | 'isHidden' | 'maxDepth'>>;

const source = (type: ResolvableSource['type'], data: string, options: Options): ResolvableSource => ({
  type,
  data,
  comment: null,
  isHidden: false,
  maxDepth: 3,
  ...options,
});
/** A config source on host `<name>.example.com`. */
const cfg = (name: string, options: Options = {}) => source('config', vless(name), options);
const ext = (url: string, options: Options = {}) => source('external_url', url, options);
const ref = (token: string, options: Options = {}) => source('internal_token', token, options);

interface Graph {
  subs: Record<string, ResolvableSource[]>;
  external?: Record<string, string[]>;
  maxNestingDepth?: number;
  maxResolvedConfigs?: number;
}

const input = (graph: Graph): ResolveInput => ({
  sources: new Map(Object.entries(graph.subs)),
  external: new Map(Object.entries(graph.external ?? {})),
  maxNestingDepth: graph.maxNestingDepth ?? 3,
  maxResolvedConfigs: graph.maxResolvedConfigs ?? 2000,
});

const lines = (root: string, graph: Graph): string[] => resolve(root, input(graph)).lines;

/** The comment part of each served line, percent-decoded. */
const labels = (root: string, graph: Graph): string[] =>
  lines(root, graph).map((line) => decodeURIComponent(line.slice(line.indexOf('#') + 1)));

/** Every config source named in `names` (comment = name, so the served label is the name itself). */
const named = (...names: string[]) => names.map((n) => cfg(n, { comment: n }));

describe('resolver: order and expansion', () => {
  it('serves sources in the given (order_index) order', () => {
    expect(labels('A', { subs: { A: named('c', 'a', 'b') } })).toEqual(['c', 'a', 'b']);
  });

  it('expands a reference in place, depth-first', () => {
    const graph: Graph = {
      subs: {
        A: [...named('a1'), ref('B'), ...named('a2'), ref('C'), ...named('a3')],
        B: [...named('b1'), ref('D'), ...named('b2')],
        C: named('c1'),
        D: named('d1'),
      },
    };
    expect(labels('A', graph)).toEqual(['a1', 'b1', 'd1', 'b2', 'a2', 'c1', 'a3']);
  });

  it('expands external content in place, in upstream order', () => {
    const url = 'https://feed.example.org/sub';
    const graph: Graph = {
      subs: { A: [...named('a1'), ext(url), ...named('a2')] },
      external: { [url]: [`${vless('x2')}#X2`, `${vless('x1')}#X1`] },
    };
    expect(labels('A', graph)).toEqual(['a1', 'X2', 'X1', 'a2']);
  });

  it('serves nothing for an unknown root and skips references to unknown subscriptions', () => {
    expect(lines('nope', { subs: { A: named('a') } })).toEqual([]);
    expect(labels('A', { subs: { A: [ref('missing'), ...named('a')] } })).toEqual(['a']);
  });

  it('contributes nothing for an external URL that was never fetched', () => {
    expect(labels('A', { subs: { A: [ext('https://never.example.org/'), ...named('a')] } })).toEqual(['a']);
  });
});

describe('resolver: nesting depth', () => {
  // A(0) -> B(1) -> C(2) -> D(3) -> E(4)
  const chain: Graph['subs'] = {
    A: [...named('a'), ref('B')],
    B: [...named('b'), ref('C')],
    C: [...named('c'), ref('D')],
    D: [...named('d'), ref('E')],
    E: named('e'),
  };

  it.each([
    [0, ['a']],
    [1, ['a', 'b']],
    [2, ['a', 'b', 'c']],
    [3, ['a', 'b', 'c', 'd']],
  ])('with MAX_NESTING_DEPTH=%i follows references down to that depth (root is depth 0)', (max, expected) => {
    expect(labels('A', { subs: chain, maxNestingDepth: max })).toEqual(expected);
  });

  it('a deeper MAX_NESTING_DEPTH still serves nothing below depth 3: max_depth is at most 3', () => {
    expect(labels('A', { subs: chain, maxNestingDepth: 4 })).toEqual(['a', 'b', 'c', 'd']);
  });

  it('counts depth from the served subscription, not from where it sits elsewhere', () => {
    expect(labels('B', { subs: chain, maxNestingDepth: 3 })).toEqual(['b', 'c', 'd', 'e']);
  });
});

describe('resolver: max_depth is a propagation radius', () => {
  // A(0) -> B(1) -> C(2); each config is named <sub><max_depth>.
  const radius = (name: string, maxDepth: number) => cfg(name, { comment: name, maxDepth });
  const graph: Graph = {
    subs: {
      A: [radius('a0', 0), radius('a1', 1), radius('a3', 3), ref('B')],
      B: [radius('b0', 0), radius('b1', 1), radius('b3', 3), ref('C')],
      C: [radius('c0', 0), radius('c1', 1), radius('c2', 2), radius('c3', 3)],
    },
  };

  it('max_depth 0 contributes only to its own link; 1 one level up; 3 always', () => {
    expect(labels('A', graph)).toEqual(['a0', 'a1', 'a3', 'b1', 'b3', 'c2', 'c3']);
  });

  it('the same sources contribute more when their subscription sits closer to the served one', () => {
    expect(labels('B', graph)).toEqual(['b0', 'b1', 'b3', 'c1', 'c2', 'c3']);
    expect(labels('C', graph)).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('applies to references: a reference with max_depth 0 is followed only from its own link', () => {
    const subs = { A: [ref('B')], B: [...named('b'), ref('C', { maxDepth: 0 })], C: named('c') };
    expect(labels('A', { subs })).toEqual(['b']);
    expect(labels('B', { subs })).toEqual(['b', 'c']);
  });

  it('applies to external sources', () => {
    const url = 'https://feed.example.org/x';
    const subs = { A: [ref('B')], B: [ext(url, { maxDepth: 0 })] };
    const external = { [url]: [`${vless('x')}#X`] };
    expect(labels('A', { subs, external })).toEqual([]);
    expect(labels('B', { subs, external })).toEqual(['X']);
  });
});

describe('resolver: is_hidden', () => {
  it('omits hidden sources of the served subscription but keeps them when it is included elsewhere', () => {
    const subs = {
      A: [cfg('a-hidden', { comment: 'a-hidden', isHidden: true }), ref('L')],
      L: [cfg('l-hidden', { comment: 'l-hidden', isHidden: true }), ...named('l-shown')],
    };
    expect(labels('A', { subs })).toEqual(['l-hidden', 'l-shown']);
    expect(labels('L', { subs })).toEqual(['l-shown']);
  });

  it('a library subscription with only hidden sources serves nothing itself but feeds its includers', () => {
    const subs = { lib: [cfg('x', { comment: 'x', isHidden: true })], A: [ref('lib')] };
    expect(lines('lib', { subs })).toEqual([]);
    expect(labels('A', { subs })).toEqual(['x']);
  });

  it('does not follow a hidden reference at depth 0, but follows it at depth 1', () => {
    const subs = { A: [ref('B')], B: [...named('b'), ref('C', { isHidden: true })], C: named('c') };
    expect(labels('B', { subs })).toEqual(['b']);
    expect(labels('A', { subs })).toEqual(['b', 'c']);
  });

  it('applies to external sources', () => {
    const url = 'https://feed.example.org/h';
    const subs = { A: [ref('B')], B: [ext(url, { isHidden: true })] };
    const external = { [url]: [`${vless('x')}#X`] };
    expect(labels('B', { subs, external })).toEqual([]);
    expect(labels('A', { subs, external })).toEqual(['X']);
  });
});

describe('resolver: cycles and diamonds', () => {
  it('skips a subscription already on the current path (A -> B -> A)', () => {
    const subs = { A: [...named('a1'), ref('B'), ...named('a2')], B: [...named('b1'), ref('A'), ...named('b2')] };
    expect(labels('A', { subs })).toEqual(['a1', 'b1', 'b2', 'a2']);
    expect(labels('B', { subs })).toEqual(['b1', 'a1', 'a2', 'b2']);
  });

  it('does not re-enter the served subscription through a cycle (its hidden sources would surface at depth 2)', () => {
    const subs = {
      A: [cfg('a-hidden', { comment: 'a-hidden', isHidden: true }), ...named('a'), ref('B')],
      B: [ref('A')],
    };
    expect(labels('A', { subs })).toEqual(['a']);
  });

  it('does not re-enter an included subscription through a cycle below it', () => {
    // Served from R: R(0) -> B(1) -> C(2), and C's reference back to B (on the path) is skipped.
    const subs = {
      R: [ref('B')],
      B: [cfg('b-hidden', { comment: 'b-hidden', isHidden: true }), ref('C')],
      C: [ref('B'), cfg('c2', { comment: 'c2', maxDepth: 2 })],
    };
    expect(labels('R', { subs })).toEqual(['b-hidden', 'c2']);
    // Served from B: without the guard B would come back at depth 2 and its hidden config would appear.
    expect(labels('B', { subs })).toEqual(['c2']);
  });

  it('skips a self-reference', () => {
    expect(labels('A', { subs: { A: [...named('a1'), ref('A'), ...named('a2')] } })).toEqual(['a1', 'a2']);
  });

  it('skips only the subscription on the path in a longer cycle (A -> B -> C -> A)', () => {
    const subs = { A: [...named('a'), ref('B')], B: [...named('b'), ref('C')], C: [ref('A'), ...named('c')] };
    expect(labels('A', { subs })).toEqual(['a', 'b', 'c']);
  });

  it('a diamond (A->B, A->C, B->D, C->D) serves D once, at its first position', () => {
    const subs = {
      A: [ref('B'), ref('C')],
      B: [...named('b1'), ref('D'), ...named('b2')],
      C: [...named('c1'), ref('D'), ...named('c2')],
      D: named('d'),
    };
    expect(labels('A', { subs })).toEqual(['b1', 'd', 'b2', 'c1', 'c2']);
  });

  it('expands a subscription reached through two paths on each path (not only the first)', () => {
    // D is reached at depth 2 through B and then at depth 1 directly; its max_depth 1 config appears only on the second path.
    const subs = {
      A: [ref('B'), ref('D')],
      B: [ref('D')],
      D: [...named('d-any'), cfg('d-shallow', { comment: 'd-shallow', maxDepth: 1 })],
    };
    expect(labels('A', { subs })).toEqual(['d-any', 'd-shallow']);
  });

  it('a subscription on two paths is not mistaken for a cycle', () => {
    const subs = {
      A: [ref('B'), ref('C')],
      B: [ref('D')],
      C: [ref('D', { comment: null })],
      D: [ref('E')],
      E: named('e'),
    };
    const result = resolve('A', input({ subs }));
    expect(result.lines).toHaveLength(1);
    expect(result.tokens).toEqual(new Set(['A', 'B', 'C', 'D', 'E']));
  });
});

describe('resolver: de-duplication', () => {
  it('keeps the first occurrence of a URI with its comment, in depth-first order', () => {
    const subs = {
      A: [cfg('x', { comment: 'x in A' }), ref('B'), cfg('y', { comment: 'y in A' })],
      B: [cfg('x', { comment: 'x in B' }), cfg('y', { comment: 'y in B' })],
    };
    // x: A's own line comes first; y: B expands in place before A's later y.
    expect(labels('A', { subs })).toEqual(['x in A', 'y in B']);
  });

  it('identity ignores the fragment: an upstream line and a config with the same URI are one line', () => {
    const url = 'https://feed.example.org/d';
    const external = { [url]: [`${vless('x')}#Upstream`, `${vless('z')}#Z`] };
    expect(lines('A', { subs: { A: [ext(url), cfg('x', { comment: 'mine' })] }, external })).toEqual([
      `${vless('x')}#Upstream`,
      `${vless('z')}#Z`,
    ]);
    expect(lines('A', { subs: { A: [cfg('x', { comment: 'mine' }), ext(url)] }, external })).toEqual([
      `${vless('x')}#mine`,
      `${vless('z')}#Z`,
    ]);
  });

  it('drops duplicates inside one upstream and across two upstreams', () => {
    const u1 = 'https://one.example.org/';
    const u2 = 'https://two.example.org/';
    const external = { [u1]: [`${vless('p')}#P1`, `${vless('p')}#P2`, `${vless('q')}#Q`], [u2]: [`${vless('q')}#Q2`] };
    expect(lines('A', { subs: { A: [ext(u1), ext(u2)] }, external })).toEqual([`${vless('p')}#P1`, `${vless('q')}#Q`]);
  });

  it('treats URIs that differ only outside the fragment as different', () => {
    const other = `${vless('x').replace('type=ws', 'type=grpc')}`;
    const subs = { A: [cfg('x', { comment: 'ws' }), source('config', other, { comment: 'grpc' })] };
    expect(labels('A', { subs })).toEqual(['ws', 'grpc']);
  });
});

describe('resolver: rendering comments', () => {
  it('external lines keep their own #remark; subscription comments never apply to them', () => {
    const url = 'https://feed.example.org/r';
    const remote = `${vless('r')}#Remote%20Name%20%F0%9F%87%A9%F0%9F%87%AA`;
    expect(lines('A', { subs: { A: [ext(url, { comment: 'ignored' })] }, external: { [url]: [remote] } })).toEqual([
      remote,
    ]);
  });

  it('a config without a comment gets its host as the comment', () => {
    expect(lines('A', { subs: { A: [cfg('plain'), cfg('empty', { comment: '' })] } })).toEqual([
      served('plain'),
      served('empty'),
    ]);
  });

  it.each([
    ['space as %20, never +', 'My Server', 'My%20Server'],
    ['unicode as UTF-8 bytes', 'Дом ✓', '%D0%94%D0%BE%D0%BC%20%E2%9C%93'],
    ['an emoji flag', '🇩🇪 DE', '%F0%9F%87%A9%F0%9F%87%AA%20DE'],
    ['reserved characters', 'a+b/c#d?e&f=g%h', 'a%2Bb%2Fc%23d%3Fe%26f%3Dg%25h'],
    ['unreserved characters stay literal', 'Az09-._~', 'Az09-._~'],
  ])('percent-encodes the comment per RFC 3986: %s', (_title, comment, encoded) => {
    expect(lines('A', { subs: { A: [cfg('x', { comment })] } })).toEqual([`${vless('x')}#${encoded}`]);
  });

  describe('vmess base64 JSON', () => {
    const json = {
      v: '2',
      ps: 'upstream name',
      add: 'vm.example.com',
      port: 443,
      id: UUID,
      aid: 0,
      net: 'ws',
      path: '/p',
    };
    const uri = `vmess://${Buffer.from(JSON.stringify(json)).toString('base64')}`;
    const decode = (line: string): Record<string, unknown> => {
      expect(line.startsWith('vmess://')).toBe(true);
      expect(line).not.toContain('#');
      return JSON.parse(Buffer.from(line.slice('vmess://'.length), 'base64').toString('utf8')) as Record<
        string,
        unknown
      >;
    };

    it('rewrites ps with the comment and keeps every other field', () => {
      const [line] = lines('A', { subs: { A: [source('config', uri, { comment: 'Мой сервер 1' })] } });
      expect(decode(line as string)).toEqual({ ...json, ps: 'Мой сервер 1' });
    });

    it('uses the host as ps when there is no comment', () => {
      const [line] = lines('A', { subs: { A: [source('config', uri, {})] } });
      expect(decode(line as string)).toEqual({ ...json, ps: 'vm.example.com' });
    });
  });
});

describe('resolver: MAX_RESOLVED_CONFIGS', () => {
  it('keeps the first N lines in order across nesting and upstreams', () => {
    const url = 'https://feed.example.org/cap';
    const graph: Graph = {
      subs: { A: [...named('a1'), ref('B'), ext(url), ...named('a2')], B: named('b1', 'b2') },
      external: { [url]: [`${vless('x1')}#x1`, `${vless('x2')}#x2`] },
      maxResolvedConfigs: 4,
    };
    expect(labels('A', graph)).toEqual(['a1', 'b1', 'b2', 'x1']);
  });

  it('counts only distinct lines toward the cap', () => {
    const subs = { A: [...named('a'), ref('B'), ...named('c', 'd')], B: named('a', 'b') };
    expect(labels('A', { subs, maxResolvedConfigs: 3 })).toEqual(['a', 'b', 'c']);
  });

  it('returns everything when exactly at the cap', () => {
    expect(labels('A', { subs: { A: named('a', 'b', 'c') }, maxResolvedConfigs: 3 })).toEqual(['a', 'b', 'c']);
  });
});

describe('resolver: dependency sets', () => {
  it('lists the served subscription, every followed subscription and every external URL used', () => {
    const u1 = 'https://one.example.org/';
    const u2 = 'https://two.example.org/';
    const result = resolve(
      'A',
      input({
        subs: { A: [ext(u1), ref('B')], B: [ref('C'), ext(u2)], C: named('c') },
        external: { [u1]: [`${vless('x')}#X`] },
      }),
    );
    expect(result.tokens).toEqual(new Set(['A', 'B', 'C']));
    // u2 was never fetched: its first fetch must still invalidate the output.
    expect(result.urls).toEqual(new Set([u1, u2]));
  });

  it('includes referenced subscriptions that are unavailable now (their availability can change)', () => {
    const result = resolve('A', input({ subs: { A: [ref('gone'), ...named('a')] } }));
    expect(result.tokens).toEqual(new Set(['A', 'gone']));
    expect(result.urls).toEqual(new Set());
  });

  it('includes the subscription skipped by the cycle guard only once', () => {
    const result = resolve('A', input({ subs: { A: [ref('B')], B: [ref('A')] } }));
    expect(result.tokens).toEqual(new Set(['A', 'B']));
  });
});

describe('resolver: each line is parsed at most once', () => {
  const url = 'https://feed.example.org/';
  // The second line repeats config `a`, the last one passes the validator but not the parser.
  const upstream = [`${vless('u1')}#U1`, `${vless('a')}#again`, `${vless('u2')}#U2`, 'juicity://u:p@j.example.com:443'];
  const graph: Graph = {
    subs: { A: [cfg('a', { comment: 'first' }), ext(url), ref('B')], B: [cfg('b'), cfg('a'), cfg('c')] },
    external: { [url]: upstream },
  };
  const readings = async (run: () => unknown): Promise<number> => {
    const before = uriReadings.count;
    await run();
    return uriReadings.count - before;
  };

  it('reads no line at all when configs and upstream lines come with their stored parse results', async () => {
    const forms = upstream.map((line) => JSON.parse(storedForm(parseShareUri(line))) as unknown);
    const withForms = (sources: ResolvableSource[]) =>
      sources.map((s) => ({
        ...s,
        stored: storedConfigLine({ ...configForm(s.data, s.comment), comment: s.comment }),
      }));
    const stored = { A: withForms(graph.subs['A'] ?? []), B: withForms(graph.subs['B'] ?? []) };
    const answer = (need: Need): Promise<unknown> => {
      if (need.kind === 'sources') return Promise.resolve(stored[need.token as 'A' | 'B']);
      if (need.kind === 'contentKeys') return Promise.resolve(new Map(need.urls.map((u) => [u, u])));
      if (need.kind === 'chain') return Promise.resolve(undefined);
      return Promise.resolve({
        lines: upstream,
        parsed: (i: number) => readStoredForm(forms[i], upstream[i] as string),
      });
    };
    const limits = { maxNestingDepth: 3, maxResolvedConfigs: 2000 };
    let result = await resolveWith('A', limits, answer);
    const read = await readings(async () => {
      result = await resolveWith('A', limits, answer);
      return result.parsed.map((parse) => parse());
    });
    expect(read).toBe(0);
    expect(result.lines).toEqual(resolve('A', input(graph)).lines);
    expect(result.parsed.map((parse) => parse())).toStrictEqual(result.lines.map((line) => parseShareUri(line)));
  });

  it('without stored results, parses each served line once, when asked, and no line it does not serve', async () => {
    let result = resolve('A', input(graph));
    // Resolving reads each served config once, to put its comment in; the upstream lines are not read yet.
    expect(await readings(() => (result = resolve('A', input(graph))))).toBe(3);
    expect(result.lines).toHaveLength(6);
    expect(await readings(() => result.parsed.map((parse) => parse()))).toBe(6);
    expect(result.parsed.map((parse) => parse())).toStrictEqual(result.lines.map((line) => parseShareUri(line)));
  });
});
