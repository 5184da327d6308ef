// Audit log wording shared by the user's Activity and the admin's audit log, in Russian.
import type { Catalog } from '../../i18n/catalog';
import type { en } from './en';

export const ru: Catalog<typeof en> = {
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
  },
  summary: {
    fields: 'Поля: {{value}}',
    sourcesAdded: 'Добавлено источников: {{value}}',
    sourcesRemoved: 'Удалено источников: {{value}}',
    sourcesReplaced: 'Заменено источников: {{value}}',
    status: 'Статус: {{value}}',
    provider: 'Провайдер: {{value}}',
  },
};
