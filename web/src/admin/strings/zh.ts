// The admin console's shared strings in Simplified Chinese.
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '管理控制台',
  leave: '清除管理员密钥',
  backToApp: '返回用户区',
  nav: {
    label: '管理',
    stats: '统计',
    users: '用户',
    providers: '服务商',
    connections: '授权连接',
    bans: '封禁与白名单',
    formats: '格式与模板',
    branding: '品牌外观',
    webhooks: 'Webhook',
    audit: '审计日志',
  },
  gate: {
    title: '管理控制台',
    body: '请输入本服务的 ADMIN_SECRET。密钥只保存在当前浏览器标签页中：每个请求都在这里签名，密钥本身从不发送。',
    secret: '管理员密钥',
    submit: '进入控制台',
    required: '请输入管理员密钥。',
    insecureTitle: '此页面需要 HTTPS',
    insecureBody:
      '浏览器只在 {{https}} 或 localhost 上提供请求签名（WebCrypto）。请通过 HTTPS 或到 localhost 的 SSH 隧道打开控制台。',
    errors: {
      invalid_signature: '这不是本服务的管理员密钥。',
      ip_not_allowed: '你的地址不在 ADMIN_ALLOWED_IPS 中，管理 API 拒绝了请求。',
      admin_disabled: '管理 API 未启用：服务器没有设置 ADMIN_SECRET。',
      signature_expired: '本机时钟与服务器相差超过一分钟。请校准时间后重试。',
      other: '验证失败：{{message}}',
    },
  },
  placeholder: '此页面尚未完成。',
};
