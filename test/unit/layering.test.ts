// The layers of docs/architecture.md hold in the import graph: the lower folders of src/ import nothing above them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

interface Import {
  file: string;
  target: string;
}

function tsFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of the files under `src/<folder>` (static, `export ... from`, `import()`), as src/ paths. */
function importsOf(folder: string): Import[] {
  return tsFiles(join(SRC, folder)).flatMap((path) => {
    const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    return info.importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => ({
        file: relative(SRC, path),
        target: relative(SRC, resolve(dirname(path), name)).replace(/\.js$/, '.ts'),
      }));
  });
}

/** The imports of `src/<folder>` that leave it for anything but `allowed` (folders or files of src/). */
function importsOutside(folder: string, allowed: readonly string[]): string[] {
  const places = [folder, ...allowed];
  return importsOf(folder)
    .filter(({ target }) => !places.some((place) => target === place || target.startsWith(`${place}/`)))
    .map(({ file, target }) => `${file} -> ${target}`);
}

/** The imports of `src/<folder>` that reach into any of `refused`. */
function importsInto(folder: string, refused: readonly string[]): string[] {
  return importsOf(folder)
    .filter(({ target }) => refused.some((place) => target.startsWith(`${place}/`)))
    .map(({ file, target }) => `${file} -> ${target}`);
}

describe('layering (docs/architecture.md, Layers)', () => {
  it('reads the imports it checks', () => {
    // Guards the reader itself: a parse that found nothing would make every rule below pass.
    expect(importsOf('db')).toContainEqual({ file: 'db/types.ts', target: 'db/column-values.ts' });
    expect(importsOf('formats').length).toBeGreaterThan(50);
    expect(importsOf('http')).toContainEqual({ file: 'http/health.ts', target: 'context.ts' });
  });

  it('the data layer (src/db) imports only itself and src/shared', () => {
    expect(importsOutside('db', ['shared'])).toEqual([]);
  });

  it('the formats library (src/formats) imports only itself and src/shared', () => {
    expect(importsOutside('formats', ['shared'])).toEqual([]);
  });

  it('src/shared and src/net import only each other', () => {
    expect(importsOutside('shared', ['net'])).toEqual([]);
    expect(importsOutside('net', ['shared'])).toEqual([]);
  });

  it('the HTTP plumbing (src/http) imports no domain folder', () => {
    expect(importsInto('http', ['modules', 'changes', 'events', 'webhooks'])).toEqual([]);
  });
});
