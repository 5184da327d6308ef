// Server-side HTML of the connect page and its "unknown provider" variant; every dynamic value passes through escapeHtml.
import { escapeHtml, htmlPage, linkableUrl, pageCsp } from './html.js';
import { CONNECT_PAGE_SCRIPT } from './connect-page.script.js';
import { CONNECT_PAGE_STYLE } from './connect-page.style.js';

/** Only the hashed inline style and script may run; the script may talk to this origin alone; nothing may frame the page. */
export const CONNECT_PAGE_CSP = pageCsp(CONNECT_PAGE_STYLE, CONNECT_PAGE_SCRIPT, ["connect-src 'self'"]);

export interface ConnectPageModel {
  providerName: string;
  providerUrl: string | null;
  /** The user id a custom CONNECTION_LINK_TEMPLATE put in the link, when it is a plausible id. */
  userId: string | null;
}

export function renderConnectPage({ providerName, providerUrl, userId }: ConnectPageModel): string {
  const name = escapeHtml(providerName);
  const url = linkableUrl(providerUrl);
  const website = url
    ? `<p class="meta">Website: <a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(url)}</a></p>`
    : '';
  const forUser = userId
    ? `<p class="meta">This link was made for user ID <strong>${escapeHtml(userId)}</strong>.</p>`
    : '';
  return layout(
    `Connect ${name}`,
    `
<main>
<div class="card" id="connect" data-provider="${name}" data-user-id="${escapeHtml(userId ?? '')}">
  <p class="brand">subweave</p>
  <h1>Connect <span class="name" id="provider-name">${name}</span>?</h1>
  <p><strong>${name}</strong> asks to manage proxy subscriptions on your behalf.</p>
  ${website}${forUser}
  <ul class="facts">
    <li>If you approve, ${name} can create and change subscriptions in your account.</li>
    <li>Subscriptions it creates stay yours, and keep working if you revoke access later.</li>
    <li>Opening this page changes nothing: only your API token can approve.</li>
  </ul>
  <form id="token-form" novalidate>
    <label for="token">Your API token</label>
    <div class="row">
      <input id="token" type="password" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="Paste your token">
      <button id="check" type="submit">Check</button>
    </div>
    <p class="hint">The token is sent only to this server, in a request header, and is forgotten when you leave the page.
      <button id="forget" class="link" type="button">Forget it now</button></p>
  </form>
  <section id="state" aria-live="polite" hidden>
    <p>Status: <span id="state-badge" class="badge"></span></p>
    <p id="state-text"></p>
    <div class="actions">
      <button id="approve" class="primary" type="button" hidden>Approve</button>
      <button id="reject" type="button" hidden>Reject</button>
      <button id="revoke" class="danger" type="button" hidden>Revoke access</button>
    </div>
  </section>
  <p id="notice" role="status" aria-live="polite" hidden></p>
  <noscript><p class="meta">This page needs JavaScript to talk to the server. Without it, call
    <code>POST /api/v1/me/providers/${name}/approve</code> (or <code>/reject</code>) with your <code>API-Token</code> header.</p></noscript>
</div>
</main>
<script>${CONNECT_PAGE_SCRIPT}</script>`,
  );
}

export function renderUnknownProviderPage(providerName: string): string {
  const name = escapeHtml(providerName);
  return layout(
    'Unknown provider',
    `
<main>
<div class="card">
  <p class="brand">subweave</p>
  <h1>Unknown provider</h1>
  <p>There is no provider named <strong>${name}</strong> on this server.</p>
  <p class="meta">Check the link you were given, or ask the provider for a new one.</p>
</div>
</main>`,
  );
}

/** `title` and `body` must already be escaped HTML. */
function layout(title: string, body: string): string {
  return htmlPage(`${title} · subweave`, CONNECT_PAGE_STYLE, body);
}
