// The admin providers screen's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '服务商',
  intro: '服务商（机器人或分销商）为批准它的用户管理订阅。每个服务商属于一个用户。',
  create: {
    title: '创建服务商',
    owner: '所有者的用户 ID',
    ownerHint: '拥有该服务商的用户；每个用户只能有一个服务商。',
    ownerInvalid: '请输入大于 0 的整数。',
    name: '名称',
    nameHint: '4 到 16 个小写字母和数字，中间可用单个连字符分隔。',
    nameInvalid: '请使用 4 到 16 个小写字母和数字，中间只能用单个连字符分隔。',
    url: '主页（可选）',
    urlHint: '服务商请求连接时向用户显示。',
    urlInvalid: '请输入 {{http}} 或 {{https}} 地址，或留空。',
    submit: '创建服务商',
  },
  list: {
    active: '已启用',
    disabled: '已停用',
    owner: '所有者：用户 {{id}}',
    created: '创建时间：{{time}}',
    empty: '还没有服务商。',
  },
  actions: {
    disable: '停用',
    enable: '启用',
    token: '新的 API 令牌',
    delete: '删除',
  },
  shown: {
    title: '服务商 {{name}} 的 API 令牌',
    warning: '只显示这一次：服务器只保存它的哈希。请复制到服务商的配置中。',
    copy: '复制',
    copied: '已复制',
    done: '完成',
  },
  confirm: {
    deleteTitle: '删除服务商 {{name}}？',
    deleteBody: '它的授权连接以及它管理的所有订阅都会一并删除，这些订阅的链接会立即失效。',
    delete: '删除',
    tokenTitle: '为服务商 {{name}} 签发新的 API 令牌？',
    tokenBody: '当前令牌会立即失效：服务商需要使用新令牌。',
    token: '签发新令牌',
    cancel: '取消',
  },
  errors: {
    name_exists: '该名称已被其他服务商使用。',
    provider_exists: '该用户已经拥有一个服务商。',
    user_not_found: '没有使用此 ID 的用户。',
    provider_not_found: '该服务商已不存在。',
    validation_failed: '服务器拒绝了输入。请检查名称和地址。',
    other: '请求失败：{{message}}',
  },
};
