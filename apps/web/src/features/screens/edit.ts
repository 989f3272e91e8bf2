/**
 * The editor's few edits the domain's screen-edit.ts leaves to it (a copy, a change of one
 * element, a binding), and where a refused field (`elements[2].rules[0].value2`) points.
 */
import {
  clampRect,
  newWidgetId,
  type PointBinding,
  SCREEN_LIMITS,
  type ScreenBody,
  type ScreenElement,
} from '@platform/domain';

export function updateElement(
  body: ScreenBody,
  id: string,
  change: (e: ScreenElement) => ScreenElement,
): ScreenBody {
  return { ...body, elements: body.elements.map((e) => (e.id === id ? change(e) : e)) };
}

/** A copy 20 px down and right, on top, unlocked; null id when the screen is full. */
export function copyElement(body: ScreenBody, id: string): { body: ScreenBody; id: string | null } {
  const source = body.elements.find((e) => e.id === id);
  if (!source || body.elements.length >= SCREEN_LIMITS.elements) return { body, id: null };
  const copyId = newWidgetId(new Set(body.elements.map((e) => e.id)));
  const rect = clampRect(
    { mode: 'canvas', width: body.width, height: body.height },
    { x: source.x + 20, y: source.y + 20, w: source.w, h: source.h },
  );
  const z = body.elements.reduce((m, e) => Math.max(m, e.z), 0) + 1;
  const copy = { ...structuredClone(source), ...rect, id: copyId, z, locked: false } as ScreenElement;
  return { body: { ...body, elements: [...body.elements, copy] }, id: copyId };
}

/** Binds or unbinds; unbinding drops the rules and a value-driven flow, as the check requires. */
export function bindElement(e: ScreenElement, binding: PointBinding | null): ScreenElement {
  if (binding) return { ...e, binding };
  const config =
    e.type === 'line' && e.config.flow === 'value' ? { ...e.config, flow: 'off' as const } : e.config;
  return { ...e, binding: null, rules: [], config } as ScreenElement;
}

export interface Problem {
  /** the element the field belongs to, null for the screen's own fields */
  elementId: string | null;
  /** the path inside the element (`rules[0].value2`), or the screen's (`body.width`) */
  path: string;
  /** what shows under the field */
  message: string;
  /** what the banner above says: the element and the field named, then the message */
  summary?: string;
}

/** Splits a refused field's path into the element it names and the path inside it. */
export function locate(body: ScreenBody, field: string): { elementId: string | null; path: string } {
  const m = /^(?:body\.)?elements\[(\d+)\]\.?(.*)$/.exec(field);
  if (!m) return { elementId: null, path: field.replace(/^body\./, '') };
  const element = body.elements[Number(m[1])];
  return { elementId: element?.id ?? null, path: m[2] ?? '' };
}
