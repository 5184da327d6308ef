// The sign-in screen's strings in Simplified Chinese.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '登录',
  intro: '粘贴你获得的 API 令牌，或打开机器人或管理员发给你的一次性登录链接。',
  token: 'API 令牌',
  tokenHint: '43 个字符的字符串。仅在登录时发送一次，不会保存在浏览器中。',
  submit: '登录',
  withLink: '正在通过登录链接登录…',
  admin: '您是本服务的管理员？请打开管理控制台。',
  errors: {
    empty: '请先粘贴 API 令牌。',
    badToken: '令牌无效。请确认已完整复制，或重新获取。',
    badLink: '登录链接无效、已过期或已被使用。请重新获取，或使用令牌登录。',
    disabled: '此账户已被停用。',
    other: '登录失败：{{message}}',
  },
};
