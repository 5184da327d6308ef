// The scale benchmark's data set as pure functions of an index: every run (and a reused database) sees the same users, tokens and sources.
import { createHash } from 'node:crypto';
import { sourceId, type SourceType } from '../src/modules/sources/classify.js';

/** The full data set of docs/benchmarks.md (Scale on PostgreSQL); a run seeds a fraction of it. */
export const FULL_USERS = 10_000;
export const SUBSCRIPTIONS_PER_USER = 3;
/** Sources per subscription average 33 1/3, so the full set holds exactly 1,000,000. */
export const FULL_SOURCES = 1_000_000;
/** Every subscription whose index is a multiple of this holds an external URL with cached content. */
export const EXTERNAL_EVERY = 5;

const SEED = 'subweave-scale';

export interface SeedSource {
  type: SourceType;
  /** What `sources.data` stores: the URI or URL without fragment, or the referenced token. */
  data: string;
  comment: string | null;
  refToken: string | null;
  id: string;
}

/** Users and subscriptions at `fraction` of the full set (at least one user). */
export function sizeAt(fraction: number): { users: number; subscriptions: number } {
  const users = Math.max(1, Math.round(FULL_USERS * fraction));
  return { users, subscriptions: users * SUBSCRIPTIONS_PER_USER };
}

/** 43 characters of base64url, like a token the service issues, derived from what it names. */
export function derivedToken(kind: string, index: number): string {
  return createHash('sha256').update(`${SEED}:${kind}:${index}`).digest('base64url');
}

export const userId = (user: number): number => user + 1;
export const userToken = (user: number): string => derivedToken('user', user);
export const subscriptionToken = (sub: number): string => derivedToken('sub', sub);
export const ownerOf = (sub: number): number => Math.floor(sub / SUBSCRIPTIONS_PER_USER);

/**
 * Sources of subscription `sub`: 8 to 59, 33 1/3 on average. Pairs (2m, 2m+1) deviate by +r and -r, and every
 * third subscription holds one more, so any whole number of users holds exactly 100 sources per user.
 */
export function sourceCount(sub: number): number {
  const r = ((Math.floor(sub / 2) * 7919) % 51) - 25;
  return 33 + (sub % 3 === 0 ? 1 : 0) + (sub % 2 === 0 ? r : -r);
}

/**
 * How deep the subscription's references go: 1 every 10th, 2 every 100th, 3 every 1000th (MAX_NESTING_DEPTH's
 * default); a subscription of tier t references two earlier ones of tier t - 1.
 */
export function tier(sub: number): 0 | 1 | 2 | 3 {
  if (sub % 1000 === 999) return 3;
  if (sub % 100 === 99) return 2;
  if (sub % 10 === 9) return 1;
  return 0;
}

export function referencedSubscriptions(sub: number): number[] {
  const step = [0, 1, 10, 100][tier(sub)] as number;
  return step === 0 ? [] : [sub - step, sub - 2 * step];
}

/** The upstream first named by subscription `k` (a multiple of EXTERNAL_EVERY); a later one shares it. */
export function upstreamUrl(k: number): string {
  return `https://upstream-${k % 97}.example.com/sub/${derivedToken('url', k).slice(0, 16)}`;
}

/** External URLs of a subscription: its own upstream, and the one of the previous such subscription. */
export function externalSubscriptionUrls(sub: number): string[] {
  if (sub % EXTERNAL_EVERY !== 0) return [];
  return sub >= EXTERNAL_EVERY ? [upstreamUrl(sub), upstreamUrl(sub - EXTERNAL_EVERY)] : [upstreamUrl(sub)];
}

/** The cached config lines of upstream `k`: 20 to 80 distinct lines. */
export function upstreamLines(k: number): string[] {
  return Array.from({ length: 20 + (k % 4) * 20 }, (_, i) => configLine(k + 1_000_000_000, i).line);
}

const hex = (value: number, width: number): string => (value >>> 0).toString(16).padStart(width, '0').slice(-width);

function uuid(sub: number, i: number): string {
  return `${hex(sub, 8)}-${hex(i, 4)}-4${hex(sub * 31 + i, 3)}-8${hex(i * 7, 3)}-${hex(sub ^ 0x5a5a5a, 6)}${hex(i, 6)}`;
}

/** Config `i` of subscription `sub`: a valid share URI of one of five schemes, named by its fragment (vmess: `ps`). */
export function configLine(sub: number, i: number): { identity: string; comment: string; line: string } {
  const host = `n${i}.s${sub}.example.net`;
  const comment = `node ${sub}-${i}`;
  const fragment = `#${encodeURIComponent(comment)}`;
  switch ((sub + i) % 5) {
    case 0: {
      const identity = `vless://${uuid(sub, i)}@${host}:443?encryption=none&security=tls&sni=${host}&type=ws&path=%2Fws`;
      return { identity, comment, line: identity + fragment };
    }
    case 1: {
      const json = { v: '2', ps: comment, add: host, port: '443', id: uuid(sub, i), aid: '0', net: 'tcp', tls: 'tls' };
      const identity = `vmess://${Buffer.from(JSON.stringify(json)).toString('base64')}`;
      return { identity, comment, line: identity };
    }
    case 2: {
      const identity = `trojan://pw${sub}x${i}@${host}:443?sni=${host}`;
      return { identity, comment, line: identity + fragment };
    }
    case 3: {
      const userinfo = Buffer.from(`chacha20-ietf-poly1305:pw${sub}x${i}`).toString('base64');
      const identity = `ss://${userinfo}@${host}:8388`;
      return { identity, comment, line: identity + fragment };
    }
    default: {
      const identity = `hysteria2://pw${sub}x${i}@${host}:443?sni=${host}`;
      return { identity, comment, line: identity + fragment };
    }
  }
}

/** Every source of subscription `sub` in order: its references, its external URLs, then configs up to its count. */
export function subscriptionSources(sub: number): SeedSource[] {
  const refs = referencedSubscriptions(sub).map(subscriptionToken);
  const urls = externalSubscriptionUrls(sub);
  const sources: SeedSource[] = [
    ...refs.map((token) => ({
      type: 'internal_token' as const,
      data: token,
      comment: null,
      refToken: token,
      id: sourceId('internal_token', token),
    })),
    ...urls.map((url) => ({
      type: 'external_url' as const,
      data: url,
      comment: null,
      refToken: null,
      id: sourceId('external_url', url),
    })),
  ];
  for (let i = 0; sources.length < sourceCount(sub); i++) {
    const { identity, comment } = configLine(sub, i);
    sources.push({ type: 'config', data: identity, comment, refToken: null, id: sourceId('config', identity) });
  }
  return sources;
}

/** A deterministic pseudo-random generator (mulberry32), so two runs sample the same subscriptions. */
export function randomGenerator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` distinct integers from [0, limit), in random order (all of them when count >= limit). */
export function sampleDistinct(limit: number, count: number, random: () => number): number[] {
  const all = Array.from({ length: limit }, (_, i) => i);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j] as number, all[i] as number];
  }
  return all.slice(0, Math.min(count, limit));
}
