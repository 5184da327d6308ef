// Audit log wording shared by the user's Activity and the admin's audit log, in Simplified Chinese.
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  actions: {
    subscription: {
      create: '创建了订阅',
      update: '修改了订阅',
      delete: '删除了订阅',
      rotate: '更换了订阅链接',
    },
    connection: {
      request: '请求连接',
      approve: '批准了连接',
      reject: '拒绝了连接',
      revoke: '撤销了连接',
    },
  },
  summary: {
    fields: '字段：{{value}}',
    sourcesAdded: '新增来源：{{value}}',
    sourcesRemoved: '移除来源：{{value}}',
    sourcesReplaced: '替换来源：{{value}}',
    status: '状态：{{value}}',
    provider: '服务商：{{value}}',
  },
};
