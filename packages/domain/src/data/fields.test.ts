import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFields, DEFAULT_DATE_FORMAT, type FieldInput, findField } from './fields';
import { FIELD_TYPES, type FieldType } from './types';

describe('checkFields', () => {
  it('assigns the next keys to new fields and keeps existing ones', () => {
    const r = checkFields(
      [
        { key: 'f1', name: '温度', type: 1, unit: '℃' },
        { name: '湿度', type: 10 },
        { name: '时间', type: 4 },
      ],
      2,
    );
    expect(r).toEqual({
      ok: true,
      nextFieldNo: 4,
      fields: [
        { key: 'f1', name: '温度', type: 1, unit: '℃' },
        { key: 'f2', name: '湿度', type: 10 },
        { key: 'f3', name: '时间', type: 4, dateFormat: DEFAULT_DATE_FORMAT },
      ],
    });
  });

  it('never reuses a number an existing key holds, even if nextFieldNo lags', () => {
    const r = checkFields(
      [
        { key: 'f7', name: 'a', type: 5 },
        { name: 'b', type: 5 },
      ],
      1,
    );
    expect(r.ok && r.fields.map((f) => f.key)).toEqual(['f7', 'f8']);
    expect(r.ok && r.nextFieldNo).toBe(9);
  });

  it('names the first broken rule with its index and field', () => {
    expect(
      checkFields(
        [
          { name: 'ok', type: 5 },
          { name: ' ', type: 5 },
        ],
        1,
      ),
    ).toEqual({
      ok: false,
      index: 1,
      field: 'name',
      key: 'dataNameRequired',
    });
    expect(checkFields([{ name: 'x'.repeat(26), type: 5 }], 1)).toMatchObject({ key: 'nameTooLong' });
    expect(checkFields([{ name: '温'.repeat(25), type: 5 }], 1).ok).toBe(true);
    expect(checkFields([{ name: 'a*b', type: 5 }], 1)).toMatchObject({ key: 'nameNoSpecial', field: 'name' });
    expect(checkFields([{ name: 'a%b', type: 5 }], 1)).toMatchObject({ field: 'name', ok: false });
    expect(
      checkFields(
        [
          { name: 'a', type: 5 },
          { name: 'a ', type: 1 },
        ],
        1,
      ),
    ).toMatchObject({
      index: 1,
      key: 'fieldNameTaken',
    });
    expect(checkFields([{ name: 'ts', type: 5 }], 1)).toMatchObject({ key: 'fieldNameReserved' });
    expect(checkFields([{ name: 'a' } as unknown as FieldInput], 1)).toMatchObject({
      field: 'type',
      key: 'typeEntriesIncomplete',
    });
    expect(checkFields([{ name: 'a', type: 3 as FieldType }], 1)).toMatchObject({ field: 'type' });
    expect(checkFields([{ name: 'a', type: 4, dateFormat: 'dd/MM' as never }], 1)).toMatchObject({
      field: 'dateFormat',
    });
    expect(checkFields([{ name: 'a', type: 1, decimals: 7 }], 1)).toMatchObject({
      field: 'decimals',
      key: 'decimalsRange',
    });
    expect(checkFields([{ name: 'a', type: 1, decimals: 1.5 }], 1)).toMatchObject({ field: 'decimals' });
    expect(checkFields([{ key: 'x1', name: 'a', type: 1 }], 1)).toMatchObject({ field: 'key' });
    expect(
      checkFields(
        [
          { key: 'f1', name: 'a', type: 1 },
          { key: 'f1', name: 'b', type: 1 },
        ],
        2,
      ),
    ).toMatchObject({ index: 1, field: 'key' });
  });

  it('refuses a name equal to another field key', () => {
    expect(
      checkFields(
        [
          { name: 'f2', type: 5 },
          { name: 'b', type: 5 },
        ],
        1,
      ),
    ).toMatchObject({
      index: 0,
      key: 'fieldNameTaken',
    });
    // its own key is harmless
    expect(checkFields([{ name: 'f1', type: 5 }], 1).ok).toBe(true);
  });

  it('keeps dateFormat only for dateTime and decimals only for decimal and currency', () => {
    const r = checkFields(
      [
        { name: 'a', type: 5, dateFormat: 'yyyy' },
        { name: 'b', type: 4, dateFormat: 'yyyy-MM' },
        { name: 'c', type: 10, decimals: 3 },
        { name: 'd', type: 2, decimals: 0, required: true },
      ],
      1,
    );
    expect(r.ok && r.fields).toEqual([
      { key: 'f1', name: 'a', type: 5 },
      { key: 'f2', name: 'b', type: 4, dateFormat: 'yyyy-MM' },
      { key: 'f3', name: 'c', type: 10 },
      { key: 'f4', name: 'd', type: 2, decimals: 0, required: true },
    ]);
  });

  it('property: keys are unique, existing keys survive, new keys are numbered from nextFieldNo', () => {
    const field = fc.record({
      existing: fc.boolean(),
      type: fc.constantFrom(...FIELD_TYPES),
    });
    fc.assert(
      fc.property(fc.array(field, { maxLength: 30 }), fc.integer({ min: 1, max: 50 }), (specs, start) => {
        const inputs: FieldInput[] = specs.map((s, i) => ({
          name: `字段 ${i}`,
          type: s.type,
          ...(s.existing ? { key: `f${100 + i}` } : {}),
        }));
        const r = checkFields(inputs, start);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const keys = r.fields.map((f) => f.key);
        expect(new Set(keys).size).toBe(keys.length);
        inputs.forEach((input, i) => {
          if (input.key) expect(keys[i]).toBe(input.key);
        });
        for (const k of keys) expect(Number(k.slice(1))).toBeLessThan(r.nextFieldNo);
        const newNos = keys.filter((_, i) => !inputs[i]!.key).map((k) => Number(k.slice(1)));
        expect(newNos).toEqual([...newNos].sort((a, b) => a - b));
        expect(r.nextFieldNo).toBeGreaterThanOrEqual(start + newNos.length);
      }),
    );
  });
});

describe('findField', () => {
  it('matches keys before names', () => {
    const fields = [
      { key: 'f1', name: 'f2', type: 5 as const },
      { key: 'f2', name: 'b', type: 5 as const },
    ];
    expect(findField(fields, 'f2')?.key).toBe('f2');
    expect(findField(fields, 'b')?.key).toBe('f2');
    expect(findField(fields, 'zz')).toBeUndefined();
  });
});
