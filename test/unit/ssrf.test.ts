// Unit tests for the SSRF guard on external subscription URLs (docs/security.md, SSRF); DNS is always a fake, never the network.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkPublicHost, isForbiddenAddress, isForbiddenHostname, type LookupFn } from '../../src/net/ssrf.js';

// [range, first address inside, last address inside, just below, just above (null: no neighbour, or a forbidden one)]
const IPV4_RANGES: Array<[string, string, string, string | null, string | null]> = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255', null, '1.0.0.0'],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255', '9.255.255.255', '11.0.0.0'],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
  ['127.0.0.0/8', '127.0.0.0', '127.255.255.255', '126.255.255.255', '128.0.0.0'],
  ['169.254.0.0/16', '169.254.0.0', '169.254.255.255', '169.253.255.255', '169.255.0.0'],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255', '172.15.255.255', '172.32.0.0'],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255', '192.88.98.255', '192.88.100.0'],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255', '192.167.255.255', '192.169.0.0'],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
  ['224.0.0.0/4', '224.0.0.0', '239.255.255.255', '223.255.255.255', null],
  ['240.0.0.0/4', '240.0.0.0', '255.255.255.255', null, null],
];

// [range, address inside, address just outside (null when the neighbour is forbidden too)]
const IPV6_RANGES: Array<[string, string, string | null]> = [
  ['::/128', '::', null],
  ['::1/128', '::1', null],
  ['::/96 (IPv4-compatible)', '::ffff:ffff', null],
  ['::/8 (reserved by IETF, includes the three above)', 'ff:ffff:ffff::1', '100:1::1'],
  ['100::/64', '100::ffff:ffff:ffff:ffff', '100:0:0:1::'],
  ['2001::/23', '2001:1ff:ffff::1', '2001:200::1'],
  ['2001::/32 (Teredo)', '2001:0:4136:e378:8000:63bf:3fff:fdd2', null],
  ['2001:db8::/32', '2001:db8:ffff::1', '2001:db9::1'],
  ['fc00::/7', 'fc00::1', 'fbff:ffff::1'],
  ['fc00::/7 (AWS metadata)', 'fd00:ec2::254', null],
  ['fe80::/10', 'febf:ffff::1', 'fe7f:ffff::1'],
  ['fec0::/10', 'fec0::1', null],
  ['ff00::/8', 'ff02::1', null],
];

describe('isForbiddenAddress: IPv4', () => {
  it.each(IPV4_RANGES)('%s', (_range, first, last, below, above) => {
    expect(isForbiddenAddress(first)).toBe(true);
    expect(isForbiddenAddress(last)).toBe(true);
    if (below !== null) expect(isForbiddenAddress(below)).toBe(false);
    if (above !== null) expect(isForbiddenAddress(above)).toBe(false);
  });

  it('refuses the limited broadcast address', () => {
    expect(isForbiddenAddress('255.255.255.255')).toBe(true);
  });

  it('refuses cloud metadata addresses', () => {
    expect(isForbiddenAddress('169.254.169.254')).toBe(true);
    expect(isForbiddenAddress('100.100.100.200')).toBe(true); // Alibaba Cloud, inside 100.64/10
  });

  it('allows public addresses', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '9.9.9.9', '140.82.112.3', '172.217.0.46']) {
      expect(isForbiddenAddress(address)).toBe(false);
    }
  });
});

describe('isForbiddenAddress: IPv6', () => {
  it.each(IPV6_RANGES)('%s', (_range, inside, outside) => {
    expect(isForbiddenAddress(inside)).toBe(true);
    if (outside !== null) expect(isForbiddenAddress(outside)).toBe(false);
  });

  it('allows public addresses', () => {
    for (const address of ['2606:4700:4700::1111', '2001:4860:4860::8888', '[2a00:1450:4001:80b::200e]']) {
      expect(isForbiddenAddress(address)).toBe(false);
    }
  });

  it('checks the IPv4 address inside IPv4-mapped IPv6', () => {
    expect(isForbiddenAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isForbiddenAddress('::ffff:7f00:1')).toBe(true);
    expect(isForbiddenAddress('[::ffff:169.254.169.254]')).toBe(true);
    expect(isForbiddenAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isForbiddenAddress('::ffff:1.1.1.1')).toBe(false);
  });

  it('checks the IPv4 address inside NAT64 addresses', () => {
    expect(isForbiddenAddress('64:ff9b::127.0.0.1')).toBe(true);
    expect(isForbiddenAddress('64:ff9b::a9fe:a9fe')).toBe(true);
    expect(isForbiddenAddress('64:ff9b::808:808')).toBe(false);
    expect(isForbiddenAddress('64:ff9b:1::7f00:1')).toBe(true);
    expect(isForbiddenAddress('64:ff9b:1::c0a8:1')).toBe(true);
    expect(isForbiddenAddress('64:ff9b:1::101:101')).toBe(false);
  });

  it('checks the IPv4 address inside 6to4 addresses', () => {
    expect(isForbiddenAddress('2002:7f00:1::1')).toBe(true);
    expect(isForbiddenAddress('2002:a9fe:a9fe::')).toBe(true);
    expect(isForbiddenAddress('2002:c0a8:101::1')).toBe(true);
    expect(isForbiddenAddress('2002:808:808::1')).toBe(false);
  });

  it('refuses IPv4-translated addresses (::ffff:0:0:0/96), whatever IPv4 address they carry', () => {
    expect(isForbiddenAddress('::ffff:0:127.0.0.1')).toBe(true);
    expect(isForbiddenAddress('[::ffff:0:7f00:1]')).toBe(true);
    expect(isForbiddenAddress('::ffff:0:8.8.8.8')).toBe(true);
    expect(isForbiddenHostname('[::ffff:0:127.0.0.1]')).toBe(true);
  });

  it('refuses all of ::/8 but IPv4-mapped addresses, which are judged as the IPv4 address they carry', () => {
    for (const address of ['::1:2:3', '[::1:2:3]', '::1:0:0', '::fffe:1.1.1.1', '::ffff:1:1:1', '1::', 'ff::1']) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    expect(isForbiddenHostname('[::1:2:3]')).toBe(true);
    expect(isForbiddenAddress('::ffff:8.8.8.8')).toBe(false);
    expect(isForbiddenAddress('::ffff:808:808')).toBe(false);
    expect(isForbiddenAddress('::ffff:192.168.0.1')).toBe(true);
  });

  it('refuses deprecated IPv4-compatible addresses', () => {
    expect(isForbiddenAddress('::127.0.0.1')).toBe(true);
    expect(isForbiddenAddress('::8.8.8.8')).toBe(true);
  });

  it('refuses anything unparseable', () => {
    for (const address of ['', 'localhost', 'fe80::1%eth0', '1.2.3', '10.0.0.0/8', '999.1.1.1', '01.1.1.1']) {
      expect(isForbiddenAddress(address)).toBe(true);
    }
  });
});

describe('isForbiddenHostname', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'app.localhost',
    'printer.local',
    'db.internal',
    'metadata.google.internal',
    '127.0.0.1',
    '[::1]',
    '::1',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '169.254.169.254',
    '[fd00:ec2::254]',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '0x7f.1',
    '',
  ])('refuses %j', (hostname) => {
    expect(isForbiddenHostname(hostname)).toBe(true);
  });

  it.each([
    'example.com',
    'localhost.example.com',
    'local',
    'internal.example.org',
    '1.1.1.1',
    '[2606:4700:4700::1111]',
    'cafe',
  ])('allows %j', (hostname) => {
    expect(isForbiddenHostname(hostname)).toBe(false);
  });
});

function fakeLookup(answers: Record<string, string[]>): LookupFn & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

describe('checkPublicHost', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const lookup = fakeLookup({
    'public.example': ['1.1.1.1', '2606:4700:4700::1111'],
    'private.example': ['10.0.0.5'],
    'mixed.example': ['8.8.8.8', '169.254.169.254'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'empty.example': [],
  });

  it('accepts names that resolve only to public addresses', async () => {
    await expect(checkPublicHost('public.example', lookup)).resolves.toEqual({ ok: true });
    await expect(checkPublicHost('PUBLIC.example.', lookup)).resolves.toEqual({ ok: true });
  });

  it('refuses names that resolve to a private address without naming the address', async () => {
    const result = await checkPublicHost('private.example', lookup);
    expect(result).toEqual({ ok: false, reason: 'host "private.example" does not resolve to a public address' });
  });

  it('refuses when any answer is forbidden', async () => {
    const result = await checkPublicHost('mixed.example', lookup);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).not.toContain('169.254');
    await expect(checkPublicHost('mapped.example', lookup)).resolves.toMatchObject({ ok: false });
  });

  it('lets lookup failures through for the fetch to report', async () => {
    await expect(checkPublicHost('missing.example', lookup)).resolves.toEqual({ ok: true });
    await expect(checkPublicHost('empty.example', lookup)).resolves.toEqual({ ok: true });
  });

  it('lets a lookup that times out through after 3 s', async () => {
    vi.useFakeTimers();
    const never: LookupFn = () => new Promise(() => {});
    const pending = checkPublicHost('slow.example', never);
    await vi.advanceTimersByTimeAsync(2999);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toEqual({ ok: true });
  });

  it('checks literal IPs without a lookup', async () => {
    const calls = fakeLookup({});
    await expect(checkPublicHost('127.0.0.1', calls)).resolves.toMatchObject({
      ok: false,
      reason: expect.stringContaining('127.0.0.1'),
    });
    await expect(checkPublicHost('[::1]', calls)).resolves.toMatchObject({ ok: false });
    await expect(checkPublicHost('[::ffff:a9fe:a9fe]', calls)).resolves.toMatchObject({
      ok: false,
      reason: expect.stringContaining('169.254.169.254'),
    });
    await expect(checkPublicHost('8.8.8.8', calls)).resolves.toEqual({ ok: true });
    await expect(checkPublicHost('[2606:4700:4700::1111]', calls)).resolves.toEqual({ ok: true });
    expect(calls.calls).toEqual([]);
  });

  it('refuses internal names without a lookup', async () => {
    const calls = fakeLookup({ 'metadata.google.internal': ['8.8.8.8'], localhost: ['8.8.8.8'] });
    await expect(checkPublicHost('metadata.google.internal', calls)).resolves.toMatchObject({ ok: false });
    await expect(checkPublicHost('localhost', calls)).resolves.toMatchObject({ ok: false });
    await expect(checkPublicHost('nas.local', calls)).resolves.toMatchObject({ ok: false });
    expect(calls.calls).toEqual([]);
  });
});
