// docs/security.md (Strings): NUL, unpaired surrogates and control characters are refused with a 4xx on both databases, never a 500 and never stored.
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { trojanUri } from '../support/factories.js';
import { expectError } from '../support/expect.js';

const SUBS = '/api/v1/subs';
const LONE_HIGH = '\uD800';
const LONE_LOW = 'x\uDC00y';
const CONTROLS = ['\t', '\n', '\u0001', '\u001F', '\u007F', '\u0085', '\u009F'];

/** The issue paths of a 400 validation_failed answer. */
function issuePaths(res: Awaited<ReturnType<ReturnType<typeof useTestApp>['call']>>): string[] {
  const { details } = expectError(res, 400, 'validation_failed');
  return (details?.['issues'] as Array<{ path: string }>).map((issue) => issue.path);
}

describeEachDatabase('edge: hostile strings', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'strings-secret-of-at-least-32-characters' });
  let token: string;
  let subToken: string;
  let configId: string;
  beforeAll(async () => {
    ({ token } = await t.newUser());
    const created = await t.call('POST', SUBS, { token, body: { name: 'strings', sources: [trojanUri()] } });
    expect(created.statusCode, created.body).toBe(201);
    subToken = created.json<{ token: string }>().token;
    configId = created.json<{ sources: Array<{ id: string }> }>().sources[0]!.id;
  });

  it('refuses NUL and unpaired surrogates in any body string with 400 validation_failed', async () => {
    for (const bad of ['a\u0000b', LONE_HIGH, LONE_LOW]) {
      expect(issuePaths(await t.call('POST', SUBS, { token, body: { name: bad } }))).toContain('body.name');
      // The attack: on PostgreSQL a NUL in config_id reached the database and answered 500.
      expect(
        issuePaths(
          await t.call('PATCH', `${SUBS}/${subToken}/config`, { token, body: { config_id: bad, comment: 'x' } }),
        ),
      ).toEqual(['body.config_id']);
      expect(
        issuePaths(await t.call('PATCH', `${SUBS}/${subToken}/comments`, { token, body: { config_id: bad } })),
      ).toEqual(['body.config_id']);
      expect(
        issuePaths(await t.call('DELETE', `${SUBS}/${subToken}/sources`, { token, body: { source_ids: [bad] } })),
      ).toEqual(['body.source_ids.0']);
      expect(
        issuePaths(
          await t.call('POST', `${SUBS}/${subToken}/sources`, { token, body: { sources: [`${trojanUri()}#${bad}`] } }),
        ),
      ).toContain('body.sources.0');
    }
    // An emoji is a valid surrogate pair, and stays accepted.
    expect(
      (
        await t.call('PATCH', `${SUBS}/${subToken}/config`, {
          token,
          body: { config_id: configId, comment: 'ok \u{1F600}' },
        })
      ).statusCode,
    ).toBe(204);
  });

  it('refuses NUL in the query string with 400, and in a path identifier with 404', async () => {
    expect(issuePaths(await t.call('GET', `/sub/${subToken}?format=%00`))).toEqual(['querystring.format']);
    expectError(await t.call('GET', `/sub/${subToken.slice(0, 10)}%00`), 404, 'subscription_not_found');
    expectError(await t.call('GET', `${SUBS}/${subToken.slice(0, 10)}%00`, { token }), 404, 'subscription_not_found');
    // A surrogate encoded as UTF-8 is not valid UTF-8: the path itself cannot be decoded.
    expectError(await t.call('GET', `${SUBS}/%ED%A0%80`, { token }), 400, 'bad_request');
    expectError(await t.call('GET', '/api/v1/me/providers/ab%00cd', { token }), 404, 'not_found');
    expectError(await t.call('POST', '/api/v1/me/providers/ab%00cd/approve', { token }), 404, 'not_found');
  });

  it('refuses every control character inside names, descriptions and comments', async () => {
    for (const control of CONTROLS) {
      expect(issuePaths(await t.call('POST', SUBS, { token, body: { name: `a${control}b` } }))).toContain('body.name');
      expect(
        issuePaths(await t.call('POST', SUBS, { token, body: { name: 'ok', description: `a${control}` } })),
      ).toContain('body.description');
      expect(
        issuePaths(await t.call('PATCH', `${SUBS}/${subToken}`, { token, body: { name: `x${control}y` } })),
      ).toContain('body.name');
      expect(
        issuePaths(
          await t.call('PATCH', `${SUBS}/${subToken}/config`, {
            token,
            body: { config_id: configId, comment: `c${control}d` },
          }),
        ),
      ).toContain('body.comment');
    }
    // Surrounding whitespace is still trimmed from names, as before.
    expect((await t.call('POST', SUBS, { token, body: { name: '\t trimmed \n' } })).json().name).toBe('trimmed');
    const names = (await t.call('GET', SUBS, { token })).json<Array<{ name: string }>>().map((s) => s.name);
    expect(names.sort()).toEqual(['strings', 'trimmed']);
  });

  it('refuses control characters inside a source with invalid_source or invalid_url', async () => {
    const add = (data: string) => t.call('POST', `${SUBS}/${subToken}/sources`, { token, body: { sources: [data] } });
    // The attack: URL parsers silently drop tab and newline, so "exa\tmple" would be stored as another host.
    expectError(await add('https://exa\tmple.com/sub'), 400, 'invalid_url');
    expectError(await add('http://example.com/\u0085x'), 400, 'invalid_url');
    expectError(await add('trojan://pw@host\u007f.example.com:443'), 400, 'invalid_source');
    expectError(await add('vless://pw@a\u0001b.example.com:443'), 400, 'invalid_source');
    expect((await add(` ${trojanUri()}\n`)).statusCode).toBe(200);
  });

  it('refuses NUL and control characters in admin and provider fields, never answering 500', async () => {
    const owner = await t.newUser();
    const hash = (await t.admin('GET', `/users/${owner.userId}`)).json<{ user_hash: string }>().user_hash;
    const provider = { owner_hash: hash, provider_name: 'strp1', provider_url: 'https://p.example.com' };
    for (const bad of ['a\u0000b', 'a\tb', 'a\u007fb', 'a\u0085b', LONE_HIGH]) {
      expect(issuePaths(await t.admin('POST', '/providers', { ...provider, provider_name: bad }))).toContain(
        'body.provider_name',
      );
      expect(
        issuePaths(await t.admin('POST', '/providers', { ...provider, provider_url: `https://p.example.com/${bad}` })),
      ).toContain('body.provider_url');
      expect(issuePaths(await t.admin('POST', '/providers', { ...provider, owner_hash: bad }))).toContain(
        'body.owner_hash',
      );
      expect(issuePaths(await t.admin('POST', '/whitelist', { ip_address: '192.0.2.1', description: bad }))).toContain(
        'body.description',
      );
      expect(
        issuePaths(await t.admin('POST', `/providers/strp1/authorize/${owner.userId}`, { invite: bad })),
      ).toContain('body.invite');
      expect(issuePaths(await t.admin('POST', '/ban', { ip_address: bad }))).toContain('body.ip_address');
    }
    expectError(await t.admin('GET', '/providers/by-name/ab%00cd'), 404, 'not_found');
    expectError(await t.admin('PATCH', '/providers/ab%00cd', { is_active: false }), 404, 'not_found');
    expectError(await t.admin('GET', `/users/${owner.userId}/providers/ab%00cd`), 404, 'not_found');
    expect((await t.admin('POST', '/providers', provider)).statusCode).toBe(201);
  });
});

describeEachDatabase('edge: deeply nested bodies', (kind) => {
  const t = useTestApp(kind);

  it('answers a body nested 100,000 levels deep with a 4xx, never a 500', async () => {
    const { token } = await t.newUser();
    const depth = 100_000;
    const res = await t.call('POST', SUBS, {
      token,
      body: `{"name":"deep","sources":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(400);
  });
});
