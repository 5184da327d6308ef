// Times renderFormat for 5,000 servers in each structured format: the first render in this process and the median after.
import { renderFormat, type RenderedFormat } from '../src/formats/render/index.js';
import type { ProxyNode } from '../src/formats/proxy.js';
import { parseShareUri } from '../src/formats/share-uri/index.js';

const SERVERS = Number(process.env['BENCH_SERVERS'] ?? 5000);
const RUNS = 15;
const UUID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const PBK = 'CrrQSjAG_YkHLwvM2M-7XkKJilgL5upBKCp0od0tLhE';

/** A subscription-like mix: REALITY, WebSocket+TLS, gRPC, Shadowsocks, Hysteria2; names repeat, as they do. */
function shareUri(i: number): string {
  const name = encodeURIComponent(`🇩🇪 Germany ${i % 700}`);
  switch (i % 5) {
    case 0:
      return `vless://${UUID}@r${i}.example.com:443?security=reality&sni=www.microsoft.com&fp=chrome&pbk=${PBK}&sid=6ba85179&flow=xtls-rprx-vision&type=tcp#${name}`;
    case 1:
      return `vless://${UUID}@w${i}.example.com:443?security=tls&sni=cdn.example.com&type=ws&host=cdn.example.com&path=%2Fws%3Fed%3D2048#${name}`;
    case 2:
      return `trojan://secret-${i}@t${i}.example.com:443?sni=t.example.com&type=grpc&serviceName=svc#${name}`;
    case 3:
      return `ss://${Buffer.from(`aes-256-gcm:pass-${i}`).toString('base64url')}@10.${i % 250}.0.1:8388#${name}`;
    default:
      return `hysteria2://pw-${i}@h${i}.example.com:443?sni=h.example.com&obfs=salamander&obfs-password=x#${name}`;
  }
}

const nodes: ProxyNode[] = [];
for (let i = 0; i < SERVERS; i++) {
  const parsed = parseShareUri(shareUri(i));
  if (!parsed.ok) throw new Error(`bench URI ${i} does not parse: ${parsed.reason}`);
  nodes.push(parsed.node);
}

function timed(format: RenderedFormat): { wall: number; cpu: number; bytes: number; skipped: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const { body, skipped } = renderFormat(format, nodes);
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000, bytes: body.length, skipped: skipped.length };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const FORMATS = ['mihomo', 'sing-box', 'xray', 'sip008'] as const;
// What a server has done before its first big render: parsed the template (once) and rendered something small.
if (process.argv.includes('--primed')) for (const format of FORMATS) renderFormat(format, nodes.slice(0, 5));

console.log(`${SERVERS} servers; wall and CPU time of renderFormat (ms)`);
for (const format of FORMATS) {
  const first = timed(format);
  const rest = Array.from({ length: RUNS }, () => timed(format));
  console.log(
    `${format.padEnd(8)} first ${first.wall.toFixed(1)} (cpu ${first.cpu.toFixed(1)})  ` +
      `median ${median(rest.map((r) => r.wall)).toFixed(1)} (cpu ${median(rest.map((r) => r.cpu)).toFixed(1)})  ` +
      `${(first.bytes / 1e6).toFixed(2)} MB, ${first.skipped} skipped`,
  );
}
