// The HTML answer of a public link opened in a browser: what the subscription is, its QR code, and how to add it to an app.
import type { IncomingHttpHeaders } from 'node:http';
import { renderSVG } from 'uqr';
import { NO_BRANDING, type Branding } from '../branding/branding.js';
import { escapeHtml, htmlPage, linkableUrl, pageCsp } from '../connect/html.js';
import {
  brandLine,
  CHROME_SCRIPT,
  DEFAULT_SERVICE_NAME,
  htmlAttributes,
  languageSwitch,
  stringsBlock,
} from '../connect/page-chrome.js';
import { pickLanguage, translator, type Language, type Translate } from '../../i18n/i18n.js';
import {
  CLIENT_APPS,
  deepLink,
  isHandheld,
  linkFor,
  platformOf,
  PLATFORMS,
  type ClientApp,
  type LinkForm,
  type Platform,
} from './link-page.apps.js';
import { renderFacts, usageState, type LinkUsage } from './link-page.facts.js';
import { LINK_PAGE_SCRIPT } from './link-page.script.js';
import { LINK_PAGE_STYLE } from './link-page.style.js';

/** The page's one inline script: the shared chrome first, then the page's own. */
export const LINK_PAGE_INLINE_SCRIPT = CHROME_SCRIPT + LINK_PAGE_SCRIPT;

/** Only the hashed inline style and script apply; the script may fetch nothing; images only from data: URLs (the logo). */
export const LINK_PAGE_CSP = pageCsp(LINK_PAGE_STYLE, LINK_PAGE_INLINE_SCRIPT);

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

/** Who the page is drawn for: their language and platform, and the admin's branding in force. */
export interface LinkPageView {
  lang: Language;
  platform: Platform | null;
  branding: Branding;
}

export const DEFAULT_VIEW: LinkPageView = Object.freeze({ lang: 'en', platform: null, branding: NO_BRANDING });

/**
 * The view of one request: language from `?lang=`, the remembered cookie or Accept-Language, platform from the
 * User-Agent. Pages drawn for equal views are equal, so a cache may key them by `viewKey`.
 */
export function linkPageView(
  request: { headers: IncomingHttpHeaders; lang?: string | undefined },
  branding: Branding,
): LinkPageView {
  const { headers } = request;
  const lang = pickLanguage({
    query: request.lang,
    cookie: headers.cookie,
    acceptLanguage: headers['accept-language'],
  });
  return { lang, platform: platformOf(headers['user-agent']), branding };
}

/** The part of a view that changes the page's bytes besides the branding object itself. */
export const viewKey = (view: LinkPageView): string => `${view.lang}:${view.platform ?? ''}`;

/** The QR code of a URL as inline SVG: dark modules on a white square with a quiet zone, whatever the color scheme. */
export function qrSvg(url: string): string {
  return renderSVG(url, { ecc: 'M', border: 4, pixelSize: 1 });
}

export function renderLinkPage(model: LinkPageModel, view: LinkPageView = DEFAULT_VIEW): string {
  const t = translator(view.lang);
  const name = escapeHtml(model.name);
  const supportUrl = linkableUrl(model.supportUrl) ?? linkableUrl(view.branding.support_url);
  const link = linkSection(model.url, t);
  const apps = appsSection(model, view, t);
  const service = view.branding.service_name ?? DEFAULT_SERVICE_NAME;
  return layout(
    name,
    `<main id="page" data-platform="${view.platform ?? ''}">
<header class="card" id="summary">
  <div class="top">${brandLine(view.branding, t('page.subscription'))}${languageSwitch(view.lang, t('lang.label'))}</div>
  <h1 id="name">${name}</h1>
  ${model.description ? `<p id="description" class="muted">${escapeHtml(model.description)}</p>` : ''}
  ${banner(model.usage, supportUrl, t)}
  ${model.announce ? `<p id="announce" class="announce" role="note">${escapeHtml(model.announce)}</p>` : ''}
  ${renderFacts(model, t)}
  ${siteLinks(supportUrl, model.webPageUrl, t)}
</header>
${isHandheld(view.platform) ? apps + link : link + apps}
<footer>${escapeHtml(t('page.footer', { service }))}</footer>
</main>
${stringsBlock({
  copied: t('link.copied'),
  selected: t('link.selected'),
  expired: t('facts.expired'),
  inDays: t('facts.in_days'),
  inDay: t('facts.in_day'),
})}
<script>${LINK_PAGE_INLINE_SCRIPT}</script>`,
    view,
  );
}

/** The page for a token that names no subscription; it says nothing about the token. */
export function renderLinkNotFoundPage(view: LinkPageView = DEFAULT_VIEW): string {
  const t = translator(view.lang);
  return layout(
    escapeHtml(t('notfound.title')),
    `<main>
<div class="card">
  ${brandLine(view.branding, '')}
  <h1>${escapeHtml(t('notfound.title'))}</h1>
  <p>${escapeHtml(t('notfound.text'))}</p>
  <p class="muted">${escapeHtml(t('notfound.hint'))}</p>
</div>
</main>`,
    view,
  );
}

/**
 * Expired and over-quota subscriptions get a banner with the support link. One whose expiry is still ahead carries
 * the banner hidden: the page may be served from cache after that moment, and the script shows it then.
 */
function banner(usage: LinkUsage | null | undefined, supportUrl: string | null, t: Translate): string {
  const state = usageState(usage, Date.now());
  const expireAt = usage && usage.expire > 0 ? usage.expire : 0;
  if (state === null && expireAt === 0) return '';
  const shown = state ?? 'expired';
  const contact = supportUrl
    ? `<a class="banner-link" href="${escapeHtml(supportUrl)}" rel="noopener noreferrer" target="_blank">${escapeHtml(t('banner.support'))}</a>`
    : '';
  const hidden = state === null ? ` hidden data-expires-at="${expireAt}"` : '';
  return `<div class="banner" id="banner" role="alert" data-state="${shown}"${hidden}>
    <p class="banner-title">${escapeHtml(t(`banner.${shown}.title`))}</p>
    <p>${escapeHtml(t(`banner.${shown}.text`))}</p>${contact}
  </div>`;
}

function siteLinks(supportUrl: string | null, webPageUrl: string | null | undefined, t: Translate): string {
  const links = [
    [supportUrl, t('site.support'), 'support'],
    [linkableUrl(webPageUrl), t('site.website'), 'website'],
  ].filter((link): link is [string, string, string] => link[0] !== null);
  if (links.length === 0) return '';
  const anchors = links.map(
    ([url, label, id]) =>
      `<a id="${id}" href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(label)}</a>` +
      ` <span class="muted">${escapeHtml(new URL(url).host)}</span>`,
  );
  return `<p class="links">${anchors.map((anchor) => `<span>${anchor}</span>`).join('')}</p>`;
}

function linkSection(url: string, t: Translate): string {
  return `<section class="card" id="link-card" aria-labelledby="link-title">
  <h2 id="link-title">${escapeHtml(t('link.title'))}</h2>
  ${copyRow('link', url, t('link.title'), t)}
  <figure class="qr" id="qr" aria-label="${escapeHtml(t('qr.title'))}">${qrSvg(url)}<figcaption>${escapeHtml(t('qr.caption'))}</figcaption></figure>
</section>`;
}

function appsSection(model: LinkPageModel, view: LinkPageView, t: Translate): string {
  return `<section class="card" id="apps-card" aria-labelledby="apps-title">
  <h2 id="apps-title">${escapeHtml(t('apps.title'))}</h2>
  <p class="hint">${escapeHtml(t('apps.hint'))}</p>
  ${platformGroups(model.url, model.name, view.platform, t)}
  <div class="formats">
    <p class="hint">${escapeHtml(t('formats.hint'))}</p>
    ${formatRow('mihomo', t('formats.mihomo'), model.url, t)}
    ${formatRow('sing-box', t('formats.singbox'), model.url, t)}
  </div>
</section>`;
}

function copyRow(id: string, value: string, label: string, t: Translate): string {
  return (
    `<div class="copy"><input id="${id}" type="text" readonly dir="ltr" value="${escapeHtml(value)}" aria-label="${escapeHtml(label)}" spellcheck="false">` +
    `<button type="button" data-copy="${id}">${escapeHtml(t('link.copy'))}</button></div><p class="status" id="${id}-status" role="status" aria-live="polite"></p>`
  );
}

function formatRow(form: Exclude<LinkForm, 'plain'>, label: string, url: string, t: Translate): string {
  return `<label for="link-${form}">${escapeHtml(label)}</label>${copyRow(`link-${form}`, linkFor(url, form), label, t)}`;
}

/** One group per platform, the visitor's first and open. */
function platformGroups(url: string, name: string, platform: Platform | null, t: Translate): string {
  const ordered = [...PLATFORMS].sort((a, b) => Number(b.id === platform) - Number(a.id === platform));
  return ordered
    .map(({ id, label }) => {
      const entries = CLIENT_APPS.filter((app) => app.platforms.includes(id)).map((app) =>
        appEntry(app, id, url, name, t),
      );
      const open = id === platform ? ' open' : '';
      return `<details data-platform="${id}"${open}><summary>${label}</summary><ul class="apps">${entries.join('')}</ul></details>`;
    })
    .join('');
}

/** The app's button, where to get it on this platform, and how to install it. */
function appEntry(app: ClientApp, platform: Platform, url: string, name: string, t: Translate): string {
  const downloads = app.get[platform] ?? [];
  const stores = downloads.map(
    (download) =>
      `<a href="${escapeHtml(download.url)}" rel="noopener noreferrer" target="_blank" data-store="${download.kind}">${escapeHtml(t(`store.${download.kind}`))}</a>`,
  );
  const paid = app.paid ? ` <span class="muted">${escapeHtml(t('apps.paid'))}</span>` : '';
  const first = downloads[0];
  const steps = first
    ? `<p class="steps">${escapeHtml(t(`install.${first.kind}`, { app: app.name }))} ${escapeHtml(t('install.then', { app: app.name }))}</p>`
    : '';
  const href = deepLink(app, linkFor(url, app.reads), name);
  return `<li class="app-entry"><a class="app" href="${escapeHtml(href)}" rel="noreferrer" data-app="${escapeHtml(app.name)}">${escapeHtml(t('apps.add', { app: app.name }))}</a>
<p class="get">${stores.join(' · ')}${paid}</p>${steps}</li>`;
}

/** `title` and `body` must already be escaped HTML. */
function layout(title: string, body: string, view: LinkPageView): string {
  const service = escapeHtml(view.branding.service_name ?? DEFAULT_SERVICE_NAME);
  return htmlPage(`${title} · ${service}`, LINK_PAGE_STYLE, body, htmlAttributes(view.lang, view.branding));
}
