// The admin audit log's strings in Russian.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
  title: 'Журнал аудита',
  intro:
    'Все принятые изменения пользователей, провайдеров, подписок, блокировок, настроек и вебхуков — сделанные пользователями, провайдерами, администраторами и самим сервисом, сначала новые.',
  listLabel: 'Записи аудита',
  empty: 'Подходящих записей нет.',
  loadMore: 'Показать более старые записи',
  end: 'Это всё.',
  actor: 'Кто',
  target: 'Объект',
  clientIp: 'Откуда',
  error: 'Не удалось загрузить журнал аудита: {{message}}',
  whitelistAdded: 'Добавлено в белый список',
  whitelistRemoved: 'Удалено из белого списка',
  filters: {
    label: 'Фильтры',
    actor: 'Кто',
    examples: 'Например:',
    action: 'Действие',
    actionHint: 'Пусто: любое действие',
    target: 'Объект',
    since: 'С (включительно)',
    until: 'До (не включая)',
    apply: 'Применить фильтры',
    clear: 'Сбросить фильтры',
    untilBeforeSince: 'Конец должен быть позже начала.',
  },
  actors: {
    user: 'Пользователь {{id}}',
    provider: 'Провайдер {{id}}',
    admin: 'Администратор ({{id}})',
    adminApi: 'Администратор (API)',
    adminCli: 'Администратор (CLI)',
    adminImport: 'Импорт из v2hub',
    system: 'Сервис ({{id}})',
  },
  actions: {
    user: {
      create: 'Создан пользователь',
      update: 'Изменён пользователь',
      delete: 'Удалён пользователь',
      disable: 'Пользователь отключён',
      enable: 'Пользователь включён',
      refresh_token: 'Пользователю выпущен новый API-токен',
      create_sign_in_link: 'Создана ссылка для входа пользователя',
    },
    provider: {
      create: 'Создан провайдер',
      update: 'Изменён провайдер',
      delete: 'Удалён провайдер',
      refresh_token: 'Провайдеру выпущен новый API-токен',
    },
    ban: {
      create: 'Адрес заблокирован',
      delete: 'Блокировка снята',
    },
    settings: {
      change: 'Изменена настройка',
    },
    webhook: {
      create: 'Создан вебхук',
      update: 'Изменён вебхук',
      delete: 'Удалён вебхук',
      rotate_secret: 'Заменён секрет вебхука',
      redeliver: 'Доставка вебхука отправлена повторно',
      test: 'Вебхуку отправлено тестовое событие',
    },
  },
  targets: {
    user: 'Пользователь',
    provider: 'Провайдер',
    subscription: 'Подписка',
    connection: 'Подключение',
    connectionIds: 'пользователь {{user}}, провайдер {{provider}}',
    ban: 'Блокировка',
    whitelist: 'Белый список',
    settings: 'Настройка',
    webhook: 'Вебхук',
  },
};
