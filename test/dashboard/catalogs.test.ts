// Every string catalog of the dashboard (web/src/**/strings/) has the same keys, the same {{placeholders}} and no
// empty string in English, Russian, Simplified Chinese and Persian.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = join(import.meta.dirname, '../../web/src');
const LANGUAGES = ['en', 'ru', 'zh', 'fa'] as const;

function catalogDirs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) return [];
    return name === 'strings' ? [path] : catalogDirs(path);
  });
}

/** `{a: {b: 'x'}}` → `[['a.b', 'x']]`. */
function leaves(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
}

const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

async function load(dir: string, language: string): Promise<Map<string, unknown>> {
  const module = (await import(pathToFileURL(join(dir, `${language}.ts`)).href)) as Record<string, unknown>;
  return new Map(leaves(module[language]));
}

const dirs = catalogDirs(WEB);

describe('dashboard string catalogs', () => {
  it('exist for the shell and the screens', () => {
    const names = dirs.map((dir) => dir.slice(WEB.length + 1));
    expect(names).toEqual(expect.arrayContaining(['shell/strings', 'screens/sign-in/strings']));
  });

  describe.each(dirs.map((dir) => [dir.slice(WEB.length + 1), dir]))('%s', (_name, dir) => {
    it.each(LANGUAGES.filter((language) => language !== 'en'))(
      '%s has exactly the English keys with the same placeholders, none empty',
      async (language) => {
        const english = await load(dir, 'en');
        const other = await load(dir, language);
        expect([...other.keys()].sort(), 'keys missing or extra').toEqual([...english.keys()].sort());
        for (const [key, text] of other) {
          expect(typeof text, key).toBe('string');
          expect(String(text).trim(), key).not.toBe('');
          expect(placeholders(text), key).toEqual(placeholders(english.get(key)));
        }
      },
    );
  });
});
