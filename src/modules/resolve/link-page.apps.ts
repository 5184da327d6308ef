// The "add to app" table of the link page: each client app's deep link, its platforms and the link form it reads best.
// Schemes and placeholders follow research/client-formats.md section 6.

export const PLATFORMS = [
  { id: 'android', label: 'Android' },
  { id: 'ios', label: 'iOS' },
  { id: 'windows', label: 'Windows' },
  { id: 'macos', label: 'macOS' },
  { id: 'linux', label: 'Linux' },
] as const;
export type Platform = (typeof PLATFORMS)[number]['id'];

/**
 * Which link a deep link carries: mihomo and sing-box apps get the path form of their native format, so they get it
 * even when their User-Agent matches no format rule; the others get the plain link (base64).
 */
export type LinkForm = 'plain' | 'mihomo' | 'sing-box';

export interface ClientApp {
  name: string;
  platforms: readonly Platform[];
  reads: LinkForm;
  /**
   * `{u}` the link percent-encoded, `{raw}` the link as is, `{b64}` the link in standard base64, `{n}` the
   * subscription name percent-encoded. Where both a name and `url=` appear, `url=` comes last: Clash Verge Rev takes
   * everything after `url=` as the URL, and the other parsers do not mind the order.
   */
  template: string;
}

export const CLIENT_APPS: readonly ClientApp[] = [
  {
    name: 'Happ',
    platforms: ['android', 'ios', 'windows', 'macos', 'linux'],
    reads: 'plain',
    template: 'happ://add/{raw}',
  },
  {
    name: 'Hiddify',
    platforms: ['android', 'ios', 'windows', 'macos', 'linux'],
    reads: 'plain',
    template: 'hiddify://import/{raw}#{n}',
  },
  { name: 'v2rayNG', platforms: ['android'], reads: 'plain', template: 'v2rayng://install-config?url={u}#{n}' },
  { name: 'Streisand', platforms: ['ios', 'macos'], reads: 'plain', template: 'streisand://import/{raw}' },
  { name: 'Shadowrocket', platforms: ['ios', 'macos'], reads: 'plain', template: 'sub://{b64}' },
  {
    name: 'sing-box',
    platforms: ['android', 'ios', 'macos'],
    reads: 'sing-box',
    template: 'sing-box://import-remote-profile?url={u}#{n}',
  },
  {
    name: 'Clash Verge Rev',
    platforms: ['windows', 'macos', 'linux'],
    reads: 'mihomo',
    template: 'clash://install-config?name={n}&url={u}',
  },
  {
    name: 'FlClash',
    platforms: ['android', 'windows', 'macos', 'linux'],
    reads: 'mihomo',
    template: 'flclash://install-config?url={u}',
  },
  {
    name: 'Clash Meta for Android',
    platforms: ['android'],
    reads: 'mihomo',
    template: 'clashmeta://install-config?name={n}&url={u}',
  },
  {
    name: 'Mihomo Party',
    platforms: ['windows', 'macos', 'linux'],
    reads: 'mihomo',
    template: 'mihomo://install-config?name={n}&url={u}',
  },
  { name: 'Stash', platforms: ['ios', 'macos'], reads: 'mihomo', template: 'stash://install-config?url={u}' },
  {
    name: 'Karing',
    platforms: ['android', 'ios', 'windows', 'macos', 'linux'],
    reads: 'sing-box',
    template: 'karing://install-config?name={n}&url={u}',
  },
  { name: 'NekoBox', platforms: ['android'], reads: 'plain', template: 'sn://subscription?name={n}&url={u}' },
];

/** The link an app reads: the plain link, or its path form for a native format. */
export function linkFor(plainUrl: string, form: LinkForm): string {
  return form === 'plain' ? plainUrl : `${plainUrl}/${form}`;
}

/** The deep link that adds `url` under `name` to the app. */
export function deepLink(app: ClientApp, url: string, name: string): string {
  const values: Record<string, string> = {
    u: encodeURIComponent(url),
    raw: url,
    b64: Buffer.from(url, 'utf8').toString('base64'),
    n: encodeURIComponent(name),
  };
  return app.template.replace(/\{(u|raw|b64|n)\}/g, (_, key: string) => values[key]!);
}
