/**
 * Sales contracts (issue "Business", point 2): a contract template is an HTML body like a
 * document template (templates/doc.ts), whose placeholders name the fields of a sales order
 * instead of a data item's; a contract is a template filled from one order, kept as it was
 * filled (a later change of the template or the order does not rewrite a contract already made).
 *
 *   draft ─sign→ signed        a draft may be deleted; a signed contract is kept
 */
import Nzh from 'nzh/cn';
import type { Lang } from '../errors';
import { escapeHtml, fillPlaceholders, placeholderHtml, placeholderKeys } from '../templates/doc';
import type { SalesStatus } from './sales';

export const CONTRACT_STATUSES = ['draft', 'signed'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const CONTRACT_STATUS_LABELS: Record<ContractStatus, Record<Lang, string>> = {
  draft: { zh: '草稿', en: 'draft' },
  signed: { zh: '已签订', en: 'signed' },
};

export type ContractAction = 'sign' | 'delete';

/** The next status, 'deleted' when the contract goes, or null when the action is refused. */
export function contractTransition(
  status: ContractStatus,
  action: ContractAction,
): ContractStatus | 'deleted' | null {
  if (status !== 'draft') return null;
  return action === 'sign' ? 'signed' : 'deleted';
}

/** An order may be put in a contract while it is submitted or paid, not once cancelled. */
export const contractableOrder = (status: SalesStatus): boolean => status !== 'cancelled';

/** The placeholders a contract template may hold, in the editor's menu order. */
export const CONTRACT_FIELDS = [
  'contractNo',
  'signDate',
  'orderNo',
  'orderDate',
  'seller',
  'customer',
  'contact',
  'phone',
  'address',
  'lines',
  'total',
  'totalUpper',
  'notes',
] as const;
export type ContractField = (typeof CONTRACT_FIELDS)[number];

export const CONTRACT_FIELD_LABELS: Record<ContractField, Record<Lang, string>> = {
  contractNo: { zh: '合同编号', en: 'Contract No.' },
  signDate: { zh: '合同日期', en: 'Contract date' },
  orderNo: { zh: '订单编号', en: 'Order No.' },
  orderDate: { zh: '下单日期', en: 'Order date' },
  seller: { zh: '卖方', en: 'Seller' },
  customer: { zh: '买方', en: 'Buyer' },
  contact: { zh: '联系人', en: 'Contact' },
  phone: { zh: '联系电话', en: 'Phone' },
  address: { zh: '地址', en: 'Address' },
  lines: { zh: '订单明细', en: 'Order lines' },
  total: { zh: '合同金额', en: 'Total amount' },
  totalUpper: { zh: '金额大写', en: 'Amount in words' },
  notes: { zh: '备注', en: 'Notes' },
};

const isContractField = (key: string): key is ContractField =>
  (CONTRACT_FIELDS as readonly string[]).includes(key);

/** The first placeholder of the body that is not a contract field, or null. */
export function unknownContractField(html: string): string | null {
  return placeholderKeys(html).find((key) => !isContractField(key)) ?? null;
}

/** Integer cents as yuan with two decimals and thousands separators: 133292000 → "1,332,920.00". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const yuan = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${yuan}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Integer cents in Chinese financial capitals (大写), as contracts and invoices write an amount:
 * 133292000 → "壹佰叁拾叁万贰仟玖佰贰拾元整", 1050 → "壹拾元伍角", 10007 → "壹佰元零柒分".
 */
export function rmbUppercase(cents: number): string {
  const abs = Math.abs(Math.trunc(cents));
  // whole yuan are written without decimals, so that nzh ends them in 整 (as the payment rules ask)
  const yuan = Math.floor(abs / 100);
  const text = abs % 100 === 0 ? String(yuan) : `${yuan}.${String(abs % 100).padStart(2, '0')}`;
  const words = Nzh.toMoney(text, { outSymbol: false });
  return cents < 0 ? `负${words}` : words;
}

export interface ContractLine {
  kind: 'product' | 'service';
  name: string;
  quantity: number;
  months: number | null;
  unitPriceCents: number;
  amountCents: number;
}

export interface ContractOrder {
  number: string;
  /** the day it was submitted, yyyy-MM-dd in the seller's zone */
  orderDate: string;
  status: SalesStatus;
  customer: string;
  contact: string;
  phone: string;
  address: string;
  notes: string;
  totalCents: number;
  lines: readonly ContractLine[];
}

export interface ContractContext {
  contractNo: string;
  /** yyyy-MM-dd in the seller's zone */
  signDate: string;
  seller: string;
  lang: Lang;
}

const LINE_WORDS = {
  index: { zh: '序号', en: 'No.' },
  name: { zh: '名称', en: 'Item' },
  quantity: { zh: '数量', en: 'Quantity' },
  unitPrice: { zh: '单价（元）', en: 'Unit price (CNY)' },
  amount: { zh: '金额（元）', en: 'Amount (CNY)' },
  total: { zh: '合计', en: 'Total' },
  months: { zh: '个月', en: 'months' },
} as const;

function quantityText(line: ContractLine, lang: Lang): string {
  if (line.kind !== 'service' || line.months === null) return String(line.quantity);
  const period = `${line.months} ${LINE_WORDS.months[lang]}`;
  return line.quantity === 1 ? period : `${line.quantity} × ${period}`;
}

/** The order's lines as a table, every text escaped. */
export function contractLinesHtml(order: ContractOrder, lang: Lang): string {
  const head = (['index', 'name', 'quantity', 'unitPrice', 'amount'] as const)
    .map((key) => `<th>${escapeHtml(LINE_WORDS[key][lang])}</th>`)
    .join('');
  const rows = order.lines
    .map(
      (line, i) =>
        `<tr><td>${i + 1}</td><td>${escapeHtml(line.name)}</td><td>${escapeHtml(quantityText(line, lang))}</td>` +
        `<td>${formatCents(line.unitPriceCents)}</td><td>${formatCents(line.amountCents)}</td></tr>`,
    )
    .join('');
  const total = `<tr><td colspan="4"><strong>${escapeHtml(LINE_WORDS.total[lang])}</strong></td><td><strong>${formatCents(order.totalCents)}</strong></td></tr>`;
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}${total}</tbody></table>`;
}

/** The HTML each placeholder of a contract becomes for this order. */
export function contractValues(order: ContractOrder, ctx: ContractContext): Record<ContractField, string> {
  const text = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');
  return {
    contractNo: text(ctx.contractNo),
    signDate: text(ctx.signDate),
    orderNo: text(order.number),
    orderDate: text(order.orderDate),
    seller: text(ctx.seller),
    customer: text(order.customer),
    contact: text(order.contact),
    phone: text(order.phone),
    address: text(order.address),
    lines: contractLinesHtml(order, ctx.lang),
    total: `¥${formatCents(order.totalCents)}`,
    totalUpper: text(rmbUppercase(order.totalCents)),
    notes: text(order.notes),
  };
}

/** A contract template filled from one order (the template sanitised on save, as doc.ts expects). */
export function fillContract(html: string, order: ContractOrder, ctx: ContractContext): string {
  const values = contractValues(order, ctx);
  const filled = fillPlaceholders(html, (key) => (isContractField(key) ? values[key] : ''));
  // a paragraph holding only the lines becomes a block: a table cannot sit inside a <p>
  return filled.replace(
    /<p>(<span class="tpl-value" data-field="lines"><table>[\s\S]*?<\/table><\/span>)<\/p>/g,
    '<div class="tpl-block">$1</div>',
  );
}

const chip = (key: ContractField, lang: Lang) => placeholderHtml(key, CONTRACT_FIELD_LABELS[key][lang]);

/** The body a new template starts from: a plain sales contract in the company's language. */
export function defaultContractHtml(lang: Lang): string {
  const c = (key: ContractField) => chip(key, lang);
  if (lang === 'en') {
    return [
      '<h1>Sales Contract</h1>',
      `<p>Contract No.: ${c('contractNo')}　Date: ${c('signDate')}　Order No.: ${c('orderNo')} of ${c('orderDate')}</p>`,
      `<p>Seller: ${c('seller')}</p>`,
      `<p>Buyer: ${c('customer')}　Contact: ${c('contact')}　Phone: ${c('phone')}</p>`,
      `<p>Address: ${c('address')}</p>`,
      '<h2>1. Goods and services</h2>',
      `<p>${c('lines')}</p>`,
      `<p>Total amount: ${c('total')} (${c('totalUpper')})</p>`,
      '<h2>2. Delivery and acceptance</h2>',
      '<p>The seller delivers the goods to the address above within 15 days of payment; the buyer checks them on arrival.</p>',
      '<h2>3. Payment</h2>',
      '<p>The buyer pays the total amount by bank transfer within 10 days of signing.</p>',
      `<p>Notes: ${c('notes')}</p>`,
      '<p>Seller (seal):　　　　　　　　Buyer (seal):</p>',
    ].join('');
  }
  return [
    '<h1>销售合同</h1>',
    `<p>合同编号：${c('contractNo')}　签订日期：${c('signDate')}　订单编号：${c('orderNo')}（${c('orderDate')}）</p>`,
    `<p>卖方（甲方）：${c('seller')}</p>`,
    `<p>买方（乙方）：${c('customer')}　联系人：${c('contact')}　电话：${c('phone')}</p>`,
    `<p>地址：${c('address')}</p>`,
    '<h2>一、产品与服务</h2>',
    `<p>${c('lines')}</p>`,
    `<p>合同金额：${c('total')}（大写：${c('totalUpper')}）</p>`,
    '<h2>二、交货与验收</h2>',
    '<p>甲方于收到货款后 15 日内将货物送至乙方上述地址，乙方收货时当场验收。</p>',
    '<h2>三、付款方式</h2>',
    '<p>乙方于合同签订后 10 日内以银行转账方式付清全部合同金额。</p>',
    `<p>备注：${c('notes')}</p>`,
    '<p>甲方（盖章）：　　　　　　　　乙方（盖章）：</p>',
  ].join('');
}
