import { describe, expect, it } from 'vitest';
import {
  aggregateFormula,
  checkFormula,
  evaluateFormula,
  type FormulaNode,
  formatFormula,
  formulaRef,
  parseFormula,
  remainderFormula,
} from './formula';

function ast(text: string): FormulaNode {
  const r = parseFormula(text);
  if (!r.ok) throw new Error(`${text}: ${JSON.stringify(r)}`);
  return r.ast;
}

function value(text: string, values: Record<string, number> = {}): unknown {
  const r = evaluateFormula(ast(text), values);
  return r.ok ? r.value : r;
}

describe('parsing a virtual meter formula', () => {
  it('reads A - 2*B into a tree and names its meters once each', () => {
    expect(parseFormula('A - 2*B')).toEqual({
      ok: true,
      ast: {
        type: 'binary',
        operator: '-',
        left: { type: 'meter', name: 'A' },
        right: {
          type: 'binary',
          operator: '*',
          left: { type: 'number', value: 2 },
          right: { type: 'meter', name: 'B' },
        },
      },
      refs: ['A', 'B'],
    });
    expect(parseFormula('A + B - A / 2')).toMatchObject({ ok: true, refs: ['A', 'B'] });
  });

  it('takes names in any script, and quoted names for anything else', () => {
    expect(parseFormula('总表 - 车间1 - "1# 主变" - "M-01"')).toMatchObject({
      ok: true,
      refs: ['总表', '车间1', '1# 主变', 'M-01'],
    });
  });

  it('ignores whitespace', () => {
    expect(ast('  A\t-\n2 *B ')).toEqual(ast('A - 2*B'));
  });

  it('reports syntax errors with their offset', () => {
    expect(parseFormula('A +')).toMatchObject({ ok: false, reason: 'syntax', at: 3 });
    expect(parseFormula('(A - B')).toMatchObject({ ok: false, reason: 'syntax', at: 6 });
    expect(parseFormula('A B')).toMatchObject({ ok: false, reason: 'syntax', at: 2 });
    expect(parseFormula('A - 2 3')).toMatchObject({ ok: false, reason: 'syntax', at: 6 });
    expect(parseFormula('A - * B')).toMatchObject({ ok: false, reason: 'syntax', at: 4 });
    expect(parseFormula('A + 1x')).toMatchObject({ ok: false, reason: 'syntax', at: 5 });
    expect(parseFormula('')).toMatchObject({ ok: false, reason: 'syntax', at: 0 });
    expect(parseFormula('   ')).toMatchObject({ ok: false, reason: 'syntax' });
    expect(parseFormula(`A${' + A'.repeat(300)}`)).toMatchObject({ ok: false, reason: 'syntax', at: 1000 });
  });

  it('refuses anything beyond arithmetic and abs as unsupported, without running it', () => {
    const cases: [string, string, number | undefined][] = [
      ['process.exit()', 'process.exit', 0],
      ['constructor', 'constructor', 0],
      ['A + __proto__', '__proto__', 4],
      ['"toString" + 1', 'toString', 1],
      ['A ** 2', '**', 2],
      ['A % 2', '%', 2],
      ['A == B', '==', 2],
      ['!A', '!', 0],
      ['this', 'this', 0],
      ['A ? B : C', '?:', undefined],
      ['Math.abs(A)', 'Math.abs', 0],
      ['max(A, B)', 'max', 0],
      ['abs(A, B)', 'abs', 0],
      ['abs()', 'abs', 0],
      ['a[0]', 'a[]', undefined],
      ['[A, B]', '[]', undefined],
      ['true', 'true', 0],
    ];
    for (const [text, name, at] of cases) {
      expect(parseFormula(text), text).toEqual({
        ok: false,
        reason: 'unsupported',
        name,
        ...(at === undefined ? {} : { at }),
      });
    }
  });
});

describe('evaluating a formula', () => {
  it('follows precedence, left to right', () => {
    expect(value('A - 2*B', { A: 10, B: 3 })).toBe(4);
    expect(value('1 + 2 * 3')).toBe(7);
    expect(value('(1 + 2) * 3')).toBe(9);
    expect(value('8 / 4 / 2')).toBe(1);
    expect(value('10 - 4 - 3')).toBe(3);
    expect(value('1e3 + .5')).toBe(1000.5);
  });

  it('negates', () => {
    expect(value('-A + 3', { A: 5 })).toBe(-2);
    expect(value('A - -B', { A: 5, B: 2 })).toBe(7);
    expect(value('-(A - B)', { A: 5, B: 2 })).toBe(-3);
    expect(value('2 * -3')).toBe(-6);
    expect(value('+A', { A: 5 })).toBe(5);
  });

  it('takes absolute values', () => {
    expect(value('abs(A - B)', { A: 1, B: 5 })).toBe(4);
    expect(value('abs(-2) * abs(3)')).toBe(6);
  });

  it('removes binary noise and keeps a map of values', () => {
    // 10.1 - 6.6 is 3.4999999999999996 in binary floating point
    expect(value('A - 2*B', { A: 10.1, B: 3.3 })).toBe(3.5);
    expect(
      evaluateFormula(
        ast('总表 - 车间1'),
        new Map([
          ['总表', 100],
          ['车间1', 40],
        ]),
      ),
    ).toEqual({ ok: true, value: 60 });
  });

  it('refuses division by zero and a missing value rather than Infinity or NaN', () => {
    expect(value('A / (B - B)', { A: 1, B: 2 })).toEqual({ ok: false, reason: 'divisionByZero' });
    expect(value('0 / 0')).toEqual({ ok: false, reason: 'divisionByZero' });
    expect(value('A + B', { A: 1 })).toEqual({ ok: false, reason: 'missingValue', name: 'B' });
    expect(value('A', { A: Number.NaN })).toEqual({ ok: false, reason: 'missingValue', name: 'A' });
    expect(value('A * A', { A: 1e200 })).toEqual({ ok: false, reason: 'notFinite' });
    // a name that lives on every object's prototype is not a value
    expect(evaluateFormula({ type: 'meter', name: 'hasOwnProperty' }, {})).toEqual({
      ok: false,
      reason: 'missingValue',
      name: 'hasOwnProperty',
    });
  });
});

describe('checking a formula against the meters', () => {
  const known = ['A', 'B', 'C', 'D', '总表'];

  it('passes a formula over known meters', () => {
    expect(checkFormula('A - 2*B', known, new Map(), 'V')).toMatchObject({ ok: true, refs: ['A', 'B'] });
  });

  it('names an unknown meter and where it is', () => {
    expect(checkFormula('A + 车间9 - B', known, new Map(), 'V')).toEqual({
      ok: false,
      reason: 'unknownMeter',
      name: '车间9',
      at: 4,
    });
  });

  it('passes syntax errors through', () => {
    expect(checkFormula('A +', known, new Map())).toMatchObject({ reason: 'syntax', at: 3 });
  });

  it('finds a cycle through three meters: A uses B uses C uses A', () => {
    const dependsOn = new Map([
      ['B', ['C']],
      ['C', ['A', 'D']],
    ]);
    expect(checkFormula('B + 1', known, dependsOn, 'A')).toEqual({
      ok: false,
      reason: 'cycle',
      name: 'A',
      path: ['A', 'B', 'C', 'A'],
    });
    // the same through a look-up function
    expect(checkFormula('B + 1', known, (m) => dependsOn.get(m), 'A')).toMatchObject({ reason: 'cycle' });
  });

  it('finds a meter that uses itself, and a cycle among the others', () => {
    expect(checkFormula('A + 1', known, new Map(), 'A')).toMatchObject({ reason: 'cycle', path: ['A', 'A'] });
    expect(
      checkFormula(
        'B',
        known,
        new Map([
          ['B', ['C']],
          ['C', ['B']],
        ]),
        'V',
      ),
    ).toMatchObject({ reason: 'cycle', name: 'B', path: ['B', 'C', 'B'] });
  });

  it('lets two meters share a child (no cycle)', () => {
    const dependsOn = new Map([
      ['B', ['D']],
      ['C', ['D']],
    ]);
    expect(checkFormula('B + C', known, dependsOn, 'A')).toMatchObject({ ok: true, refs: ['B', 'C'] });
  });
});

describe('writing formulas', () => {
  it('quotes only the names that need it', () => {
    expect(['A', '车间1', '1# 主变', 'M-01', 'constructor', 'say "hi"'].map(formulaRef)).toEqual([
      'A',
      '车间1',
      '"1# 主变"',
      '"M-01"',
      '"constructor"',
      '"say \\"hi\\""',
    ]);
    expect(parseFormula(formulaRef('say "hi"'))).toMatchObject({ ok: true, refs: ['say "hi"'] });
  });

  it('builds aggregate and remainder meters that parse back', () => {
    const sum = aggregateFormula(['A', '1# 主变', '车间1']);
    expect(sum).toBe('A + "1# 主变" + 车间1');
    expect(parseFormula(sum)).toMatchObject({ ok: true, refs: ['A', '1# 主变', '车间1'] });
    expect(aggregateFormula([])).toBe('0');
    const rest = remainderFormula('P', ['A', 'B']);
    expect(rest).toBe('P - A - B');
    expect(value(rest, { P: 100, A: 30, B: 20 })).toBe(50);
    expect(remainderFormula('P', [])).toBe('P');
  });

  it('prints a tree with the parentheses it needs', () => {
    expect(formatFormula(ast('A - (B - C)'))).toBe('A - (B - C)');
    expect(formatFormula(ast('(A - B) - C'))).toBe('A - B - C');
    expect(formatFormula(ast('-(A+B)*2'))).toBe('-(A + B) * 2');
    expect(formatFormula(ast('A/(B*C)'))).toBe('A / (B * C)');
    expect(formatFormula(ast('A*(B/C)'))).toBe('A * (B / C)');
    expect(formatFormula(ast('A + (B + C)'))).toBe('A + (B + C)');
    expect(formatFormula(ast('abs( A-2*B )'))).toBe('abs(A - 2 * B)');
    for (const text of ['A - (B - C)', '-(A + B) * 2', 'A - - B', '--A', 'A * (B / C)', '1.5 * abs(-A)']) {
      expect(ast(formatFormula(ast(text)))).toEqual(ast(text));
    }
  });
});
