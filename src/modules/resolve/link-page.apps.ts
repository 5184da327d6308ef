// The "add to app" table of the link page: each client app's deep link, its platforms and the link form it reads best.
// Schemes and placeholders follow each app's URL-scheme documentation; store and download pages are the apps' official
// ones (Google Play ids, App Store ids, the projects' GitHub releases, their own sites).

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
  /** Where to get the app on each of its platforms, best first. */
  get: Partial<Record<Platform, readonly Download[]>>;
  /** Sold, not free, on the App Store. */
  paid?: boolean;
}

/** A store page, a project's GitHub releases, or its official site. */
export interface Download {
  kind: 'play' | 'appstore' | 'github' | 'site';
  url: string;
}

const play = (id: string): Download => ({ kind: 'play', url: `https://play.google.com/store/apps/details?id=${id}` });
const appStore = (id: string): Download => ({ kind: 'appstore', url: `https://apps.apple.com/app/id${id}` });
const github = (repo: string): Download => ({ kind: 'github', url: `https://github.com/${repo}/releases` });
const site = (url: string): Download => ({ kind: 'site', url });

/** The same downloads on every platform listed. */
const on = (platforms: readonly Platform[], downloads: readonly Download[]) =>
  Object.fromEntries(platforms.map((platform) => [platform, downloads])) as Partial<Record<Platform, Download[]>>;

export const CLIENT_APPS: readonly ClientApp[] = [
  {
    name: 'Happ',
    platforms: ['android', 'ios', 'windows', 'macos', 'linux'],
    reads: 'plain',
    template: 'happ://add/{raw}',
    get: {
      android: [play('com.happproxy')],
      ios: [appStore('6504287215')],
      macos: [appStore('6504287215')],
      windows: [github('Happ-proxy/happ-desktop')],
      linux: [github('Happ-proxy/happ-desktop')],
    },
  },
  {
    name: 'Hiddify',
    platforms: ['android', 'ios', 'windows', 'macos', 'linux'],
    reads: 'plain',
    template: 'hiddify://import/{raw}#{n}',
    get: {
      android: [play('app.hiddify.com'), github('hiddify/hiddify-app')],
      ios: [appStore('6596777532')],
      ...on(['windows', 'macos', 'linux'], [github('hiddify/hiddify-app')]),
    },
  },
  {
    name: 'v2rayNG',
    platforms: ['android'],
    reads: 'plain',
    template: 'v2rayng://install-config?url={u}#{n}',
    get: { android: [play('com.v2ray.ang'), github('2dust/v2rayNG')] },
  },
  {
    name: 'Streisand',
    platforms: ['ios', 'macos'],
    reads: 'plain',
    template: 'streisand://import/{raw}',
    get: on(['ios', 'macos'], [appStore('6450534064')]),
  },
  {
    name: 'Shadowrocket',
    platforms: ['ios', 'macos'],
    reads: 'plain',
    template: 'sub://{b64}',
    get: on(['ios', 'macos'], [appStore('932747118')]),
    paid: true,
  },
  {
    name: 'sing-box',
    platforms: ['android', 'ios', 'macos'],
    reads: 'sing-box',
    template: 'sing-box://import-remote-profile?url={u}#{n}',
    get: {
      android: [play('io.nekohasekai.sfa'), github('SagerNet/sing-box')],
      ...on(['ios', 'macos'], [appStore('6673731168'), site('https://sing-box.sagernet.org/clients/')]),
    },
  },
  {
    name: 'Clash Verge Rev',
    platforms: ['windows', 'macos', 'linux'],
    reads: 'mihomo',
    template: 'clash://install-config?name={n}&url={u}',
    get: on(['windows', 'macos', 'linux'], [github('clash-verge-rev/clash-verge-rev')]),
  },
  {
    name: 'FlClash',
    platforms: ['android', 'windows', 'macos', 'linux'],
    reads: 'mihomo',
    template: 'flclash://install-config?url={u}',
    get: on(['android', 'windows', 'macos', 'linux'], [github('chen08209/FlClash')]),
  },
  {
    name: 'Clash Meta for Android',
    platforms: ['android'],
    reads: 'mihomo',
    template: 'clashmeta://install-config?name={n}&url={u}',
    get: { android: [github('MetaCubeX/ClashMetaForAndroid')] },
  },
  {
    name: 'Mihomo Party',
    platforms: ['windows', 'macos', 'linux'],
    reads: 'mihomo',
    template: 'mihomo://install-config?name={n}&url={u}',
    get: on(['windows', 'macos', 'linux'], [github('mihomo-party-org/mihomo-party')]),
  },
  {
    name: 'Stash',
    platforms: ['ios', 'macos'],
    reads: 'mihomo',
    template: 'stash://install-config?url={u}',
    get: on(['ios', 'macos'], [appStore('1596063349'), site('https://stash.ws/')]),
    paid: true,
  },
  {
    name: 'Karing',
    platforms: ['android', 'ios', 'windows', 'macos', 'linux'],
    reads: 'sing-box',
    template: 'karing://install-config?name={n}&url={u}',
    get: {
      ios: [appStore('6472431552')],
      ...on(['android', 'windows', 'macos', 'linux'], [github('KaringX/karing')]),
    },
  },
  {
    name: 'NekoBox',
    platforms: ['android'],
    reads: 'plain',
    template: 'sn://subscription?name={n}&url={u}',
    get: { android: [github('MatsuriDayo/NekoBoxForAndroid')] },
  },
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

/** The visitor's platform from a User-Agent header; iPads that claim to be a Mac read as macOS here (the script knows better). */
export function platformOf(userAgent: string | undefined): Platform | null {
  if (!userAgent) return null;
  if (/Android/i.test(userAgent)) return 'android';
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (/Windows/.test(userAgent)) return 'windows';
  if (/Macintosh/.test(userAgent)) return 'macos';
  if (/Linux|X11|CrOS/.test(userAgent)) return 'linux';
  return null;
}

/** Phones and tablets get the app buttons before the QR code. */
export const isHandheld = (platform: Platform | null): boolean => platform === 'android' || platform === 'ios';
