/**
 * Calls of the inventory pages (/general/inventory, apps/server/src/modules/inventory): categories
 * (im_category), the stock and its units (im_inventory), the production log (im_production_log),
 * entry and exit orders (im_entry, im_exit) and their printed notes. Calls that name serial
 * numbers are silent: their refusals (every serial number with its message) are the page's to show.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';
import type { Page, Paging } from '../../shared/paging';
import type { CategoryKind, OrderKind, OrderState } from './model';

/** units by stock status id ('0' … '9') */
export type Counts = Record<string, number>;

export interface Category {
  id: number;
  name: string;
  kind: CategoryKind;
  serialized: boolean;
  model: string;
  unit: string;
  notes: string;
  updatedAt: string;
}

export interface CategoryRow extends Category {
  counts: Counts | null;
  quantity: number | null;
}

export interface StockRow {
  categoryId: number;
  warehouse: string;
  counts: Counts | null;
  quantity: number | null;
}

export interface CategoryDetail extends Category {
  stock: StockRow[];
}

export interface UnitRow {
  id: number;
  sn: string;
  categoryId: number;
  categoryName: string;
  kind: CategoryKind;
  model: string;
  status: string;
  stockStatus: number;
  disabled: boolean;
  warehouse: string;
  orderId: number | null;
  orderNumber: string | null;
  orderKind: OrderKind | null;
  updatedAt: string;
}

export interface LogRow {
  id: number;
  sn: string;
  action: string;
  fromStatus: string | null;
  toStatus: string;
  disabled: boolean;
  orderNumber: string | null;
  userId: number | null;
  at: string;
}

export interface OrderFields {
  warehouse: string;
  customer?: string;
  contact?: string;
  phone?: string;
  address?: string;
  notes?: string;
  /** an exit order: the sales order it delivers; null unlinks */
  salesOrderId?: number | null;
}

export interface Order {
  id: number;
  kind: OrderKind;
  source: CategoryKind | null;
  number: string;
  state: OrderState;
  warehouse: string;
  customer: string;
  contact: string;
  phone: string;
  address: string;
  notes: string;
  salesOrderId: number | null;
  salesOrderNumber: string | null;
  createdAt: string;
  closedAt: string | null;
}

export interface OrderRow extends Order {
  units: number;
  quantity: number;
}

export interface OrderLine {
  id: number;
  categoryId: number;
  categoryName: string;
  model: string;
  unit: string;
  /** null on a counted line */
  sn: string | null;
  quantity: number;
  status: string | null;
  stockStatus: number | null;
}

export interface OrderDetail extends Order {
  lines: OrderLine[];
}

export interface CategoryQuery {
  keyword?: string;
  kind?: CategoryKind;
}

export interface UnitQuery {
  keyword?: string;
  categoryId?: number;
  stockStatus?: number;
  warehouse?: string;
}

export interface LogQuery {
  keyword?: string;
  action?: string;
}

export interface OrderQuery {
  kind: OrderKind;
  keyword?: string;
  state?: OrderState;
  source?: CategoryKind;
}

/** the API's largest page */
const ALL = { pageNum: 1, pageSize: 100 };

export const inventoryKeys = {
  all: ['inventory'] as const,
  categories: (query: Paging & CategoryQuery) => ['inventory', 'categories', query] as const,
  categoryChoices: ['inventory', 'categories', 'choices'] as const,
  category: (id: number) => ['inventory', 'category', id] as const,
  stock: ['inventory', 'stock'] as const,
  units: (query: Paging & UnitQuery) => ['inventory', 'units', query] as const,
  log: (query: Paging & LogQuery) => ['inventory', 'log', query] as const,
  orders: (query: Paging & OrderQuery) => ['inventory', 'orders', query] as const,
  order: (id: number) => ['inventory', 'order', id] as const,
};

/** A query without its empty filters (an empty keyword is no filter). */
function params(query: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query)
      .map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value])
      .filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
}

/** A paged list of the inventory, its page kept while the next loads. */
function usePaged<T>(key: readonly unknown[], path: string, query: object) {
  return useQuery({
    queryKey: key,
    queryFn: () => get<Page<T>>(path, params(query)),
    placeholderData: keepPreviousData,
  });
}

export const useCategories = (query: Paging & CategoryQuery) =>
  usePaged<CategoryRow>(inventoryKeys.categories(query), '/inventory/category/list', query);

export const useUnits = (query: Paging & UnitQuery) =>
  usePaged<UnitRow>(inventoryKeys.units(query), '/inventory/unit/list', query);

export const useLog = (query: Paging & LogQuery) =>
  usePaged<LogRow>(inventoryKeys.log(query), '/inventory/log/list', query);

export const useOrders = (query: Paging & OrderQuery) =>
  usePaged<OrderRow>(inventoryKeys.orders(query), '/inventory/order/list', query);

/** Every category (for selects and for naming the stock's rows). */
export function useCategoryChoices() {
  return useQuery({
    queryKey: inventoryKeys.categoryChoices,
    queryFn: () => get<Page<CategoryRow>>('/inventory/category/list', ALL),
    staleTime: 30_000,
  });
}

export function useCategory(id: number) {
  return useQuery({
    queryKey: inventoryKeys.category(id),
    queryFn: () => get<CategoryDetail>('/inventory/category/get', { id }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

/** The stock per category and warehouse (im_inventory only: others do not ask). */
export function useStock(enabled = true) {
  return useQuery({
    queryKey: inventoryKeys.stock,
    queryFn: () => get<StockRow[]>('/inventory/stock'),
    enabled,
  });
}

export function useOrder(id: number) {
  return useQuery({
    queryKey: inventoryKeys.order(id),
    queryFn: () => get<OrderDetail>('/inventory/order/get', { id }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

const post = <T>(url: string, data: unknown, silent = false) =>
  request<T>({ method: 'POST', url, data, silent });

export const inventoryApi = {
  saveCategory: (body: Omit<Category, 'id' | 'updatedAt'> & { id?: number }) =>
    post<{ id: number }>('/inventory/category/save', body),
  deleteCategory: (id: number) => post<null>('/inventory/category/delete', { id }),
  unitState: (sns: string[], action: 'disable' | 'enable') =>
    post<{ changed: number }>('/inventory/unit/state', { sns, action }, true),
  produce: (body: { categoryId: number; sns: string[]; finished: boolean }) =>
    post<{ created: number }>('/inventory/unit/produce', body, true),
  finish: (sns: string[]) => post<{ changed: number }>('/inventory/unit/finish', { sns }, true),
  createOrder: (body: OrderFields & { kind: OrderKind; source?: CategoryKind }) =>
    post<{ id: number; number: string }>('/inventory/order/create', body),
  updateOrder: (body: OrderFields & { id: number }) => post<null>('/inventory/order/update', body),
  addUnits: (body: { id: number; sns: string[]; categoryId?: number }) =>
    post<{ added: number }>('/inventory/order/add', body, true),
  removeUnits: (id: number, sns: string[]) =>
    post<{ removed: number }>('/inventory/order/remove', { id, sns }, true),
  setQuantities: (id: number, lines: Array<{ categoryId: number; quantity: number }>) =>
    post<null>('/inventory/order/quantities', { id, lines }, true),
  confirm: (id: number) => post<null>('/inventory/order/confirm', { id }, true),
  cancel: (id: number) => post<null>('/inventory/order/cancel', { id }, true),
  downloadNote: (order: Pick<Order, 'id' | 'number'>, lang: 'zh' | 'en') =>
    downloadFile('/inventory/order/note', { id: order.id, lang }, `${order.number}-${lang}.pdf`),
};
