/**
 * Virtual meter formulas (issue 13): a virtual meter (type 100) is arithmetic over other meters,
 * e.g. `A - 2*B`, `abs(总表 - 车间1)`, `"1# 主变" + "2# 主变"`.
 *
 *   numbers, + - * / ( ), unary minus (and plus), abs(x)
 *   meter references: a code or name written as a bare token (letters of any script, digits,
 *   _ and $, not starting with a digit), or in double quotes for any other name
 *
 * The text is parsed by jsep (a small JavaScript-expression parser that only builds a tree and
 * never runs anything) and the tree is then narrowed to the grammar above: anything else jsep
 * accepts (member access, calls other than abs, ** % and other operators, ?:, this, true, names
 * of Object.prototype such as `constructor`) is refused as unsupported. Evaluation walks our own
 * tree: there is no eval or Function anywhere, and values are looked up as own entries only.
 * jsep keeps its operator table in the module; this file does not change it.
 */
import jsep from 'jsep';
import { roundTo } from '../data/values';
import { READING_DECIMALS } from './meter';

/** Longer formulas are refused (a virtual meter over hundreds of meters is a data error). */
export const FORMULA_MAX_LENGTH = 1000;

export type FormulaOperator = '+' | '-' | '*' | '/';

export type FormulaNode =
  | { type: 'number'; value: number }
  | { type: 'meter'; name: string }
  | { type: 'negate'; argument: FormulaNode }
  | { type: 'abs'; argument: FormulaNode }
  | { type: 'binary'; operator: FormulaOperator; left: FormulaNode; right: FormulaNode };

export type FormulaRefusal =
  /** Not a formula: `at` is the offset (0-based) where reading stopped; detail is jsep's words. */
  | { reason: 'syntax'; at?: number; detail?: string }
  /** A construct outside the grammar: name says which (an operator, a call, `constructor`...). */
  | { reason: 'unsupported'; name: string; at?: number }
  | { reason: 'unknownMeter'; name: string; at?: number }
  /** The formula depends on itself: path runs from the meter back to it (A → B → C → A). */
  | { reason: 'cycle'; name: string; path: string[] };

export type FormulaResult = { ok: true; ast: FormulaNode; refs: string[] } | ({ ok: false } & FormulaRefusal);

const OPERATORS = new Set<string>(['+', '-', '*', '/']);

/** Names that would reach an object's prototype when looked up: never meter names. */
function isReserved(name: string): boolean {
  return name in Object.prototype || name === 'prototype';
}

class Unsupported {
  constructor(readonly name: string) {}
}

function describeNode(node: jsep.Expression): string {
  switch (node.type) {
    case 'Identifier':
      return (node as jsep.Identifier).name;
    case 'MemberExpression': {
      const m = node as jsep.MemberExpression;
      return m.computed
        ? `${describeNode(m.object)}[]`
        : `${describeNode(m.object)}.${describeNode(m.property)}`;
    }
    case 'Literal':
      return (node as jsep.Literal).raw;
    case 'ThisExpression':
      return 'this';
    case 'ConditionalExpression':
      return '?:';
    case 'ArrayExpression':
      return '[]';
    case 'SequenceExpression':
      return ',';
    case 'CallExpression':
      return `${describeNode((node as jsep.CallExpression).callee)}()`;
    default:
      return node.type;
  }
}

function convert(node: jsep.Expression): FormulaNode {
  switch (node.type) {
    case 'Literal': {
      const { value } = node as jsep.Literal;
      if (typeof value === 'number' && Number.isFinite(value)) return { type: 'number', value };
      if (typeof value === 'string' && value.trim() !== '') {
        if (isReserved(value)) throw new Unsupported(value);
        return { type: 'meter', name: value };
      }
      throw new Unsupported(describeNode(node));
    }
    case 'Identifier': {
      const { name } = node as jsep.Identifier;
      if (isReserved(name)) throw new Unsupported(name);
      return { type: 'meter', name };
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      if (u.operator === '-') return { type: 'negate', argument: convert(u.argument) };
      if (u.operator === '+') return convert(u.argument);
      throw new Unsupported(u.operator);
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (!OPERATORS.has(b.operator)) throw new Unsupported(b.operator);
      return {
        type: 'binary',
        operator: b.operator as FormulaOperator,
        left: convert(b.left),
        right: convert(b.right),
      };
    }
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      if (c.callee.type === 'Identifier' && (c.callee as jsep.Identifier).name === 'abs') {
        if (c.arguments.length !== 1) throw new Unsupported('abs');
        return { type: 'abs', argument: convert(c.arguments[0]!) };
      }
      throw new Unsupported(describeNode(c.callee));
    }
    default:
      throw new Unsupported(describeNode(node));
  }
}

/** Where the text stops being one expression: the shortest prefix jsep reads as two. */
function secondExpressionAt(text: string): number | undefined {
  for (let k = 1; k <= text.length; k++) {
    try {
      const node = jsep(text.slice(0, k));
      if (node.type === 'Compound' && (node as jsep.Compound).body.length > 1) return k - 1;
    } catch {
      // an unfinished prefix
    }
  }
  return undefined;
}

function collectRefs(node: FormulaNode, into: string[]): string[] {
  switch (node.type) {
    case 'meter':
      if (!into.includes(node.name)) into.push(node.name);
      break;
    case 'negate':
    case 'abs':
      collectRefs(node.argument, into);
      break;
    case 'binary':
      collectRefs(node.left, into);
      collectRefs(node.right, into);
      break;
  }
  return into;
}

function positionOf(text: string, name: string): number | undefined {
  const at = text.indexOf(name);
  return at >= 0 ? at : undefined;
}

/**
 * The formula's tree and the meters it names (each once, in order of appearance), or why it is
 * not one: a syntax error with its offset, or an unsupported construct.
 */
export function parseFormula(text: string): FormulaResult {
  if (text.length > FORMULA_MAX_LENGTH) return { ok: false, reason: 'syntax', at: FORMULA_MAX_LENGTH };
  let parsed: jsep.Expression;
  try {
    parsed = jsep(text);
  } catch (error) {
    const e = error as { index?: unknown; description?: unknown };
    return {
      ok: false,
      reason: 'syntax',
      ...(typeof e.index === 'number' ? { at: e.index } : {}),
      ...(typeof e.description === 'string' ? { detail: e.description } : {}),
    };
  }
  if (parsed.type === 'Compound') {
    const body = (parsed as jsep.Compound).body;
    if (body.length === 0) return { ok: false, reason: 'syntax', at: text.length, detail: 'Empty formula' };
    const at = secondExpressionAt(text);
    return {
      ok: false,
      reason: 'syntax',
      ...(at === undefined ? {} : { at }),
      detail: 'Expected an operator',
    };
  }
  try {
    const ast = convert(parsed);
    return { ok: true, ast, refs: collectRefs(ast, []) };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const at = positionOf(text, error.name);
    return { ok: false, reason: 'unsupported', name: error.name, ...(at === undefined ? {} : { at }) };
  }
}

/** What other meters' formulas use: a map of virtual meter → its references, or a look-up. */
export type FormulaDependencies =
  | ReadonlyMap<string, readonly string[]>
  | ((meter: string) => readonly string[] | undefined);

/**
 * A formula checked against the company's meters: it parses, every meter it names exists, and
 * it does not come back to itself through other virtual meters (A = B + 1 while B = A - C).
 * `self` is the meter being defined (absent for a new meter that nothing can use yet); a cycle
 * among the other meters that the formula reaches is refused as well, since it could never be
 * evaluated.
 */
export function checkFormula(
  text: string,
  knownMeters: Iterable<string>,
  dependsOn: FormulaDependencies,
  self?: string,
): FormulaResult {
  const parsed = parseFormula(text);
  if (!parsed.ok) return parsed;
  const known = new Set(knownMeters);
  if (self !== undefined) known.add(self);
  for (const name of parsed.refs) {
    if (!known.has(name)) {
      const at = positionOf(text, name);
      return { ok: false, reason: 'unknownMeter', name, ...(at === undefined ? {} : { at }) };
    }
  }
  const edges = (meter: string): readonly string[] =>
    meter === self
      ? parsed.refs
      : ((typeof dependsOn === 'function' ? dependsOn(meter) : dependsOn.get(meter)) ?? []);
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (meter: string): string[] | null => {
    const open = path.indexOf(meter);
    if (open >= 0) return [...path.slice(open), meter];
    if (done.has(meter)) return null;
    path.push(meter);
    for (const next of edges(meter)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(meter);
    return null;
  };
  for (const start of self !== undefined ? [self] : parsed.refs) {
    const cycle = visit(start);
    if (cycle) return { ok: false, reason: 'cycle', name: cycle[0]!, path: cycle };
  }
  return parsed;
}

export type EvaluateResult =
  | { ok: true; value: number }
  | { ok: false; reason: 'missingValue'; name: string }
  | { ok: false; reason: 'divisionByZero' }
  | { ok: false; reason: 'notFinite' };

class Refused {
  constructor(readonly result: Exclude<EvaluateResult, { ok: true }>) {}
}

/**
 * The formula's value for the meters' values (own entries of a record, or a map). Division by
 * zero, a missing or non-finite value and an overflow are refused, never Infinity or NaN. The
 * value is rounded to READING_DECIMALS against binary noise (10.1 - 2*3.3 gives 3.5).
 */
export function evaluateFormula(
  ast: FormulaNode,
  values: ReadonlyMap<string, number> | Readonly<Record<string, number>>,
): EvaluateResult {
  const lookup = (name: string): number | undefined =>
    values instanceof Map
      ? values.get(name)
      : Object.hasOwn(values, name)
        ? (values as Record<string, number>)[name]
        : undefined;
  const walk = (node: FormulaNode): number => {
    switch (node.type) {
      case 'number':
        return node.value;
      case 'meter': {
        const value = lookup(node.name);
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw new Refused({ ok: false, reason: 'missingValue', name: node.name });
        return value;
      }
      case 'negate':
        return -walk(node.argument);
      case 'abs':
        return Math.abs(walk(node.argument));
      case 'binary': {
        const left = walk(node.left);
        const right = walk(node.right);
        switch (node.operator) {
          case '+':
            return left + right;
          case '-':
            return left - right;
          case '*':
            return left * right;
          case '/':
            if (right === 0) throw new Refused({ ok: false, reason: 'divisionByZero' });
            return left / right;
        }
      }
    }
  };
  try {
    const value = walk(ast);
    if (!Number.isFinite(value)) return { ok: false, reason: 'notFinite' };
    return { ok: true, value: roundTo(value, READING_DECIMALS) };
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}

/** A meter reference as formula text: the bare token when it reads back as itself, else quoted. */
export function formulaRef(name: string): string {
  try {
    const node = jsep(name);
    if (node.type === 'Identifier' && (node as jsep.Identifier).name === name && !isReserved(name))
      return name;
  } catch {
    // not a bare token
  }
  return JSON.stringify(name);
}

const PRECEDENCE: Record<FormulaOperator, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };

/** The formula as text, with the parentheses it needs and a space either side of each operator. */
export function formatFormula(node: FormulaNode): string {
  switch (node.type) {
    case 'number':
      return String(node.value);
    case 'meter':
      return formulaRef(node.name);
    case 'abs':
      return `abs(${formatFormula(node.argument)})`;
    case 'negate': {
      const inner = formatFormula(node.argument);
      return node.argument.type === 'binary' || node.argument.type === 'negate' ? `-(${inner})` : `-${inner}`;
    }
    case 'binary': {
      const prec = PRECEDENCE[node.operator];
      const side = (child: FormulaNode, right: boolean): string => {
        const text = formatFormula(child);
        if (child.type !== 'binary') return text;
        const childPrec = PRECEDENCE[child.operator];
        // a right operand of the same precedence keeps its parentheses, so the text reads back as
        // the same tree (A * (B / C) is not A * B / C in floating point)
        return childPrec < prec || (right && childPrec === prec) ? `(${text})` : text;
      };
      return `${side(node.left, false)} ${node.operator} ${side(node.right, true)}`;
    }
  }
}

/** An aggregate meter: the sum of its children (`A + B + C`); "0" with no children. */
export function aggregateFormula(children: readonly string[]): string {
  return children.length === 0 ? '0' : children.map(formulaRef).join(' + ');
}

/** A remainder meter: the parent less its children (`P - A - B`). */
export function remainderFormula(parent: string, children: readonly string[]): string {
  return [parent, ...children].map(formulaRef).join(' - ');
}
