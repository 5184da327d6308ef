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
  error: 'Не удалось загрузить журнал: {{message}}',
};
