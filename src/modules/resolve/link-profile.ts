// The profile headers client apps read from a link (title, update interval, support and web page, announce, usage), from the subscription's settings.
import { formatUserinfo, type Userinfo } from '../../shared/userinfo.js';
import type { UserinfoMode } from '../subscriptions/link-settings.js';
import type { ServedSubscription } from './resolve.store.js';

/**
 * The usage a link shows, by mode: `carried` holds the userinfo of the external sources that carried one, in
 * resolution order. Null when there is none to show.
 */
export function linkUsage(mode: UserinfoMode, fixed: Userinfo, carried: readonly Userinfo[]): Userinfo | null {
  switch (mode) {
    case 'none':
      return null;
    case 'fixed':
      return fixed;
    case 'first':
      return carried[0] ?? null;
    case 'sum':
      return carried.length === 0 ? null : sum(carried);
  }
}

/** Upload, download and total added (any unlimited total makes the sum unlimited); the earliest non-zero expire. */
function sum(carried: readonly Userinfo[]): Userinfo {
  const capped = (n: number) => Math.min(n, Number.MAX_SAFE_INTEGER);
  const expires = carried.map((u) => u.expire).filter((expire) => expire > 0);
  return {
    upload: capped(carried.reduce((total, u) => total + u.upload, 0)),
    download: capped(carried.reduce((total, u) => total + u.download, 0)),
    total: carried.some((u) => u.total === 0) ? 0 : capped(carried.reduce((total, u) => total + u.total, 0)),
    expire: expires.length === 0 ? 0 : Math.min(...expires),
  };
}

export function profileHeaders(subscription: ServedSubscription, usage: Userinfo | null): Record<string, string> {
  const { name, description, updateIntervalHours, supportUrl, webPageUrl, announce } = subscription;
  const headers: Record<string, string> = {
    'profile-title': `base64:${Buffer.from(description || name, 'utf8').toString('base64')}`,
    'profile-update-interval': String(updateIntervalHours),
  };
  if (supportUrl) headers['support-url'] = asciiUrl(supportUrl);
  if (webPageUrl) headers['profile-web-page-url'] = asciiUrl(webPageUrl);
  if (announce) headers['announce'] = headerText(announce);
  if (usage) headers['subscription-userinfo'] = formatUserinfo(usage);
  return headers;
}

/** Printable ASCII as it is; anything else as `base64:` + base64 of its UTF-8, the form Happ and Hiddify decode. */
export function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `base64:${Buffer.from(text, 'utf8').toString('base64')}`;
}

/** A header value carries no characters above ASCII: such URLs go out in their punycode and percent-encoded form. */
function asciiUrl(url: string): string {
  return /^[\x21-\x7e]*$/.test(url) ? url : new URL(url).href;
}
