/**
 * Every word a page asks for by key is in both catalogues: a key missing from both shows the
 * Chinese default written beside it in the code, to an English reader too (the device-family
 * template editor's header did). Each `t('key', …)` call of a feature's code is looked up in the
 * namespaces its file asks `useTranslation` for (the feature's own when it names none), then in
 * the default namespace every namespace falls back on (the route titles); a call naming `ns:`
 * is looked up there; one with `count` may be written as plural forms (`key_one`, `key_other`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.resolve(HERE, '../..');
const ROUTES = path.resolve(SRC, '../../../packages/domain/src/routes/locales');
const LANGS = ['zh', 'en'] as const;
type Json = Record<string, unknown>;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const read = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

/** namespace → language → merged catalogue */
function catalogues(): Map<string, Record<(typeof LANGS)[number], Json[]>> {
  const out = new Map<string, Record<(typeof LANGS)[number], Json[]>>();
  const add = (ns: string, lang: (typeof LANGS)[number], data: Json) => {
    if (!out.has(ns)) out.set(ns, { zh: [], en: [] });
    out.get(ns)![lang].push(data);
  };
  for (const lang of LANGS) {
    add('app', lang, read(path.join(SRC, 'app/locales', `${lang}.json`)));
    add('shared', lang, read(path.join(SRC, 'shared/locales', `${lang}.json`)));
    // the default namespace: the route titles of every module
    add('translation', lang, read(path.join(ROUTES, `${lang}.json`)));
    for (const dir of readdirSync(ROUTES))
      if (statSync(path.join(ROUTES, dir)).isDirectory())
        add('translation', lang, read(path.join(ROUTES, dir, `${lang}.json`)));
    for (const feature of readdirSync(path.join(SRC, 'features'))) {
      const file = path.join(SRC, 'features', feature, 'locales', `${lang}.json`);
      try {
        add(feature, lang, read(file));
      } catch {
        // a feature without words of its own
      }
    }
  }
  return out;
}

function has(data: Json[], key: string): boolean {
  return data.some((d) => {
    let cur: unknown = d;
    for (const part of key.split('.')) {
      if (typeof cur !== 'object' || cur === null || !(part in cur)) return false;
      cur = (cur as Json)[part];
    }
    return typeof cur === 'string';
  });
}

/** The text of a call's arguments: from after `t(` to its closing parenthesis. */
function argumentsOf(source: string, from: number): string {
  let depth = 1;
  let quote: string | null = null;
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return source.slice(from, i);
  }
  return source.slice(from);
}

interface Missing {
  file: string;
  key: string;
  lang: string;
}

function missingKeys(): Missing[] {
  const all = catalogues();
  const missing: Missing[] = [];
  for (const feature of readdirSync(path.join(SRC, 'features'))) {
    const dir = path.join(SRC, 'features', feature);
    if (!statSync(dir).isDirectory()) continue;
    for (const file of files(dir)) {
      const source = readFileSync(file, 'utf8');
      const asked = [...source.matchAll(/useTranslation\(\s*(?:'([\w-]+)'|\[([^\]]*)\])?\s*\)/g)].flatMap(
        (m) => (m[1] ? [m[1]] : m[2] ? [...m[2].matchAll(/'([\w-]+)'/g)].map((x) => x[1]!) : []),
      );
      const namespaces = asked.length > 0 ? asked : [feature];
      for (const call of source.matchAll(/(?<![\w.])t\(\s*'([A-Za-z][\w.]*)'/g)) {
        const key = call[1]!;
        const args = argumentsOf(source, call.index! + call[0].indexOf('(') + 1);
        const ns = /\bns:\s*'([\w-]+)'/.exec(args)?.[1];
        const plural = /\bcount\b/.test(args);
        for (const lang of LANGS) {
          const where = [...(ns ? [ns] : namespaces), 'translation'].flatMap((n) => all.get(n)?.[lang] ?? []);
          const found =
            has(where, key) || (plural && (has(where, `${key}_other`) || has(where, `${key}_one`)));
          if (!found) missing.push({ file: path.relative(SRC, file), key, lang });
        }
      }
    }
  }
  return missing;
}

/** Every key path of a catalogue (leaves), plural forms folded into their key. */
function leaves(data: Json, prefix = ''): string[] {
  return Object.entries(data).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'object' && v !== null) return leaves(v as Json, key);
    return [key.replace(/_(zero|one|two|few|many|other)$/, '')];
  });
}

describe('the word catalogues', () => {
  it('hold every key the features ask for, in Chinese and in English', () => {
    expect(missingKeys()).toEqual([]);
  });

  it('have the same words in both languages (an English key missing shows the Chinese one)', () => {
    const unmatched: string[] = [];
    for (const [ns, byLang] of catalogues()) {
      const zh = new Set(byLang.zh.flatMap((d) => leaves(d)));
      const en = new Set(byLang.en.flatMap((d) => leaves(d)));
      for (const key of zh) if (!en.has(key)) unmatched.push(`${ns}: ${key} has no English`);
      for (const key of en) if (!zh.has(key)) unmatched.push(`${ns}: ${key} has no Chinese`);
    }
    expect(unmatched).toEqual([]);
  });
});
