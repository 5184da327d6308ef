// The admin users screen's strings in Persian (right to left).
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'کاربران',
  create: {
    title: 'ساختن کاربر',
    id: 'شناسه کاربر',
    hint: 'یک عدد صحیح بزرگ‌تر از ۰، مثلاً شناسه تلگرام آن شخص.',
    invalid: 'یک عدد صحیح بزرگ‌تر از ۰ وارد کنید.',
    submit: 'ساختن کاربر',
  },
  filter: {
    search: 'جست‌وجو با شناسه کاربر',
    digits: 'فقط رقم.',
    status: 'وضعیت',
    all: 'همه',
    active: 'فعال',
    disabled: 'غیرفعال',
  },
  list: {
    user: 'کاربر {{id}}',
    active: 'فعال',
    disabled: 'غیرفعال',
    created: 'ساخته‌شده: {{time}}',
    subscriptions: 'اشتراک‌ها: {{count}}',
    empty: 'هیچ کاربری پیدا نشد.',
    more: 'نمایش بیشتر',
  },
  actions: {
    disable: 'غیرفعال کردن',
    enable: 'فعال کردن',
    link: 'پیوند ورود',
    token: 'توکن API تازه',
    connections: 'اتصال‌ها',
    delete: 'حذف',
  },
  shown: {
    tokenTitle: 'توکن API کاربر {{id}}',
    tokenWarning: 'فقط همین حالا نشان داده می‌شود: سرور فقط هش آن را نگه می‌دارد. آن را کپی کنید و به کاربر بدهید.',
    linkTitle: 'پیوند ورود کاربر {{id}}',
    linkWarning: '۱۵ دقیقه و فقط یک بار معتبر است. آن را فقط برای همین کاربر بفرستید: او را وارد داشبورد می‌کند.',
    copy: 'کپی',
    copied: 'کپی شد',
    done: 'تمام',
  },
  confirm: {
    deleteTitle: 'کاربر {{id}} حذف شود؟',
    deleteBody:
      'اشتراک‌ها، منبع‌ها، اتصال‌ها و ارائه‌دهنده‌ای که دارد هم حذف می‌شوند و پیوندهایش بی‌درنگ از کار می‌افتند.',
    delete: 'حذف',
    tokenTitle: 'توکن API تازه برای کاربر {{id}}؟',
    tokenBody: 'توکن فعلی و همه نشست‌های مرورگر این کاربر بی‌درنگ از کار می‌افتند.',
    token: 'صدور توکن تازه',
    cancel: 'لغو',
  },
  errors: {
    user_exists: 'کاربری با این شناسه از قبل هست.',
    user_not_found: 'این کاربر دیگر وجود ندارد.',
    account_disabled: 'این کاربر غیرفعال است: اول او را فعال کنید.',
    validation_failed: 'سرور ورودی را نپذیرفت. شناسه کاربر را بررسی کنید.',
    other: 'درخواست ناموفق بود: {{message}}',
  },
};
