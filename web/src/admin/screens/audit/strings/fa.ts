// The admin audit log's strings in Persian (right to left).
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'گزارش ممیزی',
  intro:
    'همهٔ تغییرهای پذیرفته‌شده در کاربران، ارائه‌دهندگان، اشتراک‌ها، مسدودسازی‌ها، تنظیمات و وب‌هوک‌ها، توسط کاربران، ارائه‌دهندگان، مدیران و خود سرویس؛ جدیدترین در بالا.',
  listLabel: 'ورودی‌های ممیزی',
  empty: 'هیچ ورودی‌ای مطابقت ندارد.',
  loadMore: 'نمایش ورودی‌های قدیمی‌تر',
  end: 'همین بود.',
  actor: 'توسط',
  target: 'هدف',
  clientIp: 'از',
  error: 'بارگیری گزارش ممیزی ممکن نشد: {{message}}',
  whitelistAdded: 'به فهرست سفید افزوده شد',
  whitelistRemoved: 'از فهرست سفید حذف شد',
  filters: {
    label: 'فیلترها',
    actor: 'انجام‌دهنده',
    examples: 'مثلاً:',
    action: 'کنش',
    actionHint: 'خالی: هر کنشی',
    target: 'هدف',
    since: 'از (شامل)',
    until: 'تا (بدون خودِ آن)',
    apply: 'اعمال فیلترها',
    clear: 'پاک کردن فیلترها',
    untilBeforeSince: 'پایان باید پس از آغاز باشد.',
  },
  actors: {
    user: 'کاربر {{id}}',
    provider: 'ارائه‌دهنده {{id}}',
    admin: 'مدیر ({{id}})',
    adminApi: 'مدیر (API)',
    adminCli: 'مدیر (CLI)',
    adminImport: 'درون‌ریزی از v2hub',
    system: 'سرویس ({{id}})',
  },
  actions: {
    user: {
      create: 'کاربر ساخته شد',
      update: 'کاربر تغییر کرد',
      delete: 'کاربر حذف شد',
      disable: 'کاربر غیرفعال شد',
      enable: 'کاربر فعال شد',
      refresh_token: 'توکن API جدید برای کاربر صادر شد',
      create_sign_in_link: 'لینک ورود برای کاربر ساخته شد',
    },
    provider: {
      create: 'ارائه‌دهنده ساخته شد',
      update: 'ارائه‌دهنده تغییر کرد',
      delete: 'ارائه‌دهنده حذف شد',
      refresh_token: 'توکن API جدید برای ارائه‌دهنده صادر شد',
    },
    ban: {
      create: 'نشانی مسدود شد',
      delete: 'مسدودیت برداشته شد',
    },
    settings: {
      change: 'یک تنظیم تغییر کرد',
    },
    webhook: {
      create: 'وب‌هوک ساخته شد',
      update: 'وب‌هوک تغییر کرد',
      delete: 'وب‌هوک حذف شد',
      rotate_secret: 'رمز وب‌هوک عوض شد',
      redeliver: 'تحویل وب‌هوک دوباره فرستاده شد',
      test: 'رویداد آزمایشی به وب‌هوک فرستاده شد',
    },
  },
  targets: {
    user: 'کاربر',
    provider: 'ارائه‌دهنده',
    subscription: 'اشتراک',
    connection: 'اتصال',
    connectionIds: 'کاربر {{user}}، ارائه‌دهنده {{provider}}',
    ban: 'مسدودسازی',
    whitelist: 'فهرست سفید',
    settings: 'تنظیم',
    webhook: 'وب‌هوک',
  },
};
