import { ERROR_CODES, type FieldDef } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, setPermissions } from '../cabin/test-support';
import { dataRollups } from './tables';
import { makeRecords, recordsOf } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Writes A');
  b = await makeCompany(t, 'Writes B');
});

afterAll(async () => {
  await t.close();
});

const FIELDS: FieldDef[] = [
  { key: 'f1', name: '温度', unit: '℃', type: 1, decimals: 1, required: true },
  { key: 'f2', name: 'count', type: 10 },
  { key: 'f3', name: 'note', type: 5 },
];

function post(token: string, path: string, payload: object) {
  return t.app.inject({
    method: 'POST',
    url: `/general/smartdata/record/${path}`,
    payload,
    headers: bearer(token),
  });
}

async function itemWith(level?: 0 | 1 | 2 | 3) {
  const made = await makeItem(t, a.id, { fields: FIELDS });
  if (level !== undefined) {
    await setPermissions(t, made.nodeId, [{ scope: 'user', subjectId: a.limited.id, level }]);
  }
  return made;
}

async function rollupSum(itemId: number, fieldKey: string): Promise<number[]> {
  const rows = await t.db.select().from(dataRollups).where(eq(dataRollups.itemId, itemId));
  return rows
    .filter((r) => r.fieldKey === fieldKey && r.grain === 'h')
    .map((r) => r.sum)
    .sort((x, y) => x - y);
}

describe('record add', () => {
  it('adds a record by field names or keys, coerced and rounded, with its rollup', async () => {
    const { itemId } = await itemWith();
    const res = await post(a.limited.token, 'add', {
      itemId,
      ts: '2026-05-01T08:30:00+08:00',
      values: { 温度: '21.46', f2: 3 },
    });
    expect(res.json()).toMatchObject({ code: 0 });
    const [row] = await recordsOf(t, itemId);
    expect(row).toMatchObject({
      id: res.json().data.id,
      values: { f1: 21.5, f2: 3 },
      source: 'manual',
      createdBy: a.limited.id,
    });
    expect(row!.ts.toISOString()).toBe('2026-05-01T00:30:00.000Z');
    expect(await rollupSum(itemId, 'f1')).toEqual([21.5]);
  });

  it('records a form item as source form and a missing time as now', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: FIELDS, kind: 11 });
    const before = Date.now();
    const res = await post(a.admin.token, 'add', { itemId, values: { f1: 1 } });
    expect(res.json().code).toBe(0);
    const [row] = await recordsOf(t, itemId);
    expect(row!.source).toBe('form');
    expect(row!.ts.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('names the bad field and writes nothing', async () => {
    const { itemId } = await itemWith();
    const cases: Array<[object, string]> = [
      [{ values: { f1: 'warm' } }, 'f1'],
      [{ values: { f2: 1.5, f1: 1 } }, 'f2'],
      [{ values: { f2: 1 } }, 'f1'],
      [{ values: { f1: 1, nope: 2 } }, 'nope'],
      [{ values: { f1: 1 }, ts: 'yesterday' }, 'ts'],
    ];
    for (const [body, field] of cases) {
      const res = await post(a.admin.token, 'add', { itemId, ...body });
      expect(res.json(), JSON.stringify(body)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
    const named = await post(a.admin.token, 'add', { itemId, values: { f1: 'warm' } });
    expect(named.json().message).toContain('温度');
    expect(await recordsOf(t, itemId)).toHaveLength(0);
  });

  it('refuses a record with nothing entered, saying so, and writes nothing', async () => {
    const optional = FIELDS.map(({ required: _r, ...f }) => f);
    const { itemId } = await makeItem(t, a.id, { fields: optional, kind: 11 });
    for (const values of [{}, { f1: null, f2: null, f3: null }, { f3: '   ' }, { 温度: '' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/smartdata/record/add',
        payload: { itemId, values },
        headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
      });
      expect(res.json(), JSON.stringify(values)).toEqual({
        code: ERROR_CODES.VALIDATION,
        message: 'Nothing was entered: fill in at least one field',
        data: { field: 'values' },
      });
    }
    const zh = await post(a.admin.token, 'add', { itemId, values: {} });
    expect(zh.json().message).toBe('没有填写任何内容，请至少填写一项');
    expect(await recordsOf(t, itemId)).toHaveLength(0);
    // one value is enough, even a zero
    expect((await post(a.admin.token, 'add', { itemId, values: { f2: 0 } })).json().code).toBe(0);
    expect(await recordsOf(t, itemId)).toHaveLength(1);
  });

  it('adds a child record under a parent record of the same company only', async () => {
    const parent = await itemWith();
    const [parentId] = await makeRecords(t, a.id, parent.itemId, [{ values: { f1: 1 } }]);
    const child = await itemWith();
    const res = await post(a.limited.token, 'add', { itemId: child.itemId, parentId, values: { f1: 2 } });
    expect(res.json().code).toBe(0);
    expect((await recordsOf(t, child.itemId))[0]!.parentId).toBe(parentId);

    const foreign = await makeItem(t, b.id, { fields: FIELDS });
    const [foreignParent] = await makeRecords(t, b.id, foreign.itemId, [{ values: { f1: 1 } }]);
    const refused = await post(a.limited.token, 'add', {
      itemId: child.itemId,
      parentId: foreignParent,
      values: { f1: 3 },
    });
    expect(refused.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'parentId' } });
    expect(await recordsOf(t, child.itemId)).toHaveLength(1);
  });

  it('refuses read-only (40300), no permission and another company (40400)', async () => {
    const readOnly = await itemWith(1);
    const res = await post(a.limited.token, 'add', { itemId: readOnly.itemId, values: { f1: 1 } });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const none = await itemWith(0);
    const hidden = await post(a.limited.token, 'add', { itemId: none.itemId, values: { f1: 1 } });
    expect(hidden.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    const foreign = await post(b.admin.token, 'add', { itemId: none.itemId, values: { f1: 1 } });
    expect(foreign.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    expect(await recordsOf(t, readOnly.itemId)).toHaveLength(0);
    expect(await recordsOf(t, none.itemId)).toHaveLength(0);
  });
});

describe('record update', () => {
  it('changes the fields sent, keeps the others, and recomputes the rollup', async () => {
    const { itemId } = await itemWith();
    const [id] = await makeRecords(t, a.id, itemId, [{ values: { f1: 10, f2: 1, f3: 'keep' } }]);
    expect(await rollupSum(itemId, 'f1')).toEqual([10]);
    const res = await post(a.limited.token, 'update', { itemId, id, values: { 温度: 12.34, f2: null } });
    expect(res.json().code).toBe(0);
    const [row] = await recordsOf(t, itemId);
    expect(row!.values).toEqual({ f1: 12.3, f2: null, f3: 'keep' });
    expect(row!.updatedAt).not.toBeNull();
    expect(await rollupSum(itemId, 'f1')).toEqual([12.3]);
  });

  it('names the bad field, refuses to empty a required one, and writes nothing', async () => {
    const { itemId } = await itemWith();
    const [id] = await makeRecords(t, a.id, itemId, [{ values: { f1: 10, f2: 1 } }]);
    const before = await recordsOf(t, itemId);
    for (const [values, field] of [
      [{ f2: 'x' }, 'f2'],
      [{ f1: null }, 'f1'],
      [{ f1: '' }, 'f1'],
      [{ zz: 1 }, 'zz'],
    ] as const) {
      const res = await post(a.admin.token, 'update', { itemId, id, values });
      expect(res.json(), JSON.stringify(values)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
    expect(await recordsOf(t, itemId)).toEqual(before);
  });

  it('finds only records of the item; read-only 40300; none and another company 40400', async () => {
    const { itemId } = await itemWith();
    const other = await itemWith();
    const [otherRecord] = await makeRecords(t, a.id, other.itemId, [{ values: { f1: 1 } }]);
    const wrongItem = await post(a.admin.token, 'update', { itemId, id: otherRecord, values: { f1: 2 } });
    expect(wrongItem.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });

    const readOnly = await itemWith(1);
    const [ro] = await makeRecords(t, a.id, readOnly.itemId, [{ values: { f1: 1 } }]);
    const forbidden = await post(a.limited.token, 'update', {
      itemId: readOnly.itemId,
      id: ro,
      values: { f1: 2 },
    });
    expect(forbidden.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const none = await itemWith(0);
    const [hiddenId] = await makeRecords(t, a.id, none.itemId, [{ values: { f1: 1 } }]);
    const hidden = await post(a.limited.token, 'update', {
      itemId: none.itemId,
      id: hiddenId,
      values: { f1: 2 },
    });
    expect(hidden.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    const foreign = await post(b.admin.token, 'update', {
      itemId: none.itemId,
      id: hiddenId,
      values: { f1: 2 },
    });
    expect(foreign.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    for (const item of [other.itemId, readOnly.itemId, none.itemId]) {
      expect((await recordsOf(t, item))[0]!.values).toEqual({ f1: 1 });
    }
  });
});
