// Golden share URIs taken from the clients' own converter tests, shared by the parser
// and renderer tests. URIs and the values they stand for are facts from the named files; the expected fields are
// written in our typed form. Where our reading differs from the source's, the vector says so.

export interface ParseVector {
  id: string;
  /** Repository and test file the URI and its expected values come from. */
  source: string;
  uri: string;
  /** Members of the parsed node, each compared exactly (`tls` and `transport` as whole objects). */
  expected: Record<string, unknown>;
  /** Members the parsed node must not have. */
  absent?: string[];
}

export interface RefusedVector {
  id: string;
  source: string;
  uri: string;
  /** A part of the refusal reason. */
  reason: string;
}

const MIHOMO = 'MetaCubeX/mihomo common/convert/converter_test.go (Alpha 05e8f13)';
const MIHOMO_DERIVED = 'hi2shark/meta-core common/convert/converter_test.go (mihomo-derived, 7b11680)';
const LIBXRAY = 'XTLS/libXray share/parse_share_test.go (68119dd)';
const SUBSTORE_URI = 'sub-store-org/Sub-Store backend/src/test/proxy-parsers/uri.spec.js (19ccd79)';
const SUBSTORE_V2RAY = 'sub-store-org/Sub-Store backend/src/test/proxy-parsers/v2ray-and-platforms.spec.js (19ccd79)';
const RAY2SING = (file: string): string => `hiddify/ray2sing ray2sing_test/${file} (caf5e9a)`;

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const vmessJson = (fields: Record<string, unknown>): string => `vmess://${b64(JSON.stringify(fields))}`;

/** The UUIDs the source test files use. */
const XRAY_UUID = '12345678-abcd-abcd-abcd-123456789abc';
const SUB_UUID = '11111111-1111-4111-8111-111111111111';
const MIHOMO_UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const REALITY_KEY = 'ppQ9FwLrLIa0AOrp1WvcyiaQ37vg2WSy_CD4bIdiTUw';
const SS2022_KEY = 'YctPZ6U7xPPcU+gp3u+0tx/tRizJN9K8y+uKlW2qjlI=';

// Shared by the Sub-Store vmess vectors below.
const SUB_VMESS = { v: '2', id: SUB_UUID, aid: '0', scy: 'auto', port: '443' };
const SUB_XHTTP_EXTRA = JSON.stringify({
  noGRPCHeader: true,
  xPaddingBytes: '64-128',
  scMaxEachPostBytes: 1000000,
  scMinPostsIntervalMs: 300,
  sessionIDTable: 'abcXYZ012',
  sessionIDLength: 16,
  xmux: {
    maxConnections: 0,
    maxConcurrency: '16-32',
    cMaxReuseTimes: '64-128',
    hMaxRequestTimes: '600-900',
    hMaxReusableSecs: '1800-3000',
  },
});

export const PARSE_VECTORS: ParseVector[] = [
  // --- mihomo ---
  {
    id: 'M01b',
    source: `${MIHOMO_DERIVED} TestConvertsV2Ray_normal (upstream M01 with a 32-byte pin)`,
    uri: 'hysteria2://letmein@example.com:8443/?insecure=1&obfs=salamander&obfs-password=gawrgura&pinSHA256=65b3acd7db555768304a16abb6f4366c1a0c0bb5cec81429617f0150d7d66726&sni=real.example.com&up=114&down=514&alpn=h3,h4#hy2test',
    expected: {
      protocol: 'hysteria2',
      name: 'hy2test',
      server: 'example.com',
      port: 8443,
      password: 'letmein',
      obfs: { type: 'salamander', password: 'gawrgura' },
      upMbps: 114,
      downMbps: 514,
      tls: {
        serverName: 'real.example.com',
        insecure: true,
        alpn: ['h3', 'h4'],
        pinnedCertSha256: '65b3acd7db555768304a16abb6f4366c1a0c0bb5cec81429617f0150d7d66726',
      },
    },
    absent: ['ports'],
  },
  {
    id: 'M02',
    source: `${MIHOMO_DERIVED} TestConvertsV2Ray_hysteria2PortHopping`,
    uri: 'hysteria2://letmein@example.com:443,5000-6000/?sni=example.com#hop',
    expected: { protocol: 'hysteria2', server: 'example.com', port: 443, ports: '443,5000-6000', password: 'letmein' },
  },
  {
    id: 'M06',
    source: `${MIHOMO_DERIVED} TestConvertsV2RayVmessBase64H2Transport (mihomo #2738)`,
    uri: 'vmess://eyJ2IjoiMiIsInBzIjoiZGVtbyIsImFkZCI6InNlcnZlci5leGFtcGxlLmNvbSIsInBvcnQiOiI0NDMiLCJpZCI6ImI4MzEzODFkLTYzMjQtNGQ1My1hZDRmLThjZGE0OGIzMDgxMSIsImFpZCI6IjAiLCJzY3kiOiJhdXRvIiwibmV0IjoiaDIiLCJ0eXBlIjoibm9uZSIsImhvc3QiOiJjZG4uZXhhbXBsZS5jb20iLCJwYXRoIjoiL2dycGMiLCJ0bHMiOiJ0bHMifQ==',
    expected: {
      protocol: 'vmess',
      name: 'demo',
      server: 'server.example.com',
      port: 443,
      uuid: MIHOMO_UUID,
      alterId: 0,
      cipher: 'auto',
      transport: { type: 'h2', host: ['cdn.example.com'], path: '/grpc' },
      tls: {},
    },
  },
  {
    id: 'M07',
    source: `${MIHOMO_DERIVED} TestConvertsV2RayVmessBase64HTTPRemappedToH2Transport`,
    uri: 'vmess://eyJ2IjoiMiIsInBzIjoiZGVtby1odHRwLXJlbWFwcGVkIiwiYWRkIjoic2VydmVyLmV4YW1wbGUuY29tIiwicG9ydCI6IjQ0MyIsImlkIjoiYjgzMTM4MWQtNjMyNC00ZDUzLWFkNGYtOGNkYTQ4YjMwODExIiwiYWlkIjoiMCIsInNjeSI6ImF1dG8iLCJuZXQiOiJodHRwIiwidHlwZSI6Im5vbmUiLCJob3N0IjoiY2RuLmV4YW1wbGUuY29tIiwicGF0aCI6Ii9ncnBjIiwidGxzIjoidGxzIn0=',
    expected: {
      protocol: 'vmess',
      name: 'demo-http-remapped',
      transport: { type: 'h2', host: ['cdn.example.com'], path: '/grpc' },
      tls: {},
    },
  },
  {
    id: 'M08',
    source: `${MIHOMO_DERIVED} TestConvertsV2RayRealityMLKEM768 (vless, absent)`,
    uri: `vless://${MIHOMO_UUID}@example.com:443?security=reality&type=tcp&sid=00112233&pbk=${REALITY_KEY}`,
    expected: {
      protocol: 'vless',
      encryption: 'none',
      transport: { type: 'tcp' },
      tls: { reality: { publicKey: REALITY_KEY, shortId: '00112233' } },
    },
  },
  {
    id: 'M09',
    source: `${MIHOMO_DERIVED} TestConvertsV2RayRealityMLKEM768 (vmess URI form, absent)`,
    uri: `vmess://${MIHOMO_UUID}@example.com:443?security=reality&type=tcp&sid=00112233&pbk=${REALITY_KEY}`,
    expected: {
      protocol: 'vmess',
      uuid: MIHOMO_UUID,
      alterId: 0,
      cipher: 'auto',
      tls: { reality: { publicKey: REALITY_KEY, shortId: '00112233' } },
    },
  },

  // --- libXray ---
  {
    id: 'X01',
    source: `${LIBXRAY} TestHysteria2_Minimal`,
    uri: 'hy2://auth@host:443?sni=example.com',
    expected: {
      protocol: 'hysteria2',
      name: 'hysteria2 host:443',
      server: 'host',
      port: 443,
      password: 'auth',
      tls: { serverName: 'example.com' },
    },
    absent: ['obfs', 'upMbps', 'downMbps', 'ports'],
  },
  {
    id: 'X02',
    source: `${LIBXRAY} TestHysteria2_WithBandwidth`,
    uri: 'hy2://auth@host:443?up=100+mbps&down=200+mbps&sni=example.com',
    expected: { protocol: 'hysteria2', upMbps: 100, downMbps: 200 },
    absent: ['obfs'],
  },
  {
    id: 'X03',
    source: `${LIBXRAY} TestHysteria2_WithSalamander`,
    uri: 'hy2://auth@host:443?obfs=salamander&obfs-password=secret&sni=example.com',
    expected: { protocol: 'hysteria2', obfs: { type: 'salamander', password: 'secret' } },
    absent: ['upMbps'],
  },
  {
    id: 'X04',
    source: `${LIBXRAY} TestHysteria2_WithEverything`,
    uri: 'hy2://auth@host:443?up=50+mbps&down=100+mbps&obfs=salamander&obfs-password=secret&ports=20000-40000&hop-interval=30&sni=example.com',
    expected: {
      protocol: 'hysteria2',
      port: 443,
      ports: '20000-40000',
      upMbps: 50,
      downMbps: 100,
      obfs: { type: 'salamander', password: 'secret' },
    },
  },
  {
    id: 'X05',
    source: `${LIBXRAY} TestHysteria2_WithTLSParams`,
    uri: 'hy2://auth@host:443?sni=example.com&alpn=h3&fp=chrome',
    expected: { tls: { serverName: 'example.com', alpn: ['h3'], clientFingerprint: 'chrome' } },
  },
  {
    id: 'X06',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_VlessWSAndTLS`,
    uri: `vless://${XRAY_UUID}@edge.example:443?encryption=none&type=ws&path=%2Fws&host=cdn.edge&security=tls&sni=edge.example&alpn=h2%2Ch3&fp=chrome&vcn=edge.example`,
    expected: {
      protocol: 'vless',
      server: 'edge.example',
      port: 443,
      uuid: XRAY_UUID,
      encryption: 'none',
      transport: { type: 'ws', path: '/ws', host: 'cdn.edge' },
      tls: {
        serverName: 'edge.example',
        alpn: ['h2', 'h3'],
        clientFingerprint: 'chrome',
        verifyPeerCertByName: 'edge.example',
      },
    },
  },
  {
    id: 'X07',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_VlessReality`,
    uri: `vless://${XRAY_UUID}@reality.example:443?encryption=none&security=reality&type=tcp&sni=reality.example&pbk=${'A'.repeat(43)}&sid=abcd&fp=chrome&spx=%2F`,
    expected: {
      protocol: 'vless',
      transport: { type: 'tcp' },
      tls: {
        serverName: 'reality.example',
        clientFingerprint: 'chrome',
        reality: { publicKey: 'A'.repeat(43), shortId: 'abcd', spiderX: '/' },
      },
    },
  },
  {
    id: 'X08',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_Trojan`,
    uri: 'trojan://tpw@trojan.host:4443?sni=trojan.host#tname',
    expected: {
      protocol: 'trojan',
      name: 'tname',
      server: 'trojan.host',
      port: 4443,
      password: 'tpw',
      transport: { type: 'tcp' },
      tls: { serverName: 'trojan.host' },
    },
  },
  {
    id: 'X09',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_SocksWithAuth`,
    uri: `socks://${b64('socksuser:sockspass')}@127.0.0.1:1081#sk`,
    expected: {
      protocol: 'socks',
      name: 'sk',
      server: '127.0.0.1',
      port: 1081,
      username: 'socksuser',
      password: 'sockspass',
    },
  },
  {
    id: 'X10',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_VmessPlainURL`,
    uri: `vmess://${XRAY_UUID}@vm.example:443?encryption=auto&type=tcp&headerType=http&path=%2Fpath1%2C%2Fpath2&host=h1%2Ch2`,
    expected: {
      protocol: 'vmess',
      uuid: XRAY_UUID,
      cipher: 'auto',
      alterId: 0,
      transport: { type: 'http', host: ['h1', 'h2'], path: ['/path1', '/path2'] },
    },
    absent: ['tls'],
  },
  {
    id: 'X11',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_VmessBase64QR`,
    uri: vmessJson({
      ps: 'qrname',
      add: 'vm.add',
      port: '8443',
      id: XRAY_UUID,
      scy: 'auto',
      net: 'ws',
      host: 'ws.host',
      path: '/w',
      tls: 'tls',
      sni: 'tls.sni',
      alpn: 'h2,h3',
      fp: 'safari',
    }),
    expected: {
      protocol: 'vmess',
      name: 'qrname',
      server: 'vm.add',
      port: 8443,
      uuid: XRAY_UUID,
      transport: { type: 'ws', path: '/w', host: 'ws.host' },
      tls: { serverName: 'tls.sni', alpn: ['h2', 'h3'], clientFingerprint: 'safari' },
    },
  },
  {
    id: 'X12',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_TransportKcpGrpcHttpUpgradeXhttp (grpc)`,
    uri: `vless://${XRAY_UUID}@g.example:443?encryption=none&type=grpc&serviceName=svc&authority=auth.here&mode=multi`,
    expected: { transport: { type: 'grpc', serviceName: 'svc', authority: 'auth.here', multiMode: true } },
  },
  {
    id: 'X13',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_TransportKcpGrpcHttpUpgradeXhttp (httpupgrade)`,
    uri: `vless://${XRAY_UUID}@hu.example:443?encryption=none&type=httpupgrade&path=%2Fup&host=hu.host`,
    expected: { transport: { type: 'httpupgrade', path: '/up', host: 'hu.host' } },
  },
  {
    id: 'X14',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_TransportKcpGrpcHttpUpgradeXhttp (xhttp_extra)`,
    uri: `vless://${XRAY_UUID}@xh.example:443?encryption=none&type=xhttp&path=%2Fx&host=xh.host&mode=stream-up&extra=%7B%22host%22%3A%22xh.extra%22%7D`,
    expected: {
      transport: { type: 'xhttp', path: '/x', host: 'xh.host', mode: 'stream-up', extra: '{"host":"xh.extra"}' },
    },
  },
  {
    // libXray refuses it for current Xray (mkcp header and seed were removed); the link itself is well formed.
    id: 'X15',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_TransportKcpGrpcHttpUpgradeXhttp (kcp)`,
    uri: `vless://${XRAY_UUID}@k.example:443?encryption=none&type=kcp&headerType=srtp&seed=myseed`,
    expected: { transport: { type: 'kcp', seed: 'myseed', headerType: 'srtp' } },
  },
  {
    id: 'X16',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_VmessQRGrpcAndKcp (grpc)`,
    uri: vmessJson({
      ps: 'g',
      add: 'grpc.host',
      port: '443',
      id: XRAY_UUID,
      net: 'grpc',
      path: 'svcname',
      type: 'multi',
    }),
    expected: {
      protocol: 'vmess',
      name: 'g',
      server: 'grpc.host',
      cipher: 'auto',
      alterId: 0,
      transport: { type: 'grpc', serviceName: 'svcname', multiMode: true },
    },
  },
  {
    id: 'X17',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_Shadowsocks`,
    uri: `ss://${b64('chacha20-ietf-poly1305:mypass')}@10.0.0.1:8388#frag`,
    expected: {
      protocol: 'shadowsocks',
      name: 'frag',
      server: '10.0.0.1',
      port: 8388,
      method: 'chacha20-ietf-poly1305',
      password: 'mypass',
    },
    absent: ['plugin'],
  },
  {
    id: 'X18',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_ShadowsocksPlainUserInfo`,
    uri: `ss://2022-blake3-aes-256-gcm:${encodeURIComponent(SS2022_KEY)}@192.168.100.1:8888#Example3`,
    expected: { method: '2022-blake3-aes-256-gcm', password: SS2022_KEY, port: 8888 },
  },
  {
    id: 'X19',
    source: `${LIBXRAY} TestParseShadowsocksUserInfo_PlainPercentEncoding`,
    uri: 'ss://aes-128-gcm:p%40ss%3Aword%2Fwith%2Bsymbols@ss.example.com:8388',
    expected: { method: 'aes-128-gcm', password: 'p@ss:word/with+symbols', name: 'shadowsocks ss.example.com:8388' },
  },
  {
    id: 'X20',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_Base64EncodedLines`,
    uri: 'trojan://secret@trojan.example.com:443?sni=trojan.example.com',
    expected: { protocol: 'trojan', password: 'secret', tls: { serverName: 'trojan.example.com' } },
  },
  {
    id: 'X21',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_Base64URLSafeBlob`,
    uri: `vless://${XRAY_UUID}@10.0.0.1:443?encryption=none&security=none`,
    expected: { protocol: 'vless', server: '10.0.0.1', transport: { type: 'tcp' } },
    absent: ['tls', 'flow'],
  },
  {
    id: 'X22',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_Base64EncodedLines (ss)`,
    uri: `ss://${b64('aes-128-gcm:pwd')}@ss.example.com:8388#ssn`,
    expected: { protocol: 'shadowsocks', name: 'ssn', method: 'aes-128-gcm', password: 'pwd' },
  },

  // --- Sub-Store: uri.spec.js ---
  {
    id: 'S01',
    source: `${SUBSTORE_URI} parses legacy socks:// URIs with base64 auth`,
    uri: `socks://${encodeURIComponent(b64('bob:secret'))}@socks.example.com:1080#SOCKS`,
    expected: {
      protocol: 'socks',
      name: 'SOCKS',
      server: 'socks.example.com',
      port: 1080,
      username: 'bob',
      password: 'secret',
    },
  },
  {
    id: 'S02',
    source: `${SUBSTORE_URI} keeps the full socks fragment comment after the first hash`,
    uri: `socks://${encodeURIComponent(b64('bob:secret'))}@socks.example.com:1080#SOCKS#Remark`,
    expected: { name: 'SOCKS#Remark', username: 'bob' },
  },
  {
    // Sub-Store also reads `tfo`; the typed form has no TCP fast open.
    id: 'S03',
    source: `${SUBSTORE_URI} parses SIP002 shadowsocks URIs with obfs and transport flags`,
    uri: `ss://${encodeURIComponent(b64('aes-128-gcm:secret'))}@ss.example.com:8388/?plugin=${encodeURIComponent('obfs-local;obfs=http;obfs-host=obfs.example.com')}&uot=1&tfo=1#SS%20Obfs`,
    expected: {
      protocol: 'shadowsocks',
      name: 'SS Obfs',
      server: 'ss.example.com',
      port: 8388,
      method: 'aes-128-gcm',
      password: 'secret',
      plugin: { name: 'obfs-local', options: { obfs: 'http', 'obfs-host': 'obfs.example.com' } },
      udpOverTcp: true,
    },
  },
  {
    id: 'S04',
    source: `${SUBSTORE_URI} parses SIP002 Base64URL shadowsocks userinfo`,
    uri: `ss://${b64url('aes-128-gcm:aa>')}@ss.example.com:8388#SS%20Base64URL`,
    expected: { name: 'SS Base64URL', method: 'aes-128-gcm', password: 'aa>' },
  },
  {
    id: 'S05',
    source: `${SUBSTORE_URI} parses SIP002 plain shadowsocks userinfo with percent-encoded credentials`,
    uri: `ss://aes-128-gcm:${encodeURIComponent('sec:ret@/plus+')}@ss.example.com:8388#SS%20Plain`,
    expected: { name: 'SS Plain', method: 'aes-128-gcm', password: 'sec:ret@/plus+' },
  },
  {
    id: 'S06',
    source: `${SUBSTORE_URI} parses SIP002 AEAD-2022 plain userinfo without Base64URL decoding`,
    uri: `ss://2022-blake3-aes-256-gcm:${encodeURIComponent(SS2022_KEY)}@192.168.100.1:8888#SS%202022`,
    expected: {
      name: 'SS 2022',
      server: '192.168.100.1',
      port: 8888,
      method: '2022-blake3-aes-256-gcm',
      password: SS2022_KEY,
    },
  },
  {
    id: 'S07',
    source: `${SUBSTORE_URI} parses legacy shadowsocks URIs with v2ray-plugin options`,
    uri: `ss://${b64('chacha20-ietf-poly1305:legacy-pass@legacy.example.com:443')}?plugin=${encodeURIComponent('v2ray-plugin;tls;host=cdn.example.com;path=/socket')}#SS%20V2ray`,
    expected: {
      protocol: 'shadowsocks',
      name: 'SS V2ray',
      server: 'legacy.example.com',
      port: 443,
      method: 'chacha20-ietf-poly1305',
      password: 'legacy-pass',
      plugin: { name: 'v2ray-plugin', options: { tls: true, host: 'cdn.example.com', path: '/socket' } },
    },
  },
  {
    id: 'S08',
    source: `${SUBSTORE_URI} parses v2ray-plugin paths containing escaped equals signs`,
    uri: `ss://${encodeURIComponent(b64('aes-128-gcm:secret'))}@ss.example.com:8080?plugin=${encodeURIComponent('v2ray-plugin;mode=websocket;host=cdn.example.com;path=/?enc\\=aes-128-gcm')}#SS%20Escaped%20Path`,
    expected: {
      port: 8080,
      plugin: {
        name: 'v2ray-plugin',
        options: { mode: 'websocket', host: 'cdn.example.com', path: '/?enc=aes-128-gcm' },
      },
    },
  },
  {
    id: 'S09',
    source: `${SUBSTORE_URI} parses shadowsocks v2ray-plugin URI flags for sni, skip-cert-verify, and mux`,
    uri: `ss://${encodeURIComponent(b64('aes-128-gcm:secret'))}@ss.example.com:443/?plugin=${encodeURIComponent('v2ray-plugin;obfs=websocket;host=cdn.example.com;path=/socket;tls;sni=sni.example.com;skip-cert-verify=1;mux=1')}#SS%20V2ray%20Flags`,
    expected: {
      plugin: {
        name: 'v2ray-plugin',
        options: {
          obfs: 'websocket',
          host: 'cdn.example.com',
          path: '/socket',
          tls: true,
          sni: 'sni.example.com',
          'skip-cert-verify': '1',
          mux: '1',
        },
      },
    },
  },
  {
    id: 'S10',
    source: `${SUBSTORE_URI} parses SSR URIs with protocol and obfs parameters`,
    uri: `ssr://${b64(`ssr.example.com:8899:origin:aes-256-cfb:http_simple:${b64('ssr-secret')}/?remarks=${b64('SSR Node')}&obfsparam=${b64('cdn.example.com')}&protoparam=${b64('user:pass')}`)}`,
    expected: {
      protocol: 'shadowsocksr',
      name: 'SSR Node',
      server: 'ssr.example.com',
      port: 8899,
      protocolName: 'origin',
      method: 'aes-256-cfb',
      obfs: 'http_simple',
      password: 'ssr-secret',
      protocolParam: 'user:pass',
      obfsParam: 'cdn.example.com',
    },
  },
  {
    id: 'S11',
    source: `${SUBSTORE_URI} parses AnyTLS URIs and drops plain tcp transport metadata`,
    uri: 'anytls://top-secret@anytls.example.com:443?type=tcp&alpn=h2,http/1.1&insecure=1&udp=1#AnyTLS',
    expected: {
      protocol: 'anytls',
      name: 'AnyTLS',
      server: 'anytls.example.com',
      port: 443,
      password: 'top-secret',
      tls: { alpn: ['h2', 'http/1.1'], insecure: true },
    },
  },
  {
    id: 'S12',
    source: `${SUBSTORE_URI} parses Hysteria2 URIs with mport overrides`,
    uri: 'hy2://hy2-secret@hy2.example.com:443?mport=9000,9002-9004#Hy2%20Mport',
    expected: { name: 'Hy2 Mport', port: 443, ports: '9000,9002-9004', password: 'hy2-secret' },
  },
  {
    id: 'S13',
    source: `${SUBSTORE_URI} parses Hysteria2 URI throughput fields`,
    uri: 'hy2://hy2-secret@hy2.example.com:443?upmbps=50&downmbps=100#Hy2%20Throughput',
    expected: { upMbps: 50, downMbps: 100 },
  },
  {
    id: 'S14',
    source: `${SUBSTORE_URI} parses Hysteria2 URI ech fields`,
    uri: 'hy2://hy2-secret@hy2.example.com:443?ech=ECHCONFIG#Hy2%20ECH',
    expected: { tls: { ech: 'ECHCONFIG' } },
  },
  {
    // Sub-Store also reads the legacy `ws&wspath=` flags; only the IPv6 endpoint is checked here.
    id: 'S15',
    source: `${SUBSTORE_URI} parses Trojan IPv6 URIs with valueless flags`,
    uri: 'trojan://trojan-pass@[2001:db8::1]:443?udp&tfo&ws&wspath=%2Fws#Trojan%20IPv6',
    expected: { protocol: 'trojan', name: 'Trojan IPv6', server: '2001:db8::1', port: 443, password: 'trojan-pass' },
  },
  {
    id: 'S16',
    source: `${SUBSTORE_URI} parses Trojan vcn values into mihomo and sidecar fields`,
    uri: 'trojan://trojan-pass@trojan.example.com:443?vcn=first.example.com%2Csecond.example.com#Trojan%20VCN',
    expected: {
      protocol: 'trojan',
      name: 'Trojan VCN',
      port: 443,
      tls: { verifyPeerCertByName: 'first.example.com,second.example.com' },
    },
  },
  {
    id: 'S17',
    source: `${SUBSTORE_URI} preserves trailing base64 padding in WireGuard key query params`,
    uri: 'wg://120.233.41.77:19368?publicKey=N+K9fXobvy0vy3VFbn8a7tPRgUNcQbGRwjlyOMx4WHc=&privateKey=QJjrFqqqpbIqfI5qhbYWrPXhaBFmFq71jCj8mMaQE04=&ip=10.0.20.45/16,fd10:10:10:0:10:0:20:45/64&mtu=1420&udp=1#HK-%E5%A4%A7%E5%B8%A6%E5%AE%BD4',
    expected: {
      protocol: 'wireguard',
      name: 'HK-大带宽4',
      server: '120.233.41.77',
      port: 19368,
      publicKey: 'N+K9fXobvy0vy3VFbn8a7tPRgUNcQbGRwjlyOMx4WHc=',
      privateKey: 'QJjrFqqqpbIqfI5qhbYWrPXhaBFmFq71jCj8mMaQE04=',
      addresses: ['10.0.20.45/16', 'fd10:10:10:0:10:0:20:45/64'],
      mtu: 1420,
    },
    absent: ['preSharedKey', 'reserved'],
  },

  // --- Sub-Store: v2ray-and-platforms.spec.js ---
  {
    id: 'S18',
    source: `${SUBSTORE_V2RAY} parses V2rayN ws shares`,
    uri: vmessJson({
      ...SUB_VMESS,
      ps: 'VMess WS',
      add: 'vmess-ws.example.com',
      net: 'ws',
      host: 'cdn.example.com',
      path: '/socket',
      tls: 'tls',
      sni: 'sni.example.com',
      allowInsecure: '1',
      fp: 'chrome',
      alpn: 'h2',
    }),
    expected: {
      protocol: 'vmess',
      name: 'VMess WS',
      server: 'vmess-ws.example.com',
      port: 443,
      uuid: SUB_UUID,
      alterId: 0,
      cipher: 'auto',
      transport: { type: 'ws', path: '/socket', host: 'cdn.example.com' },
      tls: { serverName: 'sni.example.com', insecure: true, clientFingerprint: 'chrome', alpn: ['h2'] },
    },
  },
  {
    id: 'S19',
    source: `${SUBSTORE_V2RAY} prefers fragment comments over internal V2rayN vmess names`,
    uri: `${vmessJson({
      ...SUB_VMESS,
      ps: 'VMess WS Fragment',
      add: 'vmess-fragment.example.com',
      scy: 'none',
      net: 'ws',
      host: 'fragment.example.com',
      path: '/fragment?ed=2560',
      tls: 'tls',
      sni: 'sni.fragment.example.com',
      fp: 'chrome',
    })}#Outer%20Fragment%20Remark`,
    expected: {
      name: 'Outer Fragment Remark',
      cipher: 'none',
      transport: { type: 'ws', path: '/fragment', host: 'fragment.example.com', maxEarlyData: 2560 },
      tls: { serverName: 'sni.fragment.example.com', clientFingerprint: 'chrome' },
    },
  },
  {
    id: 'S20',
    source: `${SUBSTORE_V2RAY} keeps supported zero VMess security values`,
    uri: vmessJson({
      ps: 'VMess Zero Security',
      add: 'vmess-zero.example.com',
      port: '443',
      id: SUB_UUID,
      aid: '0',
      scy: 'zero',
    }),
    expected: { name: 'VMess Zero Security', cipher: 'zero', alterId: 0, transport: { type: 'tcp' } },
    absent: ['tls'],
  },
  {
    id: 'S21',
    source: `${SUBSTORE_V2RAY} parses V2rayN http transport shares as h2`,
    uri: vmessJson({
      ps: 'VMess H2',
      add: 'vmess-http.example.com',
      port: '443',
      id: SUB_UUID,
      aid: '1',
      scy: 'unknown-cipher',
      net: 'http',
      host: 'h1.example.com,h2.example.com',
      path: '/a,/b',
    }),
    expected: {
      alterId: 1,
      cipher: 'auto',
      transport: { type: 'h2', host: ['h1.example.com', 'h2.example.com'], path: '/a,/b' },
    },
  },
  {
    // Sub-Store keeps only the first Host and the unsplit path; like v2rayN and libXray (X10) we split both lists.
    id: 'S22',
    source: `${SUBSTORE_V2RAY} parses V2rayN tcp fake-http shares as http header transport`,
    uri: vmessJson({
      ps: 'VMess HTTP Header',
      add: 'vmess-http-header.example.com',
      port: '80',
      id: SUB_UUID,
      aid: '1',
      scy: 'auto',
      net: 'tcp',
      type: 'http',
      host: 'h1.example.com,h2.example.com',
      path: '/a,/b',
    }),
    expected: {
      port: 80,
      alterId: 1,
      transport: { type: 'http', host: ['h1.example.com', 'h2.example.com'], path: ['/a', '/b'] },
    },
  },
  {
    id: 'S23',
    source: `${SUBSTORE_V2RAY} parses V2rayN grpc shares`,
    uri: vmessJson({
      ...SUB_VMESS,
      ps: 'VMess gRPC',
      add: 'vmess-grpc.example.com',
      net: 'grpc',
      path: 'grpc-service',
      type: 'multi',
      authority: 'grpc.example.com',
    }),
    expected: {
      transport: { type: 'grpc', serviceName: 'grpc-service', authority: 'grpc.example.com', multiMode: true },
    },
  },
  {
    id: 'S24',
    source: `${SUBSTORE_V2RAY} parses V2rayN quic shares`,
    uri: vmessJson({
      ...SUB_VMESS,
      ps: 'VMess QUIC',
      add: 'vmess-quic.example.com',
      net: 'quic',
      host: 'quic-host.example.com',
      path: '/quic',
      type: 'wireguard',
    }),
    expected: { name: 'VMess QUIC', transport: { type: 'quic' } },
  },
  {
    id: 'S25',
    source: `${SUBSTORE_V2RAY} parses V2rayN httpupgrade shares as websocket upgrades`,
    uri: vmessJson({
      ...SUB_VMESS,
      ps: 'VMess Upgrade',
      add: 'vmess-upgrade.example.com',
      net: 'httpupgrade',
      host: 'upgrade.example.com',
      path: '/upgrade',
    }),
    expected: { transport: { type: 'httpupgrade', path: '/upgrade', host: 'upgrade.example.com' } },
  },
  {
    id: 'S26',
    source: `${SUBSTORE_V2RAY} parses websocket VLESS shares`,
    uri: `vless://${SUB_UUID}@vless-ws.example.com:443?type=ws&security=tls&sni=sni.example.com&host=cdn.example.com&path=%2Fws&allowInsecure=1&fp=chrome&alpn=h2#VLESS%20WS`,
    expected: {
      protocol: 'vless',
      name: 'VLESS WS',
      server: 'vless-ws.example.com',
      port: 443,
      uuid: SUB_UUID,
      encryption: 'none',
      transport: { type: 'ws', path: '/ws', host: 'cdn.example.com' },
      tls: { serverName: 'sni.example.com', insecure: true, clientFingerprint: 'chrome', alpn: ['h2'] },
    },
    absent: ['packetEncoding', 'flow'],
  },
  {
    id: 'S27',
    source: `${SUBSTORE_V2RAY} parses websocket VLESS shares with packet encoding and early data`,
    uri: `vless://${SUB_UUID}@vless-ws.example.com:443?type=ws&security=tls&host=cdn.example.com&path=%2Fws&packetEncoding=packet&ed=2048&eh=X-Data#VLESS%20WS%20Early`,
    expected: {
      packetEncoding: 'packetaddr',
      transport: {
        type: 'ws',
        path: '/ws',
        host: 'cdn.example.com',
        maxEarlyData: 2048,
        earlyDataHeaderName: 'X-Data',
      },
      tls: {},
    },
  },
  {
    id: 'S28',
    source: `${SUBSTORE_V2RAY} parses websocket VLESS shares with xudp packet encoding`,
    uri: `vless://${SUB_UUID}@vless-xudp.example.com:443?type=ws&security=tls&host=cdn.example.com&path=%2Fws&packetEncoding=xudp#VLESS%20WS%20XUDP`,
    expected: { packetEncoding: 'xudp' },
  },
  {
    id: 'S29',
    source: `${SUBSTORE_V2RAY} parses VLESS share ECH config into mihomo ech opts`,
    uri: `vless://${SUB_UUID}@vless-ws.example.com:443?type=ws&security=tls&host=cdn.example.com&path=%2Fws&ech=${encodeURIComponent('ECHCONFIG')}#VLESS%20WS%20ECH`,
    expected: { tls: { ech: 'ECHCONFIG' } },
  },
  {
    id: 'S30',
    source: `${SUBSTORE_V2RAY} parses tcp http-header VLESS shares`,
    uri: `vless://${SUB_UUID}@vless-http.example.com:80?type=tcp&headerType=http&host=http.example.com&path=%2Fedge&method=GET#VLESS%20HTTP`,
    expected: {
      port: 80,
      transport: { type: 'http', host: ['http.example.com'], path: ['/edge'], method: 'GET' },
    },
    absent: ['tls'],
  },
  {
    id: 'S31',
    source: `${SUBSTORE_V2RAY} parses httpupgrade VLESS shares as websocket upgrades`,
    uri: `vless://${SUB_UUID}@vless-upgrade.example.com:443?type=httpupgrade&host=upgrade.example.com&path=%2Fupgrade#VLESS%20Upgrade`,
    expected: { transport: { type: 'httpupgrade', path: '/upgrade', host: 'upgrade.example.com' } },
  },
  {
    id: 'S32',
    source: `${SUBSTORE_V2RAY} parses websocket VLESS path early data from multiple query params`,
    uri: `vless://${SUB_UUID}@vless-ws.example.com:443?type=ws&security=tls&host=cdn.example.com&path=%2Fws%3Fa%3D1%26ed%3D2048%26b%3D2#VLESS%20WS%20Path%20Early`,
    expected: { transport: { type: 'ws', path: '/ws?a=1&b=2', host: 'cdn.example.com', maxEarlyData: 2048 } },
  },
  {
    id: 'S33',
    source: `${SUBSTORE_V2RAY} parses kcp VLESS shares`,
    uri: `vless://${SUB_UUID}@vless-kcp.example.com:443?type=kcp&headerType=srtp&host=kcp.example.com&path=%2Fkcp&seed=seed-value&mode=packet&extra=extra-value#VLESS%20KCP`,
    expected: { transport: { type: 'kcp', seed: 'seed-value', headerType: 'srtp' } },
  },
  {
    id: 'S34',
    source: `${SUBSTORE_V2RAY} parses h2 VLESS shares from share-link http transport`,
    uri: `vless://${SUB_UUID}@vless-h2.example.com:443?type=http&host=h2.example.com,h2-alt.example.com&path=%2Fh2&h2=1&packetEncoding=none#VLESS%20H2`,
    expected: {
      packetEncoding: 'none',
      transport: { type: 'h2', host: ['h2.example.com', 'h2-alt.example.com'], path: '/h2' },
    },
  },
  {
    id: 'S35',
    source: `${SUBSTORE_V2RAY} parses xhttp VLESS shares with mihomo transport extras`,
    uri: `vless://${SUB_UUID}@vless-xhttp.example.com:443?type=xhttp&security=tls&host=cdn.example.com&path=%2Fxhttp&mode=stream-up&extra=${encodeURIComponent(SUB_XHTTP_EXTRA)}#VLESS%20XHTTP`,
    expected: {
      transport: {
        type: 'xhttp',
        path: '/xhttp',
        host: 'cdn.example.com',
        mode: 'stream-up',
        extra: SUB_XHTTP_EXTRA,
      },
      tls: {},
    },
  },

  // --- ray2sing (Hiddify) ---
  {
    // The fragment is percent-decoded, not form-decoded: '+' stays '+', as in ray2sing's tag.
    id: 'R01',
    source: RAY2SING('shadowsocks_test.go'),
    uri: 'ss://Y2hhY2hhMjAtaWV0Zi1wb2x5MTMwNTp0T3dPeXZsWGlZNUFUSkFVT3BYTlBO@5.35.34.107:55990#%D8%B1%D8%A7%DB%8C%DA%AF%D8%A7%D9%86+%7C+SS+%7C+%40iP_CF+%7C+RU%F0%9F%87%B7%F0%9F%87%BA+%7C+0%EF%B8%8F%E2%83%A31%EF%B8%8F%E2%83%A3',
    expected: {
      protocol: 'shadowsocks',
      name: 'رایگان+|+SS+|+@iP_CF+|+RU🇷🇺+|+0️⃣1️⃣',
      server: '5.35.34.107',
      port: 55990,
      method: 'chacha20-ietf-poly1305',
      password: 'tOwOyvlXiY5ATJAUOpXNPN',
    },
  },
  {
    id: 'R02',
    source: `${RAY2SING('shadowsocks_test.go')} (2022 multi-user, base64 userinfo)`,
    uri: 'ss://MjAyMi1ibGFrZTMtYWVzLTEyOC1nY206cTdENzRBVjhCRlY0UUk3NWVqVS9nTXViWER4ejEyRysvU2o3RUlyTHZCdz06L21JTjIvb0pZRzBJbHZGYlA1UEs5VmhGcnlTODl0ZjFEK3E4SUR1czA0VT0%3D@10.20.30.40:54321#sample-tag',
    expected: {
      name: 'sample-tag',
      server: '10.20.30.40',
      port: 54321,
      method: '2022-blake3-aes-128-gcm',
      password: 'q7D74AV8BFV4QI75ejU/gMubXDxz12G+/Sj7EIrLvBw=:/mIN2/oJYG0IlvFbP5PK9VhFryS89tf1D+q8IDus04U=',
    },
  },
  {
    id: 'R03',
    source: `${RAY2SING('shadowsocks_test.go')} (2022 multi-user, plain userinfo)`,
    uri: 'ss://2022-blake3-aes-128-gcm:q7D74AV8BFV4QI75ejU%2FgMubXDxz12G%2B%2FSj7EIrLvBw%3D:%2FmIN2%2FoJYG0IlvFbP5PK9VhFryS89tf1D%2Bq8IDus04U%3D@10.20.30.40:54321#sample-tag',
    expected: {
      method: '2022-blake3-aes-128-gcm',
      password: 'q7D74AV8BFV4QI75ejU/gMubXDxz12G+/Sj7EIrLvBw=:/mIN2/oJYG0IlvFbP5PK9VhFryS89tf1D+q8IDus04U=',
    },
  },
  {
    id: 'R05',
    source: RAY2SING('hysteria_test.go'),
    uri: 'hysteria://host:443?protocol=udp&auth=123456&peer=sni.domain&insecure=1&upmbps=100&downmbps=100&alpn=hysteria&obfs=xplus&obfsParam=123456#remarks',
    expected: {
      protocol: 'hysteria',
      name: 'remarks',
      server: 'host',
      port: 443,
      auth: '123456',
      transportProtocol: 'udp',
      upMbps: 100,
      downMbps: 100,
      obfs: '123456',
      tls: { serverName: 'sni.domain', insecure: true, alpn: ['hysteria'] },
    },
  },
  {
    // ray2sing's expected ALPN ["h3","spdy/3.1"] is its own hard-coded default; the link says h3.
    id: 'R06',
    source: RAY2SING('tuic_test.go'),
    uri: 'tuic://3618921b-adeb-4bd3-a2a0-f98b72a674b1:dongtaiwang@108.181.24.7:23450?allow_insecure=1&alpn=h3&congestion_control=bbr&sni=www.google.com&udp_relay_mode=native#رایگان | TUIC | @V2rayCollector | CA🇨🇦 | 0️⃣1️⃣',
    expected: {
      protocol: 'tuic',
      name: 'رایگان | TUIC | @V2rayCollector | CA🇨🇦 | 0️⃣1️⃣',
      server: '108.181.24.7',
      port: 23450,
      uuid: '3618921b-adeb-4bd3-a2a0-f98b72a674b1',
      password: 'dongtaiwang',
      congestionControl: 'bbr',
      udpRelayMode: 'native',
      tls: { serverName: 'www.google.com', insecure: true, alpn: ['h3'] },
    },
    absent: ['token'],
  },
  {
    id: 'R07',
    source: RAY2SING('vless_test.go'),
    uri: 'vless://25da296e-1d96-48ae-9867-4342796cd742@172.67.149.95:443?encryption=none&fp=chrome&host=vless.229feb8b52a0e7e117ea76f8b591bcb3.workers.dev&path=%2F%3Fed%3D2048&security=tls&sni=vless.229feb8b52a0e7e117ea76f8b591bcb3.workers.dev&type=ws#رایگان | VLESS | @Helix_Servers | US🇺🇸 | 0️⃣1️⃣',
    expected: {
      protocol: 'vless',
      name: 'رایگان | VLESS | @Helix_Servers | US🇺🇸 | 0️⃣1️⃣',
      server: '172.67.149.95',
      port: 443,
      uuid: '25da296e-1d96-48ae-9867-4342796cd742',
      transport: {
        type: 'ws',
        path: '/',
        host: 'vless.229feb8b52a0e7e117ea76f8b591bcb3.workers.dev',
        maxEarlyData: 2048,
      },
      tls: { serverName: 'vless.229feb8b52a0e7e117ea76f8b591bcb3.workers.dev', clientFingerprint: 'chrome' },
    },
  },
  {
    id: 'R08',
    source: RAY2SING('vmess_test.go'),
    uri: 'vmess://eyJhZGQiOiI1MS4xNjEuMTMwLjE3MyIsImFpZCI6IjAiLCJhbHBuIjoiIiwiZnAiOiIiLCJob3N0IjoiIiwiaWQiOiJkNDNlZTVlMy0xYjA3LTU2ZDctYjJlYS04ZDIyYzQ0ZmRjNjYiLCJuZXQiOiJ0Y3AiLCJwYXRoIjoiIiwicG9ydCI6IjgwODAiLCJzY3kiOiJjaGFjaGEyMC1wb2x5MTMwNSIsInNuaSI6IiIsInRscyI6IiIsInR5cGUiOiJub25lIiwidiI6IjIiLCJwcyI6Ilx1MDYzMVx1MDYyN1x1MDZjY1x1MDZhZlx1MDYyN1x1MDY0NiB8IFZNRVNTIHwgQFdhdGFzaGlfVlBOIHwgQVVcdWQ4M2NcdWRkZTZcdWQ4M2NcdWRkZmEgfCAwXHVmZTBmXHUyMGUzMVx1ZmUwZlx1MjBlMyJ9',
    expected: {
      protocol: 'vmess',
      name: 'رایگان | VMESS | @Watashi_VPN | AU🇦🇺 | 0️⃣1️⃣',
      server: '51.161.130.173',
      port: 8080,
      uuid: 'd43ee5e3-1b07-56d7-b2ea-8d22c44fdc66',
      alterId: 0,
      cipher: 'chacha20-poly1305',
      transport: { type: 'tcp' },
    },
    absent: ['tls'],
  },
  {
    id: 'R09',
    source: RAY2SING('trojan_test.go'),
    uri: 'trojan://your_password@aws-ar-buenosaires-1.f1cflineb.com:443?host=aws-ar-buenosaires-1.f1cflineb.com&path=%2Ff1rocket&security=tls&sni=aws-ar-buenosaires-1.f1cflineb.com&type=ws#رایگان | TROJAN | @VmessProtocol | RELAY🚩 | 0️⃣1️⃣',
    expected: {
      protocol: 'trojan',
      server: 'aws-ar-buenosaires-1.f1cflineb.com',
      port: 443,
      password: 'your_password',
      transport: { type: 'ws', path: '/f1rocket', host: 'aws-ar-buenosaires-1.f1cflineb.com' },
      tls: { serverName: 'aws-ar-buenosaires-1.f1cflineb.com' },
    },
  },
  {
    // Xray carries Shadowsocks over a V2Ray transport; mihomo and sing-box cannot (golden.test.ts).
    id: 'X26',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_ShadowsocksWithStreamQuery`,
    uri: `ss://${b64('aes-128-gcm:p')}@ss-ws.example:443?type=ws&path=%2Fws&host=cdn.ws&security=tls&sni=ss-ws.example`,
    expected: {
      protocol: 'shadowsocks',
      server: 'ss-ws.example',
      method: 'aes-128-gcm',
      password: 'p',
      transport: { type: 'ws', path: '/ws', host: 'cdn.ws' },
      tls: { serverName: 'ss-ws.example' },
    },
  },
];

/** Links the clients' tests feed in that this project refuses, each with the reason it gives. */
/** R07 as a sing-box outbound: what our renderer writes, and (with a tag) what ray2sing writes for it. */
export const R07_SING_BOX = {
  type: 'vless',
  server: '172.67.149.95',
  server_port: 443,
  uuid: '25da296e-1d96-48ae-9867-4342796cd742',
  tls: {
    enabled: true,
    server_name: 'vless.229feb8b52a0e7e117ea76f8b591bcb3.workers.dev',
    utls: { enabled: true, fingerprint: 'chrome' },
  },
  transport: {
    type: 'ws',
    path: '/',
    headers: { Host: 'vless.229feb8b52a0e7e117ea76f8b591bcb3.workers.dev' },
    max_early_data: 2048,
    early_data_header_name: 'Sec-WebSocket-Protocol',
  },
};

export const REFUSED_VECTORS: RefusedVector[] = [
  {
    // mihomo refuses a pin that is not 32 bytes when it loads the proxy (the derived copy changed the value for that).
    id: 'M01',
    source: `${MIHOMO} TestConvertsV2Ray_normal`,
    uri: 'hysteria2://letmein@example.com:8443/?insecure=1&obfs=salamander&obfs-password=gawrgura&pinSHA256=deadbeef&sni=real.example.com&up=114&down=514&alpn=h3,h4#hy2test',
    reason: 'certificate pin',
  },
  {
    id: 'M03',
    source: `${MIHOMO_DERIVED} TestConvertsV2RayVlessRealityVisionTCPWithoutHeaderType`,
    uri: 'vless://a1b2c3d4-eacc-4433-981b-7e5f9a8b@142.98.76.54:34888?encryption=none&security=reality&type=tcp&sni=github.io&fp=chrome&pbk=ppQ9FwLrLIa0AOrp1WvcyiaQ37vg2WSy_CD4bIdiTUw&sid=6ba85179f3a2b4c5&flow=xtls-rprx-vision#My-VLESS-Reality-Vision',
    reason: 'UUID',
  },
  {
    id: 'M04',
    source: `${MIHOMO_DERIVED} TestConvertsV2RayVlessTCPHTTPHeaderType`,
    uri: 'vless://uuid@example.com:443?security=tls&type=tcp&headerType=http&host=cdn.example.com&path=%2Fedge&method=POST#vless-http',
    reason: 'UUID',
  },
  {
    id: 'M10',
    source: `${MIHOMO_DERIVED} TestConvertsV2Ray_hysteria2RealmScheme`,
    uri: 'hysteria2+realm://tok3n@rendezvous.example.com:8443/rid42?auth=letmein&stun=stun1:3478&stun=stun2:3478&sni=example.com#realm',
    reason: "unsupported scheme 'hysteria2+realm'",
  },
  {
    id: 'X23',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_FiltersBuildInvalidOutbounds (invalid id)`,
    uri: 'vless://2418d087-648k-4990-86e8-19dca1d006d3@invalid-id.example:443?encryption=none&security=tls&sni=invalid-id.example&fp=chrome',
    reason: 'UUID',
  },
  {
    id: 'X24',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_FiltersBuildInvalidOutbounds (invalid reality)`,
    uri: `vless://${XRAY_UUID}@invalid-reality.example:443?encryption=none&security=reality&sni=invalid-reality.example&pbk=invalid&fp=chrome`,
    reason: 'REALITY public key',
  },
  {
    id: 'X25',
    source: `${LIBXRAY} TestConvertShareLinksToXrayJson_MultiLineSkipsBad`,
    uri: `vmess://${XRAY_UUID}@bad.example:notaport?encryption=none`,
    reason: "invalid port 'notaport'",
  },
  {
    id: 'S36',
    source: `${SUBSTORE_URI} parses Hysteria2 URIs with port hopping ranges`,
    uri: 'hy2://hy2-secret@hy2.example.com:8443-8445?peer=peer.example.com&obfs=salamander&obfs-password=mask&insecure=1&fastopen=1&pinSHA256=fingerprint&hop-interval=30&keepalive=15#Hy2%20Range',
    reason: 'certificate pin',
  },
  {
    id: 'S37',
    source: `${SUBSTORE_URI} rejects Hysteria2 salamander obfs without obfs-password`,
    uri: 'hy2://hy2-secret@hy2.example.com:443?obfs=salamander#Hy2%20Missing%20Password',
    reason: 'salamander needs a password',
  },
  {
    // Sub-Store defaults the port to 443; a link without a port is not a usable source here.
    id: 'S38',
    source: `${SUBSTORE_URI} parses TUIC URIs with colon-containing passwords and booleans`,
    uri: `tuic://${SUB_UUID}:pass%3Aword@tuic.example.com?alpn=h3,hq-29&allow-insecure=1&fast-open=1&disable-sni=1&reduce-rtt=1&congestion-control=bbr#TUIC`,
    reason: 'has no port',
  },
  {
    id: 'S39',
    source: `${SUBSTORE_URI} rejects Trojan URIs with out-of-range ports (0)`,
    uri: 'trojan://trojan-pass@trojan.example.com:0#Invalid%20Port',
    reason: "invalid port '0'",
  },
  {
    id: 'S40',
    source: `${SUBSTORE_URI} rejects Trojan URIs with out-of-range ports (65536)`,
    uri: 'trojan://trojan-pass@trojan.example.com:65536#Invalid%20Port',
    reason: "invalid port '65536'",
  },
  {
    id: 'S41',
    source: `${SUBSTORE_URI} rejects colon-containing Trojan hosts that are not IPv6`,
    uri: 'trojan://trojan-pass@host:123:443#Invalid%20Host',
    reason: 'invalid port',
  },
  {
    // Sub-Store reads a bare IPv6 host with a port; the source validator needs the brackets.
    id: 'S42',
    source: `${SUBSTORE_URI} parses Trojan IPv6 URIs with valueless flags (bare)`,
    uri: 'trojan://trojan-pass@2001:db8::1:443#Trojan%20Bare%20IPv6',
    reason: 'invalid port',
  },
  {
    id: 'S43',
    source: `${SUBSTORE_V2RAY} rejects websocket VLESS shares with malformed early data size`,
    uri: `vless://${SUB_UUID}@vless-ws.example.com:443?type=ws&security=tls&host=cdn.example.com&path=%2Fws&ed=2048foo#VLESS%20WS%20Broken`,
    reason: 'early data',
  },
  {
    id: 'S44',
    source: `${SUBSTORE_V2RAY} rejects websocket VLESS shares with oversized early data size`,
    uri: `vless://${SUB_UUID}@vless-ws.example.com:443?type=ws&security=tls&host=cdn.example.com&path=%2Fws&ed=999999999999999999999#VLESS%20WS%20Too%20Large`,
    reason: 'early data',
  },
  {
    id: 'S45',
    source: `${SUBSTORE_V2RAY} parses grpc reality VLESS shares (pbk=pubkey)`,
    uri: `vless://${SUB_UUID}@vless-grpc.example.com:443?type=grpc&security=reality&serviceName=grpc-service&authority=grpc.example.com&mode=multi&pbk=pubkey&sid=08&spx=%2Fspider&flow=xtls-rprx-vision&encryption=none&pqv=1&alpn=h2#VLESS%20Reality`,
    reason: 'REALITY public key',
  },
  {
    id: 'S46',
    source: `${SUBSTORE_V2RAY} parses websocket VLESS shares with pcs as tls fingerprint`,
    uri: `vless://${SUB_UUID}@vless-ws.example.com:443?type=ws&security=tls&host=cdn.example.com&path=%2Fws&pcs=fingerprint#VLESS%20WS%20PCS`,
    reason: 'certificate pin',
  },
  {
    // The same pin as M01: the hysteria URI-scheme example value is not a SHA-256 digest.
    id: 'R04',
    source: RAY2SING('hysteria2_test.go'),
    uri: 'hysteria2://letmein@example.com/?insecure=1&obfs=salamander&obfs-password=gawrgura&pinSHA256=deadbeef&sni=real.example.com',
    reason: 'certificate pin',
  },
  {
    id: 'R10',
    source: RAY2SING('wiregaurd_test.go'),
    uri: 'wg://[server]:222/?pk=[private_key]&local_address=10.0.0.2/24&peer_public_key=[peer_public_key]&pre_shared_key=[pre_shared_key]&workers=[workers]&mtu=[mtu]&reserved=0,0,0',
    reason: 'invalid IPv6 host',
  },
];
