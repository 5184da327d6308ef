// The transforms editor reads server names out of the preview's plain list (web/src/.../transforms/names.ts): a
// link's #fragment, a vmess link's JSON `ps`, an ssr link's base64 `remarks`, else the line itself.
import { describe, expect, it } from 'vitest';
import { serverNames } from '../../web/src/screens/subscriptions/transforms/names.js';

const base64url = (text: string) => Buffer.from(text).toString('base64url');

describe('serverNames', () => {
  it('reads each kind of line and stops at the limit', () => {
    const vmess = `vmess://${Buffer.from(JSON.stringify({ v: '2', ps: '🇯🇵 東京 01', add: 'a.example' })).toString('base64')}`;
    const ssr = `ssr://${base64url(`b.example:443:origin:aes-256-cfb:plain:${base64url('pw')}/?remarks=${base64url('Москва 2')}`)}`;
    const body = [
      `vless://id@c.example:443?security=tls#${encodeURIComponent('JP Tokyo 01')}`,
      vmess,
      ssr,
      'trojan://pw@d.example:443',
      '',
      'ss://bad@e.example:1#%E0%A4%A',
      'socks5://f.example:1080#last',
    ].join('\n');
    expect(serverNames(body, 10)).toEqual([
      'JP Tokyo 01',
      '🇯🇵 東京 01',
      'Москва 2',
      'trojan://pw@d.example:443',
      '%E0%A4%A',
      'last',
    ]);
    expect(serverNames(body, 2)).toEqual(['JP Tokyo 01', '🇯🇵 東京 01']);
  });

  it('shows a vmess link it cannot read as it is', () => {
    expect(serverNames('vmess://not-base64!\nvmess://e30=', 5)).toEqual(['vmess://not-base64!', 'vmess://e30=']);
  });
});
