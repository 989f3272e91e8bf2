/**
 * Boards (cabin node type `dashboard`, issue 11 point 2): the body a designer edits and a
 * display shows, and the one check both the server (on save) and the designer (before save)
 * run on it.
 *
 * Two modes share one widget shape:
 * - grid: office dashboards; x, y, w, h count cells of a GRID_COLUMNS-column grid whose rows are
 *   GRID_ROW_HEIGHT px high; the grid reflows to the width of the screen.
 * - canvas: big screens; x, y, w, h are pixels on a fixed canvas (for example 1920×1080) that
 *   the display scales to the screen (fit, fill or scroll).
 *
 * `z` orders widgets that overlap (higher on top); `locked` widgets cannot be moved or resized
 * in the designer; `hidden` widgets are kept but not shown. `config` depends on the type.
 */

import {
  Broken,
  bool,
  FIELD_KEY,
  IMAGE_URL,
  int,
  isInt,
  isObject,
  oneOf,
  type Raw,
  str,
} from '../body-check';

export const BOARD_MODES = ['grid', 'canvas'] as const;
export type BoardMode = (typeof BOARD_MODES)[number];

export const BOARD_SCALES = ['fit', 'fill', 'scroll'] as const;
export type BoardScale = (typeof BOARD_SCALES)[number];

export const WIDGET_TYPES = [
  'number',
  'text',
  'image',
  'clock',
  'marquee',
  'table',
  'deviceStatus',
  'chart',
  'alarmList',
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

export const GRID_COLUMNS = 24;
export const GRID_ROW_HEIGHT = 30;
export const BOARD_LIMITS = {
  widgets: 200,
  gridRows: 400,
  canvasMin: 320,
  canvasWidthMax: 7680,
  canvasHeightMax: 4320,
  /** smallest widget on a canvas, px */
  canvasWidgetMin: 20,
  text: 2000,
  url: 1000,
  title: 50,
  fontSizeMin: 8,
  fontSizeMax: 400,
  tableRows: 20,
  staleMinutesMax: 1440,
  idLength: 32,
  /** items an alarm-list widget may be narrowed to */
  alarmItems: 20,
  alarmRows: 50,
} as const;

/** alarm levels (issue 11 point 3): 3 is the most severe */
export const ALARM_WIDGET_LEVELS = [1, 2, 3] as const;

export type TextAlign = 'left' | 'center' | 'right';
export const TEXT_ALIGNS: readonly TextAlign[] = ['left', 'center', 'right'];
export const CLOCK_FORMATS = ['datetime', 'time', 'date'] as const;
export type ClockFormat = (typeof CLOCK_FORMATS)[number];
export const IMAGE_FITS = ['contain', 'cover', 'fill'] as const;
export type ImageFit = (typeof IMAGE_FITS)[number];

export interface NumberConfig {
  title: string;
  itemId: number | null;
  /** a field key of the item ("f1"…) */
  field: string | null;
  /** the value greys when its record is older than this */
  staleMinutes: number;
  fontSize: number;
}
export interface TextConfig {
  text: string;
  fontSize: number;
  color: string;
  align: TextAlign;
}
export interface ImageConfig {
  url: string;
  fit: ImageFit;
}
export interface ClockConfig {
  format: ClockFormat;
  fontSize: number;
}
export interface MarqueeConfig {
  text: string;
  fontSize: number;
  color: string;
  /** seconds one pass across the widget takes */
  seconds: number;
}
export interface TableConfig {
  title: string;
  itemId: number | null;
  rows: number;
  staleMinutes: number;
}
export interface DeviceStatusConfig {
  title: string;
}
export interface ChartWidgetConfig {
  /** a stored chart (charts table), drawn by the charts feature's ChartView */
  chartId: number | null;
  /** the chart's data item (a chart belongs to one item): live records and permissions */
  itemId: number | null;
}
export interface AlarmListConfig {
  title: string;
  /** only alarms of these items; empty: every item the viewer may read */
  itemIds: number[];
  /** only these levels; empty: all three */
  levels: number[];
  /** how many open alarms the widget lists at most (highest level first, then newest) */
  rows: number;
}

export interface WidgetConfigs {
  number: NumberConfig;
  text: TextConfig;
  image: ImageConfig;
  clock: ClockConfig;
  marquee: MarqueeConfig;
  table: TableConfig;
  deviceStatus: DeviceStatusConfig;
  chart: ChartWidgetConfig;
  alarmList: AlarmListConfig;
}

export type Widget = {
  [T in WidgetType]: {
    id: string;
    type: T;
    x: number;
    y: number;
    w: number;
    h: number;
    z: number;
    locked: boolean;
    hidden: boolean;
    config: WidgetConfigs[T];
  };
}[WidgetType];

export interface BoardBody {
  mode: BoardMode;
  /** canvas size in px (grid mode keeps them for a later switch to canvas) */
  width: number;
  height: number;
  /** how a display fits the canvas to the screen */
  scale: BoardScale;
  /** CSS colour of the board's background */
  background: string;
  widgets: Widget[];
}

/** What the check answers: the body cleaned, or the first broken field (a path) and why. */
export type BoardCheck = { ok: true; body: BoardBody } | { ok: false; field: string; reason: string };

export const DEFAULT_CONFIGS: { [T in WidgetType]: WidgetConfigs[T] } = {
  number: { title: '', itemId: null, field: null, staleMinutes: 10, fontSize: 32 },
  text: { text: '', fontSize: 18, color: '', align: 'left' },
  image: { url: '', fit: 'contain' },
  clock: { format: 'datetime', fontSize: 24 },
  marquee: { text: '', fontSize: 20, color: '', seconds: 12 },
  table: { title: '', itemId: null, rows: 5, staleMinutes: 10 },
  deviceStatus: { title: '' },
  chart: { chartId: null, itemId: null },
  alarmList: { title: '', itemIds: [], levels: [], rows: 10 },
};

/** Size a new widget of a type gets (grid cells, canvas px). */
export const DEFAULT_SIZES: { [T in WidgetType]: { grid: [number, number]; canvas: [number, number] } } = {
  number: { grid: [6, 4], canvas: [360, 200] },
  text: { grid: [6, 2], canvas: [400, 80] },
  image: { grid: [6, 6], canvas: [400, 300] },
  clock: { grid: [6, 2], canvas: [400, 80] },
  marquee: { grid: [12, 2], canvas: [1200, 60] },
  table: { grid: [12, 8], canvas: [800, 400] },
  deviceStatus: { grid: [6, 5], canvas: [400, 260] },
  chart: { grid: [12, 8], canvas: [800, 400] },
  alarmList: { grid: [8, 8], canvas: [560, 400] },
};

export function emptyBoard(mode: BoardMode = 'grid', width = 1920, height = 1080): BoardBody {
  return { mode, width, height, scale: 'fit', background: '', widgets: [] };
}

const COLOR = /^(#[0-9a-fA-F]{3,8}|rgba?\([0-9., %]+\))?$/;
const WIDGET_ID = /^[A-Za-z0-9_-]{1,32}$/;

function idOrNull(raw: Raw, key: string, path: string): number | null {
  const v = raw[key] ?? null;
  if (v === null) return null;
  if (!isInt(v) || v < 1 || v > 2_147_483_647) throw new Broken(`${path}.${key}`, 'id');
  return v;
}

function idList(raw: Raw, key: string, path: string, max: number): number[] {
  const v = raw[key] ?? [];
  if (!Array.isArray(v)) throw new Broken(`${path}.${key}`, 'list');
  if (v.length > max) throw new Broken(`${path}.${key}`, `at most ${max}`);
  const ids = v.map((id, i) => {
    if (!isInt(id) || id < 1 || id > 2_147_483_647) throw new Broken(`${path}.${key}[${i}]`, 'id');
    return id;
  });
  return [...new Set(ids)];
}
function levelList(raw: Raw, key: string, path: string): number[] {
  const v = raw[key] ?? [];
  if (!Array.isArray(v)) throw new Broken(`${path}.${key}`, 'list');
  v.forEach((level, i) => {
    if (!(ALARM_WIDGET_LEVELS as readonly unknown[]).includes(level))
      throw new Broken(`${path}.${key}[${i}]`, 'one of 1|2|3');
  });
  return [...new Set(v as number[])].sort((a, b) => a - b);
}

function configOf(type: WidgetType, raw: unknown, path: string): WidgetConfigs[WidgetType] {
  const c: Raw = raw === undefined ? {} : isObject(raw) ? raw : {};
  if (raw !== undefined && !isObject(raw)) throw new Broken(path, 'object');
  const L = BOARD_LIMITS;
  const d = DEFAULT_CONFIGS;
  switch (type) {
    case 'number': {
      const field = c.field ?? null;
      if (field !== null && (typeof field !== 'string' || !FIELD_KEY.test(field)))
        throw new Broken(`${path}.field`, 'field key');
      return {
        title: str(c, 'title', path, L.title),
        itemId: idOrNull(c, 'itemId', path),
        field: field as string | null,
        staleMinutes: int(c, 'staleMinutes', path, 1, L.staleMinutesMax, d.number.staleMinutes),
        fontSize: int(c, 'fontSize', path, L.fontSizeMin, L.fontSizeMax, d.number.fontSize),
      };
    }
    case 'text':
      return {
        text: str(c, 'text', path, L.text),
        fontSize: int(c, 'fontSize', path, L.fontSizeMin, L.fontSizeMax, d.text.fontSize),
        color: str(c, 'color', path, 40, '', COLOR),
        align: oneOf(c, 'align', path, TEXT_ALIGNS, 'left'),
      };
    case 'image':
      return {
        url: str(c, 'url', path, L.url, '', IMAGE_URL),
        fit: oneOf(c, 'fit', path, IMAGE_FITS, 'contain'),
      };
    case 'clock':
      return {
        format: oneOf(c, 'format', path, CLOCK_FORMATS, 'datetime'),
        fontSize: int(c, 'fontSize', path, L.fontSizeMin, L.fontSizeMax, d.clock.fontSize),
      };
    case 'marquee':
      return {
        text: str(c, 'text', path, L.text),
        fontSize: int(c, 'fontSize', path, L.fontSizeMin, L.fontSizeMax, d.marquee.fontSize),
        color: str(c, 'color', path, 40, '', COLOR),
        seconds: int(c, 'seconds', path, 2, 600, d.marquee.seconds),
      };
    case 'table':
      return {
        title: str(c, 'title', path, L.title),
        itemId: idOrNull(c, 'itemId', path),
        rows: int(c, 'rows', path, 1, L.tableRows, d.table.rows),
        staleMinutes: int(c, 'staleMinutes', path, 1, L.staleMinutesMax, d.table.staleMinutes),
      };
    case 'deviceStatus':
      return { title: str(c, 'title', path, L.title) };
    case 'chart': {
      const chartId = idOrNull(c, 'chartId', path);
      const itemId = idOrNull(c, 'itemId', path);
      if (chartId !== null && itemId === null) throw new Broken(`${path}.itemId`, 'required with chartId');
      return { chartId, itemId: chartId === null ? null : itemId };
    }
    case 'alarmList':
      return {
        title: str(c, 'title', path, L.title),
        itemIds: idList(c, 'itemIds', path, L.alarmItems),
        levels: levelList(c, 'levels', path),
        rows: int(c, 'rows', path, 1, L.alarmRows, d.alarmList.rows),
      };
  }
}

function widgetOf(raw: unknown, index: number, board: Pick<BoardBody, 'mode' | 'width' | 'height'>): Widget {
  const path = `widgets[${index}]`;
  if (!isObject(raw)) throw new Broken(path, 'object');
  const id = raw.id;
  if (typeof id !== 'string' || !WIDGET_ID.test(id)) throw new Broken(`${path}.id`, 'id');
  const type = raw.type;
  if (!(WIDGET_TYPES as readonly unknown[]).includes(type)) throw new Broken(`${path}.type`, 'widget type');
  let x: number;
  let y: number;
  let w: number;
  let h: number;
  if (board.mode === 'grid') {
    w = int(raw, 'w', path, 1, GRID_COLUMNS);
    h = int(raw, 'h', path, 1, BOARD_LIMITS.gridRows);
    x = int(raw, 'x', path, 0, GRID_COLUMNS - w);
    y = int(raw, 'y', path, 0, BOARD_LIMITS.gridRows - h);
  } else {
    w = int(raw, 'w', path, BOARD_LIMITS.canvasWidgetMin, board.width);
    h = int(raw, 'h', path, BOARD_LIMITS.canvasWidgetMin, board.height);
    x = int(raw, 'x', path, 0, board.width - w);
    y = int(raw, 'y', path, 0, board.height - h);
  }
  return {
    id,
    type: type as WidgetType,
    x,
    y,
    w,
    h,
    z: int(raw, 'z', path, 0, 100_000, 0),
    locked: bool(raw, 'locked', path),
    hidden: bool(raw, 'hidden', path),
    config: configOf(type as WidgetType, raw.config, `${path}.config`),
  } as Widget;
}

/**
 * Checks a board body as it arrives from a client (unknown JSON) and answers it cleaned:
 * defaults filled, unknown keys dropped. The first broken field is named by its path
 * (`widgets[2].w`) with why.
 */
export function checkBoardBody(raw: unknown): BoardCheck {
  try {
    if (!isObject(raw)) throw new Broken('body', 'object');
    const mode = oneOf(raw, 'mode', 'body', BOARD_MODES, 'grid');
    const L = BOARD_LIMITS;
    const width = int(raw, 'width', 'body', L.canvasMin, L.canvasWidthMax, 1920);
    const height = int(raw, 'height', 'body', L.canvasMin, L.canvasHeightMax, 1080);
    const scale = oneOf(raw, 'scale', 'body', BOARD_SCALES, 'fit');
    const background = str(raw, 'background', 'body', 40, '', COLOR);
    const list = raw.widgets ?? [];
    if (!Array.isArray(list)) throw new Broken('widgets', 'list');
    if (list.length > L.widgets) throw new Broken('widgets', `at most ${L.widgets}`);
    const widgets = list.map((w, i) => widgetOf(w, i, { mode, width, height }));
    const seen = new Set<string>();
    widgets.forEach((w, i) => {
      if (seen.has(w.id)) throw new Broken(`widgets[${i}].id`, 'duplicate');
      seen.add(w.id);
    });
    return { ok: true, body: { mode, width, height, scale, background, widgets } };
  } catch (error) {
    if (error instanceof Broken) return { ok: false, field: error.field, reason: error.reason };
    throw error;
  }
}

/**
 * The data items a board reads, each once (one live subscription per item): those of its
 * number cards, tables and charts. Viewing a board grants reading these items' records live
 * (still under the items' own data permissions), nothing else.
 */
export function boardItemIds(body: Pick<BoardBody, 'widgets'>): number[] {
  const ids = new Set<number>();
  for (const w of body.widgets) {
    if (w.hidden) continue;
    if ((w.type === 'number' || w.type === 'table' || w.type === 'chart') && w.config.itemId != null)
      ids.add(w.config.itemId);
  }
  return [...ids].sort((a, b) => a - b);
}

/** The charts a board draws (shown widgets), each once, with their items. */
export function boardChartRefs(body: Pick<BoardBody, 'widgets'>): Array<{ chartId: number; itemId: number }> {
  const seen = new Map<number, number>();
  for (const w of body.widgets) {
    if (w.type === 'chart' && !w.hidden && w.config.chartId != null && w.config.itemId != null)
      seen.set(w.config.chartId, w.config.itemId);
  }
  return [...seen].map(([chartId, itemId]) => ({ chartId, itemId }));
}

/** Whether a value last updated at `ts` (ms) is stale at `now` for a widget's stale minutes. */
export function isStale(ts: number | null, now: number, staleMinutes: number): boolean {
  return ts === null || now - ts > staleMinutes * 60_000;
}

/** A new widget id not in `taken`, from a random source (tests pass their own). */
export function newWidgetId(taken: ReadonlySet<string>, random: () => number = Math.random): string {
  for (;;) {
    const id = `w${Math.floor(random() * 36 ** 6)
      .toString(36)
      .padStart(6, '0')}`;
    if (!taken.has(id)) return id;
  }
}
