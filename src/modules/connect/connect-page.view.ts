// Server-side HTML of the connect page and its "unknown provider" variant; every dynamic value passes through escapeHtml.
import type { Branding } from '../branding/branding.js';
import { translator, type Language, type MessageKey } from '../../i18n/i18n.js';
import { escapeHtml, htmlPage, linkableUrl, pageCsp } from './html.js';
import { CONNECT_PAGE_SCRIPT } from './connect-page.script.js';
import { CONNECT_PAGE_STYLE } from './connect-page.style.js';
import {
  brandLine,
  CHROME_SCRIPT,
  DEFAULT_SERVICE_NAME,
  htmlAttributes,
  languageSwitch,
  stringsBlock,
} from './page-chrome.js';

const SCRIPT = CHROME_SCRIPT + CONNECT_PAGE_SCRIPT;

/** Only the hashed inline style and script may run; the script may talk to this origin alone; nothing may frame the page. */
export const CONNECT_PAGE_CSP = pageCsp(CONNECT_PAGE_STYLE, SCRIPT, ["connect-src 'self'"]);

export interface ConnectPageModel {
  providerName: string;
  providerUrl: string | null;
  /** The user id a custom CONNECTION_LINK_TEMPLATE put in the link, when it is a plausible id. */
  userId: string | null;
}

export interface ConnectPageView {
  lang: Language;
  branding: Branding;
}

/** The strings the page script shows, in the page's language; `{provider}` is already filled in. */
const SCRIPT_KEYS = [
  'connect.state.pending',
  'connect.state.pending.text',
  'connect.state.approved',
  'connect.state.approved.text',
  'connect.state.revoked',
  'connect.state.revoked.text',
  'connect.state.none',
  'connect.state.none.text',
  'connect.error.missing_token',
  'connect.error.invalid_token',
  'connect.error.account_disabled',
  'connect.error.connection_not_found',
  'connect.error.connection_not_pending',
  'connect.error.provider_limit_reached',
  'connect.error.ip_banned',
  'connect.error.rate_limited',
  'connect.error.status',
  'connect.error.retry',
  'connect.error.network',
  'connect.error.other_user',
  'connect.done.approve',
  'connect.done.reject',
  'connect.done.revoke',
  'connect.forgotten',
  'connect.signing_in',
] as const satisfies readonly MessageKey[];

export function renderConnectPage(
  { providerName, providerUrl, userId }: ConnectPageModel,
  view: ConnectPageView,
): string {
  const t = translator(view.lang);
  const text = (key: MessageKey, values: Record<string, string> = {}) => escapeHtml(t(key, values));
  const name = escapeHtml(providerName);
  /** A message with the provider's name in bold: the message is escaped first, then the marked-up name put in. */
  const withName = (key: MessageKey) => text(key, { provider: '\u0000' }).replace('\u0000', `<strong>${name}</strong>`);
  const url = linkableUrl(providerUrl);
  const website = url
    ? `<p class="meta">${text('connect.website')} <a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(url)}</a></p>`
    : '';
  const forUser = userId
    ? `<p class="meta">${text('connect.for_user', { user: '\u0000' }).replace('\u0000', `<strong>${escapeHtml(userId)}</strong>`)}</p>`
    : '';
  const strings = Object.fromEntries(SCRIPT_KEYS.map((key) => [key, t(key, { provider: providerName })]));
  const noscript = text('connect.noscript', { approve: '\u0001', reject: '\u0002', header: '\u0003' })
    .replace('\u0001', `<code>POST /api/v1/me/providers/${name}/approve</code>`)
    .replace('\u0002', '<code>/reject</code>')
    .replace('\u0003', '<code>API-Token</code>');
  const title = text('connect.title', { provider: '\u0000' });
  return layout(
    title.replace('\u0000', name),
    `
<main>
<div class="card" id="connect" data-provider="${name}" data-user-id="${escapeHtml(userId ?? '')}">
  <div class="top">${brandLine(view.branding, '')}${languageSwitch(view.lang, t('lang.label'), userId ? { user_id: userId } : {})}</div>
  <h1>${title.replace('\u0000', `<span class="name" id="provider-name">${name}</span>`)}</h1>
  <p>${withName('connect.asks')}</p>
  ${website}${forUser}
  <ul class="facts">
    <li>${text('connect.fact.manage', { provider: providerName })}</li>
    <li>${text('connect.fact.keep')}</li>
    <li>${text('connect.fact.safe')}</li>
  </ul>
  <form id="token-form" novalidate>
    <label for="token">${text('connect.token')}</label>
    <div class="row">
      <input id="token" type="password" dir="ltr" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="${text('connect.placeholder')}">
      <button id="check" type="submit">${text('connect.check')}</button>
    </div>
    <p class="hint">${text('connect.token_hint')}
      <button id="forget" class="link" type="button">${text('connect.forget')}</button></p>
  </form>
  <details class="where" id="where">
    <summary>${text('connect.where.title')}</summary>
    <p>${text('connect.where.text')}</p>
    <p>${text('connect.signin', { path: '\u0000' }).replace('\u0000', '<code dir="ltr">/app/sign-in#code=</code>')}</p>
  </details>
  <section id="state" aria-live="polite" hidden>
    <p>${text('connect.status')} <span id="state-badge" class="badge"></span></p>
    <p id="state-text"></p>
    <div class="actions">
      <button id="approve" class="primary" type="button" hidden>${text('connect.approve')}</button>
      <button id="reject" type="button" hidden>${text('connect.reject')}</button>
      <button id="revoke" class="danger" type="button" hidden>${text('connect.revoke')}</button>
    </div>
  </section>
  <p id="notice" role="status" aria-live="polite" hidden></p>
  <noscript><p class="meta">${noscript}</p></noscript>
</div>
</main>
${stringsBlock(strings)}
<script>${SCRIPT}</script>`,
    view,
  );
}

export function renderUnknownProviderPage(providerName: string, view: ConnectPageView): string {
  const t = translator(view.lang);
  const unknown = escapeHtml(t('connect.unknown.text', { provider: '\u0000' }));
  return layout(
    escapeHtml(t('connect.unknown.title')),
    `
<main>
<div class="card">
  ${brandLine(view.branding, '')}
  <h1>${escapeHtml(t('connect.unknown.title'))}</h1>
  <p>${unknown.replace('\u0000', `<strong>${escapeHtml(providerName)}</strong>`)}</p>
  <p class="meta">${escapeHtml(t('connect.unknown.hint'))}</p>
</div>
</main>`,
    view,
  );
}

/** `title` and `body` must already be escaped HTML. */
function layout(title: string, body: string, view: ConnectPageView): string {
  const service = escapeHtml(view.branding.service_name ?? DEFAULT_SERVICE_NAME);
  return htmlPage(`${title} · ${service}`, CONNECT_PAGE_STYLE, body, htmlAttributes(view.lang, view.branding));
}
