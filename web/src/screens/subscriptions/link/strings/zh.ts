// The link section's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  qr: '订阅链接的二维码',
  openPage: '打开浏览器中看到的页面',
  formats: {
    title: '单一格式的链接',
    hint: '无论哪个应用请求，这些链接都始终返回同一种格式。当应用收到的格式不对时使用。',
    base64: 'base64 列表（大多数应用）',
    mihomo: 'mihomo 配置（Clash Verge、FlClash、Stash…）',
    'sing-box': 'sing-box 配置（SFA、SFI、Karing…）',
    xray: 'Xray JSON（v2rayN、v2rayNG、Happ）',
    sip008: 'SIP008（仅 Shadowsocks 节点）',
    copy: '复制 {{format}} 链接',
    copied: '已复制',
  },
  rotate: {
    button: '更换链接…',
    title: '更换订阅链接？',
    body: '订阅将获得新的链接。旧链接立即失效，所有使用它的应用都需要添加新链接。名称、来源、设置和最近的请求保持不变。',
    confirm: '更换链接',
    cancel: '取消',
    done: '链接已更换。旧链接已失效：请把这个链接添加到您的应用中。',
  },
  preview: {
    title: '各应用收到的内容',
    hint: '选择一个应用，查看此链接现在返回给它的内容：格式、选择该格式的规则以及节点。',
    app: '应用',
    browser: '网页浏览器',
    custom: '其他应用（输入其 User-Agent）',
    userAgent: 'User-Agent',
    show: '显示',
    format: '格式：{{format}}',
    rule: '规则：{{rule}}',
    served: '节点数：{{count}}',
    blocked: '某条格式规则拒绝了此应用：它收到的是错误而不是节点。',
    servers: '节点',
    noServers: '此链接目前不提供任何节点。',
    skipped: '已略过：{{reason}}',
    skipReasons: {
      insecure_tls: 'Xray 拒绝不安全的 TLS',
      unsupported_transport: '该格式没有这种传输方式',
      unsupported_by_client: '此版本的应用无法使用',
    },
    body: '应用收到内容的开头',
  },
};
