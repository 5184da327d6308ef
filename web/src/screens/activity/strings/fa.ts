// The Activity screen's strings in Persian.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'فعالیت‌ها',
  intro: 'تغییرات حساب، اتصال‌ها و اشتراک‌های شما، از جدیدترین.',
  empty: 'هنوز فعالیتی ثبت نشده است.',
  loadMore: 'نمایش موارد قدیمی‌تر',
  end: 'همهٔ موارد نمایش داده شد.',
  time: 'زمان',
  actor: 'توسط',
  target: 'مورد',
  changed: 'تغییرات',
  actors: {
    you: 'شما',
    provider: 'ارائه‌دهنده {{name}}',
    admin: 'مدیر',
    system: 'سرویس',
  },
  actions: {
    user: {
      create: 'حساب ساخته شد',
      update: 'حساب تغییر کرد',
      delete: 'حساب حذف شد',
      disable: 'حساب غیرفعال شد',
      enable: 'حساب فعال شد',
      refresh_token: 'توکن API جدید صادر شد',
      create_sign_in_link: 'لینک ورود ساخته شد',
    },
  },
  targets: {
    subscriptionNamed: 'اشتراک «{{name}}»',
    subscription: 'اشتراک',
    user: 'حساب شما',
    connection: 'اتصال',
  },
  error: 'بارگذاری فعالیت‌ها ممکن نشد: {{message}}',
};
