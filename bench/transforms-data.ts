// The transform benchmark's servers and 32-operator chain, shared with the test that checks the chain's answer.
import type { ProxyNode } from '../src/formats/proxy.js';
import { parseShareUri } from '../src/formats/share-uri/index.js';

export const REGIONS = ['JP', 'SG', 'HK', 'US', 'DE'] as const;
const UUID = '3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13';

/**
 * Server `i`: every 100th is a V2Board traffic notice, every 10th (i % 10 === 1) repeats the endpoint of the one
 * before it, regions rotate through REGIONS, a third are vless and the rest trojan.
 */
export function benchServer(i: number): ProxyNode {
  const parsed = parseShareUri(benchLine(i));
  if (!parsed.ok) throw new Error(`bench server ${i} does not parse: ${parsed.reason}`);
  return parsed.node;
}

/** Server `i` as the share URI an upstream would send. */
export function benchLine(i: number): string {
  const region = REGIONS[i % REGIONS.length]!;
  const notice = i % 100 === 0;
  const name = notice ? `剩余流量：${i} GB` : `[Provider] ${region}-${String(i).padStart(5, '0')}`;
  const host = notice ? 'info.example.com' : `${region.toLowerCase()}${i % 10 === 1 ? i - 1 : i}.example.com`;
  const fragment = `#${encodeURIComponent(name)}`;
  return i % 3 === 0
    ? `vless://${UUID}@${host}:443?security=tls&sni=${host}&type=ws&path=%2Fws${fragment}`
    : `trojan://secret@${host}:443?sni=${host}${fragment}`;
}

export const benchServers = (count: number): ProxyNode[] => Array.from({ length: count }, (_, i) => benchServer(i));

/** 32 operators, every kind: what a heavy user chain looks like, with repeats that each still walk the list. */
export const BENCH_CHAIN: readonly unknown[] = [
  { op: 'drop_info' },
  { op: 'exclude', pattern: '^\\[Provider\\] DE-' },
  { op: 'include', pattern: '(?i)\\b(jp|sg|hk|us)\\b' },
  { op: 'types', keep: ['vless', 'trojan'] },
  { op: 'dedupe' },
  { op: 'exclude', pattern: 'example\\.org$', field: 'server' },
  { op: 'include', pattern: '^(vless|trojan)$', field: 'type' },
  { op: 'rename', pattern: '^\\[Provider\\] ', replace: '' },
  { op: 'rename', pattern: '^JP-0*(\\d+)$', replace: 'Tokyo $1' },
  { op: 'rename', pattern: '^SG-0*(\\d+)$', replace: 'Singapore $1' },
  { op: 'rename', pattern: '^HK-0*(\\d+)$', replace: 'Hong Kong $1' },
  { op: 'rename', pattern: '^US-0*(\\d+)$', replace: 'Los Angeles $1' },
  { op: 'flag' },
  { op: 'flag' },
  { op: 'prefix', text: 'A ' },
  { op: 'rename', pattern: '^A ', replace: '' },
  { op: 'suffix', text: ' ✓' },
  { op: 'rename', pattern: ' ✓$', replace: '' },
  { op: 'dedupe', by: 'name' },
  { op: 'sort', by: 'server' },
  { op: 'sort', by: 'type', order: 'desc' },
  { op: 'sort' },
  { op: 'exclude', pattern: 'Singapore' },
  { op: 'include', pattern: '.' },
  { op: 'drop_info' },
  { op: 'dedupe' },
  { op: 'dedupe', by: 'name' },
  { op: 'sort', order: 'desc' },
  { op: 'sort' },
  { op: 'types', keep: ['vless', 'trojan', 'shadowsocks'] },
  { op: 'limit', count: 5_000 },
  { op: 'limit', count: 2_500 },
];
