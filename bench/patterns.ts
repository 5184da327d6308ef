// Measures the pattern engines for stored patterns: compile time, matching real User-Agents with the built-in rules,
// and how matching time grows with adversarial input (docs/benchmarks.md, "Patterns").
import { createRequire } from 'node:module';
import { RE2JS } from 're2js';
import { DEFAULT_FORMAT_RULES } from '../src/modules/formats/format-rules.js';
import { median } from '../scripts/support/stats.js';

/** The native binding is not a dependency; point RE2_NODE_PATH at a directory where `re2` is installed to compare. */
interface Native {
  test(input: string): boolean;
}
type NativeCtor = new (pattern: string, flags?: string) => Native;
const nativePath = process.env['RE2_NODE_PATH'];
const NativeRE2 = nativePath ? (createRequire(`${nativePath}/`)('re2') as NativeCtor) : undefined;

interface Engine {
  name: string;
  compile(pattern: string): (input: string) => boolean;
}
const engines: Engine[] = [
  {
    name: 're2js',
    compile: (p) => {
      const re = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE);
      return (input) => re.test(input);
    },
  },
  ...(NativeRE2
    ? [
        {
          name: 're2 (native)',
          compile: (p: string) => {
            const re = new NativeRE2(p, 'i');
            return (input: string) => re.test(input);
          },
        },
      ]
    : []),
  {
    name: 'V8 RegExp (reference, not linear)',
    compile: (p) => {
      const re = new RegExp(p, 'i');
      return (input) => re.test(input);
    },
  },
];

const USER_AGENTS = [
  'clash-verge/v2.2.3',
  'mihomo/1.19.2',
  'ClashMetaForAndroid/2.11.7.Meta',
  'FlClash/v0.8.80 clash-verge Platform/android',
  'Clash Nyanpasu/v1.6.1',
  'ClashX Pro/1.118.0 (com.west2online.ClashXPro; build:1.118.0; macOS 14.5.0) Alamofire/5.9.1',
  'Stash/2.4.7 Clash/1.9.0',
  'SFA/1.11.9 (Android 14; sing-box 1.11.9)',
  'SFI/1.12.0 (iOS 17.5; sing-box 1.12.0; language en_US)',
  'SFM/1.12.0 (sing-box 1.12.0)',
  'karing/1.1.2.606 android',
  'HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box',
  'v2rayNG/1.9.46',
  'v2rayN/7.10.5',
  'Happ/1.6.3/Android',
  'Streisand/1.6.30',
  'Shadowrocket/2070 CFNetwork/1490.0.4 Darwin/23.2.0 iPhone14,5',
  'Quantumult%20X/1.4.2 (iPhone15,2; iOS 17.4)',
  'NekoBox/Android/1.3.4 (Prefer ClashMeta Format)',
  'curl/8.5.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
].map((ua) => ua.toLowerCase());

const REGEX_RULES = DEFAULT_FORMAT_RULES.filter((r) => r.match === 'regex').map((r) => r.value);
const ADVERSARIAL: [string, (n: number) => string][] = [
  ['([a-z]|[a-z0-9])*!', (n) => 'a'.repeat(n)],
  ['(a+)+$', (n) => `${'a'.repeat(n)}!`],
  ['^(\\w+\\s?)*$', (n) => `${'ab '.repeat(Math.ceil(n / 3)).slice(0, n)}!`],
];

/** Median nanoseconds per call of `fn`, over `rounds` rounds of `calls` calls. */
function nsPerCall(fn: () => void, calls: number, rounds = 9): number {
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    samples.push(Number(process.hrtime.bigint() - start) / calls);
  }
  return median(samples);
}

const fmt = (ns: number): string => (ns >= 1e6 ? `${(ns / 1e6).toFixed(1)} ms` : `${(ns / 1e3).toFixed(2)} µs`);

console.log(`node ${process.version}; ${USER_AGENTS.length} User-Agents; built-in regex rules: ${REGEX_RULES.length}`);
for (const engine of engines) {
  let seq = 0;
  const compileNs = nsPerCall(() => engine.compile(`${REGEX_RULES[seq++ % REGEX_RULES.length]}|x${seq}`), 200);
  const compiled = REGEX_RULES.map((p) => engine.compile(p));
  const matchNs = nsPerCall(() => {
    for (const ua of USER_AGENTS) for (const test of compiled) test(ua);
  }, 200);
  console.log(
    `\n${engine.name}: compile ${fmt(compileNs)} per built-in pattern; ` +
      `${fmt(matchNs / (USER_AGENTS.length * compiled.length))} per (rule, User-Agent) match`,
  );
  for (const [pattern, input] of ADVERSARIAL) {
    const test = engine.compile(pattern);
    // V8 backtracks: 2^n steps, so it only gets inputs it finishes in about a second.
    const sizes = engine.name.startsWith('V8') ? [16, 18, 20, 22, 24] : [64, 128, 256, 512, 1024, 2048, 4096];
    const row = sizes.map((n) => {
      const text = input(n);
      const ns = nsPerCall(
        () => test(text),
        engine.name.startsWith('V8') ? 1 : 20,
        engine.name.startsWith('V8') ? 3 : 9,
      );
      return `${n}: ${fmt(ns)}`;
    });
    console.log(`  ${pattern.padEnd(20)} ${row.join('  ')}`);
  }
}
