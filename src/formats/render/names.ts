// One document may not hold two servers of the same name, nor a server named like a group or a built-in policy.
import type { ProxyNode } from '../proxy.js';
import { fallbackName } from './common.js';

/** Policy names mihomo registers itself; a proxy named like one is refused as a duplicate. */
export const RESERVED_NAMES: readonly string[] = ['DIRECT', 'REJECT', 'REJECT-DROP', 'PASS', 'COMPATIBLE', 'GLOBAL'];

/**
 * The names the nodes are shown under in one document, in order: a repeat gets ` 2`, ` 3`, ... appended, skipping any
 * candidate already taken; the reserved names and `taken` (the template's own group and outbound names) are never used.
 */
export function uniqueNames(nodes: readonly ProxyNode[], taken: Iterable<string>): string[] {
  const used = new Set<string>(RESERVED_NAMES);
  for (const name of taken) used.add(name);
  const nextSuffix = new Map<string, number>();
  return nodes.map((node) => {
    const base = node.name.trim() === '' ? fallbackName(node) : node.name;
    let name = base;
    if (used.has(name)) {
      let suffix = nextSuffix.get(base) ?? 2;
      while (used.has(`${base} ${suffix}`)) suffix += 1;
      name = `${base} ${suffix}`;
      nextSuffix.set(base, suffix + 1);
    }
    used.add(name);
    return name;
  });
}
