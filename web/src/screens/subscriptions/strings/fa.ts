// The subscription screens' strings in Persian (right to left).
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  list: {
    title: 'اشتراک‌ها',
    create: 'اشتراک جدید',
    empty: 'هنوز اشتراکی ندارید. یک اشتراک بسازید تا لینکی برای برنامه‌هایتان بگیرید.',
    servers: 'تعداد سرورها: {{count}}',
    sources: 'تعداد منابع: {{count}}',
    failing: 'منابع دارای خطا: {{count}}',
    held: 'به‌روزرسانی‌های در انتظار تأیید: {{count}}',
    managedBy: 'مدیریت‌شده توسط {{provider}}',
    updated: 'به‌روزرسانی: {{date}}',
    open: 'باز کردن «{{name}}»',
  },
  create: {
    title: 'اشتراک جدید',
    name: 'نام',
    nameHint: 'حداکثر ۶۴ نویسه، و متفاوت با نام دیگر اشتراک‌هایتان.',
    description: 'توضیحات',
    sources: 'منابع',
    sourcesHint: 'در هر خط یکی: لینک سرور ({{schemes}})، لینک اشتراک، یا لینک یکی دیگر از اشتراک‌هایتان. اختیاری.',
    submit: 'ساختن',
    close: 'بستن',
    cancel: 'انصراف',
    nameRequired: 'یک نام وارد کنید.',
  },
  detail: {
    back: 'همه اشتراک‌ها',
    link: 'لینک اشتراک',
    linkHint: 'این لینک را به‌عنوان اشتراک در برنامه‌تان (Hiddify، v2rayNG، Clash، sing-box…) اضافه کنید.',
    copy: 'کپی لینک',
    copied: 'کپی شد',
  },
  history: {
    title: 'درخواست‌های اخیر',
    refresh: 'به‌روزرسانی',
    empty: 'هنوز هیچ برنامه‌ای این لینک را دریافت نکرده است.',
    time: 'زمان',
    format: 'قالب',
    rule: 'قاعده',
    status: 'وضعیت',
    userAgent: 'برنامه (User-Agent)',
    client: 'شبکه',
    servers: 'سرورها',
  },
  errors: {
    name_exists: 'اشتراکی با همین نام دارید.',
    subscription_limit_reached: 'به حداکثر تعداد اشتراک‌ها رسیده‌اید.',
    subscription_not_found: 'این اشتراک وجود ندارد یا حذف شده است.',
    managed_by_provider:
      'این اشتراک را یک ارائه‌دهنده مدیریت می‌کند: تا وقتی اتصال شما به آن تأییدشده است، فقط همان می‌تواند آن را تغییر دهد.',
    invalid_source: 'نه لینک سرور است، نه لینک اشتراک و نه لینکی از این سرویس (یا آن اشتراک وجود ندارد): {{data}}',
    invalid_url:
      'این نشانی قابل استفاده نیست (رمز عبور دارد، به نشانی خصوصی اشاره می‌کند یا شکلش نادرست است): {{data}}',
    other: '{{message}}',
  },
};
