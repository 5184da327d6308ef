// The admin statistics screen's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '统计',
  refresh: '刷新',
  rangeLabel: '时间范围',
  ranges: { day: '最近 24 小时', week: '最近 7 天', month: '最近 30 天' },
  numbers: {
    total_users: '用户',
    total_subscriptions: '订阅',
    total_providers: '服务商',
    total_requests: '请求',
    new_users: '新用户',
    new_subscriptions: '新订阅',
  },
  utc: '小时和日期均为 UTC。用户、订阅和服务商按当前数量统计。',
  charts: {
    requestsPerHour: '每小时请求数',
    requestsPerDay: '每日请求数',
    newPerHour: '每小时新用户和新订阅',
    newPerDay: '每日新用户和新订阅',
    byKind: '按类型统计的请求',
  },
  kinds: {
    public: '订阅链接',
    page: '连接页面',
    user: '用户 API',
    provider: '服务商 API',
    admin: '管理员 API',
    anonymous: '未知路径',
  },
  hourHeader: '小时',
  dayHeader: '日期',
  kindHeader: '类型',
  showTable: '显示数字',
  hideTable: '隐藏数字',
  error: '无法加载统计：{{message}}',
};
