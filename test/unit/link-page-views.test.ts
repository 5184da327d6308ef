// The link page drawn for a visitor: language and direction, phone order, store links and install steps, banners, branding.
import { describe, expect, it } from 'vitest';
import { NO_BRANDING, type Branding } from '../../src/modules/branding/branding.js';
import { CLIENT_APPS, PLATFORMS, platformOf } from '../../src/modules/resolve/link-page.apps.js';
import {
  DEFAULT_VIEW,
  linkPageView,
  renderLinkNotFoundPage,
  renderLinkPage,
  viewKey,
  type LinkPageModel,
  type LinkPageView,
} from '../../src/modules/resolve/link-page.js';
import { textOn } from '../../src/modules/connect/page-chrome.js';

const URL_ = 'https://subs.example.com/sub/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36';

const model = (overrides: Partial<LinkPageModel> = {}): LinkPageModel => ({
  name: 'Home',
  description: null,
  servers: 2,
  updatedAt: '2025-03-04T05:06:07.890Z',
  url: URL_,
  ...overrides,
});
const view = (overrides: Partial<LinkPageView> = {}): LinkPageView => ({ ...DEFAULT_VIEW, ...overrides });
const before = (html: string, first: string, second: string) => html.indexOf(first) < html.indexOf(second);

describe('link page views', () => {
  it('reads the view of a request: ?lang=, cookie, Accept-Language, and the platform from the User-Agent', () => {
    const headers = { 'accept-language': 'ru-RU,ru;q=0.9', 'user-agent': ANDROID };
    expect(linkPageView({ headers }, NO_BRANDING)).toEqual({ lang: 'ru', platform: 'android', branding: NO_BRANDING });
    expect(linkPageView({ headers: { ...headers, cookie: 'subweave_lang=zh' } }, NO_BRANDING).lang).toBe('zh');
    expect(linkPageView({ headers, lang: 'fa' }, NO_BRANDING).lang).toBe('fa');
    expect(viewKey(linkPageView({ headers }, NO_BRANDING))).toBe('ru:android');
    expect([ANDROID, IPHONE, WINDOWS, 'curl/8'].map(platformOf)).toEqual(['android', 'ios', 'windows', null]);
  });

  it('puts the app buttons before the QR code on phones, and the QR code first elsewhere', () => {
    for (const platform of ['android', 'ios'] as const) {
      const html = renderLinkPage(model(), view({ platform }));
      expect(before(html, 'id="apps-card"', 'id="qr"'), platform).toBe(true);
      expect(html).toContain(`<details data-platform="${platform}" open>`);
      expect(before(html, `data-platform="${platform}" open`, '<details data-platform="')).toBe(false);
    }
    for (const platform of ['windows', null] as const) {
      const html = renderLinkPage(model(), view({ platform }));
      expect(before(html, 'id="qr"', 'id="apps-card"'), String(platform)).toBe(true);
    }
    expect(renderLinkPage(model(), view())).not.toContain(' open>');
  });

  it('gives every app on every platform a store or download link and its install steps', () => {
    const html = renderLinkPage(model(), view({ platform: 'android' }));
    for (const { id } of PLATFORMS) {
      const section = html.slice(html.indexOf(`<details data-platform="${id}"`));
      const own = section.slice(0, section.indexOf('</details>'));
      for (const app of CLIENT_APPS.filter((a) => a.platforms.includes(id))) {
        const downloads = app.get[id] ?? [];
        expect(downloads.length, `${app.name} on ${id}`).toBeGreaterThan(0);
        const entry = own.slice(own.indexOf(`data-app="${app.name}"`));
        const item = entry.slice(0, entry.indexOf('</li>'));
        for (const download of downloads) {
          expect(download.url).toMatch(/^https:\/\/(play\.google\.com|apps\.apple\.com|github\.com|[a-z.-]+)\//);
          expect(item, `${app.name} on ${id}`).toContain(`href="${download.url}"`);
        }
        expect(item).toMatch(/<p class="steps">[^<]+ Then come back here and tap “Add to /);
      }
    }
    expect(html).toContain(
      '<a href="https://play.google.com/store/apps/details?id=com.v2ray.ang" rel="noopener noreferrer" target="_blank" data-store="play">Google Play</a>',
    );
    expect(html).toContain('Install v2rayNG from Google Play.');
  });

  it('speaks Persian right to left, Russian and Chinese left to right, and keeps the link itself left to right', () => {
    const fa = renderLinkPage(model(), view({ lang: 'fa' }));
    expect(fa).toContain('<html lang="fa" dir="rtl">');
    expect(fa).toContain('<h2 id="link-title">لینک اشتراک</h2>');
    expect(fa).toContain(`<input id="link" type="text" readonly dir="ltr" value="${URL_}"`);
    expect(renderLinkPage(model(), view({ lang: 'ru' }))).toContain('<html lang="ru" dir="ltr">');
    const zh = renderLinkPage(model(), view({ lang: 'zh' }));
    expect(zh).toContain('<html lang="zh-Hans" dir="ltr">');
    expect(zh).toContain('<dt>节点</dt><dd>2</dd>');
    expect(renderLinkNotFoundPage(view({ lang: 'ru' }))).toContain('<h1>Подписка не найдена</h1>');
  });

  it('links every language from the switcher and marks the current one', () => {
    const html = renderLinkPage(model(), view({ lang: 'zh' }));
    const nav = html.slice(html.indexOf('<nav class="langs"'), html.indexOf('</nav>'));
    expect(nav).toContain('aria-label="语言"');
    expect(nav).toContain('<a href="?lang=en" lang="en" hreflang="en">English</a>');
    expect(nav).toContain('<a href="?lang=fa" lang="fa" hreflang="fa">فارسی</a>');
    expect(nav).toContain('<a href="?lang=zh" lang="zh-Hans" hreflang="zh-Hans" aria-current="true">简体中文</a>');
  });

  it('banners an expired subscription and a used-up quota, with the support link, or the branding one as fallback', () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const branding: Branding = { ...NO_BRANDING, support_url: 'https://help.example.com/' };
    const expired = renderLinkPage(
      model({ usage: { upload: 0, download: 0, total: 0, expire: past } }),
      view({ branding }),
    );
    expect(expired).toMatch(/<div class="banner" id="banner" role="alert" data-state="expired">/);
    expect(expired).toContain('<a class="banner-link" href="https://help.example.com/"');
    expect(expired).toContain('<a id="support" href="https://help.example.com/"');
    const own = renderLinkPage(
      model({ usage: { upload: 5, download: 5, total: 10, expire: 0 }, supportUrl: 'https://own.example.com/' }),
      view({ branding, lang: 'fa' }),
    );
    expect(own).toMatch(/data-state="quota">\s*<p class="banner-title">حجم اشتراک تمام شده است<\/p>/);
    expect(own).toContain('<a class="banner-link" href="https://own.example.com/"');
    expect(own).not.toContain('help.example.com');
  });

  it('shows the branding: name, logo only as an image, accent colour for the script; defaults without it', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const logo = `data:image/svg+xml;base64,${svg.toString('base64')}`;
    const branding: Branding = { service_name: 'North & Co', logo, accent_color: '#ffcc00', support_url: null };
    const html = renderLinkPage(model(), view({ branding }));
    expect(html).toContain('<span id="brand-name">North &amp; Co</span>');
    expect(html).toContain(`<img id="brand-logo" class="logo" src="${logo}" alt="" width="28" height="28">`);
    expect(html).not.toContain('alert(1)');
    expect(html).toContain('<html lang="en" dir="ltr" data-accent="#ffcc00" data-accent-text="#0b1020">');
    expect(html).toContain('<title>Home · North &amp; Co</title>');
    expect(html).toContain('Served by North &amp; Co.');
    const plain = renderLinkPage(model(), view());
    expect(plain).toContain('<span id="brand-name">subweave</span>');
    expect(plain).not.toContain('<img');
    expect(plain).not.toContain('data-accent="');
  });

  it('picks the more readable text colour on an accent', () => {
    expect(['#000000', '#2457d6', '#0a7d5a', '#ffffff', '#ffcc00', '#7aa2ff'].map(textOn)).toEqual([
      '#ffffff',
      '#ffffff',
      '#ffffff',
      '#0b1020',
      '#0b1020',
      '#0b1020',
    ]);
  });
});
