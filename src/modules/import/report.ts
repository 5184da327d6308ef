// What an import added, found already present and skipped (with why), and how that is printed for the operator.

export const REPORT_TABLES = [
  'users',
  'providers',
  'authorizations',
  'subscriptions',
  'sources',
  'external content',
] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

export interface Skip {
  table: ReportTable;
  /** The v2hub row's key (a hash, a token cut short, a URL). */
  key: string;
  reason: string;
}

/** A row imported with a field changed by the API's rules (docs/migrating-from-v2hub.md), or a reference dropped. */
export interface Change {
  table: ReportTable;
  key: string;
  what: string;
  why: string;
}

/** Keys listed per reason before the rest are only counted. */
const KEYS_SHOWN = 5;

export class ImportReport {
  readonly added = new Map<ReportTable, number>(REPORT_TABLES.map((t) => [t, 0]));
  readonly present = new Map<ReportTable, number>(REPORT_TABLES.map((t) => [t, 0]));
  readonly skips: Skip[] = [];
  /** Rows imported with a change worth telling (a comment dropped, a depth clamped). */
  readonly notes: string[] = [];
  /** Every change the API's field rules made, one per row and field, all of them listed. */
  readonly changes: Change[] = [];

  add(table: ReportTable): void {
    this.added.set(table, (this.added.get(table) ?? 0) + 1);
  }

  alreadyPresent(table: ReportTable): void {
    this.present.set(table, (this.present.get(table) ?? 0) + 1);
  }

  skip(table: ReportTable, key: string, reason: string): void {
    this.skips.push({ table, key, reason });
  }

  change(table: ReportTable, key: string, what: string, why: string): void {
    this.changes.push({ table, key, what, why });
  }

  note(text: string): void {
    this.notes.push(text);
  }

  get totalAdded(): number {
    return [...this.added.values()].reduce((a, b) => a + b, 0);
  }

  format(mode: { dryRun: boolean }): string {
    const lines = [mode.dryRun ? 'v2hub import, dry run: nothing was written' : 'v2hub import'];
    const width = Math.max(...REPORT_TABLES.map((t) => t.length));
    for (const table of REPORT_TABLES) {
      const skipped = this.skips.filter((s) => s.table === table).length;
      const verb = mode.dryRun ? 'would be new' : 'new';
      lines.push(
        `  ${table.padEnd(width)}  ${this.added.get(table)} ${verb}, ${this.present.get(table)} already present, ${skipped} skipped`,
      );
    }
    const groups = new Map<string, Skip[]>();
    for (const skip of this.skips) {
      const group = `${skip.table}: ${skip.reason}`;
      const list = groups.get(group);
      if (list) list.push(skip);
      else groups.set(group, [skip]);
    }
    if (groups.size > 0) lines.push(`skipped (${this.skips.length}):`);
    for (const [group, skips] of groups) {
      const keys = skips.slice(0, KEYS_SHOWN).map((s) => s.key);
      const more = skips.length > KEYS_SHOWN ? `, and ${skips.length - KEYS_SHOWN} more` : '';
      lines.push(`  ${group} (${skips.length}): ${keys.join(', ')}${more}`);
    }
    if (this.changes.length > 0) lines.push(`changed to meet the API's rules (${this.changes.length}):`);
    for (const c of this.changes) lines.push(`  ${c.table} ${c.key}: ${c.what} (${c.why})`);
    if (this.notes.length > 0) lines.push(`notes (${this.notes.length}):`);
    for (const note of this.notes) lines.push(`  ${note}`);
    return `${lines.join('\n')}\n`;
  }
}

/** A subscription token or API secret shown in a report: enough to find the row, not enough to use it. */
export function shortToken(token: string): string {
  return token.length > 8 ? `${token.slice(0, 8)}...` : token;
}

/** A problem the operator can fix (source unreachable, not a v2hub schema, a non-empty target), told in one line. */
export class ImportError extends Error {}
