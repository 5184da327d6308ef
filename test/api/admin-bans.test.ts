// The ban and whitelist admin endpoints over HTTP: IPv4, IPv6 and CIDRs (percent-encoded in paths), listing, expiry and validation.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, TEST_ADMIN_SECRET } from '../support/harness.js';
import { expectError } from '../support/expect.js';
import { withClockAhead } from '../support/time.js';

interface BanStatus {
  ip_address: string;
  is_banned: boolean;
  banned_until: string | null;
  remaining_seconds: number;
}

const secondsUntil = (iso: string) => (Date.parse(iso) - Date.now()) / 1000;

describeEachDatabase('admin bans', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: TEST_ADMIN_SECRET, DEFAULT_BAN_SECONDS: '900' });
  const status = async (path: string): Promise<BanStatus> => {
    const res = await t.admin('GET', `/ban/${path}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BanStatus>();
  };

  it('bans an IPv4 address for DEFAULT_BAN_SECONDS when no duration is given', async () => {
    const res = await t.admin('POST', '/ban', { ip_address: '192.0.2.10' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ ip_address: string; banned_until: string; remaining_seconds: number }>();
    expect(body).toMatchObject({ ip_address: '192.0.2.10', remaining_seconds: 900 });
    expect(Object.keys(body).sort()).toEqual(['banned_until', 'ip_address', 'remaining_seconds']);
    expect(secondsUntil(body.banned_until)).toBeGreaterThan(895);
    expect(secondsUntil(body.banned_until)).toBeLessThanOrEqual(900);
    const got = await status('192.0.2.10');
    expect(got).toMatchObject({ ip_address: '192.0.2.10', is_banned: true, banned_until: body.banned_until });
    expect(got.remaining_seconds).toBeGreaterThan(895);
    expect(got.remaining_seconds).toBeLessThanOrEqual(900);
  });

  it('replaces the end time when an address is banned again, longer or shorter', async () => {
    const first = (await t.admin('POST', '/ban', { ip_address: '192.0.2.11', duration_seconds: 120 })).json();
    const longer = await t.admin('POST', '/ban', { ip_address: '192.0.2.11', duration_seconds: 7200 });
    expect(longer.statusCode).toBe(201);
    expect(longer.json().remaining_seconds).toBe(7200);
    expect(Date.parse(longer.json().banned_until)).toBeGreaterThan(Date.parse(first.banned_until));
    const shorter = (await t.admin('POST', '/ban', { ip_address: '192.0.2.11', duration_seconds: 30 })).json();
    expect((await status('192.0.2.11')).banned_until).toBe(shorter.banned_until);
    const listed = (await t.admin('GET', '/bans'))
      .json()
      .entries.filter((e: { ip_address: string }) => e.ip_address === '192.0.2.11');
    expect(listed).toEqual([
      { ip_address: '192.0.2.11', banned_until: shorter.banned_until, reason: 'admin', banned_at: expect.any(String) },
    ]);
    expect(Date.parse(listed[0].banned_at)).toBe(Date.parse(shorter.banned_until) - 30_000);
  });

  it('stores IPv6 addresses and ranges in canonical form and finds them by any spelling', async () => {
    const res = await t.admin('POST', '/ban', { ip_address: '2001:DB8:0:0:0:0:0:1', duration_seconds: 60 });
    expect(res.json().ip_address).toBe('2001:db8::1');
    expect((await status('2001:db8:0::1')).is_banned).toBe(true);
    expect((await status('2001%3Adb8%3A%3A1')).is_banned).toBe(true);
    const mapped = await t.admin('POST', '/ban', { ip_address: '::ffff:192.0.2.77', duration_seconds: 60 });
    expect(mapped.json().ip_address).toBe('192.0.2.77');
    const range = await t.admin('POST', '/ban', { ip_address: '2001:db8:abcd:12::99/48', duration_seconds: 60 });
    expect(range.json().ip_address).toBe('2001:db8:abcd::/48');
    expect((await status('2001:db8:abcd::%2F48')).is_banned).toBe(true);
    expect((await status('2001%3Adb8%3Aabcd%3A%3A%2F48')).is_banned).toBe(true);
    expect((await status('2001:db8:abcd:ffff::5')).is_banned).toBe(true);
    expect((await status('2001:db8:abce::5')).is_banned).toBe(false);
  });

  it('bans IPv4 CIDR ranges; the path carries the slash as %2F', async () => {
    const res = await t.admin('POST', '/ban', { ip_address: '10.1.2.3/24', duration_seconds: 300 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().ip_address).toBe('10.1.2.0/24');
    expect(await status('10.1.2.0%2F24')).toMatchObject({ ip_address: '10.1.2.0/24', is_banned: true });
    expect(await status('10.1.2.0%2f24')).toMatchObject({ ip_address: '10.1.2.0/24', is_banned: true });
    // One address inside a banned range reports the range's ban.
    expect(await status('10.1.2.200')).toMatchObject({
      ip_address: '10.1.2.200',
      is_banned: true,
      banned_until: res.json().banned_until,
    });
    expect(await status('10.1.3.1')).toEqual({
      ip_address: '10.1.3.1',
      is_banned: false,
      banned_until: null,
      remaining_seconds: 0,
    });
    const removed = await t.admin('DELETE', '/ban/10.1.2.0%2F24');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ ip_address: '10.1.2.0/24', was_banned: true });
    expect((await status('10.1.2.200')).is_banned).toBe(false);
  });

  it('unbans, and repeating the unban answers was_banned false', async () => {
    await t.admin('POST', '/ban', { ip_address: '192.0.2.12', duration_seconds: 60 });
    expect((await t.admin('DELETE', '/ban/192.0.2.12')).json()).toEqual({ ip_address: '192.0.2.12', was_banned: true });
    // The harness signs each request with a timestamp it has not used before, so this is no replay.
    const again = await t.admin('DELETE', '/ban/192.0.2.12');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ip_address: '192.0.2.12', was_banned: false });
    expect((await status('192.0.2.12')).is_banned).toBe(false);
    expect((await t.admin('DELETE', '/ban/2001:db8:ffff::1')).json()).toEqual({
      ip_address: '2001:db8:ffff::1',
      was_banned: false,
    });
  });

  it('lists only bans in force, with total; expired bans drop out on their own', async () => {
    await t.admin('POST', '/ban', { ip_address: '192.0.2.13', duration_seconds: 1 });
    await t.admin('POST', '/ban', { ip_address: '192.0.2.14', duration_seconds: 600 });
    const before = (await t.admin('GET', '/bans')).json<{ total: number; entries: Array<{ ip_address: string }> }>();
    expect(before.total).toBe(before.entries.length);
    expect(before.entries.map((e) => e.ip_address)).toEqual(expect.arrayContaining(['192.0.2.13', '192.0.2.14']));
    for (const entry of before.entries) {
      expect(Object.keys(entry).sort()).toEqual(['banned_at', 'banned_until', 'ip_address', 'reason']);
    }
    await withClockAhead(1100, async () => {
      const after = (await t.admin('GET', '/bans')).json<{ total: number; entries: Array<{ ip_address: string }> }>();
      expect(after.total).toBe(before.total - 1);
      expect(after.entries.map((e) => e.ip_address)).not.toContain('192.0.2.13');
      expect(await status('192.0.2.13')).toEqual({
        ip_address: '192.0.2.13',
        is_banned: false,
        banned_until: null,
        remaining_seconds: 0,
      });
      expect((await t.admin('DELETE', '/ban/192.0.2.13')).json().was_banned).toBe(false);
    });
  });

  it.each([
    ['not an address', { ip_address: 'nope' }],
    ['an empty address', { ip_address: '' }],
    ['an octal-looking IPv4 address', { ip_address: '010.1.1.1' }],
    ['a prefix too long for IPv4', { ip_address: '10.0.0.0/33' }],
    ['a prefix too long for IPv6', { ip_address: '2001:db8::/129' }],
    ['an IPv6 zone id', { ip_address: 'fe80::1%eth0' }],
    ['a missing address', { duration_seconds: 60 }],
    ['a number as address', { ip_address: 1234 }],
    ['duration 0', { ip_address: '192.0.2.1', duration_seconds: 0 }],
    ['a negative duration', { ip_address: '192.0.2.1', duration_seconds: -5 }],
    ['a duration over one year', { ip_address: '192.0.2.1', duration_seconds: 31_536_001 }],
    ['a fractional duration', { ip_address: '192.0.2.1', duration_seconds: 1.5 }],
    ['a string duration', { ip_address: '192.0.2.1', duration_seconds: '60' }],
  ])('refuses %s with 400 validation_failed', async (_label, body) => {
    const { details } = expectError(await t.admin('POST', '/ban', body), 400, 'validation_failed');
    expect((details?.['issues'] as unknown[]).length).toBeGreaterThan(0);
  });

  it('accepts the longest duration, one year', async () => {
    const res = await t.admin('POST', '/ban', { ip_address: '192.0.2.15', duration_seconds: 31_536_000 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().remaining_seconds).toBe(31_536_000);
    await t.admin('DELETE', '/ban/192.0.2.15');
  });

  it('refuses invalid addresses in paths with 400 validation_failed naming the parameter', async () => {
    for (const [method, path] of [
      ['GET', '/ban/not-an-ip'],
      ['DELETE', '/ban/1.2.3.4%2F40'],
      ['DELETE', '/whitelist/999.1.1.1'],
    ]) {
      const { details } = expectError(await t.admin(method as string, path as string), 400, 'validation_failed');
      expect(details?.['issues']).toEqual([expect.objectContaining({ path: 'params.ip_address' })]);
    }
  });
});

describeEachDatabase('admin whitelist', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: TEST_ADMIN_SECRET });
  type Entry = { ip_address: string; description: string; added_at: string };
  const list = async () => (await t.admin('GET', '/whitelist')).json<{ total: number; entries: Entry[] }>();

  it('adds, lists and removes addresses and ranges, canonicalised', async () => {
    const added = await t.admin('POST', '/whitelist', { ip_address: '172.16.5.9/16', description: 'office' });
    expect(added.statusCode, added.body).toBe(201);
    const entry = added.json<Entry>();
    expect(entry).toMatchObject({ ip_address: '172.16.0.0/16', description: 'office' });
    expect(Object.keys(entry).sort()).toEqual(['added_at', 'description', 'ip_address']);
    expect(Math.abs(Date.parse(entry.added_at) - Date.now())).toBeLessThan(60_000);

    const v6 = (await t.admin('POST', '/whitelist', { ip_address: '2001:0DB8:0000::7' })).json<Entry>();
    expect(v6).toMatchObject({ ip_address: '2001:db8::7', description: '' });

    const all = await list();
    expect(all.total).toBe(all.entries.length);
    expect(all.entries).toEqual(expect.arrayContaining([entry, v6]));

    expect((await t.admin('DELETE', '/whitelist/172.16.0.0%2F16')).json()).toEqual({
      ip_address: '172.16.0.0/16',
      was_whitelisted: true,
    });
    expect((await t.admin('DELETE', '/whitelist/172.16.0.0%2F16')).json()).toEqual({
      ip_address: '172.16.0.0/16',
      was_whitelisted: false,
    });
    expect((await t.admin('DELETE', '/whitelist/2001%3Adb8%3A%3A7')).json().was_whitelisted).toBe(true);
    expect((await list()).entries.map((e) => e.ip_address)).not.toEqual(expect.arrayContaining(['172.16.0.0/16']));
  });

  it('re-adding keeps added_at and changes the description only when one is given', async () => {
    const first = (
      await t.admin('POST', '/whitelist', { ip_address: '192.0.2.50', description: 'first' })
    ).json<Entry>();
    const again = await t.admin('POST', '/whitelist', { ip_address: '192.0.2.50' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first);
    const renamed = (
      await t.admin('POST', '/whitelist', { ip_address: '192.0.2.50', description: 'second' })
    ).json<Entry>();
    expect(renamed).toEqual({ ...first, description: 'second' });
    expect((await list()).entries.filter((e) => e.ip_address === '192.0.2.50')).toEqual([renamed]);
  });

  it('refuses invalid bodies with 400 validation_failed', async () => {
    for (const body of [
      { ip_address: 'x' },
      {},
      { ip_address: '10.0.0.0/8', description: 'd'.repeat(257) },
      { ip_address: '1.2.3.4', description: 5 },
    ]) {
      expectError(await t.admin('POST', '/whitelist', body), 400, 'validation_failed');
    }
  });

  it('documents the endpoints in OpenAPI under the Admin tag', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json<{
      paths: Record<string, Record<string, { tags: string[]; description: string }>>;
    }>();
    for (const [path, method] of [
      ['/api/v1/admin/ban', 'post'],
      ['/api/v1/admin/ban/{ip_address}', 'get'],
      ['/api/v1/admin/ban/{ip_address}', 'delete'],
      ['/api/v1/admin/bans', 'get'],
      ['/api/v1/admin/whitelist', 'post'],
      ['/api/v1/admin/whitelist', 'get'],
      ['/api/v1/admin/whitelist/{ip_address}', 'delete'],
    ] as const) {
      const operation = doc.paths[path]?.[method];
      expect(operation?.tags, `${method} ${path}`).toEqual(['Admin']);
      expect(operation?.description.length).toBeGreaterThan(10);
    }
  });
});
