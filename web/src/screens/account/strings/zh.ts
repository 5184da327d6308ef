// The account screen's strings in Simplified Chinese.
import type { Catalog } from '../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  title: '账户',
  userId: '用户 ID',
  token: {
    title: 'API 令牌',
    body: 'API 令牌用于登录此处，也供使用您账户的应用和机器人使用。如果旧令牌可能已泄露，请重新生成。',
    refresh: '生成新的 API 令牌',
    newTitle: '您的新 API 令牌',
    warning: '请立即复制：它只显示这一次。旧令牌已失效，请在所有使用它的应用和机器人中更新。',
    copy: '复制令牌',
    copied: '已复制',
    done: '我已保存',
    failed: '无法更换令牌：{{message}}',
  },
  confirm: {
    title: '生成新的 API 令牌？',
    body: '当前令牌将在所有使用它的应用和机器人中立即失效，其他浏览器也会退出登录。此浏览器保持登录。',
    cancel: '取消',
    refresh: '生成新令牌',
  },
  signOut: {
    title: '退出登录',
    body: '结束此浏览器中的会话。您的 API 令牌仍然有效。',
    button: '在此浏览器退出登录',
  },
};
