// The link page's HTML: escaping of hostile subscription data, the facts, the QR code and every deep link.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLIENT_APPS, deepLink, linkFor, PLATFORMS } from '../../src/modules/resolve/link-page.apps.js';
import { formatBytes } from '../../src/modules/resolve/link-page.facts.js';
import {
  LINK_PAGE_CSP,
  LINK_PAGE_INLINE_SCRIPT,
  qrSvg,
  renderLinkNotFoundPage,
  renderLinkPage,
  type LinkPageModel,
} from '../../src/modules/resolve/link-page.js';
import { LINK_PAGE_STYLE } from '../../src/modules/resolve/link-page.style.js';
import { escapeHtml } from '../../src/modules/connect/html.js';

const URL_ = 'https://subs.example.com/sub/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf';
const GiB = 1024 ** 3;

const model = (overrides: Partial<LinkPageModel> = {}): LinkPageModel => ({
  name: 'Home',
  description: 'Family servers',
  servers: 3,
  updatedAt: '2025-03-04T05:06:07.890Z',
  url: URL_,
  ...overrides,
});

/** The page with its inline script and style removed: what is left is markup made from the model. */
const markup = (html: string) => html.replace(LINK_PAGE_INLINE_SCRIPT, '').replace(LINK_PAGE_STYLE, '');

const HOSTILE = [
  '<script>alert(1)</script>',
  `"'&<>`,
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  'Ünïcödé 😀 名前 \u202e',
];

describe('link page view', () => {
  it.each(HOSTILE)('escapes a hostile name and description: %j', (hostile) => {
    const html = markup(renderLinkPage(model({ name: hostile, description: hostile, announce: hostile })));
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<[^>]*\son\w+=/);
    expect(html).toContain(`<h1 id="name">${escapeHtml(hostile)}</h1>`);
    expect(html).toContain(`<title>${escapeHtml(hostile)} · subweave</title>`);
    expect(html).toContain(`<p id="description" class="muted">${escapeHtml(hostile)}</p>`);
    expect(html).toContain(`role="note">${escapeHtml(hostile)}</p>`);
    // The name travels percent-encoded in the deep links, never raw in an attribute.
    expect(html).toContain(escapeHtml(encodeURIComponent(hostile)));
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('shows the server count, the last change and no usage, links or announce when there are none', () => {
    const html = renderLinkPage(model({ description: null }));
    expect(html).toContain('<dt>Servers</dt><dd>3</dd>');
    expect(html).toContain(
      '<time id="updated" datetime="2025-03-04T05:06:07.890Z" data-local="time">2025-03-04 05:06 UTC</time>',
    );
    expect(html).not.toContain('id="description"');
    expect(html).not.toContain('fact-traffic');
    expect(html).not.toContain('fact-expire');
    expect(html).not.toContain('class="links"');
    expect(html).not.toContain('id="announce"');
  });

  it('shows usage against a limit with a meter, and the expiry date', () => {
    const expire = Date.UTC(2031, 0, 15, 12) / 1000;
    const html = renderLinkPage(model({ usage: { upload: GiB / 2, download: 5 * GiB, total: 100 * GiB, expire } }));
    expect(html).toContain('\u20685.5 GiB\u2069 of \u2068100 GiB\u2069');
    expect(html).toContain(`<meter min="0" max="${100 * GiB}" value="${5.5 * GiB}"`);
    expect(html).toContain('↑ 512 MiB · ↓ 5.0 GiB');
    expect(html).toContain('<time id="expire" datetime="2031-01-15T12:00:00.000Z" data-local="date">2031-01-15</time>');
  });

  it('reads total=0 as no limit and expire=0 as never, and ignores numbers that are not counts', () => {
    const html = renderLinkPage(model({ usage: { upload: 1536, download: Number.NaN, total: 0, expire: 0 } }));
    expect(html).toContain('\u20681.5 KiB\u2069 used<small>no limit</small>');
    expect(html).not.toContain('<meter');
    expect(html).toContain('<dt>Expires</dt><dd>Never</dd>');
    const negative = renderLinkPage(model({ usage: { upload: -5, download: 10, total: -1, expire: -3 } }));
    expect(negative).toContain('\u206810 B\u2069 used<small>no limit</small>');
    expect(negative).toContain('<dd>Never</dd>');
  });

  it('formats bytes for people', () => {
    expect([0, 1023, 1024, 1536, 99.94 * 1024 ** 2, 150 * GiB, 3 * 1024 ** 4].map(formatBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '1.5 KiB',
      '99.9 MiB',
      '150 GiB',
      '3.0 TiB',
    ]);
  });

  it('links the support and web page URLs only when they are http(s)', () => {
    const html = renderLinkPage(
      model({
        supportUrl: 'https://t.me/help?a="b"&c=<d>',
        webPageUrl: 'http://example.org/',
        announce: 'Maintenance tonight',
      }),
    );
    expect(html).toContain(
      '<a id="support" href="https://t.me/help?a=&quot;b&quot;&amp;c=&lt;d&gt;" rel="noopener noreferrer" target="_blank">Support</a>',
    );
    expect(html).toContain('<a id="website" href="http://example.org/"');
    expect(html).toContain('role="note">Maintenance tonight</p>');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'tg://resolve?domain=x', '/relative']) {
      const page = renderLinkPage(model({ supportUrl: bad, webPageUrl: bad }));
      expect(page).not.toContain('class="links"');
      expect(page).not.toContain(escapeHtml(bad));
    }
  });

  it('carries every deep link of every platform, each app under each of its platforms', () => {
    const html = renderLinkPage(model({ name: 'Home & Co' }));
    for (const { id } of PLATFORMS) {
      const section = html.slice(html.indexOf(`<details data-platform="${id}">`));
      const own = section.slice(0, section.indexOf('</details>'));
      const apps = CLIENT_APPS.filter((app) => app.platforms.includes(id));
      expect(own.match(/class="app"/g)).toHaveLength(apps.length);
      for (const app of apps) {
        const href = escapeHtml(deepLink(app, linkFor(URL_, app.reads), 'Home & Co'));
        expect(own, `${app.name} on ${id}`).toContain(
          `<a class="app" href="${href}" rel="noreferrer" data-app="${escapeHtml(app.name)}">Add to ${escapeHtml(app.name)}</a>`,
        );
      }
    }
    expect(html).toContain(`value="${URL_}/mihomo"`);
    expect(html).toContain(`value="${URL_}/sing-box"`);
  });

  it('draws the QR code of the plain link as inline SVG', () => {
    const html = renderLinkPage(model());
    const figure = html.slice(html.indexOf('<figure class="qr"'), html.indexOf('</figure>'));
    expect(figure).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1">/);
    expect(figure).toContain(qrSvg(URL_));
    expect(qrSvg(URL_)).not.toBe(qrSvg(`${URL_}x`));
    expect(figure).not.toMatch(/<img|href=|xlink/);
  });

  it('allows exactly its inline style and script by hash', () => {
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(LINK_PAGE_CSP).toContain(`script-src ${sha(LINK_PAGE_INLINE_SCRIPT)}`);
    expect(LINK_PAGE_CSP).toContain(`style-src ${sha(LINK_PAGE_STYLE)}`);
    expect(LINK_PAGE_CSP).toContain("default-src 'none'");
    expect(LINK_PAGE_CSP).not.toMatch(/unsafe|https?:|\*/);
    const html = renderLinkPage(model());
    expect(html).toContain(`<script>${LINK_PAGE_INLINE_SCRIPT}</script>`);
    expect(html).toContain(`<style>${LINK_PAGE_STYLE}</style>`);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).not.toMatch(/ style=|<link rel="stylesheet"|src="http/);
    expect(LINK_PAGE_INLINE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write\(/);
  });

  it('has a 404 page without script that names nothing', () => {
    const html = renderLinkNotFoundPage();
    expect(html).toContain('<h1>Subscription not found</h1>');
    expect(html).not.toContain('<script');
    expect(html).toContain(`<style>${LINK_PAGE_STYLE}</style>`);
  });
});
