// The settings section's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '设置',
  name: '名称',
  nameHint: '最多 64 个字符，不能与您的其他订阅重名。',
  description: '描述',
  descriptionHint: '最多 64 个字符。应用会将其显示为配置标题。',
  interval: '更新间隔（小时）',
  intervalHint: '应用重新获取链接的频率：1 到 168。留空：1。',
  supportUrl: '支持页面',
  webPageUrl: '网页',
  urlHint: '应用显示的 {{http}} 或 {{https}} 地址。留空：无。',
  announce: '公告',
  announceHint: '应用随此订阅显示的消息，最多 200 个字符。留空：无。',
  usage: {
    label: '应用中显示的流量和到期时间',
    modes: {
      none: '不发送',
      first: '来自第一个订阅 URL',
      sum: '所有订阅 URL 之和',
      fixed: '我填写的数值',
    },
    hints: {
      none: '应用不显示流量或到期时间。',
      first: '按原样使用您的第一个订阅 URL 报告的内容。',
      sum: '您各订阅 URL 的流量之和；取最早的到期时间。',
      fixed: '使用下面的流量和到期时间。此处 1 GB 为 1024³ 字节。',
    },
    upload: '已上传（GB）',
    download: '已下载（GB）',
    total: '流量配额（GB）',
    totalHint: '留空或 0：不限。',
    expire: '到期日期',
    expireHint: '于当天结束时到期（UTC）。留空：永不过期。',
  },
  refused: '未被接受：请查看上方的说明。',
  notANumber: '请输入数字。',
  save: '保存',
  saved: '已保存。',
  unchanged: '没有任何更改。',
  delete: {
    hint: '删除会移除此订阅及其来源；其链接将失效。',
    button: '删除订阅…',
    title: '删除“{{name}}”？',
    body: '所有使用此链接的应用将立即无法使用它，来源也会被移除。此操作无法撤销。',
    confirm: '删除',
    cancel: '取消',
  },
};
