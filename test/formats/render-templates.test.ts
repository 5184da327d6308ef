// Names, templates and SIP008: what every structured format shares, and the one format without a template.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { TEMPLATED_FORMATS, type TemplatedFormat } from '../../src/formats/formats.js';
import {
  BUILTIN_TEMPLATES,
  RESERVED_NAMES,
  renderFormat,
  templateProblem,
  uniqueNames,
} from '../../src/formats/render/index.js';
import { templateSamples, SAMPLE_URI_COUNT } from '../../src/formats/render/template-samples.js';
import { PROTOCOLS } from '../../src/formats/proxy.js';
import { CATALOGUE, ss, vless, vmess } from './render-nodes.js';

type Json = Record<string, unknown>;

describe('uniqueNames', () => {
  it('appends 2, 3, ... to repeats, passing over candidates already taken', () => {
    const names = ['A', 'A', 'A 3', 'A', 'B', 'A'].map((name) => ss({ name }));
    expect(uniqueNames(names, [])).toEqual(['A', 'A 2', 'A 3', 'A 4', 'B', 'A 5']);
  });

  it('never takes a template name or a reserved mihomo name', () => {
    const nodes = ['Proxy', 'Proxy', ...RESERVED_NAMES].map((name) => ss({ name }));
    expect(uniqueNames(nodes, ['Proxy', 'Proxy 2'])).toEqual([
      'Proxy 3',
      'Proxy 4',
      'DIRECT 2',
      'REJECT 2',
      'REJECT-DROP 2',
      'PASS 2',
      'COMPATIBLE 2',
      'GLOBAL 2',
    ]);
  });

  it('names a server without a remark after its protocol and address', () => {
    const nodes = [ss({ name: '' }), ss({ name: '  ' }), vmess({ name: '', server: '2001:db8::1', port: 80 })];
    expect(uniqueNames(nodes, [])).toEqual([
      'shadowsocks 198.51.100.7:8388',
      'shadowsocks 198.51.100.7:8388 2',
      'vmess [2001:db8::1]:80',
    ]);
  });

  it('is applied in every structured format, with the template of that format', () => {
    const nodes = [ss({ name: 'Auto' }), ss({ name: 'Auto' }), ss({ name: 'block' })];
    const mihomo = parse(renderFormat('mihomo', nodes).body) as Json;
    expect((mihomo.proxies as Json[]).map((p) => p.name)).toEqual(['Auto 2', 'Auto 3', 'block']);
    const singBox = JSON.parse(renderFormat('sing-box', nodes).body) as Json;
    expect((singBox.outbounds as Json[]).slice(3).map((o) => o.tag)).toEqual(['Auto 2', 'Auto 3', 'block']);
    const xray = JSON.parse(renderFormat('xray', nodes).body) as Json[];
    expect(xray.map((c) => c.remarks)).toEqual(['Auto', 'Auto 2', 'block 2']);
    const sip008 = JSON.parse(renderFormat('sip008', nodes).body) as { servers: Json[] };
    expect(sip008.servers.map((s) => s.remarks)).toEqual(['Auto', 'Auto 2', 'block']);
  });

  it('leaves skipped servers out before naming, so a kept repeat keeps its plain name', () => {
    const xray = JSON.parse(renderFormat('xray', [ss({ name: 'n', method: 'rc4-md5' }), ss({ name: 'n' })]).body);
    expect((xray as Json[]).map((c) => c.remarks)).toEqual(['n']);
  });
});

describe('templates', () => {
  it.each(TEMPLATED_FORMATS)('the built-in %s template passes its own check', (format) => {
    expect(templateProblem(format, BUILTIN_TEMPLATES[format])).toBeNull();
  });

  it('refuses what does not parse or has lost its insertion points', () => {
    const cases: [TemplatedFormat, string, string | RegExp][] = [
      ['mihomo', 'a: [1', /^not valid YAML/],
      ['mihomo', 'a: 1\na: 2\n', /^not valid YAML/],
      ['mihomo', 'a: 1\nb:\n  - x\n bad: [\n', /^not valid YAML at line 4: /],
      ['mihomo', '- 1', 'the document is not a mapping'],
      ['mihomo', 'proxies: 3\nproxy-groups: []', '`proxies` is not a list of maps'],
      ['mihomo', 'proxy-groups: [{name: G, type: select, proxies: [DIRECT]}]', 'no proxy group lists "{{servers}}"'],
      ['mihomo', "proxy-groups: [{type: select, proxies: ['{{servers}}']}]", 'a proxy or proxy group has no name'],
      ['sing-box', '{', /^not valid JSON/],
      ['sing-box', '[]', 'the document is not an object'],
      ['sing-box', '{"outbounds": {}}', '`outbounds` is not an array of objects'],
      [
        'sing-box',
        '{"outbounds": [{"type": "direct", "outbounds": ["{{servers}}"]}]}',
        'no selector or urltest outbound lists "{{servers}}"',
      ],
      ['sing-box', '{"outbounds": [], "endpoints": 1}', '`endpoints` is not an array of objects'],
      [
        'xray',
        '{"outbounds": [{"tag": "proxy", "protocol": "freedom"}]}',
        '`outbounds` must hold exactly one {"tag": "proxy"} marker',
      ],
      ['xray', '{"outbounds": [{"tag": "proxy"}, {"tag": "proxy"}]}', /exactly one/],
      ['xray', '"x"', 'the document is not an object'],
    ];
    for (const [format, text, expected] of cases) {
      const problem = templateProblem(format, text);
      expect(problem?.unusable, text).toBe(false);
      if (typeof expected === 'string') expect(problem?.reason, text).toBe(expected);
      else expect(problem?.reason, text).toMatch(expected);
    }
  });

  it('refuses as unusable a template nesting deeper than 32, in its text or through YAML aliases', () => {
    const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
    const tooDeep = { reason: 'it nests deeper than 32 levels', unusable: true };
    const mihomo = BUILTIN_TEMPLATES.mihomo;
    expect(templateProblem('mihomo', `${mihomo}extra: ${deep(32)}\n`)).toEqual(tooDeep);
    expect(templateProblem('mihomo', `${mihomo}extra: ${deep(31)}\n`)).toBeNull();
    expect(templateProblem('mihomo', `${mihomo}extra:\n${'- '.repeat(40)}x\n`)).toEqual(tooDeep);
    const aliased = `${mihomo}a: &a ${deep(20)}\nb: &b [[[[[[[[[[[[[[*a]]]]]]]]]]]]]]\n`;
    expect(templateProblem('mihomo', aliased)).toEqual(tooDeep);
    const singBox = (extra: string) => BUILTIN_TEMPLATES['sing-box'].replace(/^\{/, `{"extra": ${extra},`);
    expect(templateProblem('sing-box', singBox(deep(32)))).toEqual(tooDeep);
    expect(templateProblem('sing-box', singBox(deep(31)))).toBeNull();
  });

  it('renders one sample server of every protocol into a template it validates', () => {
    const samples = templateSamples();
    expect(samples).toHaveLength(SAMPLE_URI_COUNT);
    expect(new Set(samples.map((node) => node.protocol))).toEqual(new Set(PROTOCOLS));
  });

  it('accepts a minimal template of each format', () => {
    expect(
      templateProblem('mihomo', "proxy-groups:\n  - {name: G, type: select, proxies: ['{{servers}}']}\n"),
    ).toBeNull();
    expect(
      templateProblem('sing-box', '{"outbounds":[{"type":"selector","tag":"s","outbounds":["{{servers}}"]}]}'),
    ).toBeNull();
    expect(templateProblem('xray', '{"outbounds":[{"tag":"proxy"}]}')).toBeNull();
  });

  it('a mihomo template keeps its own proxies and groups, and the marker keeps its place', () => {
    const template = [
      'proxies:',
      '  - {name: home, type: socks5, server: 10.0.0.1, port: 1080}',
      'proxy-groups:',
      "  - {name: Pick, type: select, proxies: [home, '{{servers}}', DIRECT]}",
      '  - {name: Fixed, type: select, proxies: [home]}',
      'rules: [MATCH,Pick]',
    ].join('\n');
    const document = parse(renderFormat('mihomo', [ss({ name: 'home' }), ss({ name: 's' })], template).body) as Json;
    expect((document.proxies as Json[]).map((p) => p.name)).toEqual(['home', 'home 2', 's']);
    expect((document['proxy-groups'] as Json[]).map((g) => g.proxies)).toEqual([
      ['home', 'home 2', 's', 'DIRECT'],
      ['home'],
    ]);
    const empty = parse(renderFormat('mihomo', [], template).body) as Json;
    expect((empty['proxy-groups'] as Json[]).map((g) => g.proxies)).toEqual([['home', 'DIRECT'], ['home']]);
  });

  it('a mihomo template comes out with every value it went in with', () => {
    const template = [
      'odd:',
      '  "key: with colon": 1',
      "  'yes': yes",
      '  numbers: [0, -1.5, 1e21, 0x10, .inf, -.inf]',
      '  strings: ["0x10", "1e3", "true", "null", "~", "", " pad", "a # b", "line\\nbreak", "tab\\tx", "é🇩🇪"]',
      '  nested: [[1, [2, []]], {}, [], {a: {b: {}}}]',
      '  nothing: null',
      '  block: |',
      '    two',
      '    lines',
      'proxy-groups:',
      "  - {name: G, type: select, proxies: ['{{servers}}']}",
    ].join('\n');
    const expected = parse(template) as Json;
    (expected['proxy-groups'] as Json[])[0] = { name: 'G', type: 'select', proxies: ['DIRECT'] };
    const rendered = parse(renderFormat('mihomo', [], template).body) as Json;
    expect(rendered).toEqual({ ...expected, proxies: [] });
  });

  it('a stored template that no longer passes the check is replaced by the built-in one', () => {
    const nodes = [ss({ name: 'a' })];
    expect(renderFormat('sing-box', nodes, '{').body).toBe(renderFormat('sing-box', nodes).body);
    expect(renderFormat('mihomo', nodes, 'x: 1').body).toBe(renderFormat('mihomo', nodes).body);
  });

  it('render does not change a cached template: the same template renders the same after other renders', () => {
    const first = renderFormat('mihomo', [ss({ name: 'one' })]).body;
    renderFormat('mihomo', CATALOGUE);
    renderFormat('sing-box', CATALOGUE);
    expect(renderFormat('mihomo', [ss({ name: 'one' })]).body).toBe(first);
  });

  it('skipped entries carry the share URI and a short reason', () => {
    const node = vless({ transport: { type: 'quic' } });
    expect(renderFormat('sing-box', [node]).skipped).toEqual([
      { data: node.uri, reason: 'quic transport is not supported by sing-box' },
    ]);
  });
});

describe('SIP008', () => {
  it('lists the Shadowsocks servers with a stable id, the name, plugin and plugin options', () => {
    const uri = 'ss://YWVzLTI1Ni1nY206cGFzcw@198.51.100.7:8388#a';
    const nodes = [
      ss({ name: 'a', uri, password: 'pass' }),
      vless(),
      ss({ name: 'b', plugin: { name: 'obfs-local', options: { obfs: 'http', 'obfs-host': 'h.com' } } }),
    ];
    const { body, skipped } = renderFormat('sip008', nodes);
    expect(skipped).toEqual([{ data: nodes[1]?.uri, reason: 'SIP008 carries Shadowsocks servers only' }]);
    const document = JSON.parse(body) as { version: number; servers: Json[] };
    expect(document.version).toBe(1);
    // The id is the RFC 4122 version 5 UUID of the URI in the URL namespace (Python: uuid5(NAMESPACE_URL, uri)).
    expect(document.servers[0]).toEqual({
      id: 'ee8d5a5c-6807-5a8e-bad6-f1f05a86039a',
      remarks: 'a',
      server: '198.51.100.7',
      server_port: 8388,
      password: 'pass',
      method: 'aes-256-gcm',
    });
    expect(document.servers[1]).toMatchObject({ plugin: 'obfs-local', plugin_opts: 'obfs=http;obfs-host=h.com' });
    expect(JSON.parse(renderFormat('sip008', nodes).body)).toEqual(document);
  });

  it('an empty list is still a SIP008 document', () => {
    expect(JSON.parse(renderFormat('sip008', []).body)).toEqual({ version: 1, servers: [] });
  });
});
