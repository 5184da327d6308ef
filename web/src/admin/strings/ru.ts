// The admin console's shared strings in Russian.
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
  title: 'Консоль администратора',
  leave: 'Забыть секрет администратора',
  backToApp: 'Вернуться в кабинет пользователя',
  nav: {
    label: 'Администрирование',
    stats: 'Статистика',
    users: 'Пользователи',
    providers: 'Провайдеры',
    connections: 'Подключения',
    bans: 'Блокировки и белый список',
    formats: 'Форматы и шаблоны',
    branding: 'Оформление',
    webhooks: 'Вебхуки',
    audit: 'Журнал аудита',
  },
  gate: {
    title: 'Консоль администратора',
    body: 'Введите ADMIN_SECRET этого сервиса. Он остаётся в этой вкладке браузера: каждый запрос подписывается здесь, а сам секрет никуда не отправляется.',
    secret: 'Секрет администратора',
    submit: 'Открыть консоль',
    required: 'Введите секрет администратора.',
    insecureTitle: 'Этой странице нужен HTTPS',
    insecureBody:
      'Браузеры подписывают запросы (WebCrypto) только на {{https}} или на localhost. Откройте консоль через HTTPS или через SSH-туннель на localhost.',
    errors: {
      invalid_signature: 'Это не секрет администратора этого сервиса.',
      ip_not_allowed: 'Вашего адреса нет в ADMIN_ALLOWED_IPS, поэтому API администратора его отклоняет.',
      admin_disabled: 'API администратора выключен: на сервере не задан ADMIN_SECRET.',
      signature_expired:
        'Часы этого компьютера расходятся с часами сервера больше чем на минуту. Исправьте время и попробуйте снова.',
      other: 'Проверка не удалась: {{message}}',
    },
  },
  placeholder: 'Этот экран ещё не готов.',
};
