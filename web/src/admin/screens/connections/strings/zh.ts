// The admin connections screen's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '授权连接',
  intro: '授权连接让服务商可以管理用户的订阅。你可以代用户批准或拒绝待处理的请求；已批准的连接由用户或服务商撤销。',
  user: {
    label: '用户 ID',
    invalid: '请输入大于 0 的整数。',
    show: '显示授权连接',
  },
  list: {
    title: '用户 {{id}} 的授权连接',
    empty: '该用户没有授权连接。',
  },
  status: {
    pending: '等待批准',
    approved: '已批准',
    revoked: '已撤销',
  },
  actions: {
    approve: '批准',
    reject: '拒绝',
  },
  authorize: {
    title: '处理服务商的邀请',
    body: '服务商的连接链接以邀请码结尾。把它粘贴到这里，即可为该用户发起请求，效果如同用户自己打开了链接。',
    user: '用户 ID',
    provider: '服务商名称',
    invite: '邀请码',
    required: '请填写此项。',
    submit: '处理邀请',
    done: '{{provider}} 与用户 {{id}} 的授权连接：{{status}}',
  },
  errors: {
    user_not_found: '没有使用此 ID 的用户。',
    provider_not_found: '没有使用此名称的服务商。',
    connection_not_found: '该授权连接已不存在。',
    connection_not_pending: '该请求已经处理过。',
    provider_limit_reached: '该用户已批准的服务商已达上限（MAX_PROVIDERS_PER_USER）。',
    invalid_invite: '邀请码错误或已过期（有效期 7 天），或者它属于其他用户或服务商。',
    validation_failed: '服务器拒绝了输入。请检查用户 ID 和服务商名称。',
    other: '请求失败：{{message}}',
  },
};
