// Russian strings of the server-rendered pages, in the terms Russian-language proxy apps use (подписка, сервер, трафик).
import type { Catalog } from './i18n.js';

export const ru: Catalog = {
  'lang.label': 'Язык',
  'page.subscription': 'Подписка',
  'page.footer':
    'Работает на {service}. Не передавайте эту ссылку: любой, у кого она есть, может пользоваться подпиской.',

  'link.title': 'Ссылка на подписку',
  'link.copy': 'Копировать',
  'link.copied': 'Скопировано в буфер обмена.',
  'link.selected': 'Ссылка выделена: нажмите Ctrl+C (⌘C на Mac) или удерживайте палец, чтобы скопировать.',
  'qr.title': 'QR-код',
  'qr.caption': 'Отсканируйте его приложением на устройстве, которое хотите подключить.',

  'apps.title': 'Добавить в приложение',
  'apps.hint':
    'Установите одно из этих приложений и нажмите здесь его кнопку: приложение откроется и само добавит подписку.',
  'apps.add': 'Добавить в {app}',
  'apps.paid': 'Платное приложение.',
  'install.play': 'Установите {app} из Google Play.',
  'install.appstore': 'Установите {app} из App Store.',
  'install.github': 'Скачайте установщик для своей системы на странице релизов {app} и установите его.',
  'install.site': 'Скачайте {app} с официального сайта и установите.',
  'install.then': 'Затем вернитесь сюда и нажмите «Добавить в {app}».',
  'store.play': 'Google Play',
  'store.appstore': 'App Store',
  'store.github': 'Релизы на GitHub',
  'store.site': 'Официальный сайт',
  'formats.hint':
    'Другое приложение? Большинство приложений читают ссылку выше. Приложениям Clash и mihomo подходит первая ссылка ниже, приложениям sing-box — вторая.',
  'formats.mihomo': 'Clash / mihomo (YAML)',
  'formats.singbox': 'sing-box (JSON)',

  'facts.servers': 'Серверы',
  'facts.updated': 'Последнее изменение',
  'facts.traffic': 'Трафик',
  'facts.used': 'использовано {used}',
  'facts.used_of': '{used} из {total}',
  'facts.unlimited': 'без ограничений',
  'facts.expires': 'Действует до',
  'facts.never': 'Бессрочно',
  'facts.expired': 'срок истёк',
  'facts.in_days': 'осталось дней: {days}',
  'facts.in_day': 'остался 1 день',
  'site.support': 'Поддержка',
  'site.website': 'Сайт',

  'banner.expired.title': 'Срок действия подписки истёк',
  'banner.expired.text': 'Приложения больше не могут подключиться по ней. Продлите подписку, чтобы снова подключиться.',
  'banner.quota.title': 'Лимит трафика исчерпан',
  'banner.quota.text': 'Приложения не смогут подключиться, пока лимит не увеличат или не начнётся новый период.',
  'banner.support': 'Написать в поддержку',

  'notfound.title': 'Подписка не найдена',
  'notfound.text':
    'Эта ссылка не ведёт ни к одной подписке на этом сервере. Возможно, в ней опечатка, её заменили новой или подписку удалили.',
  'notfound.hint': 'Попросите актуальную ссылку у того, кто её вам дал.',

  'connect.title': 'Подключить {provider}?',
  'connect.asks': '{provider} просит разрешения управлять вашими прокси-подписками.',
  'connect.website': 'Сайт:',
  'connect.for_user': 'Эта ссылка создана для пользователя с ID {user}.',
  'connect.fact.manage': 'Если вы разрешите, {provider} сможет создавать и изменять подписки в вашем аккаунте.',
  'connect.fact.keep':
    'Созданные им подписки останутся вашими и продолжат работать, даже если вы потом отзовёте доступ.',
  'connect.fact.safe': 'Открытие этой страницы ничего не меняет: разрешить доступ можно только с вашим API-токеном.',
  'connect.token': 'Ваш API-токен',
  'connect.placeholder': 'Вставьте токен или ссылку для входа',
  'connect.check': 'Проверить',
  'connect.token_hint':
    'Токен отправляется только на этот сервер, в заголовке запроса, и забывается, когда вы уходите со страницы.',
  'connect.forget': 'Забыть сейчас',
  'connect.where.title': 'Где взять токен?',
  'connect.where.text':
    'API-токен — это ключ от вашего аккаунта в этом сервисе. Его выдаёт бот или провайдер, через которого вы зарегистрировались, либо администратор этого сервера. Храните его в секрете, как пароль.',
  'connect.signin':
    'Вместо токена у вас ссылка для входа (в ней есть {path})? Вставьте её выше: откроется ваш личный кабинет, и вход выполнится сам.',
  'connect.status': 'Статус:',
  'connect.approve': 'Разрешить',
  'connect.reject': 'Отклонить',
  'connect.revoke': 'Отозвать доступ',
  'connect.noscript':
    'Этой странице нужен JavaScript, чтобы обращаться к серверу. Без него вызовите {approve} (или {reject}) с заголовком {header}.',
  'connect.unknown.title': 'Неизвестный провайдер',
  'connect.unknown.text': 'На этом сервере нет провайдера с именем {provider}.',
  'connect.unknown.hint': 'Проверьте полученную ссылку или попросите у провайдера новую.',

  'connect.state.pending': 'Ожидает ответа',
  'connect.state.pending.text':
    '{provider} ждёт вашего ответа. Разрешите ему управлять подписками или отклоните запрос.',
  'connect.state.approved': 'Разрешено',
  'connect.state.approved.text':
    '{provider} может создавать и изменять подписки в вашем аккаунте. Вы можете отозвать доступ в любой момент.',
  'connect.state.revoked': 'Доступ отозван',
  'connect.state.revoked.text':
    '{provider} больше не может управлять вашими подписками. Чтобы подключиться снова, ему нужно отправить новый запрос.',
  'connect.state.none': 'Запроса нет',
  'connect.state.none.text': 'Между вашим аккаунтом и {provider} нет подключения.',
  'connect.error.missing_token': 'Сначала вставьте свой API-токен.',
  'connect.error.invalid_token':
    'Этот API-токен недействителен. Вставьте свой пользовательский API-токен (не токен провайдера).',
  'connect.error.account_disabled': 'Ваш аккаунт отключён, поэтому он не может управлять подключениями провайдеров.',
  'connect.error.connection_not_found': 'Для этого аккаунта нет запроса на подключение от {provider}.',
  'connect.error.connection_not_pending': 'Этот запрос уже не ожидает ответа, его нельзя разрешить или отклонить.',
  'connect.error.provider_limit_reached':
    'Вы уже разрешили максимальное число провайдеров. Отзовите доступ у одного, прежде чем разрешить другого.',
  'connect.error.ip_banned': 'Запросы из вашей сети временно заблокированы. Попробуйте позже.',
  'connect.error.rate_limited': 'Слишком много попыток. Подождите немного и попробуйте снова.',
  'connect.error.status': 'Сервер ответил со статусом {status}.',
  'connect.error.retry': '(примерно {seconds} с)',
  'connect.error.network': 'Не удалось связаться с сервером. Проверьте подключение и попробуйте снова.',
  'connect.error.other_user':
    'Эта ссылка создана для пользователя {expected}, а ваш токен принадлежит пользователю {actual}.',
  'connect.done.approve': 'Разрешено. Теперь {provider} может управлять вашими подписками.',
  'connect.done.reject': 'Запрос отклонён. {provider} не получит доступа.',
  'connect.done.revoke': 'Доступ отозван. Подписки, созданные {provider}, остаются вашими.',
  'connect.forgotten': 'Токен удалён с этой страницы.',
  'connect.signing_in': 'Открываем ссылку для входа…',
};
