// The shell's strings in Russian.
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
  appName: 'subweave',
  skipToContent: 'Перейти к содержимому',
  nav: {
    label: 'Главное меню',
    subscriptions: 'Подписки',
    connections: 'Подключения',
    activity: 'Активность',
    account: 'Аккаунт',
    admin: 'Консоль администратора',
    toggle: 'Открыть или закрыть меню',
  },
  colorScheme: {
    toDark: 'Включить тёмную тему',
    toLight: 'Включить светлую тему',
  },
  language: 'Язык',
  signOut: 'Выйти',
  loading: 'Загрузка…',
  retry: 'Повторить',
  error: 'Что-то пошло не так: {{message}}',
  offline: 'Не удалось связаться с сервером. Проверьте подключение к сети.',
  notFound: {
    title: 'Страница не найдена',
    body: 'По этому адресу ничего нет.',
    back: 'К подпискам',
  },
};
