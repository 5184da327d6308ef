// The shell's strings in Persian (right to left).
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  appName: 'subweave',
  skipToContent: 'رفتن به محتوای اصلی',
  nav: {
    label: 'منوی اصلی',
    subscriptions: 'اشتراک‌ها',
    connections: 'اتصال‌ها',
    activity: 'فعالیت‌ها',
    account: 'حساب کاربری',
    admin: 'کنسول مدیریت',
    toggle: 'باز یا بسته کردن منو',
  },
  colorScheme: {
    toDark: 'رفتن به پوسته تیره',
    toLight: 'رفتن به پوسته روشن',
  },
  language: 'زبان',
  signOut: 'خروج',
  loading: 'در حال بارگذاری…',
  retry: 'تلاش دوباره',
  error: 'خطایی رخ داد: {{message}}',
  offline: 'ارتباط با سرور برقرار نشد. اتصال اینترنت را بررسی کنید.',
  notFound: {
    title: 'صفحه پیدا نشد',
    body: 'در این نشانی چیزی وجود ندارد.',
    back: 'بازگشت به اشتراک‌ها',
  },
};
