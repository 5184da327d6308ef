// The sign-in screen's strings in Persian (right to left).
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'ورود',
  intro: 'توکن API را که دریافت کرده‌اید وارد کنید، یا لینک ورود یک‌بارمصرف را که ربات یا مدیر فرستاده باز کنید.',
  token: 'توکن API',
  tokenHint: 'رشته‌ای ۴۳ نویسه‌ای. فقط یک بار برای ورود فرستاده می‌شود و در مرورگر ذخیره نمی‌شود.',
  submit: 'ورود',
  withLink: 'در حال ورود با لینک ورود…',
  errors: {
    empty: 'ابتدا توکن API را وارد کنید.',
    badToken: 'این توکن معتبر نیست. مطمئن شوید که آن را کامل کپی کرده‌اید، یا توکن تازه‌ای بگیرید.',
    badLink: 'این لینک ورود نامعتبر، منقضی یا قبلاً استفاده شده است. لینک تازه‌ای بگیرید یا با توکن وارد شوید.',
    disabled: 'این حساب غیرفعال شده است.',
    other: 'ورود ناموفق بود: {{message}}',
  },
};
