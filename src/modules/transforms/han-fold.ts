// Traditional Chinese names ("美國", "東京", "剩餘流量") are matched by folding them to the Simplified forms our tables use.

/**
 * Traditional characters that occur in the country, city and notice words of place-names.ts, info-names.ts and
 * i18n-iso-countries' zh names, each above its Simplified form (pairs as in the 2013 Table of General Standard
 * Chinese Characters). Characters written alike in both scripts need no entry.
 */
const TRADITIONAL =
  '國蘭亞馬來賓羅爾愛義烏麥奧時臘維門聯盧島薩納魯緬幾剛喬濟瑪東磯倫舊紐圖達聖鳳邁華頓溫蘇買內臺灣韓約長漢獅廣滬場賴庫線專轉節點餘離網過間總費號續設與開貝敘茲別澤賽';
const SIMPLIFIED =
  '国兰亚马来宾罗尔爱义乌麦奥时腊维门联卢岛萨纳鲁缅几刚乔济玛东矶伦旧纽图达圣凤迈华顿温苏买内台湾韩约长汉狮广沪场赖库线专转节点余离网过间总费号续设与开贝叙兹别泽赛';

const FOLD = new Map<string, string>();
for (let i = 0; i < TRADITIONAL.length; i++) FOLD.set(TRADITIONAL[i]!, SIMPLIFIED[i]!);

const FOLDED = new RegExp(`[${TRADITIONAL}]`, 'g');

/** `text` lower-cased, with the Traditional characters above in their Simplified form. */
export function foldName(text: string): string {
  return text.toLowerCase().replace(FOLDED, (char) => FOLD.get(char)!);
}
