/**
 * What a configuration screen element draws for the latest value of its point (show mode).
 *
 * Quality: 'live' when the value is at most `staleAfterSeconds` old, 'stale' when older, 'none'
 * when there is no usable value (or the element is not bound). A bound element that is not live
 * is greyed and still: no colour, fill, rotation, visibility or blink from its rules, no turning
 * pump, flowing pipe or lit light. A frozen value never passes for live; its text stays, with
 * its age, so a person sees what the device last said and how long ago.
 *
 * Threshold rules are tried top to bottom; the first that matches sets its effects; the others
 * are not looked at.
 */
import type { RuleEffects, ScreenElement, ThresholdRule } from './screen';

export type Quality = 'live' | 'stale' | 'none';

/** The latest value of a point and when it was measured (ms since the epoch). */
export interface PointSample {
  value: unknown;
  ts: number;
}

export interface ElementView {
  /** false when the element is not bound: it draws its own look */
  bound: boolean;
  quality: Quality;
  /** the value as a number (booleans are 1/0), null without one */
  value: number | null;
  /** what to write: static text, the value with unit and decimals, '—' without a value */
  text: string;
  /** seconds since the value was measured (0 for one from the future), null without one */
  ageSeconds: number | null;
  fill: string;
  stroke: string;
  color: string;
  /** degrees added by a rule */
  rotate: number;
  visible: boolean;
  blink: boolean;
  /** tank fill and gauge needle: 0…1 between min and max; null without a value */
  level: number | null;
  /** pump turning, pipe flowing, valve open, light or switch on */
  active: boolean;
  /** the index of the rule that matched, null when none did (or not live) */
  rule: number | null;
}

/** the colour of everything a bound element draws while its value is stale or missing */
export const STALE_GREY = '#bfbfbf';
export const NO_VALUE_TEXT = '—';

/** A record value as a number: finite numbers, booleans as 1/0; anything else is none. */
export function numericValue(v: unknown): number | null {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return null;
}

export function ruleMatches(rule: ThresholdRule, value: number): boolean {
  switch (rule.op) {
    case '>':
      return value > rule.value;
    case '>=':
      return value >= rule.value;
    case '<':
      return value < rule.value;
    case '<=':
      return value <= rule.value;
    case '==':
      return value === rule.value;
    case 'between':
      return value >= rule.value && value <= (rule.value2 ?? rule.value);
  }
}

/** The index of the first rule that matches `value`, or null. */
export function firstMatch(rules: readonly ThresholdRule[], value: number): number | null {
  const i = rules.findIndex((r) => ruleMatches(r, value));
  return i < 0 ? null : i;
}

/** `value` with `decimals` places and the unit after a space. */
export function formatPointValue(value: number, decimals: number, unit = ''): string {
  const text = value.toFixed(Math.max(0, Math.min(decimals, 6)));
  return unit ? `${text} ${unit}` : text;
}

function levelOf(value: number, min: number, max: number): number {
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

function decimalsOf(e: ScreenElement): number {
  return e.type === 'text' || e.type === 'gauge' ? e.config.decimals : 2;
}

function valueText(e: ScreenElement, value: number | null): string {
  const shown =
    value === null
      ? NO_VALUE_TEXT
      : formatPointValue(value, decimalsOf(e), e.type === 'text' || e.type === 'gauge' ? e.config.unit : '');
  if (e.type === 'text') return e.config.text ? `${e.config.text} ${shown}` : shown;
  if (e.type === 'switch') return e.config.label;
  if (e.type === 'tank' && !e.config.showValue) return '';
  return shown;
}

/**
 * What `element` draws at `now` (ms) given the latest sample of its point (null when there is
 * none). `staleAfterSeconds` is the screen's `staleSeconds`.
 */
export function evaluateElement(
  element: ScreenElement,
  sample: PointSample | null,
  now: number,
  staleAfterSeconds: number,
): ElementView {
  const e = element;
  const base: ElementView = {
    bound: e.binding !== null,
    quality: 'none',
    value: null,
    text: '',
    ageSeconds: null,
    fill: e.type === 'light' ? e.config.offColor : e.style.fill,
    stroke: e.style.stroke,
    color: e.style.color,
    rotate: 0,
    visible: !e.hidden,
    blink: false,
    level: null,
    active: false,
    rule: null,
  };
  if (e.binding === null) {
    return {
      ...base,
      text: e.type === 'text' ? e.config.text : e.type === 'switch' ? e.config.label : '',
      active: e.type === 'line' && e.config.flow === 'on',
    };
  }
  const value = sample ? numericValue(sample.value) : null;
  if (sample === null || value === null || !Number.isFinite(sample.ts)) {
    return { ...base, text: valueText(e, null), fill: STALE_GREY, stroke: STALE_GREY, color: STALE_GREY };
  }
  const ageMs = Math.max(0, now - sample.ts);
  const level = e.type === 'tank' || e.type === 'gauge' ? levelOf(value, e.config.min, e.config.max) : null;
  const seen = { value, text: valueText(e, value), ageSeconds: Math.floor(ageMs / 1000), level };
  if (ageMs > staleAfterSeconds * 1000) {
    return { ...base, ...seen, quality: 'stale', fill: STALE_GREY, stroke: STALE_GREY, color: STALE_GREY };
  }
  const on = value !== 0;
  const active =
    e.type === 'line'
      ? e.config.flow === 'on' || (e.config.flow === 'value' && on)
      : (e.type === 'pump' || e.type === 'valve' || e.type === 'light' || e.type === 'switch') && on;
  const live: ElementView = {
    ...base,
    ...seen,
    quality: 'live',
    active,
    fill: e.type === 'light' ? (on ? e.config.onColor : e.config.offColor) : e.style.fill,
  };
  const rule = firstMatch(e.rules, value);
  if (rule === null) return live;
  return applyEffects({ ...live, rule }, e.rules[rule]!.effects);
}

function applyEffects(view: ElementView, fx: RuleEffects): ElementView {
  return {
    ...view,
    ...(fx.color !== undefined ? { color: fx.color, stroke: fx.color } : {}),
    ...(fx.fill !== undefined ? { fill: fx.fill } : {}),
    ...(fx.rotate !== undefined ? { rotate: fx.rotate } : {}),
    ...(fx.visible !== undefined ? { visible: view.visible && fx.visible } : {}),
    ...(fx.blink !== undefined ? { blink: fx.blink } : {}),
  };
}
