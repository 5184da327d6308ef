// External URLs serving a Clash/mihomo YAML or sing-box JSON profile contribute their servers as share URIs (docs/api.md, External sources and refresh).
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { subsApi } from '../support/factories.js';
import { useUpstream } from '../support/upstream-server.js';
import { parseShareUri } from '../../src/formats/share-uri/index.js';

const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';

const MIHOMO_PROFILE = `mixed-port: 7890
dns:
  enable: true
proxies:
  - name: "Frankfurt VLESS"
    type: vless
    server: de.example.com
    port: 443
    uuid: ${UUID}
    network: ws
    tls: true
    servername: cdn.example.com
    ws-opts:
      path: /ws
      headers:
        Host: cdn.example.com
  - { name: "Tokyo SS", type: ss, server: jp.example.com, port: 8388, cipher: aes-256-gcm, password: secret }
  - { name: "Snell", type: snell, server: x.example.com, port: 1, psk: abc }
proxy-groups:
  - { name: Proxy, type: select, proxies: ["Frankfurt VLESS", "Tokyo SS"] }
rules:
  - MATCH,Proxy
`;

const SING_BOX_PROFILE = JSON.stringify({
  outbounds: [
    { type: 'selector', tag: 'Proxy', outbounds: ['Paris'] },
    {
      type: 'trojan',
      tag: 'Paris',
      server: 'fr.example.com',
      server_port: 443,
      password: 'pw',
      tls: { enabled: true, server_name: 'fr.example.com' },
    },
    { type: 'direct', tag: 'direct' },
  ],
  route: { final: 'Proxy' },
});

describeEachDatabase('structured upstream profiles', (kind) => {
  const t = useTestApp(kind);
  const subs = subsApi(t);
  const upstream = useUpstream();

  const served = async (body: string) => {
    const sub = await subs.create([upstream.current.add(body)]);
    const res = await t.call('GET', `/sub/${sub.token}/plain`);
    expect(res.statusCode).toBe(200);
    return { token: sub.token, lines: res.body === '' ? [] : res.body.split('\n') };
  };

  it('turns a mihomo profile into share URIs named after its proxies, skipping types that cannot travel', async () => {
    const { token, lines } = await served(MIHOMO_PROFILE);
    expect(lines).toHaveLength(2);
    const nodes = lines.map((line) => parseShareUri(line));
    expect(nodes.map((n) => n.ok && n.node.name)).toEqual(['Frankfurt VLESS', 'Tokyo SS']);
    expect(nodes[0]).toMatchObject({
      ok: true,
      node: { protocol: 'vless', server: 'de.example.com', uuid: UUID, transport: { type: 'ws', path: '/ws' } },
    });
    expect(nodes[1]).toMatchObject({ ok: true, node: { protocol: 'shadowsocks', method: 'aes-256-gcm' } });
    // The servers then render into every format like any other line.
    const yaml = await t.call('GET', `/sub/${token}/mihomo`);
    expect(yaml.body).toContain('"name":"Frankfurt VLESS"');
  });

  it('turns a sing-box profile into share URIs, leaving out selectors and direct', async () => {
    const { lines } = await served(SING_BOX_PROFILE);
    expect(lines).toHaveLength(1);
    expect(parseShareUri(lines[0] as string)).toMatchObject({
      ok: true,
      node: { protocol: 'trojan', name: 'Paris', server: 'fr.example.com', password: 'pw' },
    });
  });

  it('serves nothing from JSON or YAML that is not a profile', async () => {
    expect((await served('{"hello": "world"}')).lines).toEqual([]);
    expect((await served('proxies: not-a-list\n')).lines).toEqual([]);
  });
});
