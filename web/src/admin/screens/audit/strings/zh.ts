// The admin audit log's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '审计日志',
  intro:
    '用户、服务商、管理员和服务本身对用户、服务商、订阅、封禁、设置和 Webhook 所做的每一项已接受的更改，最新的在前。',
  listLabel: '审计条目',
  empty: '没有匹配的条目。',
  loadMore: '显示更早的条目',
  end: '已全部显示。',
  actor: '操作者',
  target: '对象',
  clientIp: '来源',
  error: '无法加载审计日志：{{message}}',
  whitelistAdded: '加入了白名单',
  whitelistRemoved: '移出了白名单',
  filters: {
    label: '筛选',
    actor: '操作者',
    examples: '例如：',
    action: '操作',
    actionHint: '留空：任意操作',
    target: '对象',
    since: '开始（含）',
    until: '结束（不含）',
    apply: '应用筛选',
    clear: '清除筛选',
    untilBeforeSince: '结束时间必须晚于开始时间。',
  },
  actors: {
    user: '用户 {{id}}',
    provider: '服务商 {{id}}',
    admin: '管理员（{{id}}）',
    adminApi: '管理员（API）',
    adminCli: '管理员（CLI）',
    adminImport: '从 v2hub 导入',
    system: '服务（{{id}}）',
  },
  actions: {
    user: {
      create: '创建了用户',
      update: '修改了用户',
      delete: '删除了用户',
      disable: '停用了用户',
      enable: '启用了用户',
      refresh_token: '为用户签发了新的 API 令牌',
      create_sign_in_link: '为用户创建了登录链接',
    },
    provider: {
      create: '创建了服务商',
      update: '修改了服务商',
      delete: '删除了服务商',
      refresh_token: '为服务商签发了新的 API 令牌',
    },
    ban: {
      create: '封禁了地址',
      delete: '解除了封禁',
    },
    settings: {
      change: '修改了设置',
    },
    webhook: {
      create: '创建了 Webhook',
      update: '修改了 Webhook',
      delete: '删除了 Webhook',
      rotate_secret: '更换了 Webhook 密钥',
      redeliver: '重新发送了 Webhook 投递',
      test: '向 Webhook 发送了测试事件',
    },
  },
  targets: {
    user: '用户',
    provider: '服务商',
    subscription: '订阅',
    connection: '连接',
    connectionIds: '用户 {{user}}，服务商 {{provider}}',
    ban: '封禁',
    whitelist: '白名单',
    settings: '设置',
    webhook: 'Webhook',
  },
};
