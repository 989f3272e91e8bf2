/**
 * Units, number formats, dates and server field errors of the gas blending pages. Amounts are amount
 * fractions (mol/mol) on the wire; people read and type them in % (mol/mol) or, below 0.1 %,
 * in µmol/mol.
 */
import type { NamePath } from 'antd/es/form/interface';
import type { Cylinder, ProductComponent, ReferenceMaterial } from './api';

export type AmountUnit = 'percent' | 'umol';

export const UNIT_TEXT: Record<AmountUnit, string> = { percent: '%', umol: 'µmol/mol' };

export const gasPaths = {
  products: '/setgas/productlist',
  calculation: (id: number) => `/setgas/calculation/${id}`,
  quality: '/setgas/qualityctrl',
  certificates: '/setgas/certandreport',
  references: '/setgas/referencematerial',
};

/** Below 0.1 % an amount reads better in µmol/mol. */
export function unitFor(fraction: number): AmountUnit {
  return fraction !== 0 && Math.abs(fraction) < 0.001 ? 'umol' : 'percent';
}

/** Twelve significant digits: what a person typed, without the binary float's tail (0.07·100). */
function clean(value: number): number {
  return Number(value.toPrecision(12));
}

export function toUnit(fraction: number, unit: AmountUnit): number {
  return clean(unit === 'percent' ? fraction * 100 : fraction * 1e6);
}

export function toFraction(amount: number, unit: AmountUnit): number {
  return clean(unit === 'percent' ? amount / 100 : amount / 1e6);
}

function digits(value: number, min: number, max: number): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: min,
    maximumFractionDigits: max,
    useGrouping: false,
  });
}

/** A recipe's amount as typed: "10 %", "50 µmol/mol". */
export function formatAmount(fraction: number): string {
  const unit = unitFor(fraction);
  return `${digits(toUnit(fraction, unit), 0, 4)} ${UNIT_TEXT[unit]}`;
}

/** A certified value in its unit: 4 decimals in %, 1 in µmol/mol (3 below 1 µmol/mol). */
export function certifiedValue(fraction: number, unit: AmountUnit): string {
  const value = toUnit(fraction, unit);
  if (unit === 'percent') return digits(value, 4, 4);
  return digits(value, Math.abs(value) < 1 ? 3 : 1, Math.abs(value) < 1 ? 3 : 1);
}

/** An uncertainty with two significant digits, as a certificate states it. */
export function twoSignificant(value: number): string {
  if (!Number.isFinite(value) || value === 0) return '0';
  return value.toLocaleString('en-US', { maximumSignificantDigits: 2, useGrouping: false });
}

/** Purity of a parent gas: 99.9950 % (four decimals at least, six at most). */
export function formatPurity(purity: number): string {
  return `${digits(purity * 100, 4, 6)} %`;
}

export function formatMolarMass(molarMass: number): string {
  return digits(molarMass, 3, 4);
}

export function formatNumber(value: number, decimals: number): string {
  return digits(value, decimals, decimals);
}

/** An impurity as a purity table lists it: "N2 50 µmol/mol", with its u when stated: "O2 10 ± 1 µmol/mol". */
export function formatImpurity(impurity: {
  component: string;
  umolPerMol: number;
  uUmolPerMol?: number;
}): string {
  const u = impurity.uUmolPerMol ? ` ± ${digits(impurity.uUmolPerMol, 0, 4)}` : '';
  return `${impurity.component} ${digits(impurity.umolPerMol, 0, 4)}${u} µmol/mol`;
}

/**
 * A day as YYYY-MM-DD in this browser's time zone (now: today). Certificate and reference
 * material dates have no time: one expires once this day is past the one it states.
 */
export function today(now: Date = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

// ------------------------------------------------------------------ field errors

/**
 * A field the server names, as a form's name path: `parents[1].massG` (the service's rules)
 * and `parents.1.massG` (the schema's) both give ['parents', 1, 'massG'].
 */
export function fieldPath(field: string): Array<string | number> {
  return field
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** A refused call as the http client rejects it (its ApiError): the text and the envelope's data. */
interface Refusal {
  message: string;
  data: unknown;
}

function isRefusal(error: unknown): error is Refusal {
  return error instanceof Error && 'data' in error;
}

/** The field a refused call names (`data.field`), or null. */
export function refusedField(error: unknown): string | null {
  if (!isRefusal(error)) return null;
  const field = (error.data as { field?: unknown } | null)?.field;
  return typeof field === 'string' && field ? field : null;
}

/**
 * The server's message as it reads beside its field: the raw field name it starts with (and its
 * colon) becomes the field's own label, or goes when there is none.
 */
export function inlineMessage(message: string, field: string, label?: string): string {
  const dotted = fieldPath(field).join('.');
  let text = message;
  for (const raw of [field, dotted]) {
    if (!text.includes(raw)) continue;
    text = label ? text.replace(raw, label) : text.replace(raw, '');
    break;
  }
  text = text.replace(/^\s*[:：]\s*/, '').trim();
  return text || message;
}

export interface FieldErrorTarget {
  /** the form's name path for the server's path, or null when the form has no such field */
  place: (path: Array<string | number>) => NamePath | null;
  /** the label of a field, by its last name (`massG`), to write into the message */
  label?: (name: string) => string | undefined;
}

/**
 * Shows a refused call's message under the field it names (the http client has already shown
 * it as a notification). True when a field of the form took it.
 */
export function placeFieldError(
  form: { setFields: (fields: Array<{ name: NamePath; errors: string[] }>) => void },
  error: unknown,
  target: FieldErrorTarget,
): boolean {
  const field = refusedField(error);
  if (!field || !isRefusal(error)) return false;
  const path = fieldPath(field);
  const name = target.place(path);
  if (name === null) return false;
  const last = path.filter((p): p is string => typeof p === 'string').at(-1) ?? '';
  form.setFields([{ name, errors: [inlineMessage(error.message, field, target.label?.(last))] }]);
  return true;
}

/**
 * A target for a form with top-level fields and Form.Lists of rows: `lists` maps a list's
 * name to the server's names of its row fields and the form's (`fraction` → `amount`).
 */
export function formTarget(
  fields: readonly string[],
  lists: Record<string, Record<string, string>> = {},
  label?: (name: string) => string | undefined,
): FieldErrorTarget {
  return {
    label,
    place: (path) => {
      const [head, index, name] = path;
      if (typeof head !== 'string') return null;
      if (path.length === 1) return fields.includes(head) || head in lists ? head : null;
      const row = lists[head];
      if (!row || typeof index !== 'number' || typeof name !== 'string' || path.length !== 3) return null;
      const mapped = row[name];
      return mapped ? [head, index, mapped] : null;
    },
  };
}

// ------------------------------------------------------------------ text of a list row

/** A recipe in a line, as the list shows it: "CO2 10 % · 平衡气 N2". */
export function compositionText(
  components: ProductComponent[],
  balance: string,
  balanceWord: string,
): string {
  return [
    ...components.map((c) => `${c.component} ${formatAmount(c.fraction)}`),
    `${balanceWord} ${balance}`,
  ].join(' · ');
}

/** A reference material's certified values: "CO2 10.01 % ± 0.02 % · 平衡气 N2". */
export function referenceValuesText(
  reference: Pick<ReferenceMaterial, 'components' | 'balance'>,
  balanceWord: string,
): string {
  return [
    ...reference.components.map((c) => {
      const unit = unitFor(c.fraction);
      return `${c.component} ${formatAmount(c.fraction)} ± ${twoSignificant(toUnit(c.expanded, unit))} ${UNIT_TEXT[unit]}`;
    }),
    `${balanceWord} ${reference.balance}`,
  ].join(' · ');
}

/** A cylinder's gravimetric values, the balance gas last: "CO2 9.9998 % · O2 9.0 µmol/mol · 平衡气 N2". */
export function cylinderValuesText(
  cylinder: Pick<Cylinder, 'values' | 'balance'>,
  balanceWord: string,
): string {
  return [
    ...cylinder.values
      .filter((v) => v.component !== cylinder.balance)
      .map((v) => {
        const unit = unitFor(v.fraction);
        return `${v.component} ${certifiedValue(v.fraction, unit)} ${UNIT_TEXT[unit]}`;
      }),
    `${balanceWord} ${cylinder.balance}`,
  ].join(' · ');
}
