/**
 * Requests for one OpenAPI operation: valid shapes carrying hostile values (from the schema,
 * or a valid body seen while building the fixtures with its leaves replaced), and invalid
 * shapes (wrong types, missing or extra fields, arrays for objects, malformed JSON, wrong
 * content types, bad query encodings, deep nesting, oversized bodies).
 */
import type { Operation, Schema } from './openapi';
import type { Rng } from './rng';
import {
  anyJson,
  deepNesting,
  HOSTILE_KEYS,
  HOSTILE_NUMBERS,
  HOSTILE_STRINGS,
  RAW_NUMBERS,
  rawJson,
  toJsonText,
} from './values';

export interface FuzzRequest {
  /** which generator made it, for the failure report */
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface Corpus {
  /** ids that exist in either company: plausible integers, half of them another company's */
  ids: number[];
  /** valid bodies sent while building the fixtures, by operation key */
  bodies: Map<string, unknown[]>;
  /** valid query objects sent while building the fixtures, by operation key */
  queries: Map<string, Record<string, unknown>[]>;
}

/** Bodies above this are refused before they are parsed (Fastify's default body limit). */
export const BODY_LIMIT = 1024 * 1024;

type Json = unknown;

// ---------------------------------------------------------------------------------------------
// values from a schema

function integerFor(schema: Schema, rng: Rng, corpus: Corpus): number {
  return rng.weighted<() => number>([
    [4, () => rng.pick(corpus.ids)],
    [
      2,
      () => {
        const min = schema.minimum ?? -1000;
        const max = Math.min(schema.maximum ?? 1000, min + 1000);
        return rng.int(min, max);
      },
    ],
    [4, () => rng.pick(HOSTILE_NUMBERS)],
  ])();
}

function stringFor(schema: Schema, rng: Rng): string {
  const max = schema.maxLength;
  return rng.weighted<() => string>([
    [7, () => rng.pick(HOSTILE_STRINGS)],
    [1, () => (max !== undefined ? '智'.repeat(max) : rng.pick(HOSTILE_STRINGS))],
    [1, () => (max !== undefined ? `${'a'.repeat(max)}\u0000` : 'a\u0000')],
    [1, () => `${rng.pick(HOSTILE_STRINGS).slice(0, 20)}${rng.pick(['\u0000', '\ud800', '\udfff'])}`],
  ])();
}

/** A value of the schema's shape; leaves are hostile values of the right JSON type. */
export function valueFor(schema: Schema, rng: Rng, corpus: Corpus, depth = 0): Json {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && branches.length > 0) return valueFor(rng.pick(branches), rng, corpus, depth);
  if (schema.nullable && rng.chance(0.1)) return null;
  if (schema.enum && rng.chance(0.85)) return rng.pick(schema.enum);
  switch (schema.type) {
    case 'integer':
      return integerFor(schema, rng, corpus);
    case 'number':
      return rng.chance(0.05) ? rawJson(rng.pick(RAW_NUMBERS)) : rng.pick(HOSTILE_NUMBERS);
    case 'string':
      return stringFor(schema, rng);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const max = schema.maxItems ?? 5;
      const length = rng.weighted([
        [3, 0],
        [6, rng.int(1, 3)],
        [1, Math.min(max, 600)],
        [1, Math.min(max + 1, 601)],
      ]);
      return Array.from({ length }, (_, i) =>
        i < 3 || rng.chance(0.1)
          ? valueFor(schema.items ?? {}, rng, corpus, depth + 1)
          : schema.items?.type === 'integer'
            ? rng.pick(corpus.ids)
            : i,
      );
    }
    case 'object':
      return objectFor(schema, rng, corpus, depth);
    default:
      return depth > 4 ? null : anyJson(rng, 3);
  }
}

function objectFor(schema: Schema, rng: Rng, corpus: Corpus, depth: number): Record<string, Json> {
  const out: Record<string, Json> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (required.has(name) || rng.chance(0.6)) out[name] = valueFor(prop, rng, corpus, depth + 1);
  }
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    for (let i = rng.int(0, 4); i > 0; i--) {
      out[rng.pick(HOSTILE_KEYS)] =
        typeof extra === 'object' ? valueFor(extra, rng, corpus, depth + 1) : anyJson(rng, 2);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// mutations of a JSON value

interface Slot {
  parent: Record<string, Json> | Json[];
  key: string | number;
}

function slots(value: Json, out: Slot[] = [], depth = 0): Slot[] {
  if (depth > 8 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    value.forEach((child, i) => {
      out.push({ parent: value, key: i });
      slots(child, out, depth + 1);
    });
  } else {
    for (const [k, child] of Object.entries(value)) {
      out.push({ parent: value as Record<string, Json>, key: k });
      slots(child, out, depth + 1);
    }
  }
  return out;
}

function get(slot: Slot): Json {
  return (slot.parent as Record<string | number, Json>)[slot.key];
}

function set(slot: Slot, value: Json): void {
  (slot.parent as Record<string | number, Json>)[slot.key] = value;
}

/** A hostile value of the same JSON type as `was`. */
function sameType(was: Json, rng: Rng, corpus: Corpus): Json {
  if (typeof was === 'number') {
    return Number.isInteger(was) && rng.chance(0.4) ? rng.pick(corpus.ids) : rng.pick(HOSTILE_NUMBERS);
  }
  if (typeof was === 'string') return stringFor({}, rng);
  if (typeof was === 'boolean') return !was;
  if (Array.isArray(was)) {
    return rng.weighted<() => Json>([
      [2, () => []],
      [2, () => [...was, ...was]],
      [1, () => Array.from({ length: 300 }, () => was[0] ?? 1)],
    ])();
  }
  if (was && typeof was === 'object')
    return rng.chance(0.5) ? {} : { ...was, [rng.pick(HOSTILE_KEYS)]: anyJson(rng, 2) };
  return anyJson(rng, 1);
}

/** A value of another JSON type than `was`, including the ones coercion would turn back into it. */
function otherType(was: Json, rng: Rng): Json {
  if (typeof was === 'number')
    return rng.pick<Json>([String(was), `${was}`, true, false, [was], { value: was }, null, '']);
  if (typeof was === 'string') return rng.pick<Json>([1, 0, true, [was], { value: was }, null]);
  if (typeof was === 'boolean') return rng.pick<Json>([String(was), 1, 0, 'yes', [was], null]);
  if (Array.isArray(was))
    return rng.pick<Json>([was[0] ?? 1, 1, '1', JSON.stringify(was), {}, { 0: was[0] }, null, true]);
  if (was && typeof was === 'object') return rng.pick<Json>([[was], [], '{}', 1, null, true]);
  return rng.pick<Json>([1, 'x', true, [], {}]);
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The seed with 1-3 leaves replaced by hostile values of the same type. */
function hostileSeed(seed: Json, rng: Rng, corpus: Corpus): Json {
  const value = clone(seed);
  const all = slots(value);
  for (let n = rng.int(1, 3); n > 0 && all.length > 0; n--) {
    const slot = rng.pick(all);
    set(slot, sameType(get(slot), rng, corpus));
  }
  return value;
}

/** The value with one structural fault: another type somewhere, a field missing or added. */
function brokenShape(value: Json, rng: Rng): { kind: string; value: Json } {
  const copy = clone(value);
  const all = slots(copy);
  if (all.length === 0 || rng.chance(0.15))
    return { kind: 'root of another type', value: otherType(copy, rng) };
  const slot = rng.pick(all);
  return rng.weighted<() => { kind: string; value: Json }>([
    [
      5,
      () => {
        set(slot, otherType(get(slot), rng));
        return { kind: `another type at ${String(slot.key)}`, value: copy };
      },
    ],
    [
      2,
      () => {
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
        else delete slot.parent[slot.key as string];
        return { kind: `without ${String(slot.key)}`, value: copy };
      },
    ],
    [
      2,
      () => {
        const target = Array.isArray(copy) || copy === null || typeof copy !== 'object' ? {} : copy;
        (target as Record<string, Json>)[rng.pick(HOSTILE_KEYS)] = anyJson(rng, 2);
        (target as Record<string, Json>)[`extra${rng.int(0, 9)}`] = anyJson(rng, 1);
        return { kind: 'extra fields', value: copy };
      },
    ],
    [
      1,
      () => {
        set(slot, [get(slot)]);
        return { kind: `array around ${String(slot.key)}`, value: copy };
      },
    ],
  ])();
}

// ---------------------------------------------------------------------------------------------
// text encodings

/** encodeURIComponent that also writes lone surrogates (as the invalid UTF-8 a client could send). */
export function encodeComponent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    const isLow = code >= 0xdc00 && code <= 0xdfff;
    if (isHigh && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += encodeURIComponent(text.slice(i, i + 2));
        i++;
        continue;
      }
    }
    if (isHigh || isLow) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      continue;
    }
    out += encodeURIComponent(text[i]!);
  }
  return out;
}

function queryText(value: Json, rng: Rng): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number')
    return rng.chance(0.2) ? rng.pick(['1e308', '-1e15', '2147483648', 'NaN', 'Infinity']) : String(value);
  if (typeof value === 'boolean') return String(value);
  return toJsonText(value);
}

function queryPairs(name: string, value: Json, rng: Rng): string[] {
  if (Array.isArray(value) && rng.chance(0.5)) {
    return value.slice(0, 20).map((v) => `${encodeComponent(name)}=${encodeComponent(queryText(v, rng))}`);
  }
  return [`${encodeComponent(name)}=${encodeComponent(queryText(value, rng))}`];
}

/** Query text only a hand-made client sends: broken escapes, repeated names, bracket syntax. */
const RAW_QUERY_VALUES = [
  '%00',
  '%ED%A0%80',
  '%C0%80',
  '%FF%FE',
  '%zz',
  '%',
  '%%',
  '1%00',
  '1e308',
  '-1e308',
  '1e-308',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  'NaN',
  'Infinity',
  '-0',
  '0x1F',
  '0b11',
  '1_000',
  '%201',
  '1%20',
  '',
  '[1]',
  '%5B2147483648%5D',
  '%5B%22%00%22%5D',
  '%7B%7D',
  'true',
];

function formText(value: Json): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `value=${encodeComponent(typeof value === 'string' ? value : toJsonText(value))}`;
  }
  return Object.entries(value)
    .map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(typeof v === 'string' ? v : toJsonText(v))}`)
    .join('&');
}

// ---------------------------------------------------------------------------------------------
// requests

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '\ufeff{}',
  '{}garbage',
  '{"a":"\u0000"}',
  '{"a":"\\ud800"}',
  '{"a":"\\u00"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '',
  ' ',
  'null',
  'NaN',
  '[',
  '"',
  '{"a":1e999}',
  '\u0000',
  '{"a":1}{"b":2}',
];

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
];

const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/vnd.api+json',
  'text/html; charset=utf-8',
];

/** A 1×1 PNG: a real image, so image routes read past their first check. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(rng: Rng, corpus: Corpus): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `fuzz${rng.int(0, 1e9)}`;
  const parts: Buffer[] = [];
  for (let n = rng.int(0, 3); n > 0; n--) {
    const name = rng.pick(['itemId', 'field', 'id', 'file', '\u0000', 'x'.repeat(200)]);
    const value = rng.chance(0.5) ? String(rng.pick(corpus.ids)) : rng.pick(HOSTILE_STRINGS).slice(0, 2000);
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (rng.chance(0.8)) {
    const filename = rng.pick([
      'a.png',
      'data.csv',
      'x.xlsx',
      '\u0000.png',
      '\ud800.csv',
      '../../x.png',
      'n'.repeat(400),
      '',
      '"quoted".png',
    ]);
    const bytes = rng.pick([
      PNG_1X1,
      Buffer.from('f1,f2,f3\n1,2,x\n1e308,2147483648,\u0000\n=cmd,@x,"\ud800"\n'),
      Buffer.from([0, 1, 2, 255, 254]),
      Buffer.alloc(0),
      Buffer.from('PK\u0003\u0004garbage'),
    ]);
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${rng.chance(0.9) ? 'file' : 'other'}"; filename="${filename}"\r\n` +
          `Content-Type: ${rng.pick(['image/png', 'text/csv', 'application/octet-stream'])}\r\n\r\n`,
      ),
      bytes,
      Buffer.from('\r\n'),
    );
  }
  if (rng.chance(0.9)) parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: {
      'content-type': rng.chance(0.95) ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data',
    },
  };
}

function pathOf(op: Operation, rng: Rng, corpus: Corpus, hostileOnly: boolean): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === '*') {
      return rng.pick([
        'x.png',
        '..%2F..%2Fetc%2Fpasswd',
        '%2e%2e/%2e%2e/x',
        'a/../../b',
        '%00',
        '%ED%A0%80',
        'logos/1/x.png',
        'a'.repeat(3000),
        '',
      ]);
    }
    const param = op.params.find((p) => p.in === 'path' && p.name === name);
    if (!hostileOnly && rng.chance(0.3)) return rng.pick(RAW_QUERY_VALUES);
    const value = valueFor(param?.schema ?? { type: 'string' }, rng, corpus);
    return encodeComponent(queryText(value, rng));
  });
}

function queryOf(op: Operation, rng: Rng, corpus: Corpus, broken: boolean): { text: string; kind: string } {
  const params = op.params.filter((p) => p.in === 'query');
  const seeds = corpus.queries.get(op.key);
  const seed = seeds && rng.chance(0.4) ? rng.pick(seeds) : null;
  const pairs: string[] = [];
  let kind = 'query from schema';
  let dropped: string | null = null;
  if (broken && params.some((p) => p.required) && rng.chance(0.3)) {
    dropped = rng.pick(params.filter((p) => p.required)).name;
    kind = `query without ${dropped}`;
  }
  for (const param of params) {
    if (param.name === dropped) continue;
    if (!param.required && !rng.chance(0.6)) continue;
    const seeded = seed && param.name in seed && rng.chance(0.7) ? seed[param.name] : undefined;
    const value = seeded ?? valueFor(param.schema, rng, corpus);
    pairs.push(...queryPairs(param.name, value, rng));
  }
  if (broken && dropped === null) {
    const name =
      params.length > 0 && rng.chance(0.8)
        ? rng.pick(params).name
        : rng.pick(['__proto__', 'constructor[prototype][x]', 'a[b]', 'x'.repeat(300)]);
    const raw = rng.pick(RAW_QUERY_VALUES);
    kind = `raw query ${name}=${raw.slice(0, 30)}`;
    const form = rng.int(0, 3);
    if (form === 0) pairs.push(`${encodeComponent(name)}=${raw}`, `${encodeComponent(name)}=${raw}`);
    else if (form === 1) pairs.push(`${encodeComponent(name)}[]=${raw}`);
    else pairs.push(`${encodeComponent(name)}=${raw}`);
  }
  return { text: pairs.join('&'), kind };
}

function bodyRequest(
  op: Operation,
  rng: Rng,
  corpus: Corpus,
  broken: boolean,
): { payload: string | Buffer; headers: Record<string, string>; kind: string } {
  const body = op.body!;
  const isForm = body.types[0] === 'application/x-www-form-urlencoded';
  const seeds = corpus.bodies.get(op.key);
  const seeded = seeds && rng.chance(0.6);
  let value: Json = seeded ? hostileSeed(rng.pick(seeds!), rng, corpus) : valueFor(body.schema, rng, corpus);
  let kind = seeded ? 'fixture body with hostile values' : 'schema body with hostile values';
  const contentType = isForm ? body.types[0]! : rng.pick(JSON_TYPES.slice(0, 2));
  if (!broken) {
    return {
      payload: isForm ? formText(value) : toJsonText(value),
      headers: { 'content-type': contentType },
      kind,
    };
  }
  const fault = rng.weighted([
    [8, 'shape'],
    [3, 'malformed'],
    [3, 'content-type'],
    [1, 'nesting'],
    [1, 'empty'],
    [0.1, 'oversized'],
  ] as const);
  switch (fault) {
    case 'shape': {
      const broke = brokenShape(value, rng);
      value = broke.value;
      kind = broke.kind;
      return {
        payload: isForm ? formText(value) : toJsonText(value),
        headers: { 'content-type': contentType },
        kind,
      };
    }
    case 'malformed': {
      const text = rng.chance(0.7) ? rng.pick(MALFORMED_JSON) : toJsonText(value).slice(0, -1);
      return { payload: text, headers: { 'content-type': rng.pick(JSON_TYPES) }, kind: 'malformed JSON' };
    }
    case 'content-type': {
      const type = rng.pick(OTHER_TYPES);
      const text = type === 'application/x-www-form-urlencoded' ? formText(value) : toJsonText(value);
      return { payload: text, headers: { 'content-type': type }, kind: `body as ${type}` };
    }
    case 'nesting':
      return { payload: deepNesting(rng), headers: { 'content-type': contentType }, kind: 'deep nesting' };
    case 'empty':
      return {
        payload: '',
        headers: rng.chance(0.5) ? { 'content-type': contentType } : {},
        kind: 'empty body',
      };
    case 'oversized': {
      const big = JSON.stringify({ ...(value as object), padding: 'p'.repeat(BODY_LIMIT + 1) });
      return { payload: big, headers: { 'content-type': 'application/json' }, kind: 'oversized body' };
    }
  }
}

/** One request for the operation (no credentials: the caller adds them). */
export function generateRequest(op: Operation, rng: Rng, corpus: Corpus): FuzzRequest {
  const broken = rng.chance(0.45);
  const query = queryOf(op, rng, corpus, broken && (!op.body || rng.chance(0.3)));
  let url = pathOf(op, rng, corpus, !broken);
  if (query.text) url += `?${query.text}`;
  let kinds = query.kind;
  const headers: Record<string, string> = {};
  let payload: string | Buffer | undefined;
  let method = op.method;
  if (op.body) {
    const body = bodyRequest(
      op,
      rng,
      corpus,
      broken && !query.kind.startsWith('raw') && !query.kind.includes('without'),
    );
    Object.assign(headers, body.headers);
    payload = body.payload;
    kinds += `; ${body.kind}`;
  } else if (op.method === 'POST' && rng.chance(0.7)) {
    // an upload route (its form is read by the handler, not declared as a schema)
    const form = multipart(rng, corpus);
    Object.assign(headers, form.headers);
    payload = form.payload;
    kinds += '; multipart form';
  } else if (broken && rng.chance(0.3)) {
    headers['content-type'] = rng.pick([...JSON_TYPES, ...OTHER_TYPES]);
    payload = rng.chance(0.5) ? toJsonText(anyJson(rng, 3)) : rng.pick(MALFORMED_JSON);
    kinds += '; unexpected body';
  }
  if (broken && rng.chance(0.03)) {
    method = rng.pick(['PUT', 'DELETE', 'PATCH', op.method === 'GET' ? 'POST' : 'GET']);
    kinds += `; as ${method}`;
  }
  return { kind: `${broken ? 'invalid' : 'valid'}: ${kinds}`, method, url, headers, payload };
}
