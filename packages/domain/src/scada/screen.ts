/**
 * Configuration screens (issue 13 point 6, docs/configuration-screens.md): the SCADA-style body
 * a device's screen editor edits and its show page draws, and the one check both the server (on
 * save) and the editor (before save) run on it. Device-family flow charts (point 7) are screens
 * too: a template body whose bindings are mapped onto a device's points with `rebindScreen`.
 *
 * Geometry is the boards' canvas mode (boards/board.ts): x, y, w, h are pixels on a fixed canvas
 * of BOARD_LIMITS' sizes that the show page scales to the display; `z` orders overlapping
 * elements (higher on top), `locked` elements are not moved in the editor, `hidden` ones are
 * kept but not drawn. Layer moves and undo/redo are the boards' (boards/edit.ts).
 *
 * An element may be bound to one point of the device (`{itemId, field}`: a field of a kind-13
 * data item the device feeds). Its threshold rules are tried top to bottom against the bound
 * value; the first that matches sets the effects (evaluate.ts). A switch sends one of the
 * device configuration's named commands (docs/device-protocol.md, `down/command`), never bytes
 * typed into the screen.
 */
import { BOARD_LIMITS } from '../boards/board';
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

export const SCREEN_ELEMENT_TYPES = [
  'rect',
  'ellipse',
  'line',
  'tank',
  'valve',
  'pump',
  'gauge',
  'light',
  'text',
  'image',
  'switch',
] as const;
export type ScreenElementType = (typeof SCREEN_ELEMENT_TYPES)[number];

export const SCREEN_LIMITS = {
  elements: 500,
  rules: 20,
  linePoints: 100,
  lineWidthMax: 60,
  text: 500,
  label: 50,
  unit: 16,
  confirm: 200,
  decimalsMax: 6,
  /** largest magnitude of any number in a body (thresholds, min/max) */
  numberMax: 1e12,
  staleSecondsMin: 5,
  staleSecondsMax: 86_400,
  /** a command node's name in a gateway configuration (docs/gateway-config.md) */
  commandName: 32,
  strokeWidthMax: 50,
  radiusMax: 1000,
  colour: 40,
} as const;

export const RULE_OPS = ['>', '>=', '<', '<=', '==', 'between'] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/** What a matching rule changes; absent keys keep the element's own look. */
export interface RuleEffects {
  /** line and text colour */
  color?: string;
  fill?: string;
  /** degrees, added to the element's drawing */
  rotate?: number;
  /**
   * false hides the element while the rule matches; true keeps it shown (with first match
   * winning, `> 90 → shown` above `≥ 0 → hidden` shows it only above 90)
   */
  visible?: boolean;
  blink?: boolean;
}

export interface ThresholdRule {
  op: RuleOp;
  value: number;
  /** the upper bound of `between` (inclusive both ends); absent otherwise */
  value2?: number;
  effects: RuleEffects;
}

export interface PointBinding {
  itemId: number;
  /** a field key of the item ("f1"…) */
  field: string;
}

export interface ElementStyle {
  /** CSS colours; '' is the element type's own */
  fill: string;
  stroke: string;
  strokeWidth: number;
  fontSize: number;
  /** text colour */
  color: string;
}

export const SWITCH_STATES = ['on', 'off'] as const;
export type SwitchState = (typeof SWITCH_STATES)[number];
export const FLOW_MODES = ['off', 'on', 'value'] as const;
export type FlowMode = (typeof FLOW_MODES)[number];
export const PUMP_SHAPES = ['pump', 'fan'] as const;
export const ORIENTATIONS = ['horizontal', 'vertical'] as const;
export const SCREEN_TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export const SCREEN_IMAGE_FITS = ['contain', 'cover', 'fill'] as const;

export interface ScreenConfigs {
  rect: { radius: number };
  ellipse: Record<string, never>;
  /**
   * A line or pipe through `points` (px relative to the element's box). `flow`: 'on' always
   * animates, 'value' animates while the bound value is not zero (and live).
   */
  line: { points: Array<{ x: number; y: number }>; pipe: boolean; width: number; flow: FlowMode };
  /** filled from the bottom: (value − min) / (max − min), clamped to 0…1 */
  tank: { min: number; max: number; showValue: boolean };
  /** open while the bound value is not zero */
  valve: { orientation: (typeof ORIENTATIONS)[number] };
  /** turns while the bound value is not zero */
  pump: { shape: (typeof PUMP_SHAPES)[number] };
  gauge: { min: number; max: number; unit: string; decimals: number };
  /** on while the bound value is not zero */
  light: { onColor: string; offColor: string };
  /** `text` alone, or before the bound value with its unit and decimals */
  text: { text: string; unit: string; decimals: number; align: (typeof SCREEN_TEXT_ALIGNS)[number] };
  image: { url: string; fit: (typeof SCREEN_IMAGE_FITS)[number] };
  /**
   * Sends `onCommand` or `offCommand` (names of command nodes of the device's configuration);
   * the bound value, when there is one, shows the state the device reports. The show page asks
   * `confirm` before sending.
   */
  switch: { label: string; onCommand: string; offCommand: string; confirm: string };
}

export type ScreenElement = {
  [T in ScreenElementType]: {
    id: string;
    type: T;
    x: number;
    y: number;
    w: number;
    h: number;
    z: number;
    locked: boolean;
    hidden: boolean;
    style: ElementStyle;
    binding: PointBinding | null;
    rules: ThresholdRule[];
    config: ScreenConfigs[T];
  };
}[ScreenElementType];

export interface ScreenBody {
  width: number;
  height: number;
  /** CSS colour of the canvas */
  background: string;
  /** a bound value older than this greys (quality 'stale') */
  staleSeconds: number;
  elements: ScreenElement[];
}

export type ScreenCheck = { ok: true; body: ScreenBody } | { ok: false; field: string; reason: string };

export const DEFAULT_SCREEN_STYLE: ElementStyle = {
  fill: '',
  stroke: '',
  strokeWidth: 2,
  fontSize: 16,
  color: '',
};

export const DEFAULT_SCREEN_CONFIGS: { [T in ScreenElementType]: ScreenConfigs[T] } = {
  rect: { radius: 0 },
  ellipse: {},
  line: {
    points: [
      { x: 0, y: 10 },
      { x: 200, y: 10 },
    ],
    pipe: true,
    width: 8,
    flow: 'off',
  },
  tank: { min: 0, max: 100, showValue: true },
  valve: { orientation: 'horizontal' },
  pump: { shape: 'pump' },
  gauge: { min: 0, max: 100, unit: '', decimals: 1 },
  light: { onColor: '#52c41a', offColor: '#8c8c8c' },
  text: { text: '', unit: '', decimals: 1, align: 'left' },
  image: { url: '', fit: 'contain' },
  switch: { label: '', onCommand: '', offCommand: '', confirm: '' },
};

export const DEFAULT_ELEMENT_SIZES: { [T in ScreenElementType]: [number, number] } = {
  rect: [160, 100],
  ellipse: [120, 120],
  line: [200, 20],
  tank: [120, 200],
  valve: [80, 60],
  pump: [100, 100],
  gauge: [180, 180],
  light: [40, 40],
  text: [200, 40],
  image: [240, 180],
  switch: [120, 48],
};

export function emptyScreen(width = 1920, height = 1080): ScreenBody {
  return { width, height, background: '', staleSeconds: 60, elements: [] };
}

const COLOUR = /^(#[0-9a-fA-F]{3,8}|rgba?\([0-9., %]+\)|[a-z]{3,20})?$/;
const ELEMENT_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** a command node's name; the protocol's own commands are not a switch's to send */
const COMMAND_NAME = /^[^\p{Cc}]{1,32}$/u;
export const RESERVED_COMMANDS: readonly string[] = ['reboot', 'readNow'];

function num(raw: Raw, key: string, path: string, fallback?: number): number {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Broken(`${path}.${key}`, 'number');
  if (Math.abs(v) > SCREEN_LIMITS.numberMax) throw new Broken(`${path}.${key}`, 'range');
  // -0 reads back as 0 from JSON: keep the checked body what a round trip gives
  return v === 0 ? 0 : v;
}
function objectAt(raw: Raw, key: string, path: string): Raw {
  const v = raw[key];
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw new Broken(`${path}.${key}`, 'object');
  return v;
}
function colour(raw: Raw, key: string, path: string): string {
  return str(raw, key, path, SCREEN_LIMITS.colour, '', COLOUR);
}
function minMax(c: Raw, path: string): { min: number; max: number } {
  const min = num(c, 'min', path, 0);
  const max = num(c, 'max', path, 100);
  if (max <= min) throw new Broken(`${path}.max`, 'greater than min');
  return { min, max };
}
function commandName(c: Raw, key: string, path: string): string {
  const v = str(c, key, path, SCREEN_LIMITS.commandName, '', COMMAND_NAME);
  if (RESERVED_COMMANDS.includes(v)) throw new Broken(`${path}.${key}`, 'reserved');
  return v;
}

function styleOf(raw: Raw, path: string): ElementStyle {
  const d = DEFAULT_SCREEN_STYLE;
  return {
    fill: colour(raw, 'fill', path),
    stroke: colour(raw, 'stroke', path),
    strokeWidth: int(raw, 'strokeWidth', path, 0, SCREEN_LIMITS.strokeWidthMax, d.strokeWidth),
    fontSize: int(raw, 'fontSize', path, BOARD_LIMITS.fontSizeMin, BOARD_LIMITS.fontSizeMax, d.fontSize),
    color: colour(raw, 'color', path),
  };
}

function bindingOf(raw: unknown, path: string): PointBinding | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) throw new Broken(path, 'object');
  const itemId = raw.itemId;
  if (!isInt(itemId) || itemId < 1 || itemId > 2_147_483_647) throw new Broken(`${path}.itemId`, 'id');
  const field = raw.field;
  if (typeof field !== 'string' || !FIELD_KEY.test(field)) throw new Broken(`${path}.field`, 'field key');
  return { itemId, field };
}

function effectsOf(raw: Raw, path: string): RuleEffects {
  const out: RuleEffects = {};
  if (raw.color !== undefined && raw.color !== null) out.color = colour(raw, 'color', path);
  if (raw.fill !== undefined && raw.fill !== null) out.fill = colour(raw, 'fill', path);
  if (raw.rotate !== undefined && raw.rotate !== null) out.rotate = int(raw, 'rotate', path, -360, 360);
  if (raw.visible !== undefined && raw.visible !== null) out.visible = bool(raw, 'visible', path);
  if (raw.blink !== undefined && raw.blink !== null) out.blink = bool(raw, 'blink', path);
  if (Object.keys(out).length === 0) throw new Broken(path, 'at least one effect');
  return out;
}

function rulesOf(raw: unknown, path: string): ThresholdRule[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new Broken(path, 'list');
  if (raw.length > SCREEN_LIMITS.rules) throw new Broken(path, `at most ${SCREEN_LIMITS.rules}`);
  return raw.map((r, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(r)) throw new Broken(at, 'object');
    const op = oneOf(r, 'op', at, RULE_OPS, '>');
    const value = num(r, 'value', at);
    const effects = effectsOf(objectAt(r, 'effects', at), `${at}.effects`);
    if (op !== 'between') return { op, value, effects };
    const value2 = num(r, 'value2', at);
    if (value2 < value) throw new Broken(`${at}.value2`, 'not below value');
    return { op, value, value2, effects };
  });
}

function configOf(
  type: ScreenElementType,
  c: Raw,
  path: string,
  box: { w: number; h: number },
): ScreenConfigs[ScreenElementType] {
  const L = SCREEN_LIMITS;
  const d = DEFAULT_SCREEN_CONFIGS;
  switch (type) {
    case 'rect':
      return { radius: int(c, 'radius', path, 0, L.radiusMax, 0) };
    case 'ellipse':
      return {};
    case 'line': {
      const list = c.points ?? d.line.points;
      if (!Array.isArray(list)) throw new Broken(`${path}.points`, 'list');
      if (list.length < 2 || list.length > L.linePoints)
        throw new Broken(`${path}.points`, `2..${L.linePoints} points`);
      const points = list.map((p, i) => {
        const at = `${path}.points[${i}]`;
        if (!isObject(p)) throw new Broken(at, 'object');
        return { x: int(p, 'x', at, 0, box.w), y: int(p, 'y', at, 0, box.h) };
      });
      return {
        points,
        pipe: bool(c, 'pipe', path, d.line.pipe),
        width: int(c, 'width', path, 1, L.lineWidthMax, d.line.width),
        flow: oneOf(c, 'flow', path, FLOW_MODES, 'off'),
      };
    }
    case 'tank':
      return { ...minMax(c, path), showValue: bool(c, 'showValue', path, true) };
    case 'valve':
      return { orientation: oneOf(c, 'orientation', path, ORIENTATIONS, 'horizontal') };
    case 'pump':
      return { shape: oneOf(c, 'shape', path, PUMP_SHAPES, 'pump') };
    case 'gauge':
      return {
        ...minMax(c, path),
        unit: str(c, 'unit', path, L.unit),
        decimals: int(c, 'decimals', path, 0, L.decimalsMax, d.gauge.decimals),
      };
    case 'light':
      return {
        onColor: colour(c, 'onColor', path) || d.light.onColor,
        offColor: colour(c, 'offColor', path) || d.light.offColor,
      };
    case 'text':
      return {
        text: str(c, 'text', path, L.text),
        unit: str(c, 'unit', path, L.unit),
        decimals: int(c, 'decimals', path, 0, L.decimalsMax, d.text.decimals),
        align: oneOf(c, 'align', path, SCREEN_TEXT_ALIGNS, 'left'),
      };
    case 'image':
      return {
        url: str(c, 'url', path, BOARD_LIMITS.url, '', IMAGE_URL),
        fit: oneOf(c, 'fit', path, SCREEN_IMAGE_FITS, 'contain'),
      };
    case 'switch': {
      const onCommand = commandName(c, 'onCommand', path);
      const offCommand = commandName(c, 'offCommand', path);
      if (onCommand === '' && offCommand === '') throw new Broken(`${path}.onCommand`, 'required');
      return {
        label: str(c, 'label', path, L.label),
        onCommand,
        offCommand,
        confirm: str(c, 'confirm', path, L.confirm),
      };
    }
  }
}

function elementOf(raw: unknown, index: number, screen: { width: number; height: number }): ScreenElement {
  const path = `elements[${index}]`;
  if (!isObject(raw)) throw new Broken(path, 'object');
  const id = raw.id;
  if (typeof id !== 'string' || !ELEMENT_ID.test(id)) throw new Broken(`${path}.id`, 'id');
  const type = raw.type;
  if (!(SCREEN_ELEMENT_TYPES as readonly unknown[]).includes(type))
    throw new Broken(`${path}.type`, 'element type');
  const t = type as ScreenElementType;
  // a line may be as thin as its stroke: only its length has the canvas minimum
  const minH = t === 'line' ? 1 : BOARD_LIMITS.canvasWidgetMin;
  const minW = t === 'line' ? 1 : BOARD_LIMITS.canvasWidgetMin;
  const w = int(raw, 'w', path, minW, screen.width);
  const h = int(raw, 'h', path, minH, screen.height);
  const x = int(raw, 'x', path, 0, screen.width - w);
  const y = int(raw, 'y', path, 0, screen.height - h);
  const binding = bindingOf(raw.binding, `${path}.binding`);
  const rules = rulesOf(raw.rules, `${path}.rules`);
  if (rules.length > 0 && binding === null) throw new Broken(`${path}.binding`, 'required by rules');
  const config = configOf(t, objectAt(raw, 'config', path), `${path}.config`, { w, h });
  if (t === 'line' && (config as ScreenConfigs['line']).flow === 'value' && binding === null)
    throw new Broken(`${path}.binding`, 'required by flow');
  return {
    id,
    type: t,
    x,
    y,
    w,
    h,
    z: int(raw, 'z', path, 0, 100_000, 0),
    locked: bool(raw, 'locked', path),
    hidden: bool(raw, 'hidden', path),
    style: styleOf(objectAt(raw, 'style', path), `${path}.style`),
    binding,
    rules,
    config,
  } as ScreenElement;
}

/**
 * Checks a screen body as it arrives from a client (unknown JSON) and answers it cleaned:
 * defaults filled, unknown keys dropped. The first broken field is named by its path
 * (`elements[2].rules[0].value`) with why. Never throws.
 */
export function checkScreenBody(raw: unknown): ScreenCheck {
  try {
    if (!isObject(raw)) throw new Broken('body', 'object');
    const L = BOARD_LIMITS;
    const width = int(raw, 'width', 'body', L.canvasMin, L.canvasWidthMax, 1920);
    const height = int(raw, 'height', 'body', L.canvasMin, L.canvasHeightMax, 1080);
    const background = str(raw, 'background', 'body', SCREEN_LIMITS.colour, '', COLOUR);
    const staleSeconds = int(
      raw,
      'staleSeconds',
      'body',
      SCREEN_LIMITS.staleSecondsMin,
      SCREEN_LIMITS.staleSecondsMax,
      60,
    );
    const list = raw.elements ?? [];
    if (!Array.isArray(list)) throw new Broken('elements', 'list');
    if (list.length > SCREEN_LIMITS.elements)
      throw new Broken('elements', `at most ${SCREEN_LIMITS.elements}`);
    const elements = list.map((e, i) => elementOf(e, i, { width, height }));
    const seen = new Set<string>();
    elements.forEach((e, i) => {
      if (seen.has(e.id)) throw new Broken(`elements[${i}].id`, 'duplicate');
      seen.add(e.id);
    });
    return { ok: true, body: { width, height, background, staleSeconds, elements } };
  } catch (error) {
    if (error instanceof Broken) return { ok: false, field: error.field, reason: error.reason };
    // a hostile body (a getter that throws, a proxy) is broken as a whole, never a crash
    return { ok: false, field: 'body', reason: 'object' };
  }
}

/** The points a screen reads, each once, in order of first use (each looked up once for its newest value). */
export function screenBindings(body: Pick<ScreenBody, 'elements'>): PointBinding[] {
  const seen = new Map<string, PointBinding>();
  for (const e of body.elements) {
    if (e.binding === null) continue;
    const key = `${e.binding.itemId}:${e.binding.field}`;
    if (!seen.has(key)) seen.set(key, { itemId: e.binding.itemId, field: e.binding.field });
  }
  return [...seen.values()];
}

/** Where each binding sits (`elements[3].binding`), for naming a refused one. */
export function bindingPaths(
  body: Pick<ScreenBody, 'elements'>,
): Array<{ path: string; binding: PointBinding }> {
  return body.elements.flatMap((e, i) =>
    e.binding ? [{ path: `elements[${i}].binding`, binding: e.binding }] : [],
  );
}

/** The command names a screen's switches send, with where each is named. */
export function screenCommands(body: Pick<ScreenBody, 'elements'>): Array<{ path: string; name: string }> {
  return body.elements.flatMap((e, i) => {
    if (e.type !== 'switch') return [];
    const out: Array<{ path: string; name: string }> = [];
    if (e.config.onCommand) out.push({ path: `elements[${i}].config.onCommand`, name: e.config.onCommand });
    if (e.config.offCommand)
      out.push({ path: `elements[${i}].config.offCommand`, name: e.config.offCommand });
    return out;
  });
}

/**
 * The same screen with every binding mapped (a device-family template placed on a device, point
 * 7): `map` answers the device's point for a template's, or null to leave the element unbound
 * (its rules go with the binding, as a check requires).
 */
export function rebindScreen(
  body: ScreenBody,
  map: (binding: PointBinding) => PointBinding | null,
): ScreenBody {
  return {
    ...body,
    elements: body.elements.map((e) => {
      if (e.binding === null) return e;
      const binding = map(e.binding);
      if (binding) return { ...e, binding };
      const config =
        e.type === 'line' && e.config.flow === 'value' ? { ...e.config, flow: 'off' as const } : e.config;
      return { ...e, binding: null, rules: [], config } as ScreenElement;
    }),
  };
}
