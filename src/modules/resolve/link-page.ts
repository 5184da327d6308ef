// The HTML answer of a public link opened in a browser: what the subscription is, its QR code, and how to add it to an app.
import { renderSVG } from 'uqr';
import { escapeHtml, htmlPage, linkableUrl, pageCsp } from '../connect/html.js';
import { CLIENT_APPS, deepLink, linkFor, PLATFORMS, type LinkForm } from './link-page.apps.js';
import { renderFacts, type LinkUsage } from './link-page.facts.js';
import { LINK_PAGE_SCRIPT } from './link-page.script.js';
import { LINK_PAGE_STYLE } from './link-page.style.js';

/** Only the hashed inline style and script apply; the script may fetch nothing; no external resource, no framing. */
export const LINK_PAGE_CSP = pageCsp(LINK_PAGE_STYLE, LINK_PAGE_SCRIPT);

/** Headers of every HTML answer of the link, the 404 page included. */
export const LINK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': LINK_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

export interface LinkPageModel {
  name: string;
  description: string | null;
  servers: number;
  /** ISO time of the subscription's last change. */
  updatedAt: string;
  /** The plain link; the format links add `/mihomo` and `/sing-box` to it. */
  url: string;
  usage?: LinkUsage | null;
  supportUrl?: string | null;
  webPageUrl?: string | null;
  announce?: string | null;
}

/** The QR code of a URL as inline SVG: dark modules on a white square with a quiet zone, whatever the color scheme. */
export function qrSvg(url: string): string {
  return renderSVG(url, { ecc: 'M', border: 4, pixelSize: 1 });
}

export function renderLinkPage(model: LinkPageModel): string {
  const name = escapeHtml(model.name);
  return layout(
    name,
    `<main>
<header class="card">
  <p class="brand">subweave · subscription</p>
  <h1 id="name">${name}</h1>
  ${model.description ? `<p id="description" class="muted">${escapeHtml(model.description)}</p>` : ''}
  ${model.announce ? `<p id="announce" class="announce" role="note">${escapeHtml(model.announce)}</p>` : ''}
  ${renderFacts(model)}
  ${siteLinks(model)}
</header>
<section class="card" aria-labelledby="link-title">
  <h2 id="link-title">Subscription link</h2>
  ${copyRow('link', model.url, 'Subscription link')}
  <figure class="qr" id="qr">${qrSvg(model.url)}<figcaption>Scan it with the app on your phone.</figcaption></figure>
</section>
<section class="card" aria-labelledby="apps-title">
  <h2 id="apps-title">Add to an app</h2>
  <p class="hint">Choose your platform, then your app: the button opens the app and adds this subscription.</p>
  ${appButtons(model.url, model.name)}
  <div class="formats">
    <p class="hint">Another app? Most read the link above. Clash and mihomo apps get their own format from the first
      link below, sing-box apps from the second.</p>
    ${formatRow('mihomo', 'Clash / mihomo (YAML)', model.url)}
    ${formatRow('sing-box', 'sing-box (JSON)', model.url)}
  </div>
</section>
<footer>Served by subweave. Keep this link private: anyone who has it can use the subscription.</footer>
</main>
<script>${LINK_PAGE_SCRIPT}</script>`,
  );
}

/** The page for a token that names no subscription; it says nothing about the token. */
export function renderLinkNotFoundPage(): string {
  return layout(
    'Subscription not found',
    `<main>
<div class="card">
  <p class="brand">subweave</p>
  <h1>Subscription not found</h1>
  <p>This link does not lead to a subscription on this server. It may have been mistyped, replaced by a new link,
    or deleted.</p>
  <p class="muted">Ask whoever gave you the link for the current one.</p>
</div>
</main>`,
  );
}

function siteLinks({ supportUrl, webPageUrl }: LinkPageModel): string {
  const links = [
    [linkableUrl(supportUrl), 'Support', 'support'],
    [linkableUrl(webPageUrl), 'Website', 'website'],
  ].filter((link): link is [string, string, string] => link[0] !== null);
  if (links.length === 0) return '';
  const anchors = links.map(
    ([url, label, id]) =>
      `<a id="${id}" href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${label}</a>` +
      ` <span class="muted">${escapeHtml(new URL(url).host)}</span>`,
  );
  return `<p class="links">${anchors.map((anchor) => `<span>${anchor}</span>`).join('')}</p>`;
}

function copyRow(id: string, value: string, label: string): string {
  return (
    `<div class="copy"><input id="${id}" type="text" readonly value="${escapeHtml(value)}" aria-label="${label}" spellcheck="false">` +
    `<button type="button" data-copy="${id}">Copy</button></div><p class="status" id="${id}-status" role="status" aria-live="polite"></p>`
  );
}

function formatRow(form: Exclude<LinkForm, 'plain'>, label: string, url: string): string {
  return `<label for="link-${form}">${label}</label>${copyRow(`link-${form}`, linkFor(url, form), label)}`;
}

function appButtons(url: string, name: string): string {
  return PLATFORMS.map(({ id, label }) => {
    const buttons = CLIENT_APPS.filter((app) => app.platforms.includes(id)).map(
      (app) =>
        `<a class="app" href="${escapeHtml(deepLink(app, linkFor(url, app.reads), name))}" rel="noreferrer">${escapeHtml(app.name)}</a>`,
    );
    return `<details data-platform="${id}"><summary>${label}</summary><div class="apps">${buttons.join('')}</div></details>`;
  }).join('');
}

/** `title` and `body` must already be escaped HTML. */
function layout(title: string, body: string): string {
  return htmlPage(title, LINK_PAGE_STYLE, body);
}
