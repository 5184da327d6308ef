// The link section's strings in Persian (right to left).
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const fa: Catalog<typeof en> = {
  qr: 'کد QR لینک اشتراک',
  openPage: 'باز کردن صفحه‌ای که در مرورگر دیده می‌شود',
  formats: {
    title: 'لینک برای یک قالب',
    hint: 'هر یک از این لینک‌ها همیشه همان قالب را می‌دهد، هر برنامه‌ای که درخواست کند. اگر برنامه‌ای قالب نادرست دریافت می‌کند، از آن استفاده کنید.',
    base64: 'فهرست base64 (بیشتر برنامه‌ها)',
    mihomo: 'پروفایل mihomo (Clash Verge، FlClash، Stash…)',
    'sing-box': 'پروفایل sing-box (SFA، SFI، Karing…)',
    xray: 'Xray JSON (v2rayN، v2rayNG، Happ)',
    sip008: 'SIP008 (فقط سرورهای Shadowsocks)',
    copy: 'کپی کردن لینک {{format}}',
    copied: 'کپی شد',
  },
  rotate: {
    button: 'تغییر لینک…',
    title: 'لینک اشتراک تغییر کند؟',
    body: 'اشتراک لینک تازه‌ای می‌گیرد. لینک قبلی بی‌درنگ از کار می‌افتد و باید لینک تازه را به همه برنامه‌هایی که از آن استفاده می‌کنند بدهید. نام، منابع، تنظیمات و درخواست‌های اخیر می‌مانند.',
    confirm: 'تغییر لینک',
    cancel: 'انصراف',
    done: 'لینک تغییر کرد. لینک قبلی دیگر کار نمی‌کند: این لینک را به برنامه‌هایتان اضافه کنید.',
  },
  preview: {
    title: 'هر برنامه چه دریافت می‌کند',
    hint: 'یک برنامه را انتخاب کنید تا ببینید این لینک همین حالا چه چیزی به آن می‌دهد: قالب، قاعده‌ای که آن را انتخاب کرد، و سرورها.',
    app: 'برنامه',
    browser: 'مرورگر وب',
    custom: 'برنامه‌ای دیگر (User-Agent آن را وارد کنید)',
    userAgent: 'User-Agent',
    show: 'نمایش',
    format: 'قالب: {{format}}',
    rule: 'قاعده: {{rule}}',
    served: 'تعداد سرورها: {{count}}',
    blocked: 'یک قاعده قالب این برنامه را رد می‌کند: به‌جای سرورها خطا دریافت می‌کند.',
    servers: 'سرورها',
    noServers: 'این لینک اکنون هیچ سروری ارائه نمی‌دهد.',
    skipped: 'کنار گذاشته شد: {{reason}}',
    skipReasons: {
      insecure_tls: 'Xray اتصال TLS ناامن را نمی‌پذیرد',
      unsupported_transport: 'این قالب چنین ترنسپورتی ندارد',
      unsupported_by_client: 'این نسخه برنامه نمی‌تواند از آن استفاده کند',
    },
    body: 'آغاز آنچه برنامه دریافت می‌کند',
  },
};
