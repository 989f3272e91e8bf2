/**
 * Hostile values of every JSON type, for the request fuzzer: the numbers, texts and shapes
 * that broke the platform or break platforms like it (database ranges, NUL, lone surrogates,
 * overflow, injection-looking text, prototype keys, deep nesting).
 */
import type { Rng } from './rng';

const INT32_MAX = 2 ** 31 - 1;

/** Numbers JSON can carry; some are outside every sane range or are not integers. */
export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  2,
  3,
  7,
  10,
  11,
  100,
  INT32_MAX,
  INT32_MAX + 1,
  -INT32_MAX - 2,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e15,
  -1e15,
  8.64e15,
  8.64e15 + 1,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1.5,
  -1.5,
  0.1,
  1e-7,
  123456.789,
];

/** Number spellings only raw JSON text can hold (JSON.parse reads them as ±Infinity or -0). */
export const RAW_NUMBERS: readonly string[] = ['1e999', '-1e999', '-0.0', '1E400', '0e0', '1.0'];

const LONG = 'x'.repeat(5_000);
const VERY_LONG = 'y'.repeat(70_000);

/** Texts: NUL, lone surrogates, controls, odd Unicode, injection-looking text, numbers as text. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '   \t\n',
  'a',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(40),
  '\ud800',
  '\udfff',
  'x\ud800y',
  '\udc00\ud800',
  '😀',
  '\u{10ffff}',
  '\ufeff',
  '\u202eevil',
  '\u200b',
  'e\u0301\u0301\u0301',
  '\u0001\u0002\u001f\u007f',
  '\r\n\r\n',
  '智慧数据',
  'ΑΒΓ',
  LONG,
  VERY_LONG,
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '"\\',
  '$1',
  '%',
  '%00',
  '%s%s%n',
  '_%',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{constructor.constructor("x")()}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: template-injection text is the point
  '${7*7}',
  '../../etc/passwd',
  '..\\..\\windows',
  '/general/files/public/x.png',
  '/general/files/../../x',
  '=cmd|/c calc!A1',
  '@SUM(1+1)',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1',
  '2',
  '1.5',
  '1e308',
  '-1e15',
  '2147483648',
  '99999999999999999999999',
  '0x10',
  '１２３',
  '[]',
  '{}',
  '[1,2]',
  '[2147483648]',
  '[1e308]',
  '[-1]',
  '[1.5]',
  '["1"]',
  '[null]',
  '[[1]]',
  '[{}]',
  '["\\u0000"]',
  '{"a":1}',
  '[{"field":"f1","op":"gt","value":1e308}]',
  '[{"field":"f1","op":"eq","value":"\\u0000"}]',
  '[{"field":"f4","op":"gt","value":"-271821-04-20T00:00:00Z"}]',
  '[{"field":"f3","op":"contains","value":"%_\\\\"}]',
  '[{"field":"f2","op":"between","value":[1,2]}]',
  '[{"field":"__proto__","op":"eq","value":1}]',
  '2025-03-01T00:00:00Z',
  '2025-03-01 10:00',
  '0000-01-01',
  '0001-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '2025-13-45T99:99:99Z',
  '2025-02-29',
  '* * * * * ?',
  '0 0 12 ? * MON',
  '0/0 * * * * ?',
  '0 0 0 31 2 ?',
  '0 0 0 L-40 * ?',
  '13800000000',
  '+8613800000000',
  '123456',
  'sd_capsule',
  'system_maintenance',
  'um_role',
  'directory',
  'dataItem',
  'report',
  'docTemplate',
  'inherit',
  'custom',
  'user',
  'device',
  'csv',
  'xlsx',
  'pdf',
  'asc',
  'desc',
  'f1',
  'f2',
  'f3',
  'f4',
  'f99',
  '__proto__',
  'constructor',
];

/** Object keys: field keys of the fixtures' items, their names, prototype keys, odd text. */
export const HOSTILE_KEYS: readonly string[] = [
  'f1',
  'f2',
  'f3',
  'f4',
  'f5',
  'f6',
  'f7',
  '温度',
  'count',
  'note',
  'itemId',
  'ts',
  'id',
  '__proto__',
  'constructor',
  'prototype',
  '',
  '\u0000',
  '\ud800',
  'a'.repeat(300),
  'toString',
  'hasOwnProperty',
];

/** A JSON number that is not representable in JSON text from JS: substituted after stringify. */
export function rawJson(text: string): string {
  return `\u0001raw:${text}\u0001`;
}

const RAW_MARKER = /"\\u0001raw:(.*?)\\u0001"/g;

/** JSON text of a value, with rawJson markers put back as raw JSON tokens. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(RAW_MARKER, '$1');
}

/** Any JSON value, up to `depth` levels deep. */
export function anyJson(rng: Rng, depth = 3): unknown {
  const kind = rng.int(0, depth > 0 ? 7 : 4);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.chance(0.1) ? rawJson(rng.pick(RAW_NUMBERS)) : rng.pick(HOSTILE_NUMBERS);
    case 3:
    case 4:
      return rng.pick(HOSTILE_STRINGS);
    case 5:
    case 6: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(0, 4); i > 0; i--) out[rng.pick(HOSTILE_KEYS)] = anyJson(rng, depth - 1);
      return out;
    }
    default:
      return Array.from({ length: rng.int(0, 4) }, () => anyJson(rng, depth - 1));
  }
}

/** Deeply nested arrays or objects (parsers and walkers that recurse). */
export function deepNesting(rng: Rng): string {
  const depth = rng.pick([64, 1_000, 20_000]);
  return rng.chance(0.5)
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
