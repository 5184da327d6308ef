// One server of every protocol (and the transports that shape documents most), which template validation renders.
import type { ProxyNode } from '../proxy.js';
import { parseShareUri } from '../share-uri/index.js';

const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const PBK = 'CrrQSjAG_YkHLwvM2M-7XkKJilgL5upBKCp0od0tLhE';
const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** Names include a group name, YAML and JSON syntax and a flag, so naming and quoting are exercised too. */
const SAMPLE_URIS = [
  `vless://${UUID}@vless.example.com:443?encryption=none&security=reality&type=tcp&sni=vless.example.com&pbk=${PBK}&sid=10f8&fp=chrome#Proxy`,
  `vless://${UUID}@ws.example.com:443?encryption=none&type=ws&path=%2Fws&host=cdn.example.com&security=tls#ws%20%22%7B%5B%3A%20-%20%23`,
  `vless://${UUID}@grpc.example.com:443?encryption=none&type=grpc&serviceName=svc&security=tls#%F0%9F%87%BA%F0%9F%87%B8%20grpc`,
  `vmess://${b64(JSON.stringify({ v: '2', ps: 'vmess', add: 'vmess.example.com', port: '443', id: UUID, aid: '0', scy: 'auto', net: 'ws', host: 'cdn.example.com', path: '/v', tls: 'tls' }))}`,
  'trojan://secret@trojan.example.com:443?sni=trojan.example.com#trojan',
  `ss://${b64('chacha20-ietf-poly1305:secret')}@ss.example.com:8388#ss`,
  `ssr://${b64(`ssr.example.com:8899:origin:aes-256-cfb:http_simple:${b64('secret')}/?remarks=${b64('ssr')}`)}`,
  'hysteria://hy.example.com:443?protocol=udp&auth=secret&peer=hy.example.com&upmbps=100&downmbps=100#hysteria',
  'hy2://secret@hy2.example.com:443?sni=hy2.example.com&obfs=salamander&obfs-password=x#hysteria2',
  `tuic://${UUID}:secret@tuic.example.com:443?alpn=h3&congestion_control=bbr&sni=tuic.example.com#tuic`,
  'wg://198.51.100.1:51820?publicKey=Cr8hWlKvtDt7nrvf%2Bf0brNQQzabAqrjfBvas9pmowjo%3D&privateKey=eCtXsJZ27%2B4PbhDkHnB923tkUn2Gj59wZw5wFA75MnU%3D&ip=10.0.0.2/32&mtu=1420#wireguard',
  `socks://${b64('user:pass')}@socks.example.com:1080#socks`,
  'anytls://secret@anytls.example.com:443?sni=anytls.example.com#anytls',
];

let samples: readonly ProxyNode[] | undefined;

/** The parsed samples; a unit test holds every URI to parsing. */
export function templateSamples(): readonly ProxyNode[] {
  samples ??= SAMPLE_URIS.flatMap((uri) => {
    const parsed = parseShareUri(uri);
    return parsed.ok ? [parsed.node] : [];
  });
  return samples;
}

export const SAMPLE_URI_COUNT = SAMPLE_URIS.length;
