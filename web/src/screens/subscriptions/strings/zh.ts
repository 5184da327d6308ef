// The subscription screens' strings in Simplified Chinese.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  list: {
    title: '订阅',
    create: '新建订阅',
    empty: '你还没有订阅。新建一个订阅，即可获得可导入客户端的订阅链接。',
    servers: '节点数：{{count}}',
    sources: '来源：{{count}}',
    failing: '出错的来源：{{count}}',
    held: '待确认的更新：{{count}}',
    managedBy: '由 {{provider}} 管理',
    updated: '更新于 {{date}}',
    open: '打开「{{name}}」',
  },
  create: {
    title: '新建订阅',
    name: '名称',
    nameHint: '最多 64 个字符，不能与你的其他订阅重名。',
    description: '描述',
    sources: '来源',
    sourcesHint: '每行一个：节点链接（{{schemes}}）、订阅链接，或你的另一个订阅的链接。可留空。',
    submit: '创建',
    close: '关闭',
    cancel: '取消',
    nameRequired: '请输入名称。',
  },
  detail: {
    back: '全部订阅',
    link: '订阅链接',
    linkHint: '在客户端（Hiddify、v2rayNG、Clash、sing-box…）中以订阅方式添加此链接。',
    copy: '复制链接',
    copied: '已复制',
  },
  history: {
    title: '最近的请求',
    refresh: '刷新',
    empty: '还没有应用获取过这个链接。',
    time: '时间',
    format: '格式',
    rule: '规则',
    status: '状态',
    userAgent: '应用（User-Agent）',
    client: '网络',
    servers: '节点',
  },
  errors: {
    name_exists: '你已有同名的订阅。',
    subscription_limit_reached: '订阅数量已达上限。',
    subscription_not_found: '此订阅不存在或已被删除。',
    managed_by_provider: '此订阅由服务商管理：在您批准的连接有效期间，只有服务商可以修改它。',
    invalid_source: '不是节点链接、订阅链接或本服务的链接（或该订阅不存在）：{{data}}',
    invalid_url: '此链接无法使用（含有密码、指向内网地址或格式有误）：{{data}}',
    other: '{{message}}',
  },
};
