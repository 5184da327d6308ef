// The documents servers are rendered into until an admin stores their own; docs/templates.md explains the markers.
import type { TemplatedFormat } from '../formats.js';

/** The marker a group lists where every server name goes. */
export const SERVERS_MARKER = '{{servers}}';

const MIHOMO = `# subweave: servers are appended to proxies; a group listing "{{servers}}" gets every server name there.
mixed-port: 7890
allow-lan: false
mode: rule
log-level: info
ipv6: true
unified-delay: true
tcp-concurrent: true
profile:
  store-selected: true
dns:
  enable: true
  ipv6: true
  enhanced-mode: fake-ip
  fake-ip-range: 198.18.0.1/16
  fake-ip-filter:
    - "*.lan"
    - "+.local"
    - "time.*.com"
    - "+.msftconnecttest.com"
  default-nameserver:
    - 1.1.1.1
    - 8.8.8.8
  nameserver:
    - https://1.1.1.1/dns-query
    - https://8.8.8.8/dns-query
proxies: []
proxy-groups:
  - name: Proxy
    type: select
    proxies:
      - Auto
      - "{{servers}}"
  - name: Auto
    type: url-test
    proxies:
      - "{{servers}}"
    url: https://www.gstatic.com/generate_204
    interval: 300
    tolerance: 50
rules:
  - MATCH,Proxy
`;

const SING_BOX = `{
  "log": { "level": "warn", "timestamp": true },
  "dns": {
    "servers": [
      { "type": "https", "tag": "remote", "server": "1.1.1.1", "detour": "Proxy" },
      { "type": "local", "tag": "local" }
    ],
    "rules": [{ "domain_suffix": [".lan", ".local"], "server": "local" }],
    "final": "remote",
    "strategy": "prefer_ipv4"
  },
  "inbounds": [
    {
      "type": "tun",
      "tag": "tun-in",
      "address": ["172.19.0.1/30", "fdfe:dcba:9876::1/126"],
      "mtu": 9000,
      "auto_route": true,
      "strict_route": true
    },
    { "type": "mixed", "tag": "mixed-in", "listen": "127.0.0.1", "listen_port": 2080 }
  ],
  "outbounds": [
    { "type": "selector", "tag": "Proxy", "outbounds": ["Auto", "{{servers}}"] },
    {
      "type": "urltest",
      "tag": "Auto",
      "outbounds": ["{{servers}}"],
      "url": "https://www.gstatic.com/generate_204",
      "interval": "3m",
      "tolerance": 50
    },
    { "type": "direct", "tag": "direct" }
  ],
  "route": {
    "rules": [
      { "action": "sniff" },
      { "protocol": "dns", "action": "hijack-dns" },
      { "ip_is_private": true, "outbound": "direct" }
    ],
    "final": "Proxy",
    "auto_detect_interface": true,
    "default_domain_resolver": "local"
  },
  "experimental": { "cache_file": { "enabled": true } }
}
`;

const XRAY = `{
  "log": { "loglevel": "warning" },
  "dns": { "servers": ["1.1.1.1", "8.8.8.8"], "queryStrategy": "UseIP" },
  "inbounds": [
    {
      "tag": "socks",
      "listen": "127.0.0.1",
      "port": 10808,
      "protocol": "socks",
      "settings": { "auth": "noauth", "udp": true },
      "sniffing": { "enabled": true, "destOverride": ["http", "tls"], "routeOnly": true }
    },
    {
      "tag": "http",
      "listen": "127.0.0.1",
      "port": 10809,
      "protocol": "http",
      "settings": {},
      "sniffing": { "enabled": true, "destOverride": ["http", "tls"], "routeOnly": true }
    }
  ],
  "outbounds": [
    { "tag": "proxy" },
    { "tag": "direct", "protocol": "freedom", "settings": {} },
    { "tag": "block", "protocol": "blackhole", "settings": {} }
  ],
  "routing": {
    "domainStrategy": "AsIs",
    "rules": [
      {
        "type": "field",
        "ip": ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16", "fc00::/7", "fe80::/10"],
        "outboundTag": "direct"
      },
      { "type": "field", "protocol": ["bittorrent"], "outboundTag": "direct" }
    ]
  }
}
`;

/** The built-in template of each templated format, as the text an admin would store. */
export const BUILTIN_TEMPLATES: Readonly<Record<TemplatedFormat, string>> = {
  mihomo: MIHOMO,
  'sing-box': SING_BOX,
  xray: XRAY,
};
