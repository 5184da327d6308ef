// The fault run's record of writes: what each acknowledged write should have left behind, and which of them a
// state read back later (through an instance or straight from the database) no longer shows. Pure, no I/O.

export interface SourceState {
  /** Config URI or external URL, without a fragment. */
  data: string;
  comment: string | null;
  external: boolean;
}

export type Write =
  | { kind: 'create'; name: string; sources: SourceState[] }
  | { kind: 'add'; sources: SourceState[] }
  | { kind: 'replace'; sources: SourceState[] }
  | { kind: 'remove'; data: string[] }
  | { kind: 'comment'; data: string; comment: string | null }
  | { kind: 'rename'; name: string }
  | { kind: 'delete' };

export interface Entry {
  id: number;
  token: string;
  write: Write;
  /** False for a write whose answer was lost (a killed instance, a 503) but which a later read showed applied. */
  acknowledged: boolean;
  phase: string;
}

/** Each part of a subscription's state remembers the write that last set it, so a missing part names that write. */
export interface ExpectedSource extends SourceState {
  addedBy: number;
  commentBy: number;
}

export interface Expected {
  exists: boolean;
  existsBy: number;
  name: string;
  nameBy: number;
  sources: ExpectedSource[];
  orderBy: number;
  /** Sources a write took out (data -> that write), so one seen again names the write it undid. */
  removedBy: ReadonlyMap<string, number>;
}

/** A subscription as read back: null when it does not exist. */
export type Actual = { name: string; sources: Array<{ data: string; comment: string | null }> } | null;

export function applyWrite(previous: Expected | null, write: Write, id: number): Expected {
  const fresh = (sources: SourceState[]): ExpectedSource[] =>
    sources.map((source) => ({ ...source, addedBy: id, commentBy: id }));
  const removing = (kept: ExpectedSource[], before: Expected): Map<string, number> => {
    const removedBy = new Map(before.removedBy);
    for (const source of kept) removedBy.delete(source.data);
    for (const source of before.sources) if (!kept.some((k) => k.data === source.data)) removedBy.set(source.data, id);
    return removedBy;
  };
  if (write.kind === 'create') {
    const sources = fresh(write.sources);
    return { exists: true, existsBy: id, name: write.name, nameBy: id, sources, orderBy: id, removedBy: new Map() };
  }
  if (!previous?.exists) throw new Error(`write ${id} (${write.kind}) on a subscription that does not exist`);
  switch (write.kind) {
    case 'add': {
      // The API skips sources the subscription already has.
      const added = fresh(write.sources.filter((s) => !previous.sources.some((p) => p.data === s.data)));
      if (added.length === 0) return previous;
      const sources = [...previous.sources, ...added];
      return { ...previous, sources, orderBy: id, removedBy: removing(sources, previous) };
    }
    case 'replace': {
      const sources = fresh(write.sources);
      return { ...previous, sources, orderBy: id, removedBy: removing(sources, previous) };
    }
    case 'remove': {
      const sources = previous.sources.filter((s) => !write.data.includes(s.data));
      return { ...previous, sources, orderBy: id, removedBy: removing(sources, previous) };
    }
    case 'comment': {
      if (!previous.sources.some((s) => s.data === write.data)) throw new Error(`write ${id}: no source ${write.data}`);
      const sources = previous.sources.map((s) =>
        s.data === write.data ? { ...s, comment: write.comment, commentBy: id } : s,
      );
      return { ...previous, sources };
    }
    case 'rename':
      return { ...previous, name: write.name, nameBy: id };
    case 'delete':
      return { exists: false, existsBy: id, name: '', nameBy: id, sources: [], orderBy: id, removedBy: new Map() };
  }
}

export interface Comparison {
  /** Ids of the writes whose effect the actual state does not show. */
  lost: number[];
  /** Sources present that no recorded write put there. */
  unexpected: string[];
}

export function compare(expected: Expected | null, actual: Actual): Comparison {
  const lost = new Set<number>();
  const unexpected: string[] = [];
  if (expected === null || !expected.exists) {
    if (actual !== null) {
      if (expected) lost.add(expected.existsBy);
      else unexpected.push('a subscription no write created');
    }
    return { lost: [...lost], unexpected };
  }
  if (actual === null) {
    for (const id of [expected.existsBy, expected.nameBy, expected.orderBy]) lost.add(id);
    for (const source of expected.sources) lost.add(source.addedBy).add(source.commentBy);
    return { lost: [...lost].sort((a, b) => a - b), unexpected };
  }
  if (actual.name !== expected.name) lost.add(expected.nameBy);
  for (const source of expected.sources) {
    const found = actual.sources.find((a) => a.data === source.data);
    if (!found) lost.add(source.addedBy);
    else if (found.comment !== source.comment) lost.add(source.commentBy);
  }
  for (const source of actual.sources) {
    if (expected.sources.some((e) => e.data === source.data)) continue;
    const remover = expected.removedBy.get(source.data);
    if (remover === undefined) unexpected.push(source.data);
    else lost.add(remover);
  }
  const sameOrder =
    actual.sources.length === expected.sources.length &&
    actual.sources.every((source, i) => source.data === expected.sources[i]?.data);
  if (lost.size === 0 && unexpected.length === 0 && !sameOrder) lost.add(expected.orderBy);
  return { lost: [...lost].sort((a, b) => a - b), unexpected };
}

export const matches = (expected: Expected | null, actual: Actual): boolean => {
  const { lost, unexpected } = compare(expected, actual);
  return lost.length === 0 && unexpected.length === 0;
};

/**
 * The body of `/sub/{token}?format=plain` the expected state should serve: sources in order, a config as
 * `uri#comment` (its host without one), an external URL as its upstream lines, repeats of a URI left out.
 */
export function expectedLink(expected: Expected, upstreamLines: (url: string) => string[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const source of expected.sources) {
    const candidates = source.external
      ? upstreamLines(source.data)
      : [`${source.data}#${encodeURIComponent(source.comment ?? hostOf(source.data))}`];
    for (const line of candidates) {
      const identity = line.split('#')[0] as string;
      if (seen.has(identity)) continue;
      seen.add(identity);
      lines.push(line);
    }
  }
  return lines.join('\n');
}

function hostOf(uri: string): string {
  return new URL(uri).hostname;
}

/** Every write of the run in order, and the state they add up to per subscription. */
export class Ledger {
  private readonly entries: Entry[] = [];
  private readonly states = new Map<string, Expected>();

  record(token: string, write: Write, acknowledged: boolean, phase: string): Entry {
    const entry: Entry = { id: this.entries.length + 1, token, write, acknowledged, phase };
    this.states.set(token, applyWrite(this.states.get(token) ?? null, write, entry.id));
    this.entries.push(entry);
    return entry;
  }

  state(token: string): Expected | null {
    return this.states.get(token) ?? null;
  }

  tokens(): string[] {
    return [...this.states.keys()];
  }

  entry(id: number): Entry {
    const entry = this.entries[id - 1];
    if (!entry) throw new Error(`no ledger entry ${id}`);
    return entry;
  }

  all(): readonly Entry[] {
    return this.entries;
  }
}
