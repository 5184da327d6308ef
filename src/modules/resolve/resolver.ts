// The resolution rules of DESIGN.md section 6 as a pure function over already-loaded data, so each rule is unit-testable.
import { renderConfig } from '../sources/proxy-uri.js';

export interface ResolvableSource {
  type: 'config' | 'external_url' | 'internal_token';
  /** Config URI or URL without fragment; the referenced token for internal references. */
  data: string;
  comment: string | null;
  isHidden: boolean;
  maxDepth: number;
}

export interface ResolveInput {
  /** Sources of every reachable subscription, in order_index order; absent = unknown or unavailable. */
  sources: ReadonlyMap<string, readonly ResolvableSource[]>;
  /** Cached config lines of each external URL (with their own #remarks); absent = never fetched. */
  external: ReadonlyMap<string, readonly string[]>;
  maxNestingDepth: number;
  maxResolvedConfigs: number;
}

export interface Resolution {
  lines: string[];
  /** Every subscription token and external URL the output depends on (for cache invalidation). */
  tokens: Set<string>;
  urls: Set<string>;
}

/** The identity of a config line: the URI without its #fragment. */
export function lineIdentity(line: string): string {
  const hash = line.indexOf('#');
  return hash === -1 ? line : line.slice(0, hash);
}

export function resolve(root: string, input: ResolveInput): Resolution {
  const lines: string[] = [];
  const seen = new Set<string>();
  const tokens = new Set<string>([root]);
  const urls = new Set<string>();
  const path: string[] = [];

  const emit = (identity: string, line: () => string): boolean => {
    if (lines.length >= input.maxResolvedConfigs) return false;
    if (!seen.has(identity)) {
      seen.add(identity);
      lines.push(line());
    }
    return true;
  };

  // Returns false once the cap is reached, which stops the whole walk.
  const visit = (token: string, depth: number): boolean => {
    path.push(token);
    for (const source of input.sources.get(token) ?? []) {
      if (depth > source.maxDepth || (depth === 0 && source.isHidden)) continue;
      if (source.type === 'config') {
        if (!emit(source.data, () => renderConfig(source.data, source.comment))) return false;
      } else if (source.type === 'external_url') {
        urls.add(source.data);
        for (const line of input.external.get(source.data) ?? []) {
          if (!emit(lineIdentity(line), () => line)) return false;
        }
      } else {
        tokens.add(source.data);
        if (depth + 1 > input.maxNestingDepth || path.includes(source.data)) continue;
        if (!visit(source.data, depth + 1)) return false;
      }
    }
    path.pop();
    return true;
  };

  visit(root, 0);
  return { lines, tokens, urls };
}
