// `link` and `links` on every Subscription object (docs/api.md "Links in answers"): built from PUBLIC_BASE_URL, in both
// scopes and every answer that carries a Subscription, and each link serves its format when fetched.
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { describeEachDatabase, TEST_BASE_URL, useTestApp, type TestApp } from '../support/harness.js';
import { approvedPair, ssUri, trojanUri } from '../support/factories.js';
import { expectStatus } from '../support/expect.js';

interface Links {
  base64: string;
  mihomo: string;
  'sing-box': string;
  xray: string;
  sip008: string;
  page: string;
}
interface Subscription {
  token: string;
  link: string;
  links: Links;
}

const expectedLinks = (token: string) => {
  const link = `${TEST_BASE_URL}/sub/${token}`;
  return {
    link,
    links: {
      base64: `${link}/base64`,
      mihomo: `${link}/mihomo`,
      'sing-box': `${link}/sing-box`,
      xray: `${link}/xray`,
      sip008: `${link}/sip008`,
      page: link,
    },
  };
};

/** GET of a link as a client app would send it: the path of the absolute URL, with the client's own headers. */
function fetchLink(t: TestApp, url: string, headers: Record<string, string> = {}) {
  expect(url.startsWith(`${TEST_BASE_URL}/`)).toBe(true);
  return t.call('GET', url.slice(TEST_BASE_URL.length), { headers });
}

describeEachDatabase('links in answers', (kind) => {
  const t = useTestApp(kind);

  it('puts link and links on create, get, list, PATCH and source writes (user scope)', async () => {
    const user = await t.newUser();
    const created = expectStatus(
      await t.call('POST', '/api/v1/subs', { token: user.token, body: { name: 'links', sources: [trojanUri()] } }),
      201,
    ).json<Subscription>();
    expect(created).toMatchObject(expectedLinks(created.token));
    const url = `/api/v1/subs/${created.token}`;
    const answers = [
      await t.call('GET', url, { token: user.token }),
      await t.call('PATCH', url, { token: user.token, body: { name: 'renamed' } }),
      await t.call('POST', `${url}/sources`, { token: user.token, body: { sources: [ssUri()] } }),
      await t.call('PUT', `${url}/sources`, { token: user.token, body: { sources: [trojanUri()] } }),
      await t.call('PUT', `${url}/transforms`, { token: user.token, body: { transforms: [] } }),
    ];
    for (const answer of answers) expect(expectStatus(answer, 200).json()).toMatchObject(expectedLinks(created.token));
    const list = expectStatus(await t.call('GET', '/api/v1/subs', { token: user.token }), 200).json<Subscription[]>();
    expect(list).toEqual([expect.objectContaining(expectedLinks(created.token))]);
  });

  it('builds them from the new token after a rotation', async () => {
    const user = await t.newUser();
    const created = expectStatus(
      await t.call('POST', '/api/v1/subs', { token: user.token, body: { name: 'rotated', sources: [trojanUri()] } }),
      201,
    ).json<Subscription>();
    const url = `/api/v1/subs/${created.token}`;
    const rotated = expectStatus(
      await t.call('POST', `${url}/rotate`, { token: user.token }),
      200,
    ).json<Subscription>();
    expect(rotated.token).not.toBe(created.token);
    expect(rotated).toMatchObject(expectedLinks(rotated.token));
  });

  it('puts them on the provider scope too', async () => {
    const { provider, subs } = await approvedPair(t);
    const created = expectStatus(
      await t.call('POST', subs, { token: provider.token, body: { name: 'managed', sources: [trojanUri()] } }),
      201,
    ).json<Subscription>();
    expect(created).toMatchObject(expectedLinks(created.token));
    const got = expectStatus(await t.call('GET', `${subs}/${created.token}`, { token: provider.token }), 200);
    expect(got.json()).toMatchObject(expectedLinks(created.token));
    const list = expectStatus(await t.call('GET', subs, { token: provider.token }), 200).json<Subscription[]>();
    expect(list).toEqual([expect.objectContaining(expectedLinks(created.token))]);
  });

  it('serves each format at its link whatever User-Agent the client sends, and the page at links.page', async () => {
    const user = await t.newUser();
    const ss = ssUri();
    const trojan = trojanUri();
    const sub = expectStatus(
      await t.call('POST', '/api/v1/subs', { token: user.token, body: { name: 'formats', sources: [ss, trojan] } }),
      201,
    ).json<Subscription>();
    // A User-Agent that the built-in rules would send to mihomo: the path form wins over it.
    const ua = { 'user-agent': 'clash-verge/v2.0.0' };

    const base64 = expectStatus(await fetchLink(t, sub.links.base64, ua), 200);
    expect(base64.headers['subweave-format']).toBe('base64');
    expect(Buffer.from(base64.body, 'base64').toString('utf8').split('\n')).toHaveLength(2);

    const mihomo = expectStatus(await fetchLink(t, sub.links.mihomo, { 'user-agent': 'v2rayNG/1.9' }), 200);
    expect(mihomo.headers['subweave-format']).toBe('mihomo');
    expect(mihomo.headers['content-type']).toBe('text/yaml; charset=utf-8');
    expect((parseYaml(mihomo.body) as { proxies: unknown[] }).proxies).toHaveLength(2);

    const singBox = expectStatus(await fetchLink(t, sub.links['sing-box'], ua), 200);
    expect(singBox.headers['subweave-format']).toBe('sing-box');
    const outbounds = singBox.json<{ outbounds: Array<{ type: string }> }>().outbounds.map((o) => o.type);
    expect(outbounds).toEqual(expect.arrayContaining(['shadowsocks', 'trojan', 'selector']));

    const xray = expectStatus(await fetchLink(t, sub.links.xray, ua), 200);
    expect(xray.headers['subweave-format']).toBe('xray');
    expect(xray.json<unknown[]>()).toHaveLength(2);

    const sip008 = expectStatus(await fetchLink(t, sub.links.sip008, ua), 200);
    expect(sip008.headers['subweave-format']).toBe('sip008');
    expect(sip008.json<{ version: number; servers: unknown[] }>()).toMatchObject({ version: 1 });
    expect(sip008.json<{ servers: unknown[] }>().servers).toHaveLength(1);

    const page = expectStatus(await fetchLink(t, sub.links.page, { accept: 'text/html,application/xhtml+xml' }), 200);
    expect(page.headers['subweave-format']).toBe('page');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(sub.link);
    // Without a browser's Accept, the same URL is what client apps poll: the format rules choose.
    expect(expectStatus(await fetchLink(t, sub.link), 200).headers['subweave-format']).toBe('base64');
  });
});
