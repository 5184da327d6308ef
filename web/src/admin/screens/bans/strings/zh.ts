// The admin bans and whitelist screen's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '封禁与白名单',
  address: 'IP 地址或 CIDR 网段',
  examples: '例如：',
  cancel: '取消',
  bans: {
    title: '生效中的封禁',
    intro:
      '被封禁的地址访问订阅链接、用户和服务商 API 以及连接页面时会收到 403。管理员 API 永不封禁。地址多次触发请求频率限制后，服务会自动将其封禁。',
    empty: '没有被封禁的地址。',
    add: '封禁',
    duration: '时长',
    durationHint: '留空：使用服务器默认值',
    unit: '单位',
    units: { minutes: '分钟', hours: '小时', days: '天' },
    automatic: '自动：频率限制',
    manual: '由管理员封禁',
    until: '截至 {{time}}（{{left}}）',
    since: '封禁时间：{{time}}',
    lift: '解除封禁',
    liftNamed: '解除对 {{ip}} 的封禁',
    confirmTitle: '解除对 {{ip}} 的封禁？',
    confirmBody: '来自该地址的请求将立即在所有实例上恢复服务。',
  },
  whitelist: {
    title: '白名单',
    intro: '白名单中的地址永不被封禁，也不受频率限制。对其中地址的封禁仍会列在上方，但不会生效。',
    empty: '白名单为空。',
    add: '加入白名单',
    description: '原因（可选）',
    added: '添加时间：{{time}}',
    remove: '移除',
    removeNamed: '将 {{ip}} 移出白名单',
    confirmTitle: '将 {{ip}} 移出白名单？',
    confirmBody: '频率限制和封禁将立即重新适用于该地址。',
  },
  errors: {
    addressRequired: '请输入 IP 地址或 CIDR 网段。',
    badAddress: '这不是有效的 IPv4/IPv6 地址或 CIDR 网段。',
    badDuration: '请输入不小于 1 的整数；封禁最长 365 天。',
    longDescription: '最多 256 个字符。',
    load: '无法加载列表：{{message}}',
    other: '更改被拒绝：{{message}}',
  },
};
