// Checks recognition, host extraction and rendering of proxy share links across every supported scheme.
import { describe, it, expect } from 'vitest';
import { configHost } from '../../src/formats/share-uri/check.js';
import {
  CONFIG_SCHEMES,
  decodeBase64Loose,
  encodeComment,
  isValidProxyUri,
  proxyUriProblem,
  renderConfig,
} from '../../src/formats/share-uri/index.js';

const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const unpad = (text: string): string => text.replace(/=+$/, '');
const decodeJson = (vmessUri: string): unknown =>
  JSON.parse(decodeBase64Loose(vmessUri.slice('vmess://'.length)) ?? 'null');

/** v2rayN-style JSON whose base64 needs padding and contains '+' and '/' (so both alphabets differ). */
function vmessJson(fields: Record<string, unknown> = {}): string {
  const json = JSON.stringify({
    v: '2',
    ps: 'node ???>>>',
    add: 'vm.example.com',
    port: '443',
    id: UUID,
    aid: '0',
    net: 'ws',
    ...fields,
  });
  return json.length % 3 === 0 ? `${json} ` : json;
}

const ssrBody = (host: string, port: string): string =>
  `${host}:${port}:auth_aes128_md5:aes-256-cfb:tls1.2_ticket_auth:${b64url('ssr-pass')}/?obfsparam=&remarks=${b64url('r')}`;

function itAccepts(cases: [label: string, uri: string][]): void {
  it.each(cases)('accepts %s', (_label, uri) => expect(isValidProxyUri(uri)).toBe(true));
}

/** The expected problem is checked when given; otherwise only the refusal. */
function itRefuses(cases: [label: string, uri: string, problem?: string][]): void {
  it.each(cases)('refuses %s', (_label, uri, problem) => {
    expect(isValidProxyUri(uri)).toBe(false);
    if (problem !== undefined) expect(proxyUriProblem(uri)).toBe(problem);
  });
}

describe('CONFIG_SCHEMES', () => {
  it('lists every supported proxy scheme', () => {
    expect([...CONFIG_SCHEMES].sort()).toEqual(
      [
        'anytls',
        'hy2',
        'hysteria',
        'hysteria2',
        'juicity',
        'socks',
        'socks5',
        'ss',
        'ssr',
        'trojan',
        'tuic',
        'vless',
        'vmess',
        'wg',
        'wireguard',
      ].sort(),
    );
  });
});

describe('isValidProxyUri: vless', () => {
  itAccepts([
    ['domain host with query', `vless://${UUID}@vl.example.com:443?type=ws&security=tls&path=%2Fws`],
    ['upper-case scheme and UUID', `VLESS://${UUID.toUpperCase()}@vl.example.com:443`],
    ['IPv4 host', `vless://${UUID}@203.0.113.7:8443`],
    ['bracketed IPv6 host', `vless://${UUID}@[2001:db8::1]:443?security=reality`],
    ['IPv6 with embedded IPv4', `vless://${UUID}@[::ffff:203.0.113.7]:443`],
    ['port 1 and a path', `vless://${UUID}@vl.example.com:1/`],
    ['port 65535', `vless://${UUID}@vl.example.com:65535`],
  ]);
  itRefuses([
    ['a non-UUID user', 'vless://not-a-uuid@vl.example.com:443', 'vless URI needs a UUID user'],
    [
      'a UUID with a non-hex digit',
      `vless://${UUID.replace('b', 'g')}@vl.example.com:443`,
      'vless URI needs a UUID user',
    ],
    ['no user at all', 'vless://vl.example.com:443', 'vless URI needs a UUID user'],
    ['no port', `vless://${UUID}@vl.example.com`, 'vless URI has no port'],
    ['an empty port', `vless://${UUID}@vl.example.com:`, "vless URI has an invalid port ''"],
    ['port 0', `vless://${UUID}@vl.example.com:0`, "vless URI has an invalid port '0'"],
    ['port 65536', `vless://${UUID}@vl.example.com:65536`, "vless URI has an invalid port '65536'"],
    ['a non-numeric port', `vless://${UUID}@vl.example.com:https`, "vless URI has an invalid port 'https'"],
    ['no host', `vless://${UUID}@:443`, 'vless URI has no host'],
    ['unbracketed IPv6', `vless://${UUID}@2001:db8::1:443`],
    ['an unclosed bracket', `vless://${UUID}@[2001:db8::1:443`],
    ['junk after the bracket', `vless://${UUID}@[2001:db8::1]x:443`],
    ['a malformed IPv6 address', `vless://${UUID}@[2001:db8:::1]:443`],
    ['too many IPv6 groups', `vless://${UUID}@[1:2:3:4:5:6:7:8:9]:443`],
    ['an IPv4 address in brackets', `vless://${UUID}@[203.0.113.7]:443`],
    [
      'a space',
      `vless://${UUID}@vl.example.com:443?path=/a b`,
      'proxy URI must not contain whitespace or control characters',
    ],
    ['a tab', `vless://${UUID}@vl.example.com:443\t`],
    ['a newline', `vless://${UUID}@vl.example.com:443\nvless://x`],
    ['a NUL byte', `vless://${UUID}@vl.exa\u0000mple.com:443`],
  ]);
});

describe('isValidProxyUri: vmess', () => {
  const json = vmessJson();
  it('uses samples that exercise both base64 alphabets and padding', () => {
    expect(b64(json)).toMatch(/[+/].*=$/);
  });
  itAccepts([
    ['standard padded', `vmess://${b64(json)}`],
    ['standard unpadded', `vmess://${unpad(b64(json))}`],
    ['URL-safe padded', `vmess://${b64(json).replace(/\+/g, '-').replace(/\//g, '_')}`],
    ['URL-safe unpadded', `vmess://${b64url(json)}`],
    ['a numeric port', `vmess://${b64(vmessJson({ port: 8443 }))}`],
    ['an IPv6 add', `vmess://${b64(vmessJson({ add: '2001:db8::7' }))}`],
    ['the URI form', `vmess://${UUID}@vm.example.com:443?encryption=auto&type=ws`],
  ]);
  itRefuses([
    ['a missing add', `vmess://${b64(vmessJson({ add: undefined }))}`, "vmess JSON has no 'add' host"],
    ['an empty add', `vmess://${b64(vmessJson({ add: '  ' }))}`, "vmess JSON has no 'add' host"],
    ['a missing port', `vmess://${b64(vmessJson({ port: undefined }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['port 0', `vmess://${b64(vmessJson({ port: 0 }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['port 65536', `vmess://${b64(vmessJson({ port: '65536' }))}`, 'vmess JSON needs a port between 1 and 65535'],
    ['a fractional port', `vmess://${b64(vmessJson({ port: 443.5 }))}`, 'vmess JSON needs a port between 1 and 65535'],
    [
      'a non-numeric port',
      `vmess://${b64(vmessJson({ port: 'auto' }))}`,
      'vmess JSON needs a port between 1 and 65535',
    ],
    ['a JSON array', `vmess://${b64('[1,2]')}`, 'vmess base64 payload is not a JSON object'],
    ['base64 of plain text', `vmess://${b64('hello there')}`, 'vmess base64 payload is not a JSON object'],
    ['text that is not base64', 'vmess://not*base64', 'vmess URI is neither base64 JSON nor user@host:port'],
    ['the URI form without a port', `vmess://${UUID}@vm.example.com`, 'vmess URI has no port'],
    ['the URI form with an empty user', 'vmess://@vm.example.com:443', 'vmess URI needs a user id'],
  ]);
});

describe('isValidProxyUri: ss', () => {
  itAccepts([
    [
      'SIP002 with URL-safe base64 userinfo',
      `ss://${unpad(b64url('chacha20-ietf-poly1305:s3cret'))}@ss.example.com:8388`,
    ],
    ['SIP002 with standard base64 containing "/"', `ss://${b64('aes-256-gcm:??>>??')}@ss.example.com:8388`],
    [
      'SIP002 with percent-encoded 2022 key',
      'ss://2022-blake3-aes-128-gcm:YctPZ6U7xPPcU%2Bgp3u%2B0tx%2FtRizJN9K8y%2BuKlW2qjlI%3D@[2001:db8::2]:8388',
    ],
    [
      'SIP002 with a plugin',
      `ss://${b64url('aes-128-gcm:pw')}@ss.example.com:443/?plugin=v2ray-plugin%3Bmode%3Dwebsocket`,
    ],
    ['legacy base64 form', `ss://${b64('aes-256-gcm:pass@word@198.51.100.4:8388')}`],
    [
      'legacy unpadded form with a plugin query',
      `ss://${unpad(b64('aes-256-gcm:pw@ss.example.com:8388'))}/?plugin=obfs-local`,
    ],
  ]);
  itRefuses([
    [
      'userinfo without method:password',
      `ss://${b64url('justapassword')}@ss.example.com:8388`,
      'ss URI user must be base64 or percent-encoded method:password',
    ],
    ['an empty password', 'ss://aes-256-gcm:@ss.example.com:8388'],
    ['a missing port', `ss://${b64url('aes-256-gcm:pw')}@ss.example.com`, 'ss URI has no port'],
    ['port 0', `ss://${b64url('aes-256-gcm:pw')}@ss.example.com:0`],
    ['legacy form without a host', `ss://${b64('aes-256-gcm:pw')}`],
    [
      'legacy form with a bad port',
      `ss://${b64('aes-256-gcm:pw@ss.example.com:99999')}`,
      "ss URI has an invalid port '99999'",
    ],
    ['legacy form without method', `ss://${b64('pw@ss.example.com:8388')}`, 'ss URI needs method:password'],
    ['garbage', 'ss://%%%'],
  ]);
});

describe('isValidProxyUri: ssr', () => {
  itAccepts([
    ['unpadded URL-safe base64', `ssr://${unpad(b64url(ssrBody('ssr.example.com', '8443')))}`],
    ['standard base64 with an IPv4 host', `ssr://${b64(ssrBody('198.51.100.9', '443'))}`],
    ['a bare IPv6 host', `ssr://${b64url(ssrBody('2001:db8::9', '8443'))}`],
  ]);
  itRefuses([
    ['a bad port', `ssr://${b64url(ssrBody('ssr.example.com', '0'))}`, "ssr URI has an invalid port '0'"],
    [
      'too few fields',
      `ssr://${b64url('ssr.example.com:8443:origin')}`,
      'ssr URI needs host:port:protocol:method:obfs:password',
    ],
    ['an empty host', `ssr://${b64url(ssrBody('', '8443'))}`, 'ssr URI has no host'],
    ['a body that is not base64', 'ssr://***', 'ssr URI is not base64'],
  ]);
});

describe('isValidProxyUri: hysteria2 / hy2', () => {
  itAccepts([
    ['hysteria2 with a port', 'hysteria2://letmein@hy.example.com:443?sni=hy.example.com'],
    ['hy2 without a port', 'hy2://letmein@hy.example.com/?sni=hy.example.com&obfs=salamander'],
    ['hy2 without a port or path', 'hy2://letmein@hy.example.com?insecure=1'],
    ['hy2 without a user', 'hy2://hy.example.com'],
    ['a port list with a range', 'hysteria2://letmein@hy.example.com:443,5000-6000/?sni=x'],
    ['a range on an IPv6 host', 'hy2://letmein@[2001:db8::3]:20000-30000'],
  ]);
  itRefuses([
    ['a reversed range', 'hy2://letmein@hy.example.com:6000-5000', "hy2 URI has an invalid port '6000-5000'"],
    ['an open range', 'hy2://letmein@hy.example.com:5000-'],
    ['an empty list item', 'hy2://letmein@hy.example.com:443,,444'],
    ['port 0', 'hy2://letmein@hy.example.com:0'],
    ['a double range', 'hy2://letmein@hy.example.com:1-2-3'],
    ['no host', 'hy2://letmein@:443', 'hy2 URI has no host'],
    ['hysteria v1 without a port', 'hysteria://hy.example.com?protocol=udp', 'hysteria URI has no port'],
    ['hysteria v1 with a port list', 'hysteria://hy.example.com:443,5000-6000'],
  ]);
});

describe('isValidProxyUri: host:port schemes', () => {
  it.each([
    ['trojan', 'trojan://s3cret@tr.example.com:443?sni=tr.example.com'],
    ['hysteria', 'hysteria://hy.example.com:443?protocol=udp&auth=x'],
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

  it('splits the userinfo at the last "@" and tolerates an unescaped "/" in a password', () => {
    expect(configHost('trojan://p@ss@tr.example.com:443')).toBe('tr.example.com');
    expect(configHost('trojan://ab/cd@tr.example.com:443?sni=x')).toBe('tr.example.com');
  });

  itRefuses([
    ['an unknown scheme', 'foo://host:1', "unsupported scheme 'foo'"],
    ['a scheme without "//"', 'trojan:pw@tr.example.com:443', "proxy URI must start with 'scheme://'"],
    ['an empty body', 'trojan://', 'trojan URI is empty'],
    ['an https URL', 'https://example.com/sub', "unsupported scheme 'https'"],
  ]);
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
    ['vless://bad@vl.example.com:443', null],
    ['not a uri', null],
  ])('finds the host of %s', (uri, host) => {
    expect(configHost(uri)).toBe(host);
  });
});

describe('encodeComment', () => {
  it.each([
    ['Node-1.fast_~ok', 'Node-1.fast_~ok'],
    ['a b+c', 'a%20b%2Bc'],
    ["#/?&=%:@[]!*'()\n", '%23%2F%3F%26%3D%25%3A%40%5B%5D%21%2A%27%28%29%0A'],
    ['Привет', '%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82'],
    ['🇩🇪 DE', '%F0%9F%87%A9%F0%9F%87%AA%20DE'],
  ])('encodes %j as %s', (comment, encoded) => {
    expect(encodeComment(comment)).toBe(encoded);
    expect(decodeURIComponent(encoded)).toBe(comment);
  });
});

describe('renderConfig', () => {
  const vless = `vless://${UUID}@vl.example.com:443?type=ws`;
  it.each([
    ['an encoded comment', vless, 'Frankfurt 1', `${vless}#Frankfurt%201`],
    ['a Cyrillic comment', vless, 'Москва', `${vless}#%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0`],
    ['the host for a null comment', vless, null, `${vless}#vl.example.com`],
    ['the host for an empty comment', vless, '', `${vless}#vl.example.com`],
    [
      'an encoded IPv6 host',
      `vless://${UUID}@[2001:db8::1]:443`,
      null,
      `vless://${UUID}@[2001:db8::1]:443#2001%3Adb8%3A%3A1`,
    ],
    ['nothing when there is no host', 'vless://bad@vl.example.com:443', null, 'vless://bad@vl.example.com:443'],
    ['"#" for the vmess URI form', `vmess://${UUID}@vm.example.com:443`, 'VM', `vmess://${UUID}@vm.example.com:443#VM`],
  ])('renders %s', (_label, uri, comment, line) => {
    expect(renderConfig(uri, comment)).toBe(line);
  });

  it('rewrites ps in base64 vmess JSON and re-encodes it as padded standard base64', () => {
    const out = renderConfig(`vmess://${unpad(b64url(vmessJson()))}`, 'Tokyo 東京 #2');
    const body = out.slice('vmess://'.length);
    expect(body).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(body.length % 4).toBe(0);
    expect(decodeJson(out)).toEqual({ ...(JSON.parse(vmessJson()) as object), ps: 'Tokyo 東京 #2' });
    expect(isValidProxyUri(out)).toBe(true);
  });

  it('sets vmess ps to the add host for a null comment, adding ps when missing', () => {
    expect(decodeJson(renderConfig(`vmess://${b64(vmessJson({ add: 'edge.example.net' }))}`, null))).toMatchObject({
      ps: 'edge.example.net',
    });
    const bare = `vmess://${b64(JSON.stringify({ add: 'a.example.com', port: 443, id: UUID }))}`;
    expect(decodeJson(renderConfig(bare, 'X'))).toEqual({ add: 'a.example.com', port: 443, id: UUID, ps: 'X' });
  });
});

describe('decodeBase64Loose', () => {
  const text = 'vless://one\nvless://two\nтри';
  it('decodes standard, URL-safe and unpadded input', () => {
    expect(decodeBase64Loose(b64(text))).toBe(text);
    expect(b64('subjects?>>>')).toMatch(/[+/]/);
    expect(decodeBase64Loose(b64url('subjects?>>>'))).toBe('subjects?>>>');
    expect(decodeBase64Loose(unpad(b64('ab')))).toBe('ab');
  });

  it('ignores line wrapping and surrounding whitespace', () => {
    const wrapped = (b64(text.repeat(5)).match(/.{1,16}/g) ?? []).join('\r\n');
    expect(decodeBase64Loose(`\n  ${wrapped} \n`)).toBe(text.repeat(5));
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
