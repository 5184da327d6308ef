// `drop_info` recognises upstream notices in English, Chinese and Russian, and keeps real servers whose names look close.
import { describe, expect, it } from 'vitest';
import { isInfoName } from '../../src/modules/transforms/info-names.js';

describe('isInfoName', () => {
  const notices = [
    // V2Board / Xboard
    '剩余流量：10GB',
    '剩余流量：58.73 GB',
    '套餐到期：2025-01-01',
    '套餐到期：长期有效',
    '距离下次重置剩余：12 天',
    '⚠️ 剩余流量：1 GB',
    // SSPanel-UIM and panels' website notices
    '过期时间：2025-01-01',
    '官网: example.com',
    '官网│https://example.com',
    '最新网址：example.com',
    // Traditional Chinese
    '剩餘流量：10GB',
    '距離下次重置剩餘：3 天',
    '官網 example.com',
    '過期時間：2025-01-01',
    // English
    'Expire: 2025-01-01',
    'Expire Time: 2099',
    'Expires 2025-01-01',
    'Traffic left 10 GB',
    'Traffic: 59.17 GB | 150 GB',
    'Remaining traffic: 3 GB',
    'Reset in 12 days',
    '3 days left',
    'Website: example.com',
    'https://example.com/dashboard',
    // Russian
    'Осталось трафика: 10 GB',
    'Осталось дней: 12',
    'Истекает: 01.01.2025',
    'Подписка истекла',
    'Действует до 01.01.2025',
    'Сброс через 5 дней',
    'Сайт: vpn.example',
  ];
  it.each(notices)('%s is a notice', (name) => {
    expect(isInfoName(name)).toBe(true);
  });

  const servers = [
    'Expressway JP',
    'HK Traffic-01',
    'Traffic Master SG',
    'Data Center LA',
    '香港 01',
    '日本东京 IPLC',
    'Германия-1',
    'Россия Москва',
    'US West',
    'Website Proxy',
    'Reset 01',
    'Days Inn',
    'Expert NL',
    'example.com',
  ];
  it.each(servers)('%s is a server', (name) => {
    expect(isInfoName(name)).toBe(false);
  });
});
