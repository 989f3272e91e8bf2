/** Calls of boards and carousels (docs/boards.md). */
import type { BoardBody, BoardMode, BuiltInTemplate, RecordValues } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { get, post, request } from '../../app/http/client';

export interface BoardRow {
  id: number;
  type: 'dashboard' | 'dashboardTemplate';
  name: string;
  parentId: number | null;
  mode: BoardMode;
  widgetCount: number;
  level: number;
  version: number;
  updatedAt: string;
}
export interface BoardView extends BoardRow {
  body: BoardBody;
  selectedWidget: string | null;
}
export interface BoardItemData {
  itemId: number;
  name: string;
  fields: Array<{ key: string; name: string; unit?: string; type: number; decimals?: number }>;
  records: Array<{ id: number; ts: string; values: RecordValues }>;
}
export interface DeviceState {
  id: number;
  name: string;
  online: boolean;
  changedAt: string | null;
}
export interface BoardData {
  items: BoardItemData[];
  missingItemIds: number[];
  devices: DeviceState[] | null;
  at: string;
}
export interface PlayEntryRow {
  boardId: number;
  seconds: number;
  name: string | null;
}
export interface PlayRow {
  id: number;
  name: string;
  entries: PlayEntryRow[];
  updatedAt: string;
}

export const boardKeys = {
  all: ['boards'] as const,
  list: ['boards', 'list'] as const,
  one: (id: number) => ['boards', 'one', id] as const,
  recent: ['boards', 'recent'] as const,
  plays: ['boards', 'plays'] as const,
  play: (id: number) => ['boards', 'play', id] as const,
};

export function useBoards() {
  return useQuery({ queryKey: boardKeys.list, queryFn: () => get<BoardRow[]>('/smartdata/board/list') });
}
export function useBoard(id: number) {
  return useQuery({
    queryKey: boardKeys.one(id),
    queryFn: () => get<BoardView>('/smartdata/board/get', { id }),
    enabled: Number.isFinite(id) && id > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
export function useTemplates() {
  return useQuery({
    queryKey: ['boards', 'templates'],
    queryFn: () => get<BuiltInTemplate[]>('/smartdata/board/templates'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
export function useRecentBoards(enabled: boolean) {
  return useQuery({
    queryKey: boardKeys.recent,
    queryFn: () =>
      get<Array<{ id: number; name: string; mode: BoardMode; openedAt: string }>>('/smartdata/board/recent'),
    enabled,
  });
}
export function usePlays() {
  return useQuery({ queryKey: boardKeys.plays, queryFn: () => get<PlayRow[]>('/smartdata/boardplay/list') });
}
export function usePlay(id: number) {
  return useQuery({
    queryKey: boardKeys.play(id),
    queryFn: () => get<PlayRow>('/smartdata/boardplay/get', { id }),
    enabled: Number.isFinite(id) && id > 0,
  });
}

export const boardApi = {
  create: (body: {
    parentId: number | null;
    name: string;
    mode?: BoardMode;
    template?: string | null;
    type?: BoardRow['type'];
    fromId?: number | null;
  }) => request<BoardView>({ method: 'POST', url: '/smartdata/board/create', data: body }),
  save: (body: { id: number; version: number; body: BoardBody }) =>
    request<BoardView>({ method: 'POST', url: '/smartdata/board/save', data: body }),
  select: (id: number, widgetId: string | null) => post<null>('/smartdata/board/select', { id, widgetId }),
  open: (id: number) => post<{ board: BoardView; data: BoardData }>('/smartdata/board/open', { id }),
  data: (id: number) => get<BoardData>('/smartdata/board/data', { id }),
  savePlay: (body: {
    id: number | null;
    name: string;
    entries: Array<{ boardId: number; seconds: number }>;
  }) => request<PlayRow>({ method: 'POST', url: '/smartdata/boardplay/save', data: body }),
  removePlay: (id: number) =>
    request<null>({ method: 'POST', url: '/smartdata/boardplay/delete', data: { id } }),
  /** the player: quiet (no error pop-up), a failed board is skipped and tried again later */
  playBoard: (id: number, boardId: number) =>
    get<{ board: BoardView; data: BoardData }>(
      '/smartdata/boardplay/board',
      { id, boardId },
      { silent: true },
    ),
};

export interface PickerItem {
  id: number;
  name: string;
  fields: BoardItemData['fields'];
}
export interface PickerChart {
  id: number;
  name: string;
  type: string;
  itemId: number;
  itemName: string;
}

/** The data items the caller can read, with fields (the designer's item pickers; sd_board). */
export function useBoardItems() {
  return useQuery({
    queryKey: ['boards', 'items'],
    queryFn: () => get<PickerItem[]>('/smartdata/board/items'),
    staleTime: 60_000,
  });
}
/** Every chart of the items the caller can read (the chart widget's picker; sd_board). */
export function useBoardCharts() {
  return useQuery({
    queryKey: ['boards', 'charts'],
    queryFn: () => get<PickerChart[]>('/smartdata/board/charts'),
    staleTime: 60_000,
  });
}
