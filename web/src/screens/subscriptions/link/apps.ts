// The apps "What each app receives" can pretend to be: each with the User-Agent it sends when it fetches a subscription
// (as the apps' own sources send it; the rules that match them are in docs/api.md, "Which format a request gets"), so the
// preview runs the format rules as for it.

export interface PreviewApp {
  id: string;
  name: string;
  userAgent: string;
  /** A browser sends `Accept: text/html` and gets the page. */
  accept?: string;
  /** Shown in the user's language instead of `name` (a key of the link catalog). */
  labelKey?: string;
}

export const PREVIEW_APPS: readonly PreviewApp[] = [
  { id: 'hiddify', name: 'Hiddify', userAgent: 'HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box' },
  { id: 'v2rayng', name: 'v2rayNG', userAgent: 'v2rayNG/1.10.7' },
  { id: 'v2rayn', name: 'v2rayN', userAgent: 'v2rayN/7.13.2' },
  { id: 'happ', name: 'Happ', userAgent: 'Happ/3.7.0' },
  { id: 'streisand', name: 'Streisand', userAgent: 'Streisand/1.6.48' },
  { id: 'shadowrocket', name: 'Shadowrocket', userAgent: 'Shadowrocket/2070 CFNetwork/1568.100.1 Darwin/24.0.0' },
  { id: 'clash-verge', name: 'Clash Verge Rev', userAgent: 'clash-verge/v2.3.1' },
  { id: 'flclash', name: 'FlClash', userAgent: 'FlClash/v0.8.87 clash-verge Platform/android' },
  { id: 'stash', name: 'Stash', userAgent: 'Stash/3.1.1 Clash/1.9.0' },
  { id: 'sfa', name: 'sing-box (SFA)', userAgent: 'SFA/1.12.4 (587; sing-box 1.12.4; language en_US)' },
  { id: 'sfi-old', name: 'sing-box 1.11 (SFI)', userAgent: 'SFI/1.11.4 (1; sing-box 1.11.4; language en_US)' },
  { id: 'karing', name: 'Karing', userAgent: 'karing/1.1.6.845 android' },
  { id: 'clash-windows', name: 'Clash for Windows', userAgent: 'ClashforWindows/0.20.39' },
  {
    id: 'browser',
    name: 'Browser',
    labelKey: 'preview.browser',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    accept: 'text/html',
  },
];
