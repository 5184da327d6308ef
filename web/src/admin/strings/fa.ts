// The admin console's shared strings in Persian (right to left).
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'کنسول مدیریت',
  leave: 'فراموش کردن رمز مدیر',
  backToApp: 'بازگشت به بخش کاربر',
  nav: {
    label: 'مدیریت',
    stats: 'آمار',
    users: 'کاربران',
    providers: 'ارائه‌دهندگان',
    connections: 'اتصال‌ها',
    bans: 'مسدودها و فهرست سفید',
    formats: 'قالب‌ها و الگوها',
    branding: 'نام و نشان',
    webhooks: 'وب‌هوک‌ها',
    audit: 'گزارش ممیزی',
  },
  gate: {
    title: 'کنسول مدیریت',
    body: 'ADMIN_SECRET این سرویس را وارد کنید. این رمز فقط در همین زبانه مرورگر می‌ماند: هر درخواست همین‌جا امضا می‌شود و خود رمز هرگز فرستاده نمی‌شود.',
    secret: 'رمز مدیر',
    submit: 'باز کردن کنسول',
    required: 'رمز مدیر را وارد کنید.',
    insecureTitle: 'این صفحه به HTTPS نیاز دارد',
    insecureBody:
      'مرورگرها فقط روی {{https}} یا localhost درخواست‌ها را امضا می‌کنند (WebCrypto). کنسول را از راه HTTPS یا یک تونل SSH به localhost باز کنید.',
    errors: {
      invalid_signature: 'این رمز مدیر این سرویس نیست.',
      ip_not_allowed: 'نشانی شما در ADMIN_ALLOWED_IPS نیست، پس API مدیریت آن را نمی‌پذیرد.',
      admin_disabled: 'API مدیریت خاموش است: ADMIN_SECRET روی سرور تنظیم نشده است.',
      signature_expired:
        'ساعت این رایانه بیش از یک دقیقه با ساعت سرور فرق دارد. ساعت را درست کنید و دوباره امتحان کنید.',
      other: 'بررسی ناموفق بود: {{message}}',
    },
  },
  placeholder: 'این صفحه هنوز آماده نیست.',
};
