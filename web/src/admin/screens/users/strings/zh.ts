// The admin users screen's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '用户',
  create: {
    title: '创建用户',
    id: '用户 ID',
    hint: '大于 0 的整数，例如此人的 Telegram ID。',
    invalid: '请输入大于 0 的整数。',
    submit: '创建用户',
  },
  filter: {
    search: '按用户 ID 搜索',
    digits: '只能输入数字。',
    status: '状态',
    all: '全部',
    active: '已启用',
    disabled: '已停用',
  },
  list: {
    user: '用户 {{id}}',
    active: '已启用',
    disabled: '已停用',
    created: '创建时间：{{time}}',
    subscriptions: '订阅数：{{count}}',
    empty: '没有符合条件的用户。',
    more: '显示更多',
  },
  actions: {
    disable: '停用',
    enable: '启用',
    link: '登录链接',
    token: '新的 API 令牌',
    connections: '授权连接',
    delete: '删除',
  },
  shown: {
    tokenTitle: '用户 {{id}} 的 API 令牌',
    tokenWarning: '只显示这一次：服务器只保存它的哈希。请复制后交给该用户。',
    linkTitle: '用户 {{id}} 的登录链接',
    linkWarning: '15 分钟内有效，只能使用一次。只发给该用户：它会让对方登录控制面板。',
    copy: '复制',
    copied: '已复制',
    done: '完成',
  },
  confirm: {
    deleteTitle: '删除用户 {{id}}？',
    deleteBody: '其订阅、订阅源、授权连接以及其拥有的服务商都会一并删除，其链接会立即失效。',
    delete: '删除',
    tokenTitle: '为用户 {{id}} 签发新的 API 令牌？',
    tokenBody: '该用户当前的令牌和所有浏览器会话都会立即失效。',
    token: '签发新令牌',
    cancel: '取消',
  },
  errors: {
    user_exists: '已存在使用此 ID 的用户。',
    user_not_found: '该用户已不存在。',
    account_disabled: '该用户已停用：请先启用。',
    validation_failed: '服务器拒绝了输入。请检查用户 ID。',
    other: '请求失败：{{message}}',
  },
};
