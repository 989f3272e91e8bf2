/** Money is kept in cents; shown as yuan with the ¥ sign and two decimals in both languages. */
export function formatYuan(cents: number, lang: 'zh' | 'en'): string {
  return new Intl.NumberFormat(lang === 'en' ? 'en-US' : 'zh-CN', {
    style: 'currency',
    currency: 'CNY',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
  }).format(cents / 100);
}
