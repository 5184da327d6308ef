// The branding screen's strings in Simplified Chinese.
import type { Catalog } from '../../../../i18n/catalog';
import type { en } from './en';

export const zh: Catalog<typeof en> = {
  intro: '订阅页面、连接页面和本控制台如何展示服务。留空的字段使用默认值。',
  loadFailed: '无法加载品牌设置：{{message}}',
  serviceName: '服务名称',
  serviceNameHint: '留空：subweave。',
  logo: '标志',
  logoHint: 'PNG、JPEG、WebP 或 SVG，最大 64 KiB。',
  logoPick: '选择文件',
  logoTooLarge: '此文件大于 64 KiB。',
  logoUnreadable: '无法读取此文件。',
  logoRemove: '移除标志',
  accent: '强调色',
  accentHint: '按钮的颜色，格式为 #rrggbb。留空：内置颜色。',
  supportUrl: '默认支持链接',
  supportUrlHint: '显示在每个没有自己支持链接的订阅页面上。',
  sample: '示例',
  sampleButton: '添加到应用',
  save: '保存品牌设置',
  saved: '品牌设置已保存。页面会在一秒内显示它。',
  refused: '未保存任何内容：{{message}}',
};
