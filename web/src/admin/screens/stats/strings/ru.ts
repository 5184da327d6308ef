// The admin statistics screen's strings in Russian.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
  title: 'Статистика',
  refresh: 'Обновить',
  rangeLabel: 'Период',
  ranges: { day: 'Последние 24 часа', week: 'Последние 7 дней', month: 'Последние 30 дней' },
  numbers: {
    total_users: 'Пользователи',
    total_subscriptions: 'Подписки',
    total_providers: 'Провайдеры',
    total_requests: 'Запросы',
    new_users: 'Новые пользователи',
    new_subscriptions: 'Новые подписки',
  },
  utc: 'Часы и дни указаны в UTC. Пользователи, подписки и провайдеры посчитаны на текущий момент.',
  charts: {
    requestsPerHour: 'Запросы по часам',
    requestsPerDay: 'Запросы по дням',
    newPerHour: 'Новые пользователи и подписки по часам',
    newPerDay: 'Новые пользователи и подписки по дням',
    byKind: 'Запросы по видам',
  },
  kinds: {
    public: 'Ссылки на подписку',
    page: 'Страницы подключения',
    user: 'API пользователей',
    provider: 'API провайдеров',
    admin: 'API администратора',
    anonymous: 'Неизвестные пути',
  },
  hourHeader: 'Час',
  dayHeader: 'День',
  kindHeader: 'Вид',
  showTable: 'Показать числа',
  hideTable: 'Скрыть числа',
  error: 'Не удалось загрузить статистику: {{message}}',
};
