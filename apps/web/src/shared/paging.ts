/**
 * Paged lists of the API (docs/api-foundation.md): `pageNum` from 1, `pageSize` ≤ 100, and on
 * sortable lists `sortField` (a column's key) with `sortOrder` asc or desc.
 */
import type { TablePaginationConfig } from 'antd';
import type { Key } from 'react';
import { useState } from 'react';
import { get } from '../app/http/client';

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export interface Paging {
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

export const DEFAULT_PAGE_SIZE = 10;

/** What an antd Table tells of the column it sorts by (its SorterResult, as far as used here). */
interface SortedColumn {
  order?: 'ascend' | 'descend' | null;
  columnKey?: Key;
  field?: unknown;
}

/**
 * Page state for an antd Table bound to a paged call: `paging` feeds the query key and the
 * call, `pagination(page)` feeds the Table, `reset()` goes back to page 1 (new search), and
 * `onSort` as the Table's onChange sorts on the server by a column with `sorter: true` (its
 * `key` is the list's sortField), back to page 1; a third click leaves the list's own order.
 */
export function usePaging(pageSize = DEFAULT_PAGE_SIZE) {
  const [paging, setPaging] = useState<Paging>({ pageNum: 1, pageSize });
  const pagination = (page: Page<unknown> | undefined): TablePaginationConfig => ({
    current: paging.pageNum,
    pageSize: paging.pageSize,
    total: page?.total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    hideOnSinglePage: false,
    onChange: (pageNum, size) =>
      setPaging({ pageNum: size === paging.pageSize ? pageNum : 1, pageSize: size }),
  });
  const onSort = (
    _pagination: unknown,
    _filters: unknown,
    sorter: SortedColumn | SortedColumn[],
    extra: { action: string },
  ) => {
    if (extra.action !== 'sort') return;
    const first = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = first?.order ? String(first.columnKey ?? first.field) : undefined;
    setPaging((p) => ({
      pageNum: 1,
      pageSize: p.pageSize,
      ...(field ? { sortField: field, sortOrder: first?.order === 'ascend' ? 'asc' : 'desc' } : {}),
    }));
  };
  return {
    paging,
    pagination,
    onSort,
    reset: () => setPaging((p) => ({ ...p, pageNum: 1 })),
    /** after a delete empties the last page, step back one */
    stepBackIfEmpty: (page: Page<unknown> | undefined) => {
      if (page && page.list.length === 0 && page.total > 0 && paging.pageNum > 1) {
        setPaging((p) => ({ ...p, pageNum: Math.max(1, Math.ceil(page.total / p.pageSize)) }));
      }
    },
  };
}

/**
 * Every row of a paged list under its filters (`query`: strings trimmed, empty ones left out),
 * fetched a largest page after another; at most `most` rows. An export needs them all, not
 * only the page shown.
 */
export async function allPages<T>(path: string, query: object, most = 10_000): Promise<T[]> {
  const filters = Object.fromEntries(
    Object.entries(query)
      .map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value])
      .filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
  const rows: T[] = [];
  for (let pageNum = 1; rows.length < most; pageNum += 1) {
    const page = await get<Page<T>>(path, { ...filters, pageNum, pageSize: 100 });
    rows.push(...page.list);
    if (page.list.length < 100 || rows.length >= page.total) break;
  }
  return rows;
}
