// The admin statistics screen's strings in Persian (right to left).
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  title: 'آمار',
  refresh: 'به‌روزرسانی',
  rangeLabel: 'بازه',
  ranges: { day: '۲۴ ساعت گذشته', week: '۷ روز گذشته', month: '۳۰ روز گذشته' },
  numbers: {
    total_users: 'کاربران',
    total_subscriptions: 'اشتراک‌ها',
    total_providers: 'ارائه‌دهندگان',
    total_requests: 'درخواست‌ها',
    new_users: 'کاربران جدید',
    new_subscriptions: 'اشتراک‌های جدید',
  },
  utc: 'ساعت‌ها و روزها به وقت UTC هستند. کاربران، اشتراک‌ها و ارائه‌دهندگان به تعداد کنونی شمرده شده‌اند.',
  charts: {
    requestsPerHour: 'درخواست‌ها در هر ساعت',
    requestsPerDay: 'درخواست‌ها در هر روز',
    newPerHour: 'کاربران و اشتراک‌های جدید در هر ساعت',
    newPerDay: 'کاربران و اشتراک‌های جدید در هر روز',
    byKind: 'درخواست‌ها بر اساس نوع',
  },
  kinds: {
    public: 'لینک‌های اشتراک',
    page: 'صفحه‌های اتصال',
    user: 'API کاربران',
    provider: 'API ارائه‌دهندگان',
    admin: 'API مدیر',
    anonymous: 'مسیرهای ناشناخته',
  },
  hourHeader: 'ساعت',
  dayHeader: 'روز',
  kindHeader: 'نوع',
  showTable: 'نمایش اعداد',
  hideTable: 'پنهان کردن اعداد',
  error: 'بارگیری آمار ممکن نشد: {{message}}',
};
