// The admin bans and whitelist screen's strings in Persian (right to left).
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'مسدودسازی و فهرست سفید',
  address: 'نشانی IP یا بازهٔ CIDR',
  examples: 'مثلاً:',
  cancel: 'انصراف',
  bans: {
    title: 'مسدودسازی‌های فعال',
    intro:
      'نشانی مسدودشده روی لینک اشتراک، API کاربران و ارائه‌دهندگان و صفحه‌های اتصال پاسخ 403 می‌گیرد. API مدیر هرگز مسدود نمی‌شود. سرویس پس از ردهای مکرر به‌دلیل محدودیت نرخ، نشانی را خودکار مسدود می‌کند.',
    empty: 'هیچ نشانی‌ای مسدود نیست.',
    add: 'مسدود کن',
    duration: 'مدت',
    durationHint: 'خالی: پیش‌فرض سرور',
    unit: 'واحد',
    units: { minutes: 'دقیقه', hours: 'ساعت', days: 'روز' },
    automatic: 'خودکار: محدودیت نرخ',
    manual: 'توسط مدیر',
    until: 'تا {{time}} ({{left}})',
    since: 'زمان مسدودسازی: {{time}}',
    lift: 'رفع مسدودیت',
    liftNamed: 'رفع مسدودیت {{ip}}',
    confirmTitle: 'مسدودیت {{ip}} برداشته شود؟',
    confirmBody: 'درخواست‌های این نشانی بی‌درنگ و در همهٔ نمونه‌ها دوباره پاسخ می‌گیرند.',
  },
  whitelist: {
    title: 'فهرست سفید',
    intro:
      'نشانی‌های فهرست سفید هرگز مسدود نمی‌شوند و محدودیت نرخ ندارند. مسدودسازی ثبت‌شده برای آن‌ها در فهرست بالا می‌ماند ولی اعمال نمی‌شود.',
    empty: 'فهرست سفید خالی است.',
    add: 'افزودن به فهرست سفید',
    description: 'دلیل (اختیاری)',
    added: 'زمان افزودن: {{time}}',
    remove: 'حذف',
    removeNamed: 'حذف {{ip}} از فهرست سفید',
    confirmTitle: '{{ip}} از فهرست سفید حذف شود؟',
    confirmBody: 'محدودیت نرخ و مسدودسازی بی‌درنگ دوباره برای این نشانی اعمال می‌شود.',
  },
  errors: {
    addressRequired: 'یک نشانی IP یا بازهٔ CIDR وارد کنید.',
    badAddress: 'این یک نشانی IPv4 یا IPv6 یا بازهٔ CIDR نیست.',
    badDuration: 'یک عدد صحیح دست‌کم 1 وارد کنید؛ مسدودسازی حداکثر 365 روز است.',
    longDescription: 'حداکثر 256 نویسه.',
    load: 'بارگیری فهرست ممکن نشد: {{message}}',
    other: 'تغییر پذیرفته نشد: {{message}}',
  },
};
