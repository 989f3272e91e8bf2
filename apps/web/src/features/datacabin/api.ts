/** Calls of the data cabin, data items, jumps, analysis and item groups (docs/api-data-engine.md). */
import type {
  AnalysisAssignment,
  CabinNodeType,
  DataPermission,
  DataSource,
  FieldDef,
  FormElement,
  ItemKind,
  JumpCondition,
  JumpMapping,
  PermissionEntry,
} from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import type { Page, Paging } from '../../shared/paging';

export interface CabinNode {
  id: number;
  parentId: number | null;
  type: CabinNodeType;
  name: string;
  refId: number | null;
  sortOrder: number;
  level: DataPermission;
  updatedAt: string;
  kind?: ItemKind;
  /** search results only: names from the top */
  path?: string[] | string;
}

export interface NodePermission {
  mode: 'inherit' | 'custom';
  entries: PermissionEntry[];
  level: DataPermission;
}

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
  level: DataPermission;
}

/** A field as edited: new fields have no key until the server gives them one. */
export type EditableField = Omit<FieldDef, 'key'> & { key?: string };

export interface Jump {
  id: number;
  priority: number;
  name: string;
  conditions: JumpCondition[];
  targetItemId: number;
  targetName: string;
  mapping: JumpMapping[];
  enabled: boolean;
}

export interface AnalysisJob {
  id: number;
  name: string;
  enabled: boolean;
  cron: string | null;
  runAt: string | null;
  type: string;
  assignments: AnalysisAssignment[];
  nextRunAt: string | null;
  lastRunAt: string | null;
  status?: string;
}

export interface AnalysisRun {
  id: number;
  jobId: number;
  fireTime: string;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'ok' | 'failed';
  message: string | null;
  recordId: number | null;
}

export interface ItemGroup {
  id: number;
  name: string;
  itemCount?: number;
  createdAt?: string;
  items?: Array<{ itemId: number; name: string; kind: ItemKind; nodeId: number }>;
}

export interface PersonOption {
  userId: number;
  userName: string;
  phone: string;
}

export interface GroupOption {
  id: number;
  name: string;
}

export const cabinKeys = {
  all: ['datacabin'] as const,
  tree: ['datacabin', 'tree'] as const,
  search: (keyword: string) => ['datacabin', 'search', keyword] as const,
  permission: (nodeId: number) => ['datacabin', 'permission', nodeId] as const,
  item: (itemId: number) => ['datacabin', 'item', itemId] as const,
  jumps: (itemId: number) => ['datacabin', 'jumps', itemId] as const,
  analysis: (itemId: number) => ['datacabin', 'analysis', itemId] as const,
  analysisLog: (itemId: number, jobId: number, paging: Paging) =>
    ['datacabin', 'analysisLog', itemId, jobId, paging] as const,
  itemGroups: (paging: Paging) => ['datacabin', 'itemGroups', paging] as const,
  itemGroupsAll: ['datacabin', 'itemGroups'] as const,
  itemGroup: (groupId: number) => ['datacabin', 'itemGroup', groupId] as const,
};

export function useCabinTree() {
  return useQuery({ queryKey: cabinKeys.tree, queryFn: () => get<CabinNode[]>('/smartdata/cabin/tree') });
}

export function useCabinSearch(keyword: string) {
  return useQuery({
    queryKey: cabinKeys.search(keyword),
    queryFn: () => get<CabinNode[]>('/smartdata/cabin/search', { keyword }),
    enabled: keyword !== '',
  });
}

export function useNodePermission(nodeId: number | null) {
  return useQuery({
    queryKey: cabinKeys.permission(nodeId ?? 0),
    queryFn: () => get<NodePermission>('/smartdata/cabin/permission', { nodeId }),
    enabled: nodeId != null,
  });
}

export function useDataItem(itemId: number) {
  return useQuery({
    queryKey: cabinKeys.item(itemId),
    queryFn: () => get<DataItem>('/smartdata/item/get', { itemId }),
    enabled: Number.isFinite(itemId) && itemId > 0,
  });
}

export function useJumps(itemId: number) {
  return useQuery({
    queryKey: cabinKeys.jumps(itemId),
    queryFn: () => get<Jump[]>('/smartdata/item/jumps', { itemId }),
  });
}

export function useAnalysisJobs(itemId: number) {
  return useQuery({
    queryKey: cabinKeys.analysis(itemId),
    queryFn: () => get<AnalysisJob[]>('/smartdata/analysis/list', { itemId }),
  });
}

export function useAnalysisLog(itemId: number, jobId: number | null, paging: Paging) {
  return useQuery({
    queryKey: cabinKeys.analysisLog(itemId, jobId ?? 0, paging),
    queryFn: () => get<Page<AnalysisRun>>('/smartdata/analysis/log', { itemId, jobId, ...paging }),
    enabled: jobId != null,
    placeholderData: keepPreviousData,
  });
}

export function useItemGroups(paging: Paging) {
  return useQuery({
    queryKey: cabinKeys.itemGroups(paging),
    queryFn: () => get<Page<ItemGroup>>('/smartdata/itemgroup/list', { ...paging }),
    placeholderData: keepPreviousData,
  });
}

export function useItemGroup(groupId: number | null) {
  return useQuery({
    queryKey: cabinKeys.itemGroup(groupId ?? 0),
    queryFn: () => get<ItemGroup>('/smartdata/itemgroup/get', { groupId }),
    enabled: groupId != null,
  });
}

/** Company members and groups for the permission dialog (first 100 of each). */
export function usePeople(enabled: boolean) {
  return useQuery({
    queryKey: ['datacabin', 'people'],
    queryFn: () => get<Page<PersonOption>>('/company/member/getMemberList', { pageNum: 1, pageSize: 100 }),
    enabled,
    staleTime: 60_000,
  });
}

export function useGroupOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['datacabin', 'groups'],
    queryFn: () => get<Page<GroupOption>>('/company/group/getGroupList', { pageNum: 1, pageSize: 100 }),
    enabled,
    staleTime: 60_000,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export interface SaveJump {
  itemId: number;
  id?: number;
  priority: number;
  name: string;
  conditions: JumpCondition[];
  targetItemId: number;
  mapping: JumpMapping[];
  enabled: boolean;
}

export interface SaveAnalysis {
  itemId: number;
  id?: number;
  name: string;
  enabled: boolean;
  cron?: string;
  runAt?: string;
  type: string;
  assignments: AnalysisAssignment[];
}

export const cabinApi = {
  create: (body: { parentId: number | null; type: CabinNodeType; name: string; kind?: ItemKind }) =>
    post<{ id: number; refId: number | null }>('/smartdata/cabin/create', body),
  rename: (id: number, name: string) => post<null>('/smartdata/cabin/rename', { id, name }),
  move: (ids: number[], targetId: number | null) => post<null>('/smartdata/cabin/move', { ids, targetId }),
  copy: (ids: number[], targetId: number | null) =>
    post<{ ids: number[] }>('/smartdata/cabin/copy', { ids, targetId }),
  remove: (ids: number[]) => post<null>('/smartdata/cabin/delete', { ids }),
  setPermission: (body: { nodeId: number; mode: 'inherit' | 'custom'; entries: PermissionEntry[] }) =>
    post<null>('/smartdata/cabin/permission', body),

  updateItem: (body: {
    itemId: number;
    fields?: EditableField[];
    sources?: DataSource[];
    titleField?: string | null;
    publicCollect?: boolean;
    description?: string | null;
  }) => post<DataItem>('/smartdata/item/update', body),
  updateForm: (itemId: number, form: FormElement[]) =>
    post<null>('/smartdata/item/updateForm', { itemId, form }),
  saveJump: (body: SaveJump) => post<{ id: number }>('/smartdata/item/saveJump', body),
  deleteJump: (itemId: number, id: number) => post<null>('/smartdata/item/deleteJump', { itemId, id }),

  saveAnalysis: (body: SaveAnalysis) =>
    post<{ id: number; nextRunAt: string | null }>('/smartdata/analysis/save', body),
  deleteAnalysis: (itemId: number, id: number) => post<null>('/smartdata/analysis/delete', { itemId, id }),
  runAnalysis: (itemId: number, id: number) => post<AnalysisRun>('/smartdata/analysis/run', { itemId, id }),

  saveItemGroup: (body: { id?: number; name: string; itemIds: number[] }) =>
    post<{ id: number }>('/smartdata/itemgroup/save', body),
  deleteItemGroup: (id: number) => post<null>('/smartdata/itemgroup/delete', { id }),
};
