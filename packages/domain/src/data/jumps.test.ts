import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyMapping,
  checkJump,
  type JumpInput,
  jumpsToRun,
  matchesCondition,
  matchesConditions,
  orderJumps,
} from './jumps';
import type { FieldDef, JumpCondition, JumpOperator } from './types';

const SOURCE: FieldDef[] = [
  { key: 'f1', name: '温度', type: 1 },
  { key: 'f2', name: '状态', type: 5 },
];
const TARGET: FieldDef[] = [
  { key: 'f1', name: '告警温度', type: 1, required: true },
  { key: 'f2', name: '级别', type: 10 },
  { key: 'f3', name: '备注', type: 5 },
];
const JUMP: JumpInput = {
  itemId: 1,
  name: '高温',
  conditions: [{ field: 'f1', op: 'gt', value: 30 }],
  targetItemId: 2,
  mapping: [
    { to: 'f1', from: 'f1' },
    { to: 'f2', value: 3 },
  ],
};

describe('checkJump', () => {
  it('accepts a complete jump', () => {
    expect(checkJump(JUMP, SOURCE, TARGET)).toEqual({ ok: true });
    expect(checkJump({ ...JUMP, conditions: [{ field: 'f2', op: 'empty' }] }, SOURCE, TARGET)).toEqual({
      ok: true,
    });
  });

  it('refuses the own item as target with the spec message', () => {
    expect(checkJump({ ...JUMP, targetItemId: 1 }, SOURCE, SOURCE)).toEqual({
      ok: false,
      field: 'targetItemId',
      key: 'jumpSelf',
      message: 'Cannot set its own data item as the destination data item',
    });
  });

  it('names incomplete parts', () => {
    expect(checkJump({ ...JUMP, name: ' ' }, SOURCE, TARGET)).toMatchObject({
      field: 'name',
      key: 'jumpIncomplete',
    });
    expect(checkJump({ ...JUMP, targetItemId: null }, SOURCE, TARGET)).toMatchObject({
      field: 'targetItemId',
      key: 'jumpIncomplete',
    });
    const badConditions: JumpCondition[] = [
      { field: 'f9', op: 'eq', value: 1 },
      { field: 'f1', op: 'eq' },
      { field: 'f1', op: 'eq', value: '' },
      { field: 'f1', op: 'like' as JumpOperator, value: 1 },
    ];
    for (const c of badConditions) {
      expect(checkJump({ ...JUMP, conditions: [JUMP.conditions[0]!, c] }, SOURCE, TARGET)).toMatchObject({
        field: 'conditions',
        key: 'jumpIncomplete',
        index: 1,
      });
    }
    expect(checkJump({ ...JUMP, mapping: [] }, SOURCE, TARGET)).toMatchObject({
      field: 'mapping',
      key: 'jumpIncomplete',
    });
    expect(
      checkJump({ ...JUMP, mapping: [...JUMP.mapping, { to: 'f9', from: 'f1' }] }, SOURCE, TARGET),
    ).toMatchObject({
      field: 'mapping',
      index: 2,
    });
    expect(
      checkJump({ ...JUMP, mapping: [...JUMP.mapping, { to: 'f3', from: 'f7' }] }, SOURCE, TARGET),
    ).toMatchObject({
      field: 'mapping',
      index: 2,
    });
    expect(
      checkJump({ ...JUMP, mapping: [...JUMP.mapping, { to: 'f1', value: 2 }] }, SOURCE, TARGET),
    ).toMatchObject({
      field: 'mapping',
      index: 2,
    });
    expect(
      checkJump(
        {
          ...JUMP,
          mapping: [
            { to: 'f1', from: 'f1' },
            { to: 'f2', value: 'high' },
          ],
        },
        SOURCE,
        TARGET,
      ),
    ).toMatchObject({
      field: 'mapping',
      key: 'valueNotNumber',
      message: '级别 must be a number',
    });
    expect(checkJump({ ...JUMP, mapping: [{ to: 'f2', value: 1 }] }, SOURCE, TARGET)).toMatchObject({
      field: 'mapping',
      key: 'fieldRequired',
      message: '告警温度 is required',
    });
  });
});

describe('matchesConditions', () => {
  const values = {
    f1: 31.5,
    f2: 'alarm on',
    f3: null,
    f4: '10',
    f5: [{ url: '/general/files/a', name: 'a.png', size: 1 }],
  };
  it('compares numbers as numbers and the rest as text', () => {
    const m = (field: string, op: JumpOperator, value?: string | number) =>
      matchesCondition({ field, op, value }, values);
    expect(m('f1', 'gt', 30)).toBe(true);
    expect(m('f1', 'gt', '30')).toBe(true);
    expect(m('f1', 'le', 31.5)).toBe(true);
    expect(m('f1', 'lt', 31.5)).toBe(false);
    expect(m('f4', 'gt', 9)).toBe(true); // '10' > 9 numerically, not as text
    expect(m('f4', 'eq', 10)).toBe(true);
    expect(m('f2', 'contains', 'alarm')).toBe(true);
    expect(m('f2', 'contains', 'off')).toBe(false);
    expect(m('f2', 'eq', 'alarm on')).toBe(true);
    expect(m('f2', 'ne', 'alarm on')).toBe(false);
    expect(m('f3', 'empty')).toBe(true);
    expect(m('f9', 'empty')).toBe(true);
    expect(m('f2', 'notEmpty')).toBe(true);
    expect(m('f3', 'eq', 1)).toBe(false);
    expect(m('f3', 'lt', 1)).toBe(false);
    expect(m('f3', 'ne', 1)).toBe(true);
    expect(m('f5', 'contains', 'a.p')).toBe(true);
    expect(m('f5', 'notEmpty')).toBe(true);
  });

  it('ANDs all conditions; none means always', () => {
    expect(matchesConditions([], values)).toBe(true);
    expect(
      matchesConditions(
        [
          { field: 'f1', op: 'gt', value: 30 },
          { field: 'f3', op: 'empty' },
        ],
        values,
      ),
    ).toBe(true);
    expect(
      matchesConditions(
        [
          { field: 'f1', op: 'gt', value: 30 },
          { field: 'f3', op: 'notEmpty' },
        ],
        values,
      ),
    ).toBe(false);
  });

  it('property: numeric operators agree with plain comparison', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (a, b) => {
          const m = (op: JumpOperator) => matchesCondition({ field: 'x', op, value: b }, { x: a });
          expect(m('eq')).toBe(a === b);
          expect(m('ne')).toBe(a !== b);
          expect(m('gt')).toBe(a > b);
          expect(m('ge')).toBe(a >= b);
          expect(m('lt')).toBe(a < b);
          expect(m('le')).toBe(a <= b);
        },
      ),
    );
  });
});

describe('applyMapping', () => {
  it('copies fields and sets fixed values', () => {
    expect(applyMapping([...JUMP.mapping, { to: 'f3', from: 'f9' }], { f1: 31.5, f2: 'x' })).toEqual({
      f1: 31.5,
      f2: 3,
      f3: null,
    });
  });
});

describe('orderJumps', () => {
  it('puts the highest priority first, ties by id', () => {
    const jumps = [
      { id: 3, priority: 1 },
      { id: 1, priority: 5 },
      { id: 2, priority: 1 },
      { id: 4, priority: 5 },
    ];
    expect(orderJumps(jumps).map((j) => j.id)).toEqual([1, 4, 2, 3]);
    expect(jumps[0]!.id).toBe(3); // input untouched
  });

  it('property: ordered and a permutation', () => {
    const jump = fc.record({
      id: fc.integer({ min: 1, max: 1000 }),
      priority: fc.integer({ min: -5, max: 5 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(jump, { selector: (j) => j.id }), (jumps) => {
        const out = orderJumps(jumps);
        expect([...out].sort((a, b) => a.id - b.id)).toEqual([...jumps].sort((a, b) => a.id - b.id));
        for (let i = 1; i < out.length; i++) {
          const [a, b] = [out[i - 1]!, out[i]!];
          expect(a.priority > b.priority || (a.priority === b.priority && a.id < b.id)).toBe(true);
        }
      }),
    );
  });

  it('jumpsToRun keeps enabled matching jumps in order', () => {
    const jumps = [
      { id: 1, priority: 1, enabled: true, conditions: [{ field: 'f1', op: 'gt' as const, value: 0 }] },
      { id: 2, priority: 2, enabled: false, conditions: [] },
      { id: 3, priority: 3, enabled: true, conditions: [] },
      { id: 4, priority: 4, enabled: true, conditions: [{ field: 'f1', op: 'lt' as const, value: 0 }] },
    ];
    expect(jumpsToRun(jumps, { f1: 5 }).map((j) => j.id)).toEqual([3, 1]);
  });
});
