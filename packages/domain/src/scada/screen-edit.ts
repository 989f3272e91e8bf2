/**
 * The screen editor's edits as pure functions of the body (undo/redo is the boards' History of
 * bodies). Geometry and layers are the boards' canvas helpers: every edit keeps what
 * checkScreenBody accepts.
 */
import { newWidgetId } from '../boards/board';
import { clampRect, type LayerMove, type Rect, reorderLayers } from '../boards/edit';
import {
  DEFAULT_ELEMENT_SIZES,
  DEFAULT_SCREEN_CONFIGS,
  DEFAULT_SCREEN_STYLE,
  type ScreenBody,
  type ScreenElement,
  type ScreenElementType,
} from './screen';

const canvasOf = (body: ScreenBody) => ({ mode: 'canvas' as const, width: body.width, height: body.height });

function topZ(body: ScreenBody): number {
  return body.elements.reduce((z, e) => Math.max(z, e.z), 0);
}

/** A new element of `type` at (x, y), on top; answers the body and the element's id. */
export function addElement(
  body: ScreenBody,
  type: ScreenElementType,
  at: { x: number; y: number } = { x: 0, y: 0 },
  random: () => number = Math.random,
): { body: ScreenBody; id: string } {
  const id = newWidgetId(new Set(body.elements.map((e) => e.id)), random);
  const [w, h] = DEFAULT_ELEMENT_SIZES[type];
  const rect = clampRect(canvasOf(body), { x: at.x, y: at.y, w, h });
  const element = {
    id,
    type,
    ...rect,
    z: topZ(body) + 1,
    locked: false,
    hidden: false,
    style: { ...DEFAULT_SCREEN_STYLE },
    binding: null,
    rules: [],
    config: structuredClone(DEFAULT_SCREEN_CONFIGS[type]),
  } as ScreenElement;
  return { body: { ...body, elements: [...body.elements, element] }, id };
}

/**
 * Moves or resizes an element (a locked one stays). A line's points are scaled with its box so
 * they stay inside it.
 */
export function placeElement(body: ScreenBody, id: string, rect: Rect): ScreenBody {
  return {
    ...body,
    elements: body.elements.map((e) => {
      if (e.id !== id || e.locked) return e;
      const r = clampRect(canvasOf(body), rect);
      if (e.type !== 'line') return { ...e, ...r };
      const points = e.config.points.map((p) => ({
        x: Math.min(r.w, Math.round((p.x * r.w) / e.w)),
        y: Math.min(r.h, Math.round((p.y * r.h) / e.h)),
      }));
      return { ...e, ...r, config: { ...e.config, points } };
    }),
  };
}

export function moveElementLayer(body: ScreenBody, id: string, move: LayerMove): ScreenBody {
  const elements = reorderLayers(body.elements, id, move);
  return elements === body.elements ? body : { ...body, elements };
}

export function setElementFlag(
  body: ScreenBody,
  id: string,
  flag: 'locked' | 'hidden',
  value: boolean,
): ScreenBody {
  return { ...body, elements: body.elements.map((e) => (e.id === id ? { ...e, [flag]: value } : e)) };
}

export function removeElement(body: ScreenBody, id: string): ScreenBody {
  return { ...body, elements: body.elements.filter((e) => e.id !== id) };
}
