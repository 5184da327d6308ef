// subscription-userinfo: tolerant parsing as the clients read it, the header text, and how a link's usage is combined per mode.
import { describe, expect, it } from 'vitest';
import { formatUserinfo, parseUserinfo, type Userinfo } from '../../src/shared/userinfo.js';
import { headerText, linkUsage } from '../../src/modules/resolve/link-profile.js';

const usage = (upload: number, download: number, total: number, expire: number): Userinfo => ({
  upload,
  download,
  total,
  expire,
});

describe('parseUserinfo', () => {
  it('reads the canonical form', () => {
    expect(parseUserinfo('upload=1; download=2; total=3; expire=4')).toEqual(usage(1, 2, 3, 4));
  });

  it('truncates decimals (the Hiddify golden case)', () => {
    expect(parseUserinfo('upload=0;download=1024;total=10240.5;expire=1704054600.55')).toEqual(
      usage(0, 1024, 10240, 1704054600),
    );
  });

  it('tolerates spaces, a trailing ";", segments without "=", any case and any order', () => {
    expect(parseUserinfo(' Expire = 9 ;UPLOAD=1 ; junk; ; download =2;total= 3 ;')).toEqual(usage(1, 2, 3, 9));
  });

  it('reads a missing or unreadable field as 0 and ignores unknown names', () => {
    expect(parseUserinfo('download=5; total=-1; expire=abc; upload=; quota=7')).toEqual(usage(0, 5, 0, 0));
    expect(parseUserinfo('total=0')).toEqual(usage(0, 0, 0, 0));
  });

  it('is null when nothing can be read', () => {
    for (const header of [undefined, '', ';;', 'garbage', 'upload=x; total=-5', 'quota=1']) {
      expect(parseUserinfo(header), String(header)).toBeNull();
    }
  });

  it('keeps numbers within the safe integer range', () => {
    expect(parseUserinfo('total=99999999999999999999999')?.total).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseUserinfo('total=9007199254740991')?.total).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('round-trips through formatUserinfo', () => {
    const value = usage(10, 20, 0, 1_900_000_000);
    expect(formatUserinfo(value)).toBe('upload=10; download=20; total=0; expire=1900000000');
    expect(parseUserinfo(formatUserinfo(value))).toEqual(value);
  });
});

describe('linkUsage', () => {
  const fixed = usage(1, 2, 3, 4);
  const a = usage(100, 200, 1000, 1_900_000_000);
  const b = usage(10, 20, 500, 1_800_000_000);
  const unlimited = usage(1, 1, 0, 0);

  it('none: nothing, whatever the upstreams carried', () => {
    expect(linkUsage('none', fixed, [a, b])).toBeNull();
  });

  it('fixed: the given numbers, whatever the upstreams carried', () => {
    expect(linkUsage('fixed', fixed, [])).toEqual(fixed);
    expect(linkUsage('fixed', fixed, [a])).toEqual(fixed);
  });

  it('first: the first that carried one, or nothing', () => {
    expect(linkUsage('first', fixed, [b, a])).toEqual(b);
    expect(linkUsage('first', fixed, [])).toBeNull();
  });

  it('sum: adds upload, download and total; the earliest expire', () => {
    expect(linkUsage('sum', fixed, [a, b])).toEqual(usage(110, 220, 1500, 1_800_000_000));
    expect(linkUsage('sum', fixed, [a])).toEqual(a);
    expect(linkUsage('sum', fixed, [])).toBeNull();
  });

  it('sum: a total of 0 (unlimited) makes the total 0; an expire of 0 (never) is not the earliest', () => {
    expect(linkUsage('sum', fixed, [a, unlimited, b])).toEqual(usage(111, 221, 0, 1_800_000_000));
    expect(linkUsage('sum', fixed, [unlimited, unlimited])).toEqual(usage(2, 2, 0, 0));
  });

  it('sum: stays within the safe integer range', () => {
    const huge = usage(Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER, 0);
    expect(linkUsage('sum', fixed, [huge, huge])).toEqual(
      usage(Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER, 0),
    );
  });
});

describe('headerText', () => {
  it('keeps printable ASCII and encodes anything else as base64: of UTF-8', () => {
    expect(headerText('Hello, world! ~')).toBe('Hello, world! ~');
    expect(headerText('café')).toBe(`base64:${Buffer.from('café', 'utf8').toString('base64')}`);
    expect(headerText('a\u007fb')).toBe(`base64:${Buffer.from('a\u007fb', 'utf8').toString('base64')}`);
  });
});
