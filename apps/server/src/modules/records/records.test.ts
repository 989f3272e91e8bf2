import { ERROR_CODES, type FieldDef } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { dataRollups } from './tables';
import { makeRecords, recordsOf } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Records A');
  b = await makeCompany(t, 'Records B');
});

afterAll(async () => {
  await t.close();
});

const FIELDS: FieldDef[] = [...SAMPLE_FIELDS, { key: 'f4', name: 'when', type: 4 }];

function get(token: string, path: string, query: Record<string, unknown>) {
  const qs = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [
      k,
      typeof v === 'string' ? v : JSON.stringify(v),
    ]),
  );
  return t.app.inject({
    method: 'GET',
    url: `/general/smartdata/record/${path}?${qs}`,
    headers: bearer(token),
  });
}

function post(token: string, path: string, payload: object) {
  return t.app.inject({
    method: 'POST',
    url: `/general/smartdata/record/${path}`,
    payload,
    headers: bearer(token),
  });
}

/** An item of company A whose limited user holds `level` (undefined: the default, 2). */
async function itemWith(level?: 0 | 1 | 2 | 3, name?: string) {
  const made = await makeItem(t, a.id, { fields: FIELDS, name });
  if (level !== undefined) {
    await setPermissions(t, made.nodeId, [{ scope: 'user', subjectId: a.limited.id, level }]);
  }
  return made;
}

async function seeded(level?: 0 | 1 | 2 | 3, name?: string) {
  const made = await itemWith(level, name);
  const ids = await makeRecords(t, a.id, made.itemId, [
    { ts: '2026-01-01T00:00:00Z', values: { f1: 9.5, f2: 10, f3: 'alpha', f4: '2026-03-01T00:00:00.000Z' } },
    { ts: '2026-01-02T00:00:00Z', values: { f1: 21.25, f2: 2, f3: 'Beta', f4: '2026-02-01T00:00:00.000Z' } },
    { ts: '2026-01-03T00:00:00Z', values: { f1: 100, f2: 1, f3: '' } },
  ]);
  return { ...made, ids };
}

const idsOf = (res: { json(): { data: { list: Array<{ id: number }> } } }) =>
  res.json().data.list.map((r) => r.id);

describe('record list', () => {
  it('pages the newest first by default and says the total', async () => {
    const { itemId, ids } = await seeded();
    const res = await get(a.limited.token, 'list', { itemId, pageNum: 1, pageSize: 2 });
    expect(res.json()).toMatchObject({ code: 0, data: { total: 3, pageNum: 1, pageSize: 2 } });
    expect(idsOf(res)).toEqual([ids[2], ids[1]]);
    const row = res.json().data.list[1];
    expect(row).toMatchObject({
      ts: '2026-01-02T00:00:00.000Z',
      values: { f1: 21.25, f2: 2, f3: 'Beta' },
      parentId: null,
      source: 'manual',
    });
    expect(idsOf(await get(a.limited.token, 'list', { itemId, pageNum: 2, pageSize: 2 }))).toEqual([ids[0]]);
  });

  it('sorts numbers as numbers, text as text, and by time', async () => {
    const { itemId, ids } = await seeded();
    // as text 100 < 21.25 < 9.5; as numbers the other way round
    expect(idsOf(await get(a.admin.token, 'list', { itemId, sortField: 'f1', sortOrder: 'asc' }))).toEqual([
      ids[0],
      ids[1],
      ids[2],
    ]);
    expect(idsOf(await get(a.admin.token, 'list', { itemId, sortField: 'f2', sortOrder: 'desc' }))).toEqual([
      ids[0],
      ids[1],
      ids[2],
    ]);
    expect(idsOf(await get(a.admin.token, 'list', { itemId, sortField: 'ts', sortOrder: 'asc' }))).toEqual(
      ids,
    );
    expect(idsOf(await get(a.admin.token, 'list', { itemId, sortField: 'f4', sortOrder: 'asc' }))).toEqual([
      ids[1],
      ids[0],
      ids[2],
    ]);
  });

  it('filters by time window and by conditions on fields', async () => {
    const { itemId, ids } = await seeded();
    const list = async (query: Record<string, unknown>) =>
      idsOf(await get(a.admin.token, 'list', { itemId, ...query }));
    expect(await list({ from: '2026-01-02T00:00:00Z', sortOrder: 'asc' })).toEqual([ids[1], ids[2]]);
    expect(await list({ to: '2026-01-01T12:00:00Z' })).toEqual([ids[0]]);
    expect(await list({ filters: [{ field: 'f1', op: 'gt', value: '20' }], sortOrder: 'asc' })).toEqual([
      ids[1],
      ids[2],
    ]);
    expect(await list({ filters: [{ field: 'f1', op: 'le', value: 21.25 }], sortOrder: 'asc' })).toEqual([
      ids[0],
      ids[1],
    ]);
    expect(await list({ filters: [{ field: 'f3', op: 'contains', value: 'bet' }] })).toEqual([ids[1]]);
    expect(await list({ filters: [{ field: 'f3', op: 'empty' }] })).toEqual([ids[2]]);
    expect(await list({ filters: [{ field: 'f4', op: 'notEmpty' }], sortOrder: 'asc' })).toEqual([
      ids[0],
      ids[1],
    ]);
    expect(await list({ filters: [{ field: 'f3', op: 'ne', value: 'alpha' }], sortOrder: 'asc' })).toEqual([
      ids[1],
      ids[2],
    ]);
    expect(
      await list({
        filters: [{ field: 'f4', op: 'lt', value: '2026-02-15T00:00:00+08:00' }],
        sortOrder: 'asc',
      }),
    ).toEqual([ids[1]]);
    expect(
      await list({
        filters: [
          { field: 'f2', op: 'ge', value: 2 },
          { field: 'f3', op: 'eq', value: 'alpha' },
        ],
      }),
    ).toEqual([ids[0]]);
  });

  it('names the bad parameter: unknown field, unknown op, bad JSON, bad sort field, bad time', async () => {
    const { itemId } = await seeded();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ filters: [{ field: 'f9', op: 'eq', value: 1 }] }, 'filters'],
      [{ filters: [{ field: 'f1', op: 'like', value: 1 }] }, 'filters'],
      [{ filters: [{ field: 'f1', op: 'gt', value: 'warm' }] }, 'filters'],
      [{ filters: '[{"field":' }, 'filters'],
      [{ filters: { field: 'f1' } }, 'filters'],
      [{ sortField: "f1'); drop table data_records; --" }, 'sortField'],
      [{ sortField: 'f9' }, 'sortField'],
      [{ from: 'yesterday' }, 'from'],
      // a date JavaScript reads and PostgreSQL refuses (there is no year 0): the field's error
      [{ from: '0000-01-01' }, 'from'],
      [{ to: '+010000-01-01T00:00:00Z' }, 'to'],
    ];
    for (const [query, field] of cases) {
      const res = await get(a.admin.token, 'list', { itemId, ...query });
      expect(res.json(), JSON.stringify(query)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
    expect(await recordsOf(t, itemId)).toHaveLength(3);
  });

  it('hides values of fields the item no longer has', async () => {
    const { itemId } = await itemWith();
    await makeRecords(t, a.id, itemId, [{ values: { f1: 1, f7: 'removed field' } }]);
    const res = await get(a.admin.token, 'list', { itemId });
    expect(res.json().data.list[0].values).toEqual({ f1: 1 });
  });

  it('lists the children of a parent record, which must be a record of the same company', async () => {
    const parent = await seeded();
    const child = await itemWith();
    const [c1, , c3] = await makeRecords(t, a.id, child.itemId, [
      { values: { f3: 'first child' }, parentId: parent.ids[0] },
      { values: { f3: 'other parent' }, parentId: parent.ids[1] },
      { values: { f3: 'second child' }, parentId: parent.ids[0] },
    ]);
    const res = await get(a.limited.token, 'list', {
      itemId: child.itemId,
      parentId: parent.ids[0],
      sortOrder: 'asc',
    });
    expect(idsOf(res)).toEqual([c1, c3]);

    const foreign = await makeItem(t, b.id, { fields: FIELDS });
    const [foreignRecord] = await makeRecords(t, b.id, foreign.itemId, [{ values: { f3: 'b' } }]);
    const refused = await get(a.limited.token, 'list', { itemId: child.itemId, parentId: foreignRecord });
    expect(refused.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'parentId' } });
  });

  it('answers 40400 without read permission and for another company', async () => {
    const none = await seeded(0);
    const res = await get(a.limited.token, 'list', { itemId: none.itemId });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    const other = await get(b.admin.token, 'list', { itemId: none.itemId });
    expect(other.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    expect(other.body).not.toContain('alpha');
    // read only is enough to list
    const readOnly = await seeded(1);
    expect((await get(a.limited.token, 'list', { itemId: readOnly.itemId })).json().data.total).toBe(3);
  });
});

describe('record delete', () => {
  it('deletes the given records and recomputes their rollups', async () => {
    const { itemId, ids } = await seeded();
    const res = await post(a.limited.token, 'delete', { itemId, ids: [ids[0], ids[1]] });
    expect(res.json().code).toBe(0);
    expect((await recordsOf(t, itemId)).map((r) => r.id)).toEqual([ids[2]]);
    const rollups = await t.db.select().from(dataRollups).where(eq(dataRollups.itemId, itemId));
    // only the third record's hour and day buckets stay, per numeric field
    expect(rollups.every((r) => r.count === 1)).toBe(true);
    expect(rollups.filter((r) => r.fieldKey === 'f1').map((r) => r.sum)).toEqual([100, 100]);
  });

  it('deletes nothing when any id is not a record of the item', async () => {
    const { itemId, ids } = await seeded();
    const other = await seeded();
    const res = await post(a.admin.token, 'delete', { itemId, ids: [ids[0], other.ids[0]] });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'ids' } });
    expect(await recordsOf(t, itemId)).toHaveLength(3);
    expect(await recordsOf(t, other.itemId)).toHaveLength(3);
    const empty = await post(a.admin.token, 'delete', { itemId, ids: [] });
    expect(empty.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'ids' } });
  });

  it('refuses read-only (40300), no permission and another company (40400)', async () => {
    const readOnly = await seeded(1);
    const res = await post(a.limited.token, 'delete', { itemId: readOnly.itemId, ids: readOnly.ids });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(await recordsOf(t, readOnly.itemId)).toHaveLength(3);
    const none = await seeded(0);
    const hidden = await post(a.limited.token, 'delete', { itemId: none.itemId, ids: none.ids });
    expect(hidden.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    const foreign = await post(b.admin.token, 'delete', { itemId: none.itemId, ids: none.ids });
    expect(foreign.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    expect(await recordsOf(t, none.itemId)).toHaveLength(3);
  });
});

describe('record clear', () => {
  it('needs the exact item name, then deletes every record and rollup', async () => {
    const name = 'Boiler 温度';
    const { itemId } = await seeded(3, name);
    for (const wrong of [`${name} `, 'boiler 温度', 'Boiler', '']) {
      const res = await post(a.limited.token, 'clear', { itemId, confirmName: wrong });
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'confirmName' } });
    }
    expect(await recordsOf(t, itemId)).toHaveLength(3);
    const res = await post(a.limited.token, 'clear', { itemId, confirmName: name });
    expect(res.json().code).toBe(0);
    expect(await recordsOf(t, itemId)).toHaveLength(0);
    expect(await t.db.select().from(dataRollups).where(eq(dataRollups.itemId, itemId))).toHaveLength(0);
  });

  it('needs administrator level: read-write is 40300, none and another company 40400', async () => {
    const rw = await seeded(2);
    const res = await post(a.limited.token, 'clear', { itemId: rw.itemId, confirmName: 'x' });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const none = await seeded(0);
    expect(
      (await post(a.limited.token, 'clear', { itemId: none.itemId, confirmName: 'x' })).json().code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect((await post(b.admin.token, 'clear', { itemId: none.itemId, confirmName: 'x' })).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect(await recordsOf(t, rw.itemId)).toHaveLength(3);
    expect(await recordsOf(t, none.itemId)).toHaveLength(3);
  });
});
