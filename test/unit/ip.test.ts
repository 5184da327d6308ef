// Unit tests for the shared IP/CIDR parser, matcher and client-IP resolution (docs/security.md, Who the client is).
import { describe, expect, it } from 'vitest';
import {
  IpMatcher,
  clientGroup,
  clientIpFrom,
  ipBytes,
  normalizeIp,
  parseIpList,
  parseIpRange,
} from '../../src/net/ip.js';

describe('parseIpRange canonicalisation', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4', 'ipv4', 32],
    ['1.2.3.4/32', '1.2.3.4', 'ipv4', 32],
    ['10.0.0.0/8', '10.0.0.0/8', 'ipv4', 8],
    ['10.1.2.3/8', '10.0.0.0/8', 'ipv4', 8],
    ['192.168.1.77/23', '192.168.0.0/23', 'ipv4', 23],
    ['0.0.0.0/0', '0.0.0.0/0', 'ipv4', 0],
    ['255.255.255.255', '255.255.255.255', 'ipv4', 32],
    ['::1', '::1', 'ipv6', 128],
    ['[::1]', '::1', 'ipv6', 128],
    ['[2001:db8::]/32', '2001:db8::/32', 'ipv6', 32],
    ['::', '::', 'ipv6', 128],
    ['::/0', '::/0', 'ipv6', 0],
    ['2001:DB8::/32', '2001:db8::/32', 'ipv6', 32],
    ['2001:db8:ffff:1::/32', '2001:db8::/32', 'ipv6', 32],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1', 'ipv6', 128],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1', 'ipv6', 128],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1', 'ipv6', 128],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1', 'ipv6', 128],
    ['fe80::1:2/64', 'fe80::/64', 'ipv6', 64],
    ['::ffff:1.2.3.4', '1.2.3.4', 'ipv4', 32],
    ['::FFFF:102:304', '1.2.3.4', 'ipv4', 32],
    ['[::ffff:1.2.3.4]', '1.2.3.4', 'ipv4', 32],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8', 'ipv4', 8],
    ['::ffff:10.9.8.7/104', '10.0.0.0/8', 'ipv4', 8],
    ['::ffff:0:0/96', '0.0.0.0/0', 'ipv4', 0],
    ['::ffff:0:0/95', '::fffe:0:0/95', 'ipv6', 95],
    ['::1.2.3.4', '::102:304', 'ipv6', 128],
  ])('%s -> %s', (input, text, family, prefix) => {
    const range = parseIpRange(input);
    expect(range).toMatchObject({ text, family, prefix });
    expect(range?.network).toBe(text.split('/')[0]);
  });

  it.each([
    '',
    ' ',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.256',
    '1.2.3.-1',
    '01.2.3.4',
    '1.2.3.04',
    '0x7f.0.0.1',
    '2130706433',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1.2.3.4x',
    'x1.2.3.4',
    '1.2.3.4/',
    '1.2.3.4/33',
    '1.2.3.4/-1',
    '1.2.3.4/+8',
    '1.2.3.4/08',
    '1.2.3.4/8.0',
    '1.2.3.4/8/8',
    '1.2.3.4/ 8',
    '::1/129',
    '::1/',
    'fe80::1%eth0',
    'fe80::1%1',
    '[fe80::1%eth0]',
    '1::2::3',
    ':::1',
    '1:2:3:4:5:6:7:8:9',
    '12345::1',
    'g::1',
    '::ffff:01.2.3.4',
    '::ffff:1.2.3.256',
    '[1.2.3.4]',
    '[::1',
    '::1]',
    '[::1/64]',
    '[[::1]]',
    'localhost',
    '1.2.3.4:80',
    '[::1]:80',
  ])('rejects %j', (input) => {
    expect(parseIpRange(input)).toBeNull();
  });
});

describe('normalizeIp', () => {
  it('canonicalises single addresses', () => {
    expect(normalizeIp('1.2.3.4')).toBe('1.2.3.4');
    expect(normalizeIp('[::1]')).toBe('::1');
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('[::ffff:7f00:1]')).toBe('127.0.0.1');
    expect(normalizeIp('2606:4700:4700:0:0:0:0:1111')).toBe('2606:4700:4700::1111');
    expect(normalizeIp('FE80::ABCD')).toBe('fe80::abcd');
  });

  it('returns null for ranges and non-addresses', () => {
    for (const input of ['10.0.0.0/8', '::1/128', 'example.com', '', 'unknown', 'fe80::1%eth0', '1.2.3.4 ']) {
      expect(normalizeIp(input)).toBeNull();
    }
  });

  it('exposes the bytes of an address', () => {
    expect(ipBytes('::ffff:1.2.3.4')).toEqual([1, 2, 3, 4]);
    expect(ipBytes('::1')).toEqual([...new Array<number>(15).fill(0), 1]);
    expect(ipBytes('nope')).toBeNull();
  });
});

describe('parseIpList', () => {
  it('splits, trims and skips empty items', () => {
    const { ranges, invalid } = parseIpList(' 127.0.0.1 , ::1,,10.1.0.0/16 ,\t, ');
    expect(ranges.map((r) => r.text)).toEqual(['127.0.0.1', '::1', '10.1.0.0/16']);
    expect(invalid).toEqual([]);
  });

  it('reports every invalid item', () => {
    const { ranges, invalid } = parseIpList('1.2.3.4, 300.1.1.1, 10.0.0.0/40,::1,localhost');
    expect(ranges.map((r) => r.text)).toEqual(['1.2.3.4', '::1']);
    expect(invalid).toEqual(['300.1.1.1', '10.0.0.0/40', 'localhost']);
  });

  it('accepts an empty list', () => {
    expect(parseIpList('')).toEqual({ ranges: [], invalid: [] });
    expect(parseIpList(' , ')).toEqual({ ranges: [], invalid: [] });
  });
});

describe('IpMatcher', () => {
  const matcher = new IpMatcher(['10.0.0.0/8', '192.168.1.5', '2001:db8::/32', parseIpRange('::1')!]);

  it('matches IPv4 ranges and single addresses', () => {
    expect(matcher.matches('10.0.0.0')).toBe(true);
    expect(matcher.matches('10.255.255.255')).toBe(true);
    expect(matcher.matches('11.0.0.0')).toBe(false);
    expect(matcher.matches('9.255.255.255')).toBe(false);
    expect(matcher.matches('192.168.1.5')).toBe(true);
    expect(matcher.matches('192.168.1.6')).toBe(false);
  });

  it('matches IPv6 ranges and single addresses', () => {
    expect(matcher.matches('2001:db8::1')).toBe(true);
    expect(matcher.matches('2001:DB8:FFFF::1')).toBe(true);
    expect(matcher.matches('[2001:db8::1]')).toBe(true);
    expect(matcher.matches('2001:db9::1')).toBe(false);
    expect(matcher.matches('::1')).toBe(true);
    expect(matcher.matches('::2')).toBe(false);
  });

  it('matches IPv4-mapped IPv6 addresses against IPv4 ranges', () => {
    expect(matcher.matches('::ffff:10.1.2.3')).toBe(true);
    expect(matcher.matches('::ffff:a01:203')).toBe(true);
    expect(matcher.matches('[::ffff:192.168.1.5]')).toBe(true);
    expect(matcher.matches('::ffff:11.1.2.3')).toBe(false);
  });

  it('matches IPv4 addresses against mapped ranges', () => {
    const mapped = new IpMatcher(['::ffff:172.16.0.0/108']);
    expect(mapped.matches('172.16.0.1')).toBe(true);
    expect(mapped.matches('172.32.0.1')).toBe(false);
  });

  it('returns false for invalid addresses', () => {
    for (const input of ['', 'garbage', '10.0.0.0/8', '10.0.0.300', 'fe80::1%eth0', ' 10.0.0.1']) {
      expect(matcher.matches(input)).toBe(false);
    }
  });

  it('counts distinct ranges', () => {
    expect(matcher.size).toBe(4);
    expect(new IpMatcher(['10.1.2.3/8', '10.0.0.0/8', '::ffff:10.0.0.0/104']).size).toBe(1);
    expect(new IpMatcher([]).size).toBe(0);
    expect(new IpMatcher([]).matches('1.1.1.1')).toBe(false);
  });

  it('refuses invalid ranges at construction', () => {
    expect(() => new IpMatcher(['10.0.0.0/8', 'not-an-ip'])).toThrow(TypeError);
  });
});

describe('clientIpFrom', () => {
  const proxies = new IpMatcher(['10.0.0.0/8', '::1']);

  it('uses the socket address when no proxy is trusted', () => {
    expect(clientIpFrom('203.0.113.9', '1.1.1.1', null)).toBe('203.0.113.9');
    expect(clientIpFrom('::ffff:203.0.113.9', undefined, null)).toBe('203.0.113.9');
    expect(clientIpFrom('[::1]', '1.1.1.1', null)).toBe('::1');
  });

  it('ignores X-Forwarded-For from an untrusted socket', () => {
    expect(clientIpFrom('8.8.8.8', '1.1.1.1', proxies)).toBe('8.8.8.8');
  });

  it('uses the socket address when a trusted proxy sends no header', () => {
    expect(clientIpFrom('10.0.0.2', undefined, proxies)).toBe('10.0.0.2');
  });

  it('takes the right-most entry behind one trusted proxy', () => {
    expect(clientIpFrom('10.0.0.2', '1.1.1.1', proxies)).toBe('1.1.1.1');
    expect(clientIpFrom('::ffff:10.0.0.2', '2606:4700:4700:0::1111', proxies)).toBe('2606:4700:4700::1111');
  });

  it('skips a chain of trusted proxies', () => {
    expect(clientIpFrom('10.0.0.2', '1.1.1.1, 10.0.0.7, ::1', proxies)).toBe('1.1.1.1');
    expect(clientIpFrom('::1', '8.8.8.8,10.9.9.9', proxies)).toBe('8.8.8.8');
  });

  it('ignores spoofed left-most entries, garbage included', () => {
    expect(clientIpFrom('10.0.0.2', '127.0.0.1, 6.6.6.6, 1.1.1.1', proxies)).toBe('1.1.1.1');
    expect(clientIpFrom('10.0.0.2', '10.0.0.1, 1.1.1.1, 10.0.0.3', proxies)).toBe('1.1.1.1');
    expect(clientIpFrom('10.0.0.2', 'unknown, <script>, 1.1.1.1', proxies)).toBe('1.1.1.1');
  });

  it('normalises forwarded entries', () => {
    expect(clientIpFrom('10.0.0.2', ' ::ffff:1.1.1.1 ', proxies)).toBe('1.1.1.1');
    expect(clientIpFrom('10.0.0.2', '[2606:4700:4700::1111]', proxies)).toBe('2606:4700:4700::1111');
  });

  it('drops the port of an entry', () => {
    expect(clientIpFrom('10.0.0.2', '203.0.113.5:4711', proxies)).toBe('203.0.113.5');
    expect(clientIpFrom('10.0.0.2', '[2001:db8::1]:4711', proxies)).toBe('2001:db8::1');
    expect(clientIpFrom('10.0.0.2', '1.1.1.1, 10.0.0.7:80', proxies)).toBe('1.1.1.1');
  });

  it('answers null when the entry that would be the client is not an address', () => {
    for (const header of [
      'garbage',
      '1.1.1.1, unknown',
      '1.1.1.1, unknown, 10.0.0.5',
      '<script>',
      '',
      '1.1.1.1, , ',
      '[::1]:x',
      '01.1.1.1',
    ]) {
      expect(clientIpFrom('10.0.0.2', header, proxies), header).toBeNull();
    }
  });

  it('returns the left-most entry when every hop is trusted', () => {
    expect(clientIpFrom('10.0.0.2', '10.0.0.9, 10.0.0.8', proxies)).toBe('10.0.0.9');
  });

  it('returns a non-IP socket address unchanged', () => {
    expect(clientIpFrom('', '1.1.1.1', proxies)).toBe('');
  });
});

describe('clientGroup', () => {
  it('keys IPv4 by address and IPv6 by its /64', () => {
    expect(clientGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(clientGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });
});
