// The references between imported subscriptions, added in import order under the API's rules: no cycle, no chain
// deeper than MAX_NESTING_DEPTH (docs/migrating-from-v2hub.md).
import { shortToken } from './report.js';

export class ReferenceGraph {
  /** holder token -> the tokens it references, in the order they were accepted. */
  private readonly edges = new Map<string, string[]>();

  constructor(private readonly maxNesting: number) {}

  /**
   * Accepts `holder` -> `ref` and returns null, or returns why it would break a rule (and leaves the graph as it was).
   * A reference to a subscription that is not imported has nothing below it and is always accepted.
   */
  add(holder: string, ref: string): string | null {
    const back = this.path(ref, holder);
    if (back !== null) {
      const chain = [holder, ...back].map(shortToken).join(' -> ');
      return holder === ref ? 'the subscription references itself' : `it closes the reference cycle ${chain}`;
    }
    const longest = this.depthAbove(holder) + 1 + this.depthBelow(ref);
    if (longest > this.maxNesting) {
      return `it makes a chain of ${longest} nested references, more than MAX_NESTING_DEPTH (${this.maxNesting})`;
    }
    const list = this.edges.get(holder);
    if (list) list.push(ref);
    else this.edges.set(holder, [ref]);
    return null;
  }

  /** A path of references from `from` to `to` (both included), or null. The graph is acyclic, so this ends. */
  private path(from: string, to: string): string[] | null {
    if (from === to) return [from];
    for (const next of this.edges.get(from) ?? []) {
      const rest = this.path(next, to);
      if (rest !== null) return [from, ...rest];
    }
    return null;
  }

  /** The longest chain of references below `token`. */
  private depthBelow(token: string): number {
    return Math.max(0, ...(this.edges.get(token) ?? []).map((next) => 1 + this.depthBelow(next)));
  }

  /** The longest chain of references that ends at `token`. */
  private depthAbove(token: string): number {
    let deepest = 0;
    for (const [holder, refs] of this.edges) {
      if (refs.includes(token)) deepest = Math.max(deepest, 1 + this.depthAbove(holder));
    }
    return deepest;
  }
}
