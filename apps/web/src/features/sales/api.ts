/**
 * Calls of the sales pages (/general/sales): the submit form's catalogue and submitting
 * (ss_submit_order), the order list, one order, paying and cancelling (ss_order_management).
 * Money travels as integer cents.
 */
import type { SalesStatus } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { currentLang } from '../../app/i18n';
import { loadSession } from '../../app/store/loader';
import { session } from '../../app/store/session';
import type { Page, Paging } from '../../shared/paging';

export interface Catalogue {
  products: Array<{ id: number; name: string; model: string; kind: string }>;
  plans: Array<{ index: number; name: string }>;
  customers: Array<{ id: number; name: string }>;
}

export interface SalesOrder {
  id: number;
  number: string;
  customerCompanyId: number | null;
  customer: string;
  contact: string;
  phone: string;
  address: string;
  status: SalesStatus;
  totalCents: number;
  /** YYYY-MM-DD */
  paidOn: string | null;
  notes: string;
  createdAt: string;
}

export interface SalesOrderLine {
  id: number;
  kind: 'product' | 'service';
  categoryId: number | null;
  name: string;
  quantity: number;
  months: number | null;
  unitPriceCents: number;
  amountCents: number;
}

export interface LineInput {
  kind: 'product' | 'service';
  categoryId?: number;
  plan?: number;
  quantity: number;
  months?: number;
  unitPriceCents: number;
}

export interface OrderInput {
  customerCompanyId?: number;
  customer?: string;
  contact?: string;
  phone?: string;
  address?: string;
  notes?: string;
  lines: LineInput[];
}

export interface OrderQuery {
  keyword: string;
  status?: SalesStatus;
}

export const salesKeys = {
  all: ['sales'] as const,
  catalogue: (lang: string) => ['sales', 'catalogue', lang] as const,
  orders: (query: Paging & OrderQuery) => ['sales', 'orders', query] as const,
  order: (id: number) => ['sales', 'order', id] as const,
};

/** The list's filters as the API takes them (no empty keyword, no status for all). */
export function orderParams(query: OrderQuery): Record<string, string> {
  const keyword = query.keyword.trim();
  return { ...(keyword ? { keyword } : {}), ...(query.status ? { status: query.status } : {}) };
}

export function useCatalogue() {
  const lang = currentLang();
  return useQuery({
    queryKey: salesKeys.catalogue(lang),
    queryFn: () => get<Catalogue>('/sales/catalogue'),
    staleTime: 30_000,
  });
}

export function useOrders(query: Paging & OrderQuery) {
  return useQuery({
    queryKey: salesKeys.orders(query),
    queryFn: () =>
      get<Page<SalesOrder>>('/sales/order/list', {
        pageNum: query.pageNum,
        pageSize: query.pageSize,
        sortField: query.sortField,
        sortOrder: query.sortOrder,
        ...orderParams(query),
      }),
    placeholderData: keepPreviousData,
  });
}

export function useOrder(id: number | null) {
  return useQuery({
    queryKey: salesKeys.order(id ?? 0),
    queryFn: () => get<SalesOrder & { lines: SalesOrderLine[] }>('/sales/order/get', { id }),
    enabled: id != null,
    retry: false,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export const salesApi = {
  submit: (body: OrderInput) => post<{ id: number; number: string }>('/sales/order/submit', body),
  pay: (id: number, paidOn: string) =>
    post<{ serviceEndsOn: string | null }>('/sales/order/pay', { id, paidOn }),
  cancel: (id: number) => post<null>('/sales/order/cancel', { id }),
};

/**
 * Mark an order paid. Paying a service for the caller's own company moves that company's
 * service end: the user record (which carries it) is fetched again, so the top bar's expiry
 * notice follows without a new login.
 */
export async function payOrder(order: Pick<SalesOrder, 'id' | 'customerCompanyId'>, paidOn: string) {
  const envelope = await salesApi.pay(order.id, paidOn);
  const own = session.get().user?.companyId;
  if (envelope.data.serviceEndsOn && own != null && order.customerCompanyId === own) {
    // the payment stands either way; a failed reload leaves the old end until the next one
    await loadSession().catch(() => undefined);
  }
  return envelope;
}
