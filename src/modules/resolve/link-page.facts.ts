// The facts block of the link page (servers, last change, traffic, expiry), with byte and date formatting for people.
import { escapeHtml } from '../connect/html.js';
import type { Translate } from '../../i18n/i18n.js';

/** The numbers of a `subscription-userinfo` header: bytes, and unix seconds for `expire`; 0 means unlimited. */
export interface LinkUsage {
  upload: number;
  download: number;
  total: number;
  expire: number;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** 1536 -> "1.5 KiB": one decimal below 100 of a unit, none above. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  return `${value < 100 ? (Math.round(value * 10) / 10).toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

/** "2025-01-02 13:45 UTC" for an ISO time (the script shows it in the visitor's time zone), or null. */
function utcMinutes(iso: string): { iso: string; text: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const full = date.toISOString();
  return { iso: full, text: `${full.slice(0, 10)} ${full.slice(11, 16)} UTC` };
}

export interface FactsModel {
  servers: number;
  updatedAt: string;
  usage?: LinkUsage | null | undefined;
}

/** A non-negative whole number; anything else reads as 0 (unknown or unlimited). */
const count = (value: number): number => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/** Whether the userinfo says the subscription stopped working: its expiry passed, or its traffic quota is used up. */
export function usageState(usage: LinkUsage | null | undefined, nowMs: number): 'expired' | 'quota' | null {
  if (!usage) return null;
  const expire = count(usage.expire);
  if (expire > 0 && expire * 1000 <= nowMs) return 'expired';
  const total = count(usage.total);
  if (total > 0 && count(usage.upload) + count(usage.download) >= total) return 'quota';
  return null;
}

export function renderFacts({ servers, updatedAt, usage }: FactsModel, t: Translate): string {
  const facts = [fact(t('facts.servers'), String(servers), 'servers')];
  const changed = utcMinutes(updatedAt);
  facts.push(
    fact(
      t('facts.updated'),
      changed
        ? `<time id="updated" datetime="${changed.iso}" data-local="time">${changed.text}</time>`
        : escapeHtml(updatedAt),
      'updated',
    ),
  );
  if (usage) {
    facts.push(
      traffic(count(usage.upload), count(usage.download), count(usage.total), t),
      expiry(count(usage.expire), t),
    );
  }
  return `<dl class="facts">${facts.join('')}</dl>`;
}

/** `term` is plain text, `html` markup. */
function fact(term: string, html: string, id: string): string {
  return `<div id="fact-${id}"><dt>${escapeHtml(term)}</dt><dd>${html}</dd></div>`;
}

/** A byte count isolated from the text around it, so a right-to-left sentence keeps "20.0 GiB" in one piece. */
const isolated = (bytes: number) => `\u2068${formatBytes(bytes)}\u2069`;

function traffic(upload: number, download: number, total: number, t: Translate): string {
  const used = upload + download;
  const split = `<small dir="ltr">↑ ${formatBytes(upload)} · ↓ ${formatBytes(download)}</small>`;
  const term = t('facts.traffic');
  if (total === 0) {
    const text = escapeHtml(t('facts.used', { used: isolated(used) }));
    return fact(term, `${text}<small>${escapeHtml(t('facts.unlimited'))}</small>${split}`, 'traffic');
  }
  const meter = `<meter min="0" max="${total}" value="${Math.min(used, total)}" low="${total * 0.8}" high="${total * 0.95}" optimum="0" aria-label="${escapeHtml(term)}"></meter>`;
  const text = escapeHtml(t('facts.used_of', { used: isolated(used), total: isolated(total) }));
  return fact(term, `${text}${meter}${split}`, 'traffic');
}

function expiry(expire: number, t: Translate): string {
  const date = new Date(expire * 1000);
  if (expire === 0 || Number.isNaN(date.getTime()))
    return fact(t('facts.expires'), escapeHtml(t('facts.never')), 'expire');
  const iso = date.toISOString();
  return fact(
    t('facts.expires'),
    `<time id="expire" datetime="${iso}" data-local="date">${iso.slice(0, 10)}</time><small id="expire-note"></small>`,
    'expire',
  );
}
