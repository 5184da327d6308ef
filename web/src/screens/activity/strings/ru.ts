// The Activity screen's strings in Russian.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
  title: 'Журнал действий',
  intro: 'Изменения вашей учётной записи, подключений и подписок, сначала новые.',
  empty: 'Пока ничего не происходило.',
  loadMore: 'Показать более ранние записи',
  end: 'Это все записи.',
  time: 'Время',
  actor: 'Кто',
  target: 'Объект',
  changed: 'Изменения',
  actors: {
    you: 'Вы',
    provider: 'Провайдер {{name}}',
    admin: 'Администратор',
    system: 'Сервис',
  },
  actions: {
    subscription: {
      create: 'Создана подписка',
      update: 'Изменена подписка',
      delete: 'Удалена подписка',
      rotate: 'Заменена ссылка на подписку',
    },
    connection: {
      request: 'Запрошено подключение',
      approve: 'Подключение одобрено',
      reject: 'Подключение отклонено',
      revoke: 'Подключение отозвано',
    },
    user: {
      create: 'Создана учётная запись',
      update: 'Изменена учётная запись',
      delete: 'Удалена учётная запись',
      disable: 'Учётная запись отключена',
      enable: 'Учётная запись включена',
      refresh_token: 'Выпущен новый API-токен',
      create_sign_in_link: 'Создана ссылка для входа',
    },
  },
  targets: {
    subscriptionNamed: 'Подписка «{{name}}»',
    subscription: 'Подписка',
    user: 'Ваша учётная запись',
    connection: 'Подключение',
  },
  summary: {
    fields: 'Поля: {{value}}',
    sourcesAdded: 'Добавлено источников: {{value}}',
    sourcesRemoved: 'Удалено источников: {{value}}',
    sourcesReplaced: 'Заменено источников: {{value}}',
    status: 'Статус: {{value}}',
    provider: 'Провайдер: {{value}}',
  },
  error: 'Не удалось загрузить журнал: {{message}}',
};
