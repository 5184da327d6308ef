// Escaping for values placed into server-rendered HTML, so provider data can never become markup, and the pages' one CSP shape.
import { createHash } from 'node:crypto';
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use between tags and inside double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** The URL when it is an absolute http(s) URL that may become a link; anything else stays plain text. */
export function linkableUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy of a server-rendered page: only its own inline style and script (by hash) apply, no
 * external resource loads, nothing may frame it; `extra` directives are added before the fixed ones.
 */
export function pageCsp(style: string, script: string, extra: string[] = []): string {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  return [
    "default-src 'none'",
    `script-src ${hash(script)}`,
    `style-src ${hash(style)}`,
    ...extra,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
}

/**
 * A whole server-rendered page around `body` with its one inline style; `title` and `body` must be escaped HTML,
 * `attributes` those of <html> (language and direction, see page-chrome.ts).
 */
export function htmlPage(title: string, style: string, body: string, attributes = 'lang="en" dir="ltr"'): string {
  return `<!doctype html>
<html ${attributes}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${style}</style>
</head>
<body>${body}
</body>
</html>
`;
}
