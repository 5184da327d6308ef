// The admin connections screen's strings in Persian (right to left).
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'اتصال‌ها',
  intro:
    'اتصال به یک ارائه‌دهنده اجازه می‌دهد اشتراک‌های کاربر را مدیریت کند. درخواستِ در انتظار را از طرف کاربر تأیید یا رد کنید؛ اتصال تأییدشده را کاربر یا ارائه‌دهنده لغو می‌کند.',
  user: {
    label: 'شناسه کاربر',
    invalid: 'یک عدد صحیح بزرگ‌تر از ۰ وارد کنید.',
    show: 'نمایش اتصال‌ها',
  },
  list: {
    title: 'اتصال‌های کاربر {{id}}',
    empty: 'این کاربر هیچ اتصالی ندارد.',
  },
  status: {
    pending: 'در انتظار تأیید',
    approved: 'تأییدشده',
    revoked: 'لغوشده',
  },
  actions: {
    approve: 'تأیید',
    reject: 'رد',
  },
  authorize: {
    title: 'پردازش دعوت‌نامه ارائه‌دهنده',
    body: 'پیوند اتصال هر ارائه‌دهنده با یک دعوت‌نامه تمام می‌شود. آن را این‌جا بچسبانید تا برای کاربر درخواستی باز شود، گویی خودش پیوند را باز کرده است.',
    user: 'شناسه کاربر',
    provider: 'نام ارائه‌دهنده',
    invite: 'دعوت‌نامه',
    required: 'این را پر کنید.',
    submit: 'پردازش دعوت‌نامه',
    done: 'اتصال {{provider}} با کاربر {{id}}: {{status}}',
  },
  errors: {
    user_not_found: 'کاربری با این شناسه نیست.',
    provider_not_found: 'ارائه‌دهنده‌ای با این نام نیست.',
    connection_not_found: 'این اتصال دیگر وجود ندارد.',
    connection_not_pending: 'به این درخواست قبلاً پاسخ داده شده است.',
    provider_limit_reached: 'این کاربر به سقف ارائه‌دهندگان تأییدشده رسیده است (MAX_PROVIDERS_PER_USER).',
    invalid_invite:
      'دعوت‌نامه نادرست یا منقضی است (۷ روز اعتبار دارد)، یا برای کاربر یا ارائه‌دهنده دیگری ساخته شده است.',
    validation_failed: 'سرور ورودی را نپذیرفت. شناسه کاربر و نام ارائه‌دهنده را بررسی کنید.',
    other: 'درخواست ناموفق بود: {{message}}',
  },
};
