// The branding screen's strings in Persian.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  intro:
    'اینکه صفحهٔ اشتراک، صفحهٔ اتصال و این داشبورد سرویس را چگونه نشان دهند. فیلدهای خالی از مقدار پیش‌فرض استفاده می‌کنند.',
  loadFailed: 'نام و نشان بارگیری نشد: {{message}}',
  serviceName: 'نام سرویس',
  serviceNameHint: 'خالی: subweave.',
  logo: 'لوگو',
  logoHint: 'PNG، JPEG، WebP یا SVG، حداکثر ۶۴ کیلوبایت.',
  logoPick: 'انتخاب فایل',
  logoTooLarge: 'این فایل بزرگ‌تر از ۶۴ کیلوبایت است.',
  logoUnreadable: 'این فایل خوانده نشد.',
  logoRemove: 'حذف لوگو',
  accent: 'رنگ تأکید',
  accentHint: 'رنگ دکمه‌ها، به شکل #rrggbb. خالی: رنگ‌های پیش‌فرض.',
  supportUrl: 'لینک پشتیبانی پیش‌فرض',
  supportUrlHint: 'در هر صفحهٔ اشتراکی که لینک پشتیبانی خودش را ندارد نشان داده می‌شود.',
  sample: 'نمونه',
  sampleButton: 'افزودن به برنامه',
  save: 'ذخیرهٔ نام و نشان',
  saved: 'نام و نشان ذخیره شد. صفحه‌ها در کمتر از یک ثانیه آن را نشان می‌دهند.',
  refused: 'چیزی ذخیره نشد: {{message}}',
};
