// toShareUri on nodes with every optional member and awkward text: the validator accepts the link and it parses back.
import { describe, expect, it } from 'vitest';
import type { ProxyNode, Tls, Transport } from '../../src/formats/proxy.js';
import { isValidProxyUri, parseShareUri, toShareUri } from '../../src/formats/share-uri/index.js';
import { classifySource } from '../../src/modules/sources/classify.js';

const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const PIN = '65b3acd7db555768304a16abb6f4366c1a0c0bb5cec81429617f0150d7d66726';
const KEY_A = 'QJjrFqqqpbIqfI5qhbYWrPXhaBFmFq71jCj8mMaQE04=';
const KEY_B = 'N+K9fXobvy0vy3VFbn8a7tPRgUNcQbGRwjlyOMx4WHc=';
/** Every URI delimiter, a percent sign, a plus, spaces and non-ASCII text. */
const AWKWARD = 'p@ss:w/rd?#&=+% ü 🚀';
const base = { name: `name ${AWKWARD}`, server: 'proxy.example.com', port: 443, uri: '' };
const v6 = { ...base, server: '2001:db8::1' };

const fullTls: Tls = {
  serverName: 'sni.example.com',
  insecure: true,
  alpn: ['h2', 'http/1.1'],
  clientFingerprint: 'chrome',
  pinnedCertSha256: PIN,
  ech: 'AEX+/ECH=',
  disableSni: true,
};
const realityTls: Tls = {
  serverName: 'www.example.com',
  clientFingerprint: 'chrome',
  reality: { publicKey: 'ppQ9FwLrLIa0AOrp1WvcyiaQ37vg2WSy_CD4bIdiTUw', shortId: '6ba85179f3a2b4c5', spiderX: '/a?b=c' },
};

const transports: Transport[] = [
  { type: 'tcp' },
  { type: 'http', host: ['a.example.com', 'b.example.com'], path: ['/x', '/y'], method: 'POST' },
  { type: 'ws', path: '/ws?a=1&b=2', host: 'cdn.example.com', maxEarlyData: 2048, earlyDataHeaderName: 'X-Ed' },
  { type: 'ws', path: '/', host: 'cdn.example.com' },
  { type: 'httpupgrade', path: '/up', host: 'up.example.com' },
  { type: 'grpc', serviceName: 'svc/name', authority: 'auth.example.com', multiMode: true },
  { type: 'grpc', serviceName: 'svc' },
  { type: 'h2', path: '/h2', host: ['h2.example.com'] },
  { type: 'xhttp', path: '/x', host: 'x.example.com', mode: 'packet-up', extra: '{"xPaddingBytes":"100-1000"}' },
  { type: 'kcp', seed: 'seed', headerType: 'wechat-video' },
  { type: 'quic' },
];

const nodes: ProxyNode[] = [
  ...transports.map((transport): ProxyNode => ({
    ...base,
    protocol: 'vless',
    uuid: UUID,
    flow: 'xtls-rprx-vision',
    encryption: 'none',
    packetEncoding: 'xudp',
    transport,
    tls: fullTls,
  })),
  ...transports.map((transport): ProxyNode => ({
    ...v6,
    protocol: 'vmess',
    uuid: UUID,
    alterId: 2,
    cipher: 'chacha20-poly1305',
    transport,
    tls: fullTls,
  })),
  {
    ...base,
    protocol: 'vless',
    uuid: UUID,
    encryption: 'mlkem768x25519plus.native.0rtt.key',
    transport: { type: 'tcp' },
    tls: realityTls,
  },
  { ...base, protocol: 'vmess', uuid: UUID, alterId: 0, cipher: 'auto', transport: { type: 'tcp' }, tls: realityTls },
  { ...base, protocol: 'vmess', uuid: UUID, alterId: 0, cipher: 'none', transport: { type: 'tcp' } },
  { ...v6, protocol: 'trojan', password: AWKWARD, transport: transports[2] ?? { type: 'tcp' }, tls: fullTls },
  { ...base, protocol: 'trojan', password: 'pw', transport: { type: 'grpc', serviceName: 'g' }, tls: realityTls },
  { ...base, protocol: 'shadowsocks', method: 'aes-256-gcm', password: AWKWARD },
  {
    ...v6,
    protocol: 'shadowsocks',
    method: '2022-blake3-aes-128-gcm',
    password: `${KEY_A}:${KEY_B}`,
    udpOverTcp: true,
  },
  {
    ...base,
    protocol: 'shadowsocks',
    method: 'chacha20-ietf-poly1305',
    password: 'pw',
    plugin: { name: 'v2ray-plugin', options: { mode: 'websocket', tls: true, host: 'h;o=st', path: '/p\\q' } },
  },
  {
    ...base,
    protocol: 'shadowsocksr',
    method: 'aes-256-cfb',
    password: AWKWARD,
    protocolName: 'auth_aes128_md5',
    protocolParam: '1:pw',
    obfs: 'tls1.2_ticket_auth',
    obfsParam: 'cdn.example.com',
  },
  { ...v6, protocol: 'shadowsocksr', method: 'none', password: 'p', protocolName: 'origin', obfs: 'plain' },
  {
    ...v6,
    protocol: 'hysteria',
    auth: AWKWARD,
    transportProtocol: 'wechat-video',
    upMbps: 30,
    downMbps: 200,
    obfs: 'obfs+pw',
    ports: '1000-2000',
    tls: fullTls,
  },
  {
    ...base,
    protocol: 'hysteria2',
    password: AWKWARD,
    ports: '443,5000-6000',
    obfs: { type: 'salamander', password: 'a+b=' },
    upMbps: 0.5,
    downMbps: 1000,
    tls: fullTls,
  },
  { ...v6, protocol: 'hysteria2', password: '', tls: {} },
  {
    ...base,
    protocol: 'tuic',
    uuid: UUID,
    password: AWKWARD,
    congestionControl: 'bbr',
    udpRelayMode: 'quic',
    tls: fullTls,
  },
  { ...v6, protocol: 'tuic', token: AWKWARD, tls: { alpn: ['h3'] } },
  {
    ...v6,
    protocol: 'wireguard',
    privateKey: KEY_A,
    publicKey: KEY_B,
    preSharedKey: KEY_A,
    addresses: ['10.0.0.2/32', 'fd00::2/128'],
    reserved: [1, 2, 3],
    mtu: 1280,
  },
  { ...base, protocol: 'socks', username: AWKWARD, password: AWKWARD },
  { ...base, protocol: 'socks', username: 'only-user' },
  { ...v6, protocol: 'socks' },
  { ...base, protocol: 'anytls', password: AWKWARD, tls: fullTls },
];

describe.each(nodes.map((node, index) => ({ index, node, label: `${node.protocol} #${index}` })))(
  'toShareUri $label',
  ({ node }) => {
    const uri = toShareUri(node);

    it('is accepted by the source validator and the source classifier', () => {
      expect(isValidProxyUri(uri)).toBe(true);
      expect(classifySource(uri, 'https://subweave.example.com')).toMatchObject({ ok: true });
    });

    it('parses back to the same node', () => {
      const result = parseShareUri(uri);
      expect(result.ok ? { ...result.node, uri: '' } : result.reason).toStrictEqual(node);
    });
  },
);

describe('toShareUri', () => {
  it('writes vmess as v2rayN base64 JSON with the name in ps', () => {
    const node = nodes.find((candidate) => candidate.protocol === 'vmess');
    const uri = toShareUri(node as ProxyNode);
    expect(uri).toMatch(/^vmess:\/\/[A-Za-z0-9+/=]+$/);
    const json = JSON.parse(Buffer.from(uri.slice('vmess://'.length), 'base64').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ v: '2', ps: base.name, add: '2001:db8::1', port: '443', id: UUID, aid: '2' });
  });

  it('writes SIP002 base64url userinfo, and plain userinfo for 2022 ciphers', () => {
    const [classic, modern] = nodes.filter((candidate) => candidate.protocol === 'shadowsocks');
    expect(toShareUri(classic as ProxyNode)).toMatch(/^ss:\/\/[A-Za-z0-9_-]+@proxy\.example\.com:443#/);
    expect(toShareUri(modern as ProxyNode)).toMatch(
      /^ss:\/\/2022-blake3-aes-128-gcm:[^@]+@\[2001:db8::1\]:443\/\?uot=1#/,
    );
  });

  it('brackets IPv6 hosts', () => {
    const trojan = nodes.find((candidate) => candidate.protocol === 'trojan');
    expect(toShareUri(trojan as ProxyNode)).toContain('@[2001:db8::1]:443?');
  });
});
