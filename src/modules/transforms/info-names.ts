// The `drop_info` operator: recognises upstream pseudo-servers whose name only announces expiry, traffic, a reset or a website.
import { foldName } from './han-fold.js';
import { compile } from '../../shared/linear-pattern.js';

/**
 * Phrases matched in the folded name (lower case, Traditional Chinese folded to Simplified). Chinese: the names
 * V2Board and Xboard put before the servers ("剩余流量：10 GB", "套餐到期：2025-01-01", "距离下次重置剩余：12 天"),
 * SSPanel-UIM's ("过期时间") and the website notices panels add ("官网", "最新网址"). English: the same notices as
 * English-language panels write them ("Expire: 2025-01-01", "Traffic left 10 GB", "Reset in 12 days", a bare URL). Russian: the
 * phrases of Russian-language VPN bots and panels ("Осталось трафика", "Осталось дней", "Истекает", "Действует до",
 * "Сброс через"). Each phrase needs its notice word: "Expressway JP" or "HK Traffic-01" stay.
 */
const PHRASES = [
  // Chinese
  '剩余流量',
  '流量剩余',
  '已用流量',
  '总流量',
  '套餐到期',
  '到期时间',
  '过期时间',
  '到期[:：]',
  '有效期',
  '下次重置',
  '流量重置',
  '重置剩余',
  '官网',
  '官方网站',
  '最新网址',
  '网址[:：]',
  // English
  '\\bexpir(?:e|es|ed|y|ation)\\b',
  '\\b(?:traffic|data|bandwidth)\\s*(?:left|remaining|used)\\b',
  '\\bremaining\\s*(?:traffic|data)\\b',
  '\\btraffic\\s*[:：]',
  '\\bresets?\\s*(?:in|after)\\s*\\d+\\s*days?\\b',
  '\\bnext\\s*reset\\b',
  '\\b\\d*\\s*days?\\s*(?:left|remaining)\\b',
  '\\bvalid\\s*until\\b',
  '\\bwebsite\\s*[:：]',
  '\\bofficial\\s*(?:web)?site\\b',
  '^\\s*https?://',
  // Russian
  'осталось',
  'остаток\\s*трафика',
  'трафик\\s*[:：]',
  'истек',
  'истёк',
  'срок\\s*действия',
  'действует\\s*до',
  'подписка\\s*до',
  'сброс\\s*через',
  'до\\s*сброса',
  'сайт\\s*[:：]',
  'наш\\s*сайт',
];

const INFO = compile(PHRASES.join('|'), { maxLength: Infinity });

/** Whether a server name is an upstream notice rather than a server. */
export function isInfoName(name: string): boolean {
  return INFO.test(foldName(name));
}
