// The subscription screens' strings in Russian.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
  list: {
    title: 'Подписки',
    create: 'Новая подписка',
    empty: 'У вас пока нет подписок. Создайте подписку, чтобы получить ссылку для приложений.',
    servers: 'Серверов: {{count}}',
    sources: 'Источников: {{count}}',
    failing: 'Источников с ошибкой: {{count}}',
    held: 'Ждут подтверждения: {{count}}',
    managedBy: 'Управляет: {{provider}}',
    updated: 'Обновлено {{date}}',
    open: 'Открыть «{{name}}»',
  },
  create: {
    title: 'Новая подписка',
    name: 'Название',
    nameHint: 'До 64 символов, не должно повторяться среди ваших подписок.',
    description: 'Описание',
    sources: 'Источники',
    sourcesHint:
      'По одному в строке: ссылка на сервер ({{schemes}}), URL подписки или ссылка на другую вашу подписку. Необязательно.',
    submit: 'Создать',
    close: 'Закрыть',
    cancel: 'Отмена',
    nameRequired: 'Введите название.',
  },
  detail: {
    back: 'Все подписки',
    link: 'Ссылка на подписку',
    linkHint: 'Добавьте эту ссылку в приложение (Hiddify, v2rayNG, Clash, sing-box…) как подписку.',
    copy: 'Копировать ссылку',
    copied: 'Скопировано',
  },
  history: {
    title: 'Последние запросы',
    refresh: 'Обновить',
    empty: 'Эту ссылку ещё не запрашивало ни одно приложение.',
    time: 'Время',
    format: 'Формат',
    rule: 'Правило',
    status: 'Статус',
    userAgent: 'Приложение (User-Agent)',
    client: 'Сеть',
    servers: 'Серверы',
  },
  errors: {
    name_exists: 'У вас уже есть подписка с таким названием.',
    subscription_limit_reached: 'Достигнуто максимальное число подписок.',
    subscription_not_found: 'Эта подписка не существует или была удалена.',
    managed_by_provider:
      'Этой подпиской управляет провайдер: пока подключение к нему одобрено, менять её может только он.',
    invalid_source:
      'Это не ссылка на сервер, не URL подписки и не ссылка этого сервиса (или такой подписки нет): {{data}}',
    invalid_url: 'Этот URL нельзя использовать (в нём пароль, частный адрес или ошибка в записи): {{data}}',
    other: '{{message}}',
  },
};
