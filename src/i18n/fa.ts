// Persian strings of the server-rendered pages (right to left), in the terms Persian proxy apps use (اشتراک، سرور، حجم).
import type { Catalog } from './i18n.js';

export const fa: Catalog = {
  'lang.label': 'زبان',
  'page.subscription': 'اشتراک',
  'page.footer':
    'ارائه‌شده توسط {service}. این لینک را به کسی ندهید: هر کسی که آن را داشته باشد می‌تواند از اشتراک استفاده کند.',

  'link.title': 'لینک اشتراک',
  'link.copy': 'کپی',
  'link.copied': 'در کلیپ‌بورد کپی شد.',
  'link.selected': 'انتخاب شد: برای کپی Ctrl+C (در مک ⌘C) را بزنید یا انگشت خود را نگه دارید.',
  'qr.title': 'کد QR',
  'qr.caption': 'آن را با برنامه روی دستگاهی که می‌خواهید وصل شود اسکن کنید.',

  'apps.title': 'افزودن به برنامه',
  'apps.hint':
    'یکی از این برنامه‌ها را نصب کنید و سپس دکمه آن را اینجا بزنید: برنامه باز می‌شود و این اشتراک را خودش اضافه می‌کند.',
  'apps.add': 'افزودن به {app}',
  'apps.paid': 'برنامه پولی.',
  'install.play': '{app} را از Google Play نصب کنید.',
  'install.appstore': '{app} را از App Store نصب کنید.',
  'install.github': 'فایل نصب مناسب سیستم خود را از صفحه انتشارهای {app} دانلود و نصب کنید.',
  'install.site': '{app} را از سایت رسمی آن دانلود و نصب کنید.',
  'install.then': 'سپس به اینجا برگردید و «افزودن به {app}» را بزنید.',
  'store.play': 'Google Play',
  'store.appstore': 'App Store',
  'store.github': 'انتشارها در GitHub',
  'store.site': 'سایت رسمی',
  'formats.hint':
    'برنامه دیگری دارید؟ بیشتر برنامه‌ها لینک بالا را می‌خوانند. برنامه‌های Clash و mihomo قالب خود را از لینک اول پایین می‌گیرند و برنامه‌های sing-box از لینک دوم.',
  'formats.mihomo': 'Clash / mihomo (YAML)',
  'formats.singbox': 'sing-box (JSON)',

  'facts.servers': 'سرورها',
  'facts.updated': 'آخرین تغییر',
  'facts.traffic': 'حجم مصرفی',
  'facts.used': '{used} مصرف شده',
  'facts.used_of': '{used} از {total}',
  'facts.unlimited': 'نامحدود',
  'facts.expires': 'تاریخ انقضا',
  'facts.never': 'بدون انقضا',
  'facts.expired': 'منقضی شده',
  'facts.in_days': '{days} روز مانده',
  'facts.in_day': '۱ روز مانده',
  'site.support': 'پشتیبانی',
  'site.website': 'وب‌سایت',

  'banner.expired.title': 'این اشتراک منقضی شده است',
  'banner.expired.text': 'برنامه‌ها دیگر با آن وصل نمی‌شوند. برای اتصال دوباره، اشتراک را تمدید کنید.',
  'banner.quota.title': 'حجم اشتراک تمام شده است',
  'banner.quota.text': 'تا وقتی حجم افزایش پیدا نکند یا دوره جدید شروع نشود، برنامه‌ها با آن وصل نمی‌شوند.',
  'banner.support': 'تماس با پشتیبانی',

  'notfound.title': 'اشتراک پیدا نشد',
  'notfound.text':
    'این لینک به هیچ اشتراکی روی این سرور نمی‌رسد. شاید اشتباه تایپ شده، با لینک جدیدی جایگزین شده یا حذف شده باشد.',
  'notfound.hint': 'لینک فعلی را از کسی که آن را به شما داده بخواهید.',

  'connect.title': 'اتصال به {provider}؟',
  'connect.asks': '{provider} درخواست دارد اشتراک‌های پروکسی شما را از طرف شما مدیریت کند.',
  'connect.website': 'وب‌سایت:',
  'connect.for_user': 'این لینک برای کاربر با شناسه {user} ساخته شده است.',
  'connect.fact.manage': 'اگر تأیید کنید، {provider} می‌تواند در حساب شما اشتراک بسازد و آن‌ها را تغییر دهد.',
  'connect.fact.keep': 'اشتراک‌هایی که می‌سازد متعلق به شما می‌مانند و اگر بعداً دسترسی را لغو کنید هم کار می‌کنند.',
  'connect.fact.safe': 'باز کردن این صفحه چیزی را تغییر نمی‌دهد: فقط با توکن API شما می‌توان تأیید کرد.',
  'connect.token': 'توکن API شما',
  'connect.placeholder': 'توکن یا لینک ورود را اینجا بچسبانید',
  'connect.check': 'بررسی',
  'connect.token_hint': 'توکن فقط به همین سرور و در هدر درخواست فرستاده می‌شود و وقتی از صفحه خارج شوید فراموش می‌شود.',
  'connect.forget': 'همین حالا فراموش کن',
  'connect.where.title': 'توکن را از کجا بگیرم؟',
  'connect.where.text':
    'توکن API کلید حساب شما در این سرویس است. رباتی یا ارائه‌دهنده‌ای که با آن ثبت‌نام کرده‌اید آن را به شما می‌دهد، یا مدیر این سرور. مثل رمز عبور آن را محرمانه نگه دارید.',
  'connect.signin':
    'به‌جای توکن لینک ورود دارید (شامل {path})؟ آن را بالا بچسبانید: داشبورد شما باز می‌شود و وارد می‌شوید.',
  'connect.status': 'وضعیت:',
  'connect.approve': 'تأیید',
  'connect.reject': 'رد کردن',
  'connect.revoke': 'لغو دسترسی',
  'connect.noscript':
    'این صفحه برای ارتباط با سرور به JavaScript نیاز دارد. بدون آن، {approve} (یا {reject}) را با هدر {header} خود فراخوانی کنید.',
  'connect.unknown.title': 'ارائه‌دهنده ناشناس',
  'connect.unknown.text': 'ارائه‌دهنده‌ای با نام {provider} روی این سرور وجود ندارد.',
  'connect.unknown.hint': 'لینکی را که گرفته‌اید بررسی کنید یا از ارائه‌دهنده لینک جدید بخواهید.',

  'connect.state.pending': 'در انتظار',
  'connect.state.pending.text':
    '{provider} منتظر پاسخ شماست. تأیید کنید تا اشتراک‌های شما را مدیریت کند، یا درخواست را رد کنید.',
  'connect.state.approved': 'تأیید شده',
  'connect.state.approved.text':
    '{provider} می‌تواند در حساب شما اشتراک بسازد و تغییر دهد. هر زمان بخواهید می‌توانید دسترسی را لغو کنید.',
  'connect.state.revoked': 'لغو شده',
  'connect.state.revoked.text':
    '{provider} دیگر نمی‌تواند اشتراک‌های شما را مدیریت کند. برای اتصال دوباره باید درخواست جدیدی بفرستد.',
  'connect.state.none': 'بدون درخواست',
  'connect.state.none.text': 'بین حساب شما و {provider} اتصالی وجود ندارد.',
  'connect.error.missing_token': 'اول توکن API خود را بچسبانید.',
  'connect.error.invalid_token': 'این توکن API معتبر نیست. توکن API کاربری خودتان را بچسبانید (نه توکن ارائه‌دهنده).',
  'connect.error.account_disabled': 'حساب شما غیرفعال است، پس نمی‌تواند اتصال‌های ارائه‌دهنده را مدیریت کند.',
  'connect.error.connection_not_found': 'برای این حساب درخواست اتصالی از {provider} وجود ندارد.',
  'connect.error.connection_not_pending': 'این درخواست دیگر در انتظار نیست و نمی‌توان آن را تأیید یا رد کرد.',
  'connect.error.provider_limit_reached':
    'به حداکثر تعداد ارائه‌دهنده‌های مجاز رسیده‌اید. پیش از تأیید یکی دیگر، دسترسی یکی را لغو کنید.',
  'connect.error.ip_banned': 'درخواست‌ها از شبکه شما موقتاً مسدود شده‌اند. بعداً دوباره امتحان کنید.',
  'connect.error.rate_limited': 'تلاش‌ها بیش از حد است. کمی صبر کنید و دوباره امتحان کنید.',
  'connect.error.status': 'سرور با وضعیت {status} پاسخ داد.',
  'connect.error.retry': '(حدود {seconds} ثانیه)',
  'connect.error.network': 'دسترسی به سرور ممکن نشد. اتصال خود را بررسی کنید و دوباره امتحان کنید.',
  'connect.error.other_user': 'این لینک برای کاربر {expected} ساخته شده، اما توکن شما متعلق به کاربر {actual} است.',
  'connect.done.approve': 'تأیید شد. اکنون {provider} می‌تواند اشتراک‌های شما را مدیریت کند.',
  'connect.done.reject': 'درخواست رد شد. {provider} دسترسی نمی‌گیرد.',
  'connect.done.revoke': 'دسترسی لغو شد. اشتراک‌هایی که {provider} ساخته متعلق به شما می‌مانند.',
  'connect.forgotten': 'توکن شما از این صفحه پاک شد.',
  'connect.signing_in': 'در حال باز کردن لینک ورود…',
};
