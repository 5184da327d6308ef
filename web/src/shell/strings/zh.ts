// The shell's strings in Simplified Chinese.
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  appName: 'subweave',
  skipToContent: '跳到主要内容',
  nav: {
    label: '主菜单',
    subscriptions: '订阅',
    connections: '授权连接',
    activity: '活动记录',
    account: '账户',
    admin: '管理控制台',
    toggle: '打开或关闭菜单',
  },
  colorScheme: {
    toDark: '切换到深色模式',
    toLight: '切换到浅色模式',
  },
  language: '语言',
  signOut: '退出登录',
  loading: '加载中…',
  retry: '重试',
  error: '出错了：{{message}}',
  offline: '无法连接到服务器，请检查网络。',
  notFound: {
    title: '页面不存在',
    body: '此地址没有任何内容。',
    back: '返回订阅列表',
  },
};
