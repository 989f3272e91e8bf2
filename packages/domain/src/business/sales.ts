/**
 * Sales orders (issue "Business", point 2): an order of products and service subscriptions to a
 * customer, submitted, then paid or cancelled. Money is integer cents; a line's amount is its
 * quantity times its unit price, a service line's quantity counts periods of its months.
 *
 *   submitted ─pay→ paid      submitted ─cancel→ cancelled
 *
 * A paid order is closed: a subscription it paid for has moved the customer's service end
 * (subscription.ts), which a cancel could not take back; refunds are another story.
 */
import type { Lang } from '../errors';

export const SALES_STATUSES = ['submitted', 'paid', 'cancelled'] as const;
export type SalesStatus = (typeof SALES_STATUSES)[number];

export const SALES_STATUS_LABELS: Record<SalesStatus, Record<Lang, string>> = {
  submitted: { zh: '已提交', en: 'submitted' },
  paid: { zh: '已付款', en: 'paid' },
  cancelled: { zh: '已取消', en: 'cancelled' },
};

export type SalesAction = 'pay' | 'cancel';

export const SALES_ACTION_LABELS: Record<SalesAction, Record<Lang, string>> = {
  pay: { zh: '付款', en: 'paid' },
  cancel: { zh: '取消', en: 'cancelled' },
};

/** The next status, or null when the action is refused in this status. */
export function salesTransition(status: SalesStatus, action: SalesAction): SalesStatus | null {
  if (status !== 'submitted') return null;
  return action === 'pay' ? 'paid' : 'cancelled';
}

/** The service plans the platform sells: the orderInfo (swProductId, subTypeId) a paid one gives. */
export const SERVICE_PLANS = [
  { swProductId: 13, subTypeId: 1, zh: '智慧数据平台 标准版', en: 'Smart Data Platform Standard' },
  { swProductId: 13, subTypeId: 2, zh: '智慧数据平台 专业版', en: 'Smart Data Platform Professional' },
] as const;

export interface SalesLine {
  quantity: number;
  unitPriceCents: number;
}

/** Each line's amount and the order's total, in cents (integers: no rounding anywhere). */
export function salesTotals(lines: readonly SalesLine[]): { amounts: number[]; totalCents: number } {
  const amounts = lines.map((line) => line.quantity * line.unitPriceCents);
  return { amounts, totalCents: amounts.reduce((sum, n) => sum + n, 0) };
}
