// Checks recognition, host extraction and rendering of proxy share links across every supported scheme.
import { describe, it, expect } from 'vitest';
import {
  CONFIG_SCHEMES,
  configHost,
  decodeBase64Loose,
  encodeComment,
  isValidProxyUri,
  proxyUriProblem,
  renderConfig,
} from '../../src/modules/sources/proxy-uri.js';

const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const unpad = (text: string): string => text.replace(/=+$/, '');

/** v2rayN-style JSON whose base64 needs padding and contains '+' and '/' (so both alphabets differ). */
function vmessJson(fields: Record<string, unknown> = {}): string {
  const json = JSON.stringify({ v: '2', ps: 'node ???>>>', add: 'vm.example.com', port: '443', id: UUID, aid: '0', net: 'ws', ...fields });
  return json.length % 3 === 0 ? `${json} ` : json;
}

const ssrBody = (host: string, port: string): string =>
  `${host}:${port}:auth_aes128_md5:aes-256-cfb:tls1.2_ticket_auth:${b64url('ssr-pass')}/?obfsparam=&remarks=${b64url('r')}`;

describe('CONFIG_SCHEMES', () => {
  it('lists every supported proxy scheme', () => {
    expect([...CONFIG_SCHEMES].sort()).toEqual(
      ['anytls', 'hy2', 'hysteria', 'hysteria2', 'juicity', 'socks', 'socks5', 'ss', 'ssr', 'trojan', 'tuic', 'vless', 'vmess', 'wg', 'wireguard'].sort(),
    );
  });
});

describe('isValidProxyUri: vless', () => {
  const base = `vless://${UUID}@vl.example.com:443?type=ws&security=tls&path=%2Fws`;

  it.each([
    ['domain host with query', base],
    ['upper-case scheme and UUID', `VLESS://${UUID.toUpperCase()}@vl.example.com:443`],
    ['IPv4 host', `vless://${UUID}@203.0.113.7:8443`],
    ['bracketed IPv6 host', `vless://${UUID}@[2001:db8::1]:443?security=reality`],
    ['IPv6 with embedded IPv4', `vless://${UUID}@[::ffff:203.0.113.7]:443`],
    ['port 1 and a path', `vless://${UUID}@vl.example.com:1/`],
    ['port 65535', `vless://${UUID}@vl.example.com:65535`],
  ])('accepts %s', (_label, uri) => {
    expect(isValidProxyUri(uri)).toBe(true);
  });

  it.each([
    ['a non-UUID user', 'vless://not-a-uuid@vl.example.com:443', 'vless URI needs a UUID user'],
    ['a UUID with a non-hex digit', `vless://${UUID.replace('b', 'g')}@vl.example.com:443`, 'vless URI needs a UUID user'],
    ['no user at all', 'vless://vl.example.com:443', 'vless URI needs a UUID user'],
    ['no port', `vless://${UUID}@vl.example.com`, 'vless URI has no port'],
    ['an empty port', `vless://${UUID}@vl.example.com:`, "vless URI has an invalid port ''"],
    ['port 0', `vless://${UUID}@vl.example.com:0`, "vless URI has an invalid port '0'"],
    ['port 65536', `vless://${UUID}@vl.example.com:65536`, "vless URI has an invalid port '65536'"],
    ['a non-numeric port', `vless://${UUID}@vl.example.com:https`, "vless URI has an invalid port 'https'"],
    ['no host', `vless://${UUID}@:443`, 'vless URI has no host'],
  ])('refuses %s', (_label, uri, problem) => {
    expect(isValidProxyUri(uri)).toBe(false);
    expect(proxyUriProblem(uri)).toBe(problem);
  });

  it.each([
    ['unbracketed IPv6', `vless://${UUID}@2001:db8::1:443`],
    ['an unclosed bracket', `vless://${UUID}@[2001:db8::1:443`],
    ['junk after the bracket', `vless://${UUID}@[2001:db8::1]x:443`],
    ['a malformed IPv6 address', `vless://${UUID}@[2001:db8:::1]:443`],
    ['too many IPv6 groups', `vless://${UUID}@[1:2:3:4:5:6:7:8:9]:443`],
    ['an IPv4 address in brackets', `vless://${UUID}@[203.0.113.7]:443`],
    ['a space', `vless://${UUID}@vl.example.com:443?path=/a b`],
    ['a tab', `vless://${UUID}@vl.example.com:443\t`],
    ['a newline', `vless://${UUID}@vl.example.com:443\nvless://x`],
    ['a NUL byte', `vless://${UUID}@vl.exa\u0000mple.com:443`],
  ])('refuses %s', (_label, uri) => {
    expect(isValidProxyUri(uri)).toBe(false);
  });
});

describe('isValidProxyUri: vmess', () => {
  const json = vmessJson();

  it('builds samples that exercise both base64 alphabets and padding', () => {
    expect(b64(json)).toMatch(/[+/]/);
    expect(b64(json)).toMatch(/=$/);
  });

  it.each([
    ['standard padded', `vmess://${b64(json)}`],
    ['standard unpadded', `vmess://${unpad(b64(json))}`],
    ['URL-safe padded', `vmess://${b64(json).replace(/\+/g, '-').replace(/\//g, '_')}`],
    ['URL-safe unpadded', `vmess://${b64url(json)}`],
    ['a numeric port', `vmess://${b64(vmessJson({ port: 8443 }))}`],
    ['an IPv6 add', `vmess://${b64(vmessJson({ add: '2001:db8::7' }))}`],
    ['the URI form', `vmess://${UUID}@vm.example.com:443?encryption=auto&type=ws`],
  ])('accepts %s', (_label, uri) => {
    expect(isValidProxyUri(uri)).toBe(true);
  });

  it.each([
    ['a missing add', `vmess://${b64(vmessJson({ add: undefined }))}`, "vmess JSON has no 'add' host"],
    ['an empty add', `vmess://${b64(vmessJson({ add: '  ' }))}`, "vmess JSON has no 'add' host"],
    ['a missing port', `vmess://${b64(vmessJson({ port: undefined }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['port 0', `vmess://${b64(vmessJson({ port: 0 }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['port 65536', `vmess://${b64(vmessJson({ port: '65536' }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['a fractional port', `vmess://${b64(vmessJson({ port: 443.5 }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['a non-numeric port', `vmess://${b64(vmessJson({ port: 'auto' }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['a JSON array', `vmess://${b64('[1,2]')}`, 'vmess base64 payload is not a JSON object'],
    ['base64 of plain text', `vmess://${b64('hello there')}`, 'vmess base64 payload is not a JSON object'],
    ['text that is not base64', 'vmess://not*base64', 'vmess URI is neither base64 JSON nor user@host:port'],
    ['the URI form without a port', `vmess://${UUID}@vm.example.com`, 'vmess URI has no port'],
    ['the URI form with an empty user', 'vmess://@vm.example.com:443', 'vmess URI needs a user id'],
  ])('refuses %s', (_label, uri, problem) => {
    expect(proxyUriProblem(uri)).toBe(problem);
  });
});

describe('isValidProxyUri: ss', () => {
  it.each([
    ['SIP002 with URL-safe base64 userinfo', `ss://${unpad(b64url('chacha20-ietf-poly1305:s3cret'))}@ss.example.com:8388`],
    ['SIP002 with standard base64 containing "/"', `ss://${b64('aes-256-gcm:??>>??')}@ss.example.com:8388`],
    ['SIP002 with percent-encoded 2022 key', 'ss://2022-blake3-aes-128-gcm:YctPZ6U7xPPcU%2Bgp3u%2B0tx%2FtRizJN9K8y%2BuKlW2qjlI%3D@[2001:db8::2]:8388'],
    ['SIP002 with a plugin', `ss://${b64url('aes-128-gcm:pw')}@ss.example.com:443/?plugin=v2ray-plugin%3Bmode%3Dwebsocket`],
    ['legacy base64 form', `ss://${b64('aes-256-gcm:pass@word@198.51.100.4:8388')}`],
    ['legacy unpadded form with a plugin query', `ss://${unpad(b64('aes-256-gcm:pw@ss.example.com:8388'))}/?plugin=obfs-local`],
  ])('accepts %s', (_label, uri) => {
    expect(isValidProxyUri(uri)).toBe(true);
  });

  it.each([
    ['userinfo without method:password', `ss://${b64url('justapassword')}@ss.example.com:8388`],
    ['an empty password', 'ss://aes-256-gcm:@ss.example.com:8388'],
    ['a missing port', `ss://${b64url('aes-256-gcm:pw')}@ss.example.com`],
    ['port 0', `ss://${b64url('aes-256-gcm:pw')}@ss.example.com:0`],
    ['legacy form without a host', `ss://${b64('aes-256-gcm:pw')}`],
    ['legacy form with a bad port', `ss://${b64('aes-256-gcm:pw@ss.example.com:99999')}`],
    ['legacy form without method', `ss://${b64('pw@ss.example.com:8388')}`],
    ['garbage', 'ss://%%%'],
  ])('refuses %s', (_label, uri) => {
    expect(isValidProxyUri(uri)).toBe(false);
  });
});

describe('isValidProxyUri: ssr', () => {
  it('accepts URL-safe base64 with host and port', () => {
    expect(isValidProxyUri(`ssr://${unpad(b64url(ssrBody('ssr.example.com', '8443')))}`)).toBe(true);
    expect(isValidProxyUri(`ssr://${b64(ssrBody('198.51.100.9', '443'))}`)).toBe(true);
  });

  it('accepts a bare IPv6 host', () => {
    expect(isValidProxyUri(`ssr://${b64url(ssrBody('2001:db8::9', '8443'))}`)).toBe(true);
  });

  it.each([
    ['a bad port', `ssr://${b64url(ssrBody('ssr.example.com', '0'))}`, "ssr URI has an invalid port '0'"],
    ['too few fields', `ssr://${b64url('ssr.example.com:8443:origin')}`, 'ssr URI needs host:port:protocol:method:obfs:password'],
    ['an empty host', `ssr://${b64url(ssrBody('', '8443'))}`, 'ssr URI has no host'],
    ['a body that is not base64', 'ssr://***', 'ssr URI is not base64'],
  ])('refuses %s', (_label, uri, problem) => {
    expect(proxyUriProblem(uri)).toBe(problem);
  });
});

describe('isValidProxyUri: hysteria2 / hy2', () => {
  it.each([
    'hysteria2://letmein@hy.example.com:443?sni=hy.example.com',
    'hy2://letmein@hy.example.com/?sni=hy.example.com&obfs=salamander',
    'hy2://letmein@hy.example.com?insecure=1',
    'hy2://hy.example.com',
    'hysteria2://letmein@hy.example.com:443,5000-6000/?sni=x',
    'hy2://letmein@[2001:db8::3]:20000-30000',
  ])('accepts %s', (uri) => {
    expect(isValidProxyUri(uri)).toBe(true);
  });

  it.each([
    'hy2://letmein@hy.example.com:6000-5000',
    'hy2://letmein@hy.example.com:5000-',
    'hy2://letmein@hy.example.com:443,,444',
    'hy2://letmein@hy.example.com:0',
    'hy2://letmein@hy.example.com:1-2-3',
    'hy2://letmein@:443',
  ])('refuses %s', (uri) => {
    expect(isValidProxyUri(uri)).toBe(false);
  });

  it('still requires a single port for hysteria v1', () => {
    expect(isValidProxyUri('hysteria://hy.example.com:443?protocol=udp&auth=x')).toBe(true);
    expect(proxyUriProblem('hysteria://hy.example.com?protocol=udp')).toBe('hysteria URI has no port');
    expect(isValidProxyUri('hysteria://hy.example.com:443,5000-6000')).toBe(false);
  });
});

describe('isValidProxyUri: host:port schemes', () => {
  it.each([
    ['trojan', 'trojan://s3cret@tr.example.com:443?sni=tr.example.com'],
    ['tuic', `tuic://${UUID}:pw@tuic.example.com:443?congestion_control=bbr`],
    ['wireguard', 'wireguard://cHJpdmF0ZS1rZXk%3D@wg.example.com:51820?publickey=abc&address=10.0.0.2%2F32'],
    ['wg', 'wg://key@[2001:db8::4]:51820'],
    ['socks', 'socks://dXNlcjpwYXNz@socks.example.com:1080'],
    ['socks5', 'socks5://user:pass@192.0.2.10:1080'],
    ['anytls', 'anytls://pw@anytls.example.com:443/?sni=anytls.example.com'],
    ['juicity', `juicity://${UUID}:pw@juicity.example.com:443?congestion_control=bbr`],
  ])('accepts %s with host and port, and refuses it without a port', (scheme, uri) => {
    expect(isValidProxyUri(uri)).toBe(true);
    const withoutPort = uri.replace(/:(\d+)(?=[/?]|$)/, '');
    expect(withoutPort).not.toBe(uri);
    expect(proxyUriProblem(withoutPort)).toBe(`${scheme} URI has no port`);
  });

  it('splits the userinfo at the last "@"', () => {
    expect(isValidProxyUri('trojan://p@ss@tr.example.com:443')).toBe(true);
    expect(configHost('trojan://p@ss@tr.example.com:443')).toBe('tr.example.com');
  });

  it('tolerates an unescaped "/" in a password', () => {
    expect(configHost('trojan://ab/cd@tr.example.com:443?sni=x')).toBe('tr.example.com');
  });

  it('refuses unknown schemes, missing "://" and empty bodies', () => {
    expect(proxyUriProblem('foo://host:1')).toBe("unsupported scheme 'foo'");
    expect(proxyUriProblem('trojan:pw@tr.example.com:443')).toBe("proxy URI must start with 'scheme://'");
    expect(proxyUriProblem('trojan://')).toBe('trojan URI is empty');
    expect(isValidProxyUri('https://example.com/sub')).toBe(false);
  });
});

describe('configHost', () => {
  it.each([
    [`vless://${UUID}@vl.example.com:443?type=tcp`, 'vl.example.com'],
    [`vless://${UUID}@[2001:db8::1]:443`, '2001:db8::1'],
    ['hy2://pw@hy.example.com/?sni=x', 'hy.example.com'],
    [`vmess://${b64(vmessJson({ add: 'json.example.com' }))}`, 'json.example.com'],
    [`vmess://${UUID}@uri.example.com:443`, 'uri.example.com'],
    [`ss://${b64('aes-256-gcm:pw@legacy.example.com:8388')}`, 'legacy.example.com'],
    [`ss://${b64url('aes-256-gcm:pw')}@sip.example.com:8388`, 'sip.example.com'],
    [`ssr://${b64url(ssrBody('ssr.example.com', '8443'))}`, 'ssr.example.com'],
    [`ssr://${b64url(ssrBody('2001:db8::9', '8443'))}`, '2001:db8::9'],
  ])('finds the host of %s', (uri, host) => {
    expect(configHost(uri)).toBe(host);
  });

  it('is null for invalid URIs', () => {
    expect(configHost('vless://bad@vl.example.com:443')).toBeNull();
    expect(configHost('not a uri')).toBeNull();
  });
});

describe('encodeComment', () => {
  it('keeps unreserved characters', () => {
    expect(encodeComment('Node-1.fast_~ok')).toBe('Node-1.fast_~ok');
  });

  it('encodes space as %20 and plus as %2B', () => {
    expect(encodeComment('a b+c')).toBe('a%20b%2Bc');
  });

  it('encodes reserved and delimiter characters with upper-case hex', () => {
    expect(encodeComment('#/?&=%:@[]!*\'()')).toBe('%23%2F%3F%26%3D%25%3A%40%5B%5D%21%2A%27%28%29');
    expect(encodeComment('\n')).toBe('%0A');
  });

  it('encodes UTF-8 bytes of non-ASCII text', () => {
    expect(encodeComment('Привет')).toBe('%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82');
    expect(encodeComment('🇩🇪 DE')).toBe('%F0%9F%87%A9%F0%9F%87%AA%20DE');
    expect(decodeURIComponent(encodeComment('東京 ✓ #1'))).toBe('東京 ✓ #1');
  });
});

describe('renderConfig', () => {
  const vless = `vless://${UUID}@vl.example.com:443?type=ws`;

  it('appends the encoded comment', () => {
    expect(renderConfig(vless, 'Frankfurt 1')).toBe(`${vless}#Frankfurt%201`);
    expect(renderConfig(vless, 'Москва')).toBe(`${vless}#%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0`);
  });

  it('uses the host when the comment is null or empty', () => {
    expect(renderConfig(vless, null)).toBe(`${vless}#vl.example.com`);
    expect(renderConfig(vless, '')).toBe(`${vless}#vl.example.com`);
  });

  it('encodes an IPv6 host used as the default comment', () => {
    const uri = `vless://${UUID}@[2001:db8::1]:443`;
    expect(renderConfig(uri, null)).toBe(`${uri}#2001%3Adb8%3A%3A1`);
  });

  it('leaves a URI without a recognisable host alone', () => {
    expect(renderConfig('vless://bad@vl.example.com:443', null)).toBe('vless://bad@vl.example.com:443');
  });

  it('uses "#" for the vmess URI form', () => {
    const uri = `vmess://${UUID}@vm.example.com:443`;
    expect(renderConfig(uri, 'VM')).toBe(`${uri}#VM`);
  });

  it('rewrites ps in base64 vmess JSON and re-encodes it as padded standard base64', () => {
    const input = `vmess://${unpad(b64url(vmessJson()))}`;
    const out = renderConfig(input, 'Tokyo 東京 #2');
    expect(out).not.toContain('#');
    const body = out.slice('vmess://'.length);
    expect(body).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(body.length % 4).toBe(0);
    const json = JSON.parse(decodeBase64Loose(body) ?? 'null') as Record<string, unknown>;
    expect(json).toEqual({ ...(JSON.parse(vmessJson()) as object), ps: 'Tokyo 東京 #2' });
    expect(isValidProxyUri(out)).toBe(true);
  });

  it('sets ps to the add host when the vmess comment is null', () => {
    const out = renderConfig(`vmess://${b64(vmessJson({ add: 'edge.example.net' }))}`, null);
    const json = JSON.parse(decodeBase64Loose(out.slice(8)) ?? 'null') as Record<string, unknown>;
    expect(json.ps).toBe('edge.example.net');
  });

  it('adds ps when the vmess JSON had none', () => {
    const out = renderConfig(`vmess://${b64(JSON.stringify({ add: 'a.example.com', port: 443, id: UUID }))}`, 'X');
    expect(JSON.parse(decodeBase64Loose(out.slice(8)) ?? 'null')).toEqual({ add: 'a.example.com', port: 443, id: UUID, ps: 'X' });
  });
});

describe('decodeBase64Loose', () => {
  const text = 'vless://one\nvless://two\nтри';

  it('decodes padded standard base64', () => {
    expect(decodeBase64Loose(b64(text))).toBe(text);
  });

  it('decodes URL-safe and unpadded input', () => {
    const tricky = 'subjects?>>>';
    expect(b64(tricky)).toMatch(/[+/]/);
    expect(decodeBase64Loose(b64url(tricky))).toBe(tricky);
    expect(decodeBase64Loose(unpad(b64('ab')))).toBe('ab');
  });

  it('ignores line wrapping and surrounding whitespace', () => {
    const wrapped = (b64(text.repeat(5)).match(/.{1,16}/g) ?? []).join('\r\n');
    expect(decodeBase64Loose(`\n  ${wrapped} \n`)).toBe(text.repeat(5));
  });

  it('returns an empty string for empty input', () => {
    expect(decodeBase64Loose('  \n')).toBe('');
  });

  it.each([
    ['characters outside base64', 'abc$def'],
    ['an impossible length', 'abcde'],
    ['padding in the middle', 'YQ==YQ=='],
    ['too much padding', 'YQ==='],
    ['padding that does not fit', 'YWI=='],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')],
  ])('returns null for %s', (_label, input) => {
    expect(decodeBase64Loose(input)).toBeNull();
  });
});
