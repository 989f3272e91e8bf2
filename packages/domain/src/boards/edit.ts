/**
 * The designer's edits as pure functions of the body, so undo/redo is a list of bodies and
 * every edit is tested without a browser. Each returns a new body and never breaks what
 * checkBoardBody accepts (sizes and places are clamped to the grid or the canvas).
 */
import {
  BOARD_LIMITS,
  type BoardBody,
  DEFAULT_CONFIGS,
  DEFAULT_SIZES,
  GRID_COLUMNS,
  newWidgetId,
  type Widget,
  type WidgetType,
} from './board';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The rectangle clamped into the board: inside the grid's columns or the canvas. */
export function clampRect(body: Pick<BoardBody, 'mode' | 'width' | 'height'>, r: Rect): Rect {
  const round = (v: number) => Math.round(Number.isFinite(v) ? v : 0);
  if (body.mode === 'grid') {
    const w = Math.min(Math.max(round(r.w), 1), GRID_COLUMNS);
    const h = Math.min(Math.max(round(r.h), 1), BOARD_LIMITS.gridRows);
    return {
      w,
      h,
      x: Math.min(Math.max(round(r.x), 0), GRID_COLUMNS - w),
      y: Math.min(Math.max(round(r.y), 0), BOARD_LIMITS.gridRows - h),
    };
  }
  const min = BOARD_LIMITS.canvasWidgetMin;
  const w = Math.min(Math.max(round(r.w), min), body.width);
  const h = Math.min(Math.max(round(r.h), min), body.height);
  return {
    w,
    h,
    x: Math.min(Math.max(round(r.x), 0), body.width - w),
    y: Math.min(Math.max(round(r.y), 0), body.height - h),
  };
}

const topZ = (body: BoardBody) => body.widgets.reduce((m, w) => Math.max(m, w.z), 0);

/** Adds a widget of a type with its defaults, below everything on a grid, at the top left on a canvas. */
export function addWidget(
  body: BoardBody,
  type: WidgetType,
  random?: () => number,
): { body: BoardBody; id: string } {
  const id = newWidgetId(new Set(body.widgets.map((w) => w.id)), random);
  const [gw, gh] = DEFAULT_SIZES[type].grid;
  const [cw, ch] = DEFAULT_SIZES[type].canvas;
  const bottom = body.widgets.reduce((m, w) => Math.max(m, w.y + w.h), 0);
  const rect =
    body.mode === 'grid'
      ? clampRect(body, { x: 0, y: bottom, w: gw, h: gh })
      : clampRect(body, { x: 40, y: 40, w: cw, h: ch });
  const widget = {
    id,
    type,
    ...rect,
    z: topZ(body) + 1,
    locked: false,
    hidden: false,
    config: structuredClone(DEFAULT_CONFIGS[type]),
  } as Widget;
  return { body: { ...body, widgets: [...body.widgets, widget] }, id };
}

function update(body: BoardBody, id: string, change: (w: Widget) => Widget): BoardBody {
  return { ...body, widgets: body.widgets.map((w) => (w.id === id ? change(w) : w)) };
}

/** Moves or resizes a widget; a locked widget stays where it is. */
export function placeWidget(body: BoardBody, id: string, rect: Rect): BoardBody {
  return update(body, id, (w) => (w.locked ? w : { ...w, ...clampRect(body, rect) }));
}

/** Moves and resizes many widgets at once (a grid layout change); locked ones stay. */
export function placeWidgets(body: BoardBody, rects: ReadonlyMap<string, Rect>): BoardBody {
  let changed = false;
  const widgets = body.widgets.map((w) => {
    const r = rects.get(w.id);
    if (!r || w.locked) return w;
    const next = clampRect(body, r);
    if (next.x === w.x && next.y === w.y && next.w === w.w && next.h === w.h) return w;
    changed = true;
    return { ...w, ...next };
  });
  return changed ? { ...body, widgets } : body;
}

export function setConfig<T extends Widget>(
  body: BoardBody,
  id: string,
  config: Partial<T['config']>,
): BoardBody {
  return update(body, id, (w) => ({ ...w, config: { ...w.config, ...config } }) as Widget);
}

export function setFlag(body: BoardBody, id: string, flag: 'locked' | 'hidden', value: boolean): BoardBody {
  return update(body, id, (w) => ({ ...w, [flag]: value }));
}

export function removeWidget(body: BoardBody, id: string): BoardBody {
  return { ...body, widgets: body.widgets.filter((w) => w.id !== id) };
}

/** A copy of a widget, offset from it, on top, unlocked. */
export function copyWidget(
  body: BoardBody,
  id: string,
  random?: () => number,
): { body: BoardBody; id: string | null } {
  const source = body.widgets.find((w) => w.id === id);
  if (!source || body.widgets.length >= BOARD_LIMITS.widgets) return { body, id: null };
  const copyId = newWidgetId(new Set(body.widgets.map((w) => w.id)), random);
  const step = body.mode === 'grid' ? 1 : 20;
  const rect = clampRect(body, { x: source.x + step, y: source.y + step, w: source.w, h: source.h });
  const copy = {
    ...structuredClone(source),
    ...rect,
    id: copyId,
    z: topZ(body) + 1,
    locked: false,
  } as Widget;
  return { body: { ...body, widgets: [...body.widgets, copy] }, id: copyId };
}

export type LayerMove = 'forward' | 'backward' | 'front' | 'back';

/**
 * Layer order: the widgets sorted by z (ties by list order) are renumbered 1…n after the move,
 * so z stays small however often widgets are moved.
 */
export function moveLayer(body: BoardBody, id: string, move: LayerMove): BoardBody {
  const widgets = reorderLayers(body.widgets, id, move);
  return widgets === body.widgets ? body : { ...body, widgets };
}

/**
 * The layer move on any list of layered shapes (board widgets, configuration screen elements):
 * sorted by z (ties by list order), `id` moved, z renumbered 1…n; the list itself keeps its order.
 */
export function reorderLayers<T extends { id: string; z: number }>(
  items: readonly T[],
  id: string,
  move: LayerMove,
): T[] {
  const order = items
    .map((w, i) => ({ w, i }))
    .sort((a, b) => a.w.z - b.w.z || a.i - b.i)
    .map((e) => e.w.id);
  const at = order.indexOf(id);
  if (at < 0) return items as T[];
  order.splice(at, 1);
  const to =
    move === 'front'
      ? order.length
      : move === 'back'
        ? 0
        : move === 'forward'
          ? Math.min(at + 1, order.length)
          : Math.max(at - 1, 0);
  order.splice(to, 0, id);
  const z = new Map(order.map((wid, i) => [wid, i + 1]));
  return items.map((w) => ({ ...w, z: z.get(w.id)! }));
}

/** Widgets (or any layered shapes) from bottom to top (what a canvas draws in order). */
export function byLayer<T extends { z: number }>(widgets: readonly T[]): T[] {
  return widgets
    .map((w, i) => ({ w, i }))
    .sort((a, b) => a.w.z - b.w.z || a.i - b.i)
    .map((e) => e.w);
}

/** Undo/redo: past and future bodies around the present; a new edit drops the future. */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
}
export const HISTORY_LIMIT = 100;

export function historyOf<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}
export function record<T>(h: History<T>, next: T): History<T> {
  if (next === h.present) return h;
  const past = [...h.past, h.present];
  if (past.length > HISTORY_LIMIT) past.shift();
  return { past, present: next, future: [] };
}
export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] };
}
export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) };
}

/**
 * How a display draws a canvas of `board` px on a screen of `view` px: fit keeps the
 * proportions and shows all of it, fill stretches it to the screen, scroll draws it at its size.
 */
export function displayScale(
  board: { width: number; height: number },
  view: { width: number; height: number },
  scale: 'fit' | 'fill' | 'scroll',
): { sx: number; sy: number } {
  if (scale === 'scroll' || view.width <= 0 || view.height <= 0) return { sx: 1, sy: 1 };
  const sx = view.width / board.width;
  const sy = view.height / board.height;
  if (scale === 'fill') return { sx, sy };
  const s = Math.min(sx, sy);
  return { sx: s, sy: s };
}
