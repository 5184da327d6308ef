// Comments and docs cite the repository's own docs/, so no file may send a reader to design notes the repository does not ship.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Not part of the repository's own text: installed, built, generated or ignored. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', 'dist', 'coverage', 'data']);
const BINARY_FILE = /\.(png|jpe?g|gif|ico|woff2?|gz|br|zip)$/i;

// Built from parts so that this file does not match itself.
const OUTSIDE_NOTES = ['SPEC', 'DESIGN', 'client-formats'].map((name) => `${name}\\.md`).join('|');
const CITATION = new RegExp(`\\b(?:${OUTSIDE_NOTES})\\b|\\b(?:SPEC|DESIGN) (?:§|section|\\d)`);

function repositoryFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : repositoryFiles(join(folder, entry.name));
    return entry.isFile() && !BINARY_FILE.test(entry.name) ? [relative(ROOT, join(folder, entry.name))] : [];
  });
}

/** `file:line: text` of every line that cites notes outside the repository. */
function citations(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (CITATION.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe('citations', () => {
  const files = repositoryFiles(ROOT);

  it('reads the source, tests and docs of the repository', () => {
    expect(files).toContain('src/app.ts');
    expect(files).toContain('docs/architecture.md');
    expect(files).toContain('test/unit/doc-citations.test.ts');
    expect(files.some((file) => file.startsWith('node_modules/'))).toBe(false);
  });

  it('recognises a citation of notes outside the repository, in each spelling', () => {
    // Each spelling is written in two parts, so that this file does not match itself.
    const spellings = [
      ['see SPEC', '.md'],
      ['DESIGN', '.md section 7'],
      ['DESIGN', ' 13'],
      ['DESIGN', ' § 5'],
      ['research/client-formats', '.md §6'],
    ].map(([head, tail]) => `${head}${tail}`);
    expect(spellings.filter((line) => !CITATION.test(line))).toEqual([]);
    expect(CITATION.test('RFC 9110 section 5.6.2, docs/architecture.md (Layers)')).toBe(false);
  });

  it('no file cites SPEC, DESIGN or research notes', () => {
    expect(citations(files)).toEqual([]);
  });
});
