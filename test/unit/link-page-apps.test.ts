// The "add to app" table: every deep link is a well-formed URL of its app's scheme that carries the right link.
import { describe, expect, it } from 'vitest';
import { CLIENT_APPS, deepLink, linkFor, PLATFORMS } from '../../src/modules/resolve/link-page.apps.js';

const URL_ = 'https://subs.example.com/sub/AbC-_123?x=1&y=2';
const NAME = 'Home & "work" é 😀';

const schemeOf = (template: string) => template.slice(0, template.indexOf(':'));

describe('link page apps', () => {
  it('lists every app on at least one platform', () => {
    expect(CLIENT_APPS.map((app) => app.name)).toEqual([
      'Happ',
      'Hiddify',
      'v2rayNG',
      'Streisand',
      'Shadowrocket',
      'sing-box',
      'Clash Verge Rev',
      'FlClash',
      'Clash Meta for Android',
      'Mihomo Party',
      'Stash',
      'Karing',
      'NekoBox',
    ]);
    const platforms = PLATFORMS.map((platform) => platform.id) as string[];
    for (const app of CLIENT_APPS) {
      expect(app.platforms.length, app.name).toBeGreaterThan(0);
      for (const platform of app.platforms) expect(platforms).toContain(platform);
    }
    for (const platform of platforms) {
      expect(CLIENT_APPS.filter((app) => (app.platforms as string[]).includes(platform)).length).toBeGreaterThan(2);
    }
  });

  it('points mihomo apps at /mihomo, sing-box apps at /sing-box and the others at the plain link', () => {
    const forms = Object.fromEntries(CLIENT_APPS.map((app) => [app.name, app.reads]));
    for (const name of ['Clash Verge Rev', 'FlClash', 'Clash Meta for Android', 'Mihomo Party', 'Stash']) {
      expect(forms[name], name).toBe('mihomo');
    }
    for (const name of ['sing-box', 'Karing']) expect(forms[name], name).toBe('sing-box');
    for (const name of ['Happ', 'Hiddify', 'v2rayNG', 'Streisand', 'Shadowrocket', 'NekoBox']) {
      expect(forms[name], name).toBe('plain');
    }
    expect(linkFor('https://h/sub/t', 'plain')).toBe('https://h/sub/t');
    expect(linkFor('https://h/sub/t', 'mihomo')).toBe('https://h/sub/t/mihomo');
    expect(linkFor('https://h/sub/t', 'sing-box')).toBe('https://h/sub/t/sing-box');
  });

  it.each(CLIENT_APPS.map((app) => [app.name, app] as const))('builds a well-formed deep link for %s', (_, app) => {
    const target = linkFor(URL_, app.reads);
    const link = deepLink(app, target, NAME);
    const parsed = new URL(link);
    expect(parsed.protocol).toBe(`${schemeOf(app.template)}:`);
    expect(link).not.toMatch(/[{}\s"<>]/);
    expect(link).not.toMatch(/[^\x21-\x7e]/);

    if (app.template.includes('{u}')) {
      // The query carries the link percent-encoded, so its own ? and & cannot leak into the deep link's query.
      expect(link).toContain(`url=${encodeURIComponent(target)}`);
      expect(link).not.toContain(target);
      expect(parsed.searchParams.get('url')).toBe(target);
      if (app.template.includes('name=')) {
        expect(parsed.searchParams.get('name')).toBe(NAME);
        expect(link.endsWith(`url=${encodeURIComponent(target)}`), 'url= comes last').toBe(true);
      }
    }
    if (app.template.includes('{raw}')) expect(link).toContain(target);
    if (app.template.includes('{b64}')) {
      expect(Buffer.from(link.slice('sub://'.length), 'base64').toString('utf8')).toBe(target);
    }
    if (app.template.includes('#{n}')) expect(decodeURIComponent(parsed.hash.slice(1))).toBe(NAME);
  });

  it('gives the exact deep-link form of each app', () => {
    const plain = 'https://s.example/sub/T';
    const byName = (name: string) =>
      deepLink(
        CLIENT_APPS.find((app) => app.name === name)!,
        plain,
        'N 1',
      );
    expect(byName('Happ')).toBe('happ://add/https://s.example/sub/T');
    expect(byName('Hiddify')).toBe('hiddify://import/https://s.example/sub/T#N%201');
    expect(byName('v2rayNG')).toBe('v2rayng://install-config?url=https%3A%2F%2Fs.example%2Fsub%2FT#N%201');
    expect(byName('Streisand')).toBe('streisand://import/https://s.example/sub/T');
    expect(byName('Shadowrocket')).toBe(`sub://${Buffer.from(plain).toString('base64')}`);
    expect(byName('sing-box')).toBe('sing-box://import-remote-profile?url=https%3A%2F%2Fs.example%2Fsub%2FT#N%201');
    expect(byName('Clash Verge Rev')).toBe('clash://install-config?name=N%201&url=https%3A%2F%2Fs.example%2Fsub%2FT');
    expect(byName('FlClash')).toBe('flclash://install-config?url=https%3A%2F%2Fs.example%2Fsub%2FT');
    expect(byName('Clash Meta for Android')).toBe(
      'clashmeta://install-config?name=N%201&url=https%3A%2F%2Fs.example%2Fsub%2FT',
    );
    expect(byName('Mihomo Party')).toBe('mihomo://install-config?name=N%201&url=https%3A%2F%2Fs.example%2Fsub%2FT');
    expect(byName('Stash')).toBe('stash://install-config?url=https%3A%2F%2Fs.example%2Fsub%2FT');
    expect(byName('Karing')).toBe('karing://install-config?name=N%201&url=https%3A%2F%2Fs.example%2Fsub%2FT');
    expect(byName('NekoBox')).toBe('sn://subscription?name=N%201&url=https%3A%2F%2Fs.example%2Fsub%2FT');
  });
});
