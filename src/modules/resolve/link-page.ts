// The HTML answer of a public link opened in a browser: what the subscription is and how to add it to an app.
import { createHash } from 'node:crypto';
import { escapeHtml } from '../connect/html.js';

const STYLE = [
  ':root{color-scheme:light dark;font-family:system-ui,sans-serif}',
  'body{margin:0 auto;max-width:40rem;padding:1.5rem;line-height:1.5}',
  'h1{font-size:1.4rem;margin:0 0 .5rem}',
  '.link{display:block;width:100%;box-sizing:border-box;padding:.5rem;font:inherit;font-size:.9rem}',
  '.muted{opacity:.75}',
].join('');

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Only the hashed inline style may apply; no script, no external resource, no framing. */
export const LINK_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface LinkPageModel {
  name: string;
  description: string | null;
  servers: number;
  url: string;
}

export function renderLinkPage({ name, description, servers, url }: LinkPageModel): string {
  const count = servers === 1 ? '1 server' : `${servers} servers`;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(name)}</title><style>${STYLE}</style></head><body><main>`,
    `<h1>${escapeHtml(name)}</h1>`,
    description ? `<p>${escapeHtml(description)}</p>` : '',
    `<p class="muted">${count}</p>`,
    '<p>Add this link to your proxy app as a subscription:</p>',
    `<input class="link" readonly value="${escapeHtml(url)}" aria-label="Subscription link">`,
    '</main></body></html>',
  ].join('');
}
