// The Activity screen's strings in Simplified Chinese.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '活动记录',
  intro: '你的账户、连接和订阅的变更，最新的在前。',
  empty: '暂无记录。',
  loadMore: '显示更早的记录',
  end: '已显示全部记录。',
  time: '时间',
  actor: '操作者',
  target: '对象',
  changed: '变更',
  actors: {
    you: '你',
    provider: '服务商 {{name}}',
    admin: '管理员',
    system: '系统',
  },
  actions: {
    user: {
      create: '创建了账户',
      update: '修改了账户',
      delete: '删除了账户',
      disable: '停用了账户',
      enable: '启用了账户',
      refresh_token: '签发了新的 API 令牌',
      create_sign_in_link: '创建了登录链接',
    },
  },
  targets: {
    subscriptionNamed: '订阅“{{name}}”',
    subscription: '订阅',
    user: '你的账户',
    connection: '连接',
  },
  error: '无法加载活动记录：{{message}}',
};
