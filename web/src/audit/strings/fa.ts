// Audit log wording shared by the user's Activity and the admin's audit log, in Persian (right to left).
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  actions: {
    subscription: {
      create: 'اشتراک ساخته شد',
      update: 'اشتراک تغییر کرد',
      delete: 'اشتراک حذف شد',
      rotate: 'لینک اشتراک عوض شد',
    },
    connection: {
      request: 'درخواست اتصال داده شد',
      approve: 'اتصال تأیید شد',
      reject: 'اتصال رد شد',
      revoke: 'اتصال لغو شد',
    },
  },
  summary: {
    fields: 'فیلدها: {{value}}',
    sourcesAdded: 'منابع افزوده: {{value}}',
    sourcesRemoved: 'منابع حذف‌شده: {{value}}',
    sourcesReplaced: 'منابع جایگزین‌شده: {{value}}',
    status: 'وضعیت: {{value}}',
    provider: 'ارائه‌دهنده: {{value}}',
  },
};
