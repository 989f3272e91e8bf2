/**
 * Document and rich-text templates (cabin node types `docTemplate` and `richTemplate`): an HTML
 * body whose placeholders are bound to the fields of one data item, filled with one record's
 * values.
 *
 * Placeholder: a chip element `<span data-field="KEY">label</span>`, KEY a field key of the
 * bound item ("f1", "f2", …) or `ts` (the record's time); the label is plain text shown while
 * editing (the field's name) and replaced when filling. The server sanitises the body on save
 * (sanitize-html allow-list), so the markup the renderer sees is well formed: attributes in
 * double quotes, a chip's label without markup. A chip whose label holds markup is not a
 * placeholder and stays as it is.
 *
 * Filling escapes every value: text becomes text, never markup.
 */
import { DEFAULT_TIME_ZONE } from '../data/time';
import type { DataPermission, FieldDef, RecordValue, RecordValues, StoredFile } from '../data/types';
import { FILE_URL_PREFIX, formatInstant, formatValue } from '../data/values';

/** The pseudo field key of a record's time */
export const TEMPLATE_TS_KEY = 'ts';

/** Longest template body accepted (characters of HTML) */
export const TEMPLATE_HTML_MAX_LENGTH = 200_000;

/** The stored content of a docTemplate / richTemplate (templates.content) */
export interface DocTemplateContent {
  html: string;
  /** the data item the placeholders are bound to */
  itemId: number | null;
}

/** The two cabin node types that hold an HTML template */
export const DOC_TEMPLATE_TYPES = ['docTemplate', 'richTemplate'] as const;
export type DocTemplateType = (typeof DOC_TEMPLATE_TYPES)[number];

/** A template in the list (`/smartdata/template/list`) */
export interface DocTemplateRow {
  /** the cabin node id: every route addresses the template by it */
  id: number;
  templateId: number;
  type: DocTemplateType;
  name: string;
  parentId: number | null;
  itemId: number | null;
  /** null when no item is bound or the caller cannot read the bound item */
  itemName: string | null;
  /** the caller's data permission on the template's node */
  level: DataPermission;
  updatedAt: string;
}

/** One template with its body (`/smartdata/template/get`, answer of save) */
export interface DocTemplateView extends DocTemplateRow {
  html: string;
}

/** A template filled with one record (`/smartdata/template/render`) */
export interface RenderedDoc {
  id: number;
  name: string;
  type: DocTemplateType;
  itemId: number;
  itemName: string;
  recordId: number;
  ts: string;
  /** the record time as the document shows it (company zone) */
  tsText: string;
  /** the company's IANA time zone every time of the document reads in */
  timeZone: string;
  html: string;
}

const CHIP = /<span\b([^>]*)>([^<]*)<\/span>/gi;
const DATA_FIELD = /\sdata-field="([^"]*)"/i;

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The placeholder markup the editor inserts for a field (label: the field's name). */
export function placeholderHtml(key: string, label: string): string {
  return `<span data-field="${escapeHtml(key)}">${escapeHtml(label)}</span>`;
}

/** The field keys of every placeholder in the body, in order of first appearance. */
export function placeholderKeys(html: string): string[] {
  const keys: string[] = [];
  for (const m of html.matchAll(CHIP)) {
    const key = DATA_FIELD.exec(` ${m[1] ?? ''}`)?.[1];
    if (key !== undefined && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/**
 * The first placeholder key that is neither a field of `fields` nor the record time, or null
 * when all are bound (a body without placeholders needs no item).
 */
export function unknownPlaceholder(html: string, fields: readonly FieldDef[]): string | null {
  return placeholderKeys(html).find((k) => k !== TEMPLATE_TS_KEY && !fields.some((f) => f.key === k)) ?? null;
}

/** Stored files are served under /general/files/; anything else is not linked. */
function safeFileUrl(url: unknown): string | null {
  return typeof url === 'string' &&
    url.startsWith(FILE_URL_PREFIX) &&
    !url.includes('..') &&
    !/[\s\\"'<>]/.test(url)
    ? url
    : null;
}

function filesOf(value: RecordValue | undefined): StoredFile[] {
  return Array.isArray(value) ? value.filter((f) => typeof f === 'object' && f !== null) : [];
}

export interface RenderOptions {
  /** the record's time (ISO), for the `ts` placeholder */
  ts?: string;
  /** zone of dates; default Asia/Shanghai */
  tz?: string;
}

/** The HTML of one field's value: escaped text; pictures as <img>, files as links. */
export function valueHtml(field: FieldDef, value: RecordValue | undefined, tz = DEFAULT_TIME_ZONE): string {
  if (field.type === 8) {
    return filesOf(value)
      .map((f) => {
        const url = safeFileUrl(f.url);
        return url ? `<img src="${escapeHtml(url)}" alt="${escapeHtml(String(f.name ?? ''))}">` : '';
      })
      .join('');
  }
  if (field.type === 9) {
    return filesOf(value)
      .map((f) => {
        const url = safeFileUrl(f.url);
        const name = escapeHtml(String(f.name ?? ''));
        return url ? `<a href="${escapeHtml(url)}">${name}</a>` : name;
      })
      .join(', ');
  }
  const text = escapeHtml(formatValue(field, value ?? null, 'zh', tz));
  return field.type === 6 ? text.replace(/\r?\n/g, '<br>') : text;
}

/**
 * Fills every placeholder of a (sanitised) template body with the record's values. A
 * placeholder of a field the item no longer has, or of an empty value, becomes empty.
 * The result keeps a span per placeholder (class `tpl-value`) so the page can style it.
 */
export function renderDocTemplate(
  html: string,
  fields: readonly FieldDef[],
  values: RecordValues,
  opts: RenderOptions = {},
): string {
  const tz = opts.tz ?? DEFAULT_TIME_ZONE;
  return fillPlaceholders(html, (key) => {
    if (key === TEMPLATE_TS_KEY) {
      const ms = opts.ts ? Date.parse(opts.ts) : Number.NaN;
      return Number.isNaN(ms) ? '' : formatInstant(ms, 'yyyy-MM-dd HH:mm:ss', tz);
    }
    const field = fields.find((f) => f.key === key);
    return field ? valueHtml(field, values[key], tz) : '';
  });
}

/**
 * Replaces every placeholder of a (sanitised) body with `<span class="tpl-value"
 * data-field="KEY">` holding the HTML `htmlOf(KEY)` gives, which must already be escaped.
 */
export function fillPlaceholders(html: string, htmlOf: (key: string) => string): string {
  return html.replace(CHIP, (whole, attrs: string) => {
    const key = DATA_FIELD.exec(` ${attrs}`)?.[1];
    if (key === undefined) return whole;
    return `<span class="tpl-value" data-field="${escapeHtml(key)}">${htmlOf(key)}</span>`;
  });
}
