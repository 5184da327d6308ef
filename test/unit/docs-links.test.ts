// The README and docs/ ship with the repository, so every relative link and anchor in them must resolve inside it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface Link {
  file: string;
  target: string;
}

/** The text outside fenced code blocks, line by line (code may show link-like text that is not a link). */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** Inline `[text](target)` links and `[label]: target` definitions, ignoring code spans. */
function linksIn(file: string): Link[] {
  const links: Link[] = [];
  for (const line of proseLines(readFileSync(join(ROOT, file), 'utf8'))) {
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ file, target: match[1] as string });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(text);
    if (definition) links.push({ file, target: definition[1] as string });
  }
  return links;
}

/** GitHub's heading anchors: lower case, punctuation removed, spaces to hyphens, repeats numbered -1, -2, ... */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] as string)
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Why `link` does not resolve inside the repository, or null when it does. External URLs are not checked here. */
function problemWith(link: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) {
    return /^(https?|mailto):/i.test(link.target) ? null : 'uses a scheme that cannot resolve for a reader';
  }
  const [rawPath = '', anchor] = link.target.split('#', 2);
  const path = decodeURIComponent(rawPath);
  // A leading slash means the repository root, as on GitHub.
  const target =
    path === '' ? join(ROOT, link.file) : join(path.startsWith('/') ? ROOT : dirname(join(ROOT, link.file)), path);
  const inside = relative(ROOT, target);
  if (inside.startsWith('..')) return `points outside the repository (${inside})`;
  if (!existsSync(target)) return `${inside} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(target).isDirectory() || !target.endsWith('.md'))
    return `anchor #${anchor} on a file that is not Markdown`;
  return headingAnchors(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))
    ? null
    : `${inside} has no heading #${anchor}`;
}

const LINKS = FILES.flatMap(linksIn);

describe('documentation links', () => {
  it('finds the links of the README and every file in docs/', () => {
    expect(FILES).toContain('docs/api.md');
    expect(LINKS).toContainEqual({ file: 'README.md', target: 'docs/api.md' });
    expect(LINKS).toContainEqual({ file: 'docs/api.md', target: 'admin-api.md#endpoints' });
    expect(LINKS).toContainEqual({ file: 'docs/api.md', target: '#your-account-apiv1me' });
  });

  it.each(LINKS.map((link) => [`${link.file} -> ${link.target}`, link] as const))('%s resolves', (_name, link) => {
    expect(problemWith(link)).toBeNull();
  });

  it('refuses links that leave the repository, miss a file or miss an anchor', () => {
    expect(problemWith({ file: 'README.md', target: '../shared/notes.md' })).toMatch(/outside the repository/);
    expect(problemWith({ file: 'docs/api.md', target: 'missing.md' })).toMatch(/does not exist/);
    expect(problemWith({ file: 'docs/api.md', target: '#no-such-heading' })).toMatch(/no heading/);
    expect(problemWith({ file: 'docs/api.md', target: 'file:///etc/passwd' })).toMatch(/scheme/);
  });
});

describe('headingAnchors', () => {
  it('makes the anchors GitHub makes', () => {
    const anchors = headingAnchors(
      [
        '# Admin API: signing requests',
        '## Your account: /api/v1/me',
        '## Limits',
        '### Limits',
        '```',
        '# not a heading',
        '```',
      ].join('\n'),
    );
    expect([...anchors]).toEqual(['admin-api-signing-requests', 'your-account-apiv1me', 'limits', 'limits-1']);
  });
});
