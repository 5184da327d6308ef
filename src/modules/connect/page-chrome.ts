// What the server-rendered pages share around their content: language and direction, the admin's branding, the language switcher.
import type { Branding } from '../branding/branding.js';
import { direction, HTML_LANG, LANGUAGE_COOKIE, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../i18n/i18n.js';
import { escapeHtml } from './html.js';

/** The name the pages show when the admin set none. */
export const DEFAULT_SERVICE_NAME = 'subweave';

/** The attributes of <html>: language, direction, and the accent colour the page script applies (the CSP allows no inline style). */
export function htmlAttributes(lang: Language, branding: Branding): string {
  const accent = branding.accent_color;
  const colours = accent ? ` data-accent="${accent}" data-accent-text="${textOn(accent)}"` : '';
  return `lang="${HTML_LANG[lang]}" dir="${direction(lang)}"${colours}`;
}

/** The service's name and logo above a page's title. The logo is only ever an <img> source: an SVG never runs. */
export function brandLine(branding: Branding, kind: string): string {
  const name = escapeHtml(branding.service_name ?? DEFAULT_SERVICE_NAME);
  const logo = branding.logo
    ? `<img id="brand-logo" class="logo" src="${escapeHtml(branding.logo)}" alt="" width="28" height="28">`
    : '';
  const suffix = kind ? ` <span class="kind">· ${escapeHtml(kind)}</span>` : '';
  return `<p class="brand">${logo}<span id="brand-name">${name}</span>${suffix}</p>`;
}

/**
 * Links to the same page in each language (`?lang=xx`, other query parameters kept); the page script remembers the
 * choice in a cookie, and works without any inline handler.
 */
export function languageSwitch(current: Language, label: string, query: Record<string, string> = {}): string {
  const links = LANGUAGES.map((lang) => {
    const href = `?${new URLSearchParams({ ...query, lang }).toString()}`;
    const currentMark = lang === current ? ' aria-current="true"' : '';
    return `<a href="${escapeHtml(href)}" lang="${HTML_LANG[lang]}" hreflang="${HTML_LANG[lang]}"${currentMark}>${LANGUAGE_NAMES[lang]}</a>`;
  });
  return `<nav class="langs" id="langs" aria-label="${escapeHtml(label)}">${links.join('')}</nav>`;
}

/** Page-script strings as a JSON data block: it is never executed, so the CSP needs no allowance for it. */
export function stringsBlock(strings: Record<string, string>): string {
  const json = JSON.stringify(strings).replace(/</g, '\\u003c');
  return `<script type="application/json" id="page-strings">${json}</script>`;
}

/**
 * Script text shared by the pages, placed first in each page's one script: applies the accent colour and, when the page was opened with `?lang=`, remembers
 * that language for a year.
 */
export const CHROME_SCRIPT = `
'use strict';
(function () {
  var root = document.documentElement;
  var accent = root.getAttribute('data-accent');
  if (accent) {
    root.style.setProperty('--brand', accent);
    root.style.setProperty('--brand-text', root.getAttribute('data-accent-text') || '#fff');
  }
  var chosen = /[?&]lang=(en|ru|zh|fa)(&|$)/.exec(location.search);
  if (chosen) {
    document.cookie = '${LANGUAGE_COOKIE}=' + chosen[1] + '; path=/; max-age=31536000; samesite=lax' +
      (location.protocol === 'https:' ? '; secure' : '');
  }
})();
`;

/** White or near-black text, whichever contrasts more with the accent (WCAG relative luminance). */
export function textOn(hex: string): string {
  const channel = (i: number) => {
    const value = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  const withWhite = 1.05 / (luminance + 0.05);
  const withDark = (luminance + 0.05) / 0.0553; // #0b1020
  return withWhite >= withDark ? '#ffffff' : '#0b1020';
}
