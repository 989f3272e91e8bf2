/**
 * Calls of the records pages (docs/api-data-engine.md: data items, records, submission keys).
 * GET array/object parameters (filters) travel as JSON text: the http client does that.
 */
import {
  type DataSource,
  FILE_LINK_WINDOW_SECONDS,
  type FieldDef,
  type FormElement,
  type ItemKind,
  type JumpOperator,
  type RecordSource,
  type RecordValues,
  type StoredFile,
} from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AxiosProgressEvent } from 'axios';
import { get, request } from '../../app/http/client';
import type { Page } from '../../shared/paging';

export interface DataItem {
  id: number;
  nodeId: number;
  name: string;
  kind: ItemKind;
  fields: FieldDef[];
  sources: DataSource[];
  form: FormElement[];
  titleField: string | null;
  publicCollect: boolean;
  description: string | null;
  /** the caller's data permission level on the item: 1 read, 2 write, 3 admin */
  level: number;
}

export interface DataRecord {
  id: number;
  ts: string;
  values: RecordValues;
  parentId: number | null;
  source: RecordSource;
  createdAt: string;
  createdBy: number | null;
}

export interface RecordFilter {
  field: string;
  op: JumpOperator;
  value?: string | number;
}

export interface RecordQuery {
  itemId: number;
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
  from?: string;
  to?: string;
  filters?: RecordFilter[];
  parentId?: number;
}

export interface ImportResult {
  total: number;
  inserted: number;
  rejected: Array<{ row: number; field: string; message: string }>;
}

export type KeyKind = 'user' | 'device';

export interface SubmitKey {
  id: number;
  name: string;
  kind: KeyKind;
  deviceId?: string | null;
  createdAt?: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
}

/** A cabin tree row (only what the child page's item picker needs). */
export interface CabinNode {
  id: number;
  parentId: number | null;
  type: string;
  name: string;
  refId: number | null;
  kind?: ItemKind;
}

export const drKeys = {
  item: (itemId: number) => ['datarecords', 'item', itemId] as const,
  recordsAll: (itemId: number) => ['datarecords', 'records', itemId] as const,
  records: (query: RecordQuery) => ['datarecords', 'records', query.itemId, query] as const,
  keys: ['datarecords', 'keys'] as const,
  tree: ['datarecords', 'tree'] as const,
};

export function useDataItem(itemId: number) {
  return useQuery({
    queryKey: drKeys.item(itemId),
    queryFn: () => get<DataItem>('/smartdata/item/get', { itemId }),
    enabled: Number.isFinite(itemId) && itemId > 0,
  });
}

export function useRecords(query: RecordQuery, enabled = true) {
  return useQuery({
    queryKey: drKeys.records(query),
    queryFn: () =>
      get<Page<DataRecord>>('/smartdata/record/list', {
        ...query,
        filters: query.filters?.length ? query.filters : undefined,
      }),
    placeholderData: keepPreviousData,
    enabled: enabled && Number.isFinite(query.itemId) && query.itemId > 0,
    // pictures and files come as signed links valid 10 to 20 minutes: renew them in time
    refetchInterval: (FILE_LINK_WINDOW_SECONDS - 60) * 1000,
  });
}

export interface SubmitEndpoints {
  http: string;
  /** host null: the platform's own host (the embedded broker) */
  mqtt: { host: string | null; port: number; external: boolean } | null;
}

/** Where devices submit: the HTTP path and the MQTT broker the server uses. */
export function useSubmitEndpoints(enabled: boolean) {
  return useQuery({
    queryKey: [...drKeys.keys, 'endpoints'],
    queryFn: () => get<SubmitEndpoints>('/smartdata/key/endpoints'),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** The submission keys of the caller; the server may answer a bare array or a page. */
export function useSubmitKeys(enabled: boolean) {
  return useQuery({
    queryKey: drKeys.keys,
    queryFn: async () => {
      const data = await get<SubmitKey[] | Page<SubmitKey>>('/smartdata/key/list', {
        pageNum: 1,
        pageSize: 100,
      });
      return Array.isArray(data) ? data : (data?.list ?? []);
    },
    enabled,
  });
}

export function useCabinItems(enabled: boolean) {
  return useQuery({
    queryKey: drKeys.tree,
    queryFn: async () =>
      (await get<CabinNode[]>('/smartdata/cabin/tree')).filter((n) => n.type === 'dataItem'),
    enabled,
    staleTime: 60_000,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

function multipart(fields: Record<string, string | Blob>, name?: string): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value);
    else form.append(key, value, name ?? (value as File).name ?? 'file');
  }
  return form;
}

export const drApi = {
  add: (body: { itemId: number; values: RecordValues; ts?: string; parentId?: number }) =>
    post<{ id: number }>('/smartdata/record/add', body),
  update: (body: { itemId: number; id: number; values: RecordValues }) =>
    post<null>('/smartdata/record/update', body),
  remove: (itemId: number, ids: number[]) => post<null>('/smartdata/record/delete', { itemId, ids }),
  clear: (itemId: number, confirmName: string) =>
    post<null>('/smartdata/record/clear', { itemId, confirmName }),
  upload: (itemId: number, field: string, file: Blob, name?: string) =>
    request<StoredFile>({
      method: 'POST',
      url: '/smartdata/record/upload',
      data: multipart({ itemId: String(itemId), field, file }, name),
      timeout: 120_000,
    }),
  import: (itemId: number, file: File, onProgress: (percent: number) => void) =>
    request<ImportResult>({
      method: 'POST',
      url: '/smartdata/record/import',
      data: multipart({ itemId: String(itemId), file }),
      timeout: 300_000,
      onUploadProgress: (event: AxiosProgressEvent) => {
        if (event.total) onProgress(Math.round((event.loaded / event.total) * 100));
      },
    }),
  createKey: (body: { name: string; kind: KeyKind; deviceId?: string }) =>
    post<{ id: number; key: string }>('/smartdata/key/create', body),
  revokeKey: (id: number) => post<null>('/smartdata/key/revoke', { id }),
};
