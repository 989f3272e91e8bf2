/**
 * Paths, words and pasted serial numbers of the inventory pages (/inventoryManagement). The
 * status words are the domain's (packages/domain business/stock.ts); the kinds' words are the
 * feature's locales.
 */
import {
  type Lang,
  PRODUCTION_STATUS_LABELS,
  type ProductionStatus,
  STOCK_STATUS_LABELS,
  type StockStatusId,
} from '@platform/domain';
import type { FormInstance } from 'antd';

export const CATEGORY_KINDS = ['own', 'sim', 'other'] as const;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];
export type OrderKind = 'entry' | 'exit';
export const ORDER_STATES = ['open', 'confirmed', 'cancelled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** the most serial numbers one paste may hold (the server's MAX_SERIALS) */
export const MAX_SERIALS = 500;

const BASE = '/inventoryManagement';
const enc = encodeURIComponent;

export const inventoryPaths = {
  inventory: `${BASE}/inventoryList`,
  categories: `${BASE}/categoryList`,
  list: (kind: OrderKind) => `${BASE}/${kind}List`,
  category: (category: { id: number; name: string }) =>
    `${BASE}/categoryDetail/${category.id}/${enc(category.name || '-')}`,
  /** an entry's page is its source's, an exit's names its state */
  order: (order: { id: number; kind: OrderKind; source: CategoryKind | null; state: OrderState }) =>
    order.kind === 'entry'
      ? `${BASE}/${order.source ?? 'other'}Detail/${order.id}`
      : `${BASE}/exitDetail/${order.id}/${order.state}`,
};

export function langOf(language: string): Lang {
  return language === 'en' ? 'en' : 'zh';
}

/** A production status word; a status the domain does not know is shown as it came. */
export function productionWord(status: string | null | undefined, lang: Lang): string {
  if (!status) return '—';
  return PRODUCTION_STATUS_LABELS[status as ProductionStatus]?.[lang] ?? status;
}

export function stockWord(id: number, lang: Lang): string {
  return STOCK_STATUS_LABELS[id as StockStatusId]?.[lang] ?? String(id);
}

export const STOCK_TAG: Record<number, string> = {
  0: 'default',
  1: 'green',
  2: 'gold',
  3: 'blue',
  4: 'purple',
  9: 'red',
};

export const STATE_TAG: Record<OrderState, string> = {
  open: 'processing',
  confirmed: 'success',
  cancelled: 'default',
};

/** Whether the signed-in user holds a menu code. */
export { useHasCode } from '../../shared/hasCode';

/**
 * Serial numbers as scanned or pasted: one a line, or separated by commas, semicolons or
 * spaces; blanks dropped, each once, in the order given.
 */
export function parseSerials(text: string): string[] {
  return [...new Set(text.split(/[\s,，;；]+/).filter(Boolean))];
}

/** One serial number the server refused, and why. */
export interface SnRefusal {
  sn: string | null;
  message: string;
}

/** A refused call as the page shows it: the message, each refused serial number, the field named. */
export interface Refused {
  message: string;
  refusals: SnRefusal[];
  field: string | null;
}

/**
 * What a rejected call said: its message, the field it names, and every serial number it
 * refused (`data: {field, refusals: [{sn, message}]}`).
 */
export function refusedOf(error: unknown): Refused {
  const data = (error as { data?: unknown } | null)?.data as
    | { field?: unknown; refusals?: unknown }
    | null
    | undefined;
  const refusals = Array.isArray(data?.refusals) ? (data.refusals as SnRefusal[]) : [];
  const field = typeof data?.field === 'string' ? data.field : null;
  const message = error instanceof Error ? error.message : String(error);
  return { message, refusals, field };
}

/** The text without the serial numbers refused (a line each, for the next try). */
export function withoutRefused(text: string, refused: readonly SnRefusal[]): string {
  const drop = new Set(refused.flatMap((r) => (r.sn ? [r.sn] : [])));
  return parseSerials(text)
    .filter((sn) => !drop.has(sn))
    .join('\n');
}

/** The server's error beside the field it names, when the form has it; false when not. */
export function showOnField(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  const { field, message } = refusedOf(error);
  if (!field || !fields.includes(field)) return false;
  form.setFields([{ name: field, errors: [message] }]);
  return true;
}
