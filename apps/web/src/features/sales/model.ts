/** The submit form's values and what they become on the wire (money: yuan typed, cents sent). */
import { salesTotals } from '@platform/domain';
import type { LineInput, OrderInput } from './api';

export interface LineValues {
  kind: 'product' | 'service';
  categoryId?: number;
  plan?: number;
  months?: number;
  quantity?: number;
  /** yuan, as typed */
  unitPrice?: number;
}

export interface OrderValues {
  customerCompanyId?: number;
  customer?: string;
  contact?: string;
  phone?: string;
  address?: string;
  notes?: string;
  lines?: LineValues[];
}

/** Yuan as typed to integer cents. */
export const toCents = (yuan: number | null | undefined): number => Math.round((yuan ?? 0) * 100);

/** Each line's amount and the total, in cents, of what the form holds now (blank counts 0). */
export function liveTotals(lines: ReadonlyArray<LineValues | undefined> | undefined) {
  return salesTotals(
    (lines ?? []).map((line) => ({
      quantity: line?.quantity ?? 0,
      unitPriceCents: toCents(line?.unitPrice),
    })),
  );
}

const text = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

export function toOrderInput(values: OrderValues): OrderInput {
  return {
    customerCompanyId: values.customerCompanyId ?? undefined,
    customer: text(values.customer),
    contact: text(values.contact),
    phone: text(values.phone),
    address: text(values.address),
    notes: text(values.notes),
    lines: (values.lines ?? []).map(
      (line): LineInput =>
        line.kind === 'product'
          ? {
              kind: 'product',
              categoryId: line.categoryId,
              quantity: line.quantity ?? 1,
              unitPriceCents: toCents(line.unitPrice),
            }
          : {
              kind: 'service',
              plan: line.plan,
              months: line.months,
              quantity: line.quantity ?? 1,
              unitPriceCents: toCents(line.unitPrice),
            },
    ),
  };
}

/** A field the server names ("lines[1].categoryId") as a form's name path (['lines', 1, 'categoryId']). */
export function fieldPath(field: string): Array<string | number> {
  return field
    .split(/[.[\]]/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
