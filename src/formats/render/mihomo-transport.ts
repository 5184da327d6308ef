// The `network` and `*-opts` keys of a mihomo proxy for the V2Ray-style transports, XHTTP extras included.
import type { Transport } from '../proxy.js';
import { webSocketEarlyData, xhttpExtra } from './common.js';

type Proxy = Record<string, unknown>;

/** Adds `network` and its `*-opts` for the V2Ray-style transports. */
export function addTransport(out: Proxy, transport: Transport, protocol: 'vless' | 'vmess' | 'trojan'): string | null {
  switch (transport.type) {
    case 'tcp':
      if (protocol !== 'trojan') out.network = 'tcp';
      return null;
    case 'ws': {
      const ws = webSocketEarlyData(transport);
      const opts: Proxy = { path: ws.path };
      if (transport.host) opts.headers = { Host: transport.host };
      if (ws.maxEarlyData) {
        opts['max-early-data'] = ws.maxEarlyData;
        opts['early-data-header-name'] = ws.headerName ?? 'Sec-WebSocket-Protocol';
      }
      out.network = 'ws';
      out['ws-opts'] = opts;
      return null;
    }
    case 'httpupgrade': {
      const opts: Proxy = { path: transport.path || '/', 'v2ray-http-upgrade': true };
      // mihomo's converter turns `ed=` into fast open: the upgrade request does not wait for the answer.
      if (transport.earlyData) opts['v2ray-http-upgrade-fast-open'] = true;
      if (transport.host) opts.headers = { Host: transport.host };
      out.network = 'ws';
      out['ws-opts'] = opts;
      return null;
    }
    case 'grpc':
      out.network = 'grpc';
      out['grpc-opts'] = { 'grpc-service-name': transport.serviceName };
      return null;
    case 'http': {
      if (protocol === 'trojan') break;
      const opts: Proxy = { path: transport.path.length ? transport.path : ['/'] };
      if (transport.method) opts.method = transport.method;
      if (transport.host.length) opts.headers = { Host: transport.host };
      out.network = 'http';
      out['http-opts'] = opts;
      return null;
    }
    case 'h2': {
      if (protocol === 'trojan') break;
      // As mihomo's converter writes `net: http`/`h2` links; mihomo itself always runs HTTP/2 over TLS.
      const opts: Proxy = { path: transport.path || '/' };
      if (transport.host.length) opts.host = transport.host;
      out.network = 'h2';
      out['h2-opts'] = opts;
      return null;
    }
    case 'xhttp':
      if (protocol !== 'vless') break;
      return addXhttp(out, transport);
  }
  return `${transport.type} transport is not supported by mihomo ${protocol}`;
}

/** Adds XHTTP path, host and mode, plus the `extra` settings mihomo has keys for; other extras cannot be carried. */
function addXhttp(out: Proxy, transport: Extract<Transport, { type: 'xhttp' }>): string | null {
  const opts: Proxy = { path: transport.path || '/' };
  if (transport.host) opts.host = transport.host;
  if (transport.mode) opts.mode = transport.mode;
  const extra = xhttpExtra(transport.extra);
  if (!extra.ok) return extra.reason;
  for (const [key, value] of Object.entries(extra.value)) {
    if (key === 'xmux' && typeof value === 'object' && value !== null) {
      const reuse: Proxy = {};
      for (const [xmuxKey, xmuxValue] of Object.entries(value)) {
        const name = XMUX_KEYS[xmuxKey];
        if (name === undefined) return `xhttp xmux "${xmuxKey}" is not supported by mihomo`;
        reuse[name] = xmuxKey === 'hKeepAlivePeriod' ? xmuxValue : String(xmuxValue);
      }
      opts['reuse-settings'] = reuse;
      continue;
    }
    const name = XHTTP_EXTRA_KEYS[key];
    if (name === undefined) return `xhttp extra "${key}" is not supported by mihomo`;
    opts[name] = key === 'sessionIDLength' ? String(value) : value;
  }
  out.network = 'xhttp';
  out['xhttp-opts'] = opts;
  return null;
}

/** XHTTP `extra` settings (Xray's names) and the mihomo keys that carry them; others skip the server. */
const XHTTP_EXTRA_KEYS: Readonly<Record<string, string>> = {
  headers: 'headers',
  noGRPCHeader: 'no-grpc-header',
  xPaddingBytes: 'x-padding-bytes',
  xPaddingObfsMode: 'x-padding-obfs-mode',
  xPaddingKey: 'x-padding-key',
  xPaddingHeader: 'x-padding-header',
  xPaddingPlacement: 'x-padding-placement',
  xPaddingMethod: 'x-padding-method',
  uplinkHTTPMethod: 'uplink-http-method',
  sessionIDPlacement: 'session-placement',
  sessionIDKey: 'session-key',
  sessionIDTable: 'session-table',
  sessionIDLength: 'session-length',
  seqPlacement: 'seq-placement',
  seqKey: 'seq-key',
  uplinkDataPlacement: 'uplink-data-placement',
  uplinkDataKey: 'uplink-data-key',
  uplinkChunkSize: 'uplink-chunk-size',
  scMaxEachPostBytes: 'sc-max-each-post-bytes',
  scMinPostsIntervalMs: 'sc-min-posts-interval-ms',
};

const XMUX_KEYS: Readonly<Record<string, string>> = {
  maxConcurrency: 'max-concurrency',
  maxConnections: 'max-connections',
  cMaxReuseTimes: 'c-max-reuse-times',
  hMaxRequestTimes: 'h-max-request-times',
  hMaxReusableSecs: 'h-max-reusable-secs',
  hKeepAlivePeriod: 'h-keep-alive-period',
};
