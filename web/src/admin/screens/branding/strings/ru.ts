// The branding screen's strings in Russian.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
  intro:
    'Как страница подписки, страница подключения и эта панель представляют сервис. Пустые поля — значения по умолчанию.',
  loadFailed: 'Не удалось загрузить оформление: {{message}}',
  serviceName: 'Название сервиса',
  serviceNameHint: 'Пусто: subweave.',
  logo: 'Логотип',
  logoHint: 'PNG, JPEG, WebP или SVG, не больше 64 КиБ.',
  logoPick: 'Выбрать файл',
  logoTooLarge: 'Этот файл больше 64 КиБ.',
  logoUnreadable: 'Не удалось прочитать этот файл.',
  logoRemove: 'Убрать логотип',
  accent: 'Акцентный цвет',
  accentHint: 'Цвет кнопок в виде #rrggbb. Пусто: встроенные цвета.',
  supportUrl: 'Ссылка на поддержку по умолчанию',
  supportUrlHint: 'Показывается на каждой странице подписки, у которой нет своей ссылки на поддержку.',
  sample: 'Пример',
  sampleButton: 'Добавить в приложение',
  save: 'Сохранить оформление',
  saved: 'Оформление сохранено. Страницы покажут его в течение секунды.',
  refused: 'Ничего не сохранено: {{message}}',
};
