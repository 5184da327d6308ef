// The connections screen's strings in Simplified Chinese.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '授权连接',
  intro: '经您授权的服务商可以替您创建和修改订阅。您可以随时撤销授权。',
  empty: {
    title: '暂无服务商',
    body: '服务商是请求代您管理订阅的机器人或代理商。服务商发出请求后会显示在这里，在您批准之前不会生效。',
  },
  status: {
    pending: '等待您确认',
    approved: '已批准',
    revoked: '已撤销',
  },
  pendingHint: '该服务商请求管理您的订阅。',
  approvedHint: '该服务商可以创建和修改您的订阅。',
  askedAt: '请求时间：{{date}}',
  approvedAt: '批准时间：{{date}}',
  approve: '批准',
  reject: '拒绝',
  revoke: '撤销授权',
  approveName: '批准 {{name}}',
  rejectName: '拒绝 {{name}}',
  revokeName: '撤销 {{name}} 的授权',
  confirm: {
    title: '撤销 {{name}} 的授权？',
    body: '该服务商将无法再管理您的订阅。它创建的订阅仍归您所有，订阅链接继续有效。',
    cancel: '取消',
    revoke: '撤销',
  },
  errors: {
    connection_not_pending: '该请求已处理过，列表已刷新。',
    provider_limit_reached: '已批准的服务商数量已达上限，请先撤销一个。',
    connection_not_found: '该服务商已不再连接，列表已刷新。',
    other: '出错了：{{message}}',
  },
};
