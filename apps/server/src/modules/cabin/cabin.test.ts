import { ERROR_CODES } from '@platform/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { dataItemJumps, dataItems } from '../dataitems/tables';
import { dataRecords, dataRollups } from '../records/tables';
import { cabinNodes, cabinPermissions } from './tables';
import { makeDirectory, makeItem, SAMPLE_FIELDS, setPermissions } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
});
afterAll(() => t.close());

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/general/smartdata/cabin${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

async function node(id: number) {
  const [row] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, id));
  return row;
}

async function companyNodeCount(companyId: number): Promise<number> {
  return (await t.db.select().from(cabinNodes).where(eq(cabinNodes.companyId, companyId))).length;
}

async function addRecord(companyId: number, itemId: number): Promise<void> {
  await t.db.insert(dataRecords).values({ companyId, itemId, ts: new Date(), values: { f2: 1 } });
  const now = new Date();
  await t.db.insert(dataRollups).values({
    itemId,
    fieldKey: 'f2',
    grain: 'h',
    bucket: now,
    count: 1,
    sum: 1,
    min: 1,
    max: 1,
    firstTs: now,
    firstValue: 1,
    lastTs: now,
    lastValue: 1,
  });
}

describe('tree and search', () => {
  it('lists readable nodes with level and kind, leaves out unreadable ones, keeps orphans with their parentId', async () => {
    const dir = await makeDirectory(t, a.id, { name: 'Plant' });
    const item = await makeItem(t, a.id, { parentId: dir, kind: 13, name: 'Boiler' });
    const hidden = await makeDirectory(t, a.id, { name: 'Hidden' });
    const orphan = await makeItem(t, a.id, { parentId: hidden, name: 'Visible child' });
    await setPermissions(t, hidden, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    await setPermissions(t, orphan.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);

    const res = await call('GET', '/tree', a.limited.token);
    expect(res.json().code).toBe(0);
    const rows = res.json().data as Array<Record<string, unknown>>;
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(dir)).toMatchObject({
      parentId: null,
      type: 'directory',
      name: 'Plant',
      level: 2,
      refId: null,
    });
    expect(byId.get(dir)).not.toHaveProperty('kind');
    expect(byId.get(item.nodeId)).toMatchObject({
      parentId: dir,
      type: 'dataItem',
      refId: item.itemId,
      kind: 13,
      level: 2,
    });
    expect(byId.has(hidden)).toBe(false);
    expect(byId.get(orphan.nodeId)).toMatchObject({ parentId: hidden, level: 1 });
    expect(rows.every((r) => typeof r.updatedAt === 'string')).toBe(true);

    // the administrator sees everything at level 3; another company nothing of A
    const adminRows = (await call('GET', '/tree', a.admin.token)).json().data as Array<{
      id: number;
      level: number;
    }>;
    expect(adminRows.find((r) => r.id === hidden)?.level).toBe(3);
    const other = (await call('GET', '/tree', b.admin.token)).json().data as Array<{ id: number }>;
    expect(other.map((r) => r.id)).not.toContain(dir);
  });

  it('searches names case-insensitively with the path from the top, without unreadable nodes or names', async () => {
    const top = await makeDirectory(t, a.id, { name: 'Search top' });
    const mid = await makeDirectory(t, a.id, { parentId: top, name: 'Secret mid' });
    const leaf = await makeItem(t, a.id, { parentId: mid, name: 'Needle Item' });
    const other = await makeItem(t, a.id, { parentId: top, name: 'needle other' });
    await setPermissions(t, mid, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    await setPermissions(t, leaf.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 2 }]);
    await setPermissions(t, other.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);

    const res = await call('GET', `/search?keyword=${encodeURIComponent('NEEDLE')}`, a.limited.token);
    expect(res.json().code).toBe(0);
    const rows = res.json().data as Array<{ id: number; path: string[] }>;
    expect(rows.map((r) => r.id)).toEqual([leaf.nodeId]);
    expect(rows[0]!.path).toEqual(['Search top', 'Needle Item']);
    expect(res.body).not.toContain('Secret mid');

    const admin = (await call('GET', `/search?keyword=needle`, a.admin.token)).json().data as Array<{
      id: number;
      path: string[];
    }>;
    expect(admin.find((r) => r.id === leaf.nodeId)?.path).toEqual([
      'Search top',
      'Secret mid',
      'Needle Item',
    ]);
    expect(admin.map((r) => r.id)).toContain(other.nodeId);
    expect((await call('GET', '/search?keyword=', a.admin.token)).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'keyword' },
    });
  });
});

describe('create', () => {
  it('creates directories and data items with their item row, refId and creator', async () => {
    const res = await call('POST', '/create', a.limited.token, {
      parentId: null,
      type: 'directory',
      name: 'Mine',
    });
    expect(res.json()).toMatchObject({ code: 0, data: { refId: null } });
    const dirId = res.json().data.id as number;
    expect(await node(dirId)).toMatchObject({ companyId: a.id, parentId: null, createdBy: a.limited.id });

    const item = await call('POST', '/create', a.limited.token, {
      parentId: dirId,
      type: 'dataItem',
      name: '温度 (A)',
      kind: 11,
    });
    expect(item.json().code).toBe(0);
    const { id, refId } = item.json().data as { id: number; refId: number };
    expect(await node(id)).toMatchObject({
      parentId: dirId,
      type: 'dataItem',
      refId,
      createdBy: a.limited.id,
    });
    const [row] = await t.db.select().from(dataItems).where(eq(dataItems.id, refId));
    expect(row).toMatchObject({ companyId: a.id, nodeId: id, name: '温度 (A)', kind: 11, fields: [] });

    const other = await call('POST', '/create', a.limited.token, {
      parentId: dirId,
      type: 'dashboard',
      name: 'Board',
    });
    expect(other.json()).toMatchObject({ code: 0, data: { refId: null } });
  });

  it.each([
    [{ parentId: null, type: 'directory', name: '' }, 'name', 'Please enter a name'],
    [
      { parentId: null, type: 'directory', name: 'x'.repeat(26) },
      'name',
      'The length of the name cannot exceed 25 characters',
    ],
    [
      { parentId: null, type: 'directory', name: '50%' },
      'name',
      'The name cannot contain the percent sign (%)',
    ],
    [
      { parentId: null, type: 'dataItem', name: 'a#b', kind: 10 },
      'name',
      'The data item name cannot contain special characters',
    ],
    [
      { parentId: null, type: 'dataItem', name: '50%', kind: 10 },
      'name',
      'The name cannot contain the percent sign (%)',
    ],
    [{ parentId: null, name: 'x' }, 'type', 'Please select a type'],
    [{ parentId: null, type: 'folder', name: 'x' }, 'type', 'Please select a type'],
    [{ parentId: null, type: 'dataItem', name: 'x' }, 'kind', 'Please select a type'],
    [{ parentId: null, type: 'dataItem', name: 'x', kind: 12 }, 'kind', 'Please select a type'],
  ])('refuses %j naming %s, writing nothing', async (payload, field, message) => {
    const before = await companyNodeCount(a.id);
    const res = await call('POST', '/create', a.limited.token, payload);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, message, data: { field } });
    expect(await companyNodeCount(a.id)).toBe(before);
  });

  it('needs a directory parent the caller can write into', async () => {
    const item = await makeItem(t, a.id);
    const readOnly = await makeDirectory(t, a.id);
    const none = await makeDirectory(t, a.id);
    await setPermissions(t, readOnly, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    await setPermissions(t, none, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    const before = await companyNodeCount(a.id);
    const make = (parentId: number) =>
      call('POST', '/create', a.limited.token, { parentId, type: 'directory', name: 'child' });
    expect((await make(item.nodeId)).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'Please select a parent directory',
      data: { field: 'parentId' },
    });
    expect((await make(readOnly)).json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await make(none)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'parentId' },
    });
    expect((await make(999999)).json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await companyNodeCount(a.id)).toBe(before);
    // the administrator can, even where the user cannot read
    expect(
      (await call('POST', '/create', a.admin.token, { parentId: none, type: 'directory', name: 'ok' })).json()
        .code,
    ).toBe(0);
  });
});

describe('rename', () => {
  it('renames a node and its data item; checks names by type', async () => {
    const item = await makeItem(t, a.id, { createdBy: a.limited.id });
    const res = await call('POST', '/rename', a.limited.token, { id: item.nodeId, name: ' Renamed ' });
    expect(res.json().code).toBe(0);
    expect((await node(item.nodeId))!.name).toBe('Renamed');
    const [row] = await t.db.select().from(dataItems).where(eq(dataItems.id, item.itemId));
    expect(row!.name).toBe('Renamed');

    const bad = await call('POST', '/rename', a.limited.token, { id: item.nodeId, name: 'a/b' });
    expect(bad.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'name' } });
    const dir = await makeDirectory(t, a.id, { createdBy: a.limited.id });
    expect((await call('POST', '/rename', a.limited.token, { id: dir, name: 'a/b' })).json().code).toBe(0);
    expect((await call('POST', '/rename', a.limited.token, { id: dir, name: '' })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'Please enter a name',
      data: { field: 'name' },
    });
    expect((await node(dir))!.name).toBe('a/b');
  });

  it('needs level 3: a read-write user gets 40300, an unreadable node 40400', async () => {
    const dir = await makeDirectory(t, a.id, { name: 'Keep' });
    expect((await call('POST', '/rename', a.limited.token, { id: dir, name: 'New' })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    await setPermissions(t, dir, [{ scope: 'company', subjectId: null, level: 0 }]);
    expect((await call('POST', '/rename', a.limited.token, { id: dir, name: 'New' })).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect((await node(dir))!.name).toBe('Keep');
  });
});

describe('move', () => {
  it('moves nodes into a directory and to the top', async () => {
    const target = await makeDirectory(t, a.id);
    const x = await makeDirectory(t, a.id, { createdBy: a.limited.id });
    const y = await makeItem(t, a.id, { createdBy: a.limited.id });
    expect(
      (await call('POST', '/move', a.limited.token, { ids: [x, y.nodeId], targetId: target })).json().code,
    ).toBe(0);
    expect((await node(x))!.parentId).toBe(target);
    expect((await node(y.nodeId))!.parentId).toBe(target);
    expect((await call('POST', '/move', a.limited.token, { ids: [x], targetId: null })).json().code).toBe(0);
    expect((await node(x))!.parentId).toBeNull();
  });

  it('refuses bad requests naming the field, moving nothing', async () => {
    const top = await makeDirectory(t, a.id);
    const child = await makeDirectory(t, a.id, { parentId: top });
    const grandChild = await makeDirectory(t, a.id, { parentId: child });
    const item = await makeItem(t, a.id);
    const other = await makeDirectory(t, a.id);
    const cases: Array<[object, string, string | null]> = [
      [{ ids: [], targetId: other }, 'ids', 'Please select the objects to move'],
      [{ targetId: other }, 'ids', 'Please select the objects to move'],
      [{ ids: [top] }, 'targetId', 'Please select a directory'],
      [{ ids: [top], targetId: top }, 'targetId', null],
      [{ ids: [top], targetId: grandChild }, 'targetId', null],
      [{ ids: [other, top], targetId: child }, 'targetId', null],
      [{ ids: [top], targetId: item.nodeId }, 'targetId', 'Please select a directory'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await call('POST', '/move', a.admin.token, payload);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
      if (message) expect(res.json().message).toBe(message);
    }
    expect((await node(top))!.parentId).toBeNull();
    expect((await node(other))!.parentId).toBeNull();
    expect((await node(child))!.parentId).toBe(top);
  });

  it('is all or nothing: one node without level 3 stops the whole move', async () => {
    const target = await makeDirectory(t, a.id);
    const mine = await makeDirectory(t, a.id, { createdBy: a.limited.id });
    const notMine = await makeDirectory(t, a.id);
    const res = await call('POST', '/move', a.limited.token, { ids: [mine, notMine], targetId: target });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await node(mine))!.parentId).toBeNull();
    // the target needs level 2
    const readOnlyTarget = await makeDirectory(t, a.id);
    await setPermissions(t, readOnlyTarget, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    expect(
      (await call('POST', '/move', a.limited.token, { ids: [mine], targetId: readOnlyTarget })).json().code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect((await node(mine))!.parentId).toBeNull();
  });
});

describe('copy', () => {
  it('deep-copies directories and items with definitions and inner jumps, not records', async () => {
    const src = await makeDirectory(t, a.id, { name: 'Src' });
    const sub = await makeDirectory(t, a.id, { parentId: src, name: 'Sub' });
    const i1 = await makeItem(t, a.id, { parentId: src, name: 'One', kind: 13, fields: SAMPLE_FIELDS });
    const i2 = await makeItem(t, a.id, { parentId: sub, name: 'Two', fields: SAMPLE_FIELDS });
    const outside = await makeItem(t, a.id, { name: 'Outside', fields: SAMPLE_FIELDS });
    const board = await t.db
      .insert(cabinNodes)
      .values({ companyId: a.id, parentId: src, type: 'dashboard', name: 'Board' })
      .returning({ id: cabinNodes.id });
    await t.db
      .update(dataItems)
      .set({
        sources: [{ deviceId: 'd1', deviceName: 'Device', ip: '10.0.0.1' }],
        titleField: 'f3',
        publicCollect: true,
        description: 'desc',
        form: [{ id: 'e1', type: 'input', label: 'Note', field: 'f3', required: false }],
        nextFieldNo: 9,
      })
      .where(eq(dataItems.id, i1.itemId));
    await t.db.insert(dataItemJumps).values([
      {
        itemId: i1.itemId,
        targetItemId: i2.itemId,
        name: 'inner',
        priority: 5,
        mapping: [{ to: 'f1', from: 'f1' }],
      },
      { itemId: i1.itemId, targetItemId: outside.itemId, name: 'outer' },
    ]);
    await addRecord(a.id, i1.itemId);
    await setPermissions(t, src, [{ scope: 'user', subjectId: a.limited.id, level: 3 }]);
    const target = await makeDirectory(t, a.id, { name: 'Target' });

    const res = await call('POST', '/copy', a.limited.token, { ids: [src, i2.nodeId], targetId: target });
    expect(res.json().code).toBe(0);
    const ids = res.json().data.ids as number[];
    expect(ids).toHaveLength(1); // i2 lies inside src and is copied with it
    const copyRoot = await node(ids[0]!);
    expect(copyRoot).toMatchObject({
      parentId: target,
      name: 'Src',
      createdBy: a.limited.id,
      permissionMode: 'inherit',
    });
    expect(await t.db.select().from(cabinPermissions).where(eq(cabinPermissions.nodeId, ids[0]!))).toEqual(
      [],
    );

    const children = await t.db.select().from(cabinNodes).where(eq(cabinNodes.parentId, ids[0]!));
    expect(children.map((c) => c.name).sort()).toEqual(['One', 'Sub']); // the dashboard is not copied
    const oneCopy = children.find((c) => c.name === 'One')!;
    const subCopy = children.find((c) => c.name === 'Sub')!;
    const [twoCopy] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.parentId, subCopy.id));
    expect(twoCopy).toMatchObject({ name: 'Two', type: 'dataItem' });
    const [item1Copy] = await t.db.select().from(dataItems).where(eq(dataItems.nodeId, oneCopy.id));
    expect(oneCopy.refId).toBe(item1Copy!.id);
    expect(item1Copy).toMatchObject({
      companyId: a.id,
      kind: 13,
      fields: SAMPLE_FIELDS,
      nextFieldNo: 9,
      sources: [{ deviceId: 'd1', deviceName: 'Device', ip: '10.0.0.1' }],
      titleField: 'f3',
      publicCollect: true,
      description: 'desc',
      form: [{ id: 'e1', type: 'input', label: 'Note', field: 'f3', required: false }],
    });
    const [item2Copy] = await t.db.select().from(dataItems).where(eq(dataItems.nodeId, twoCopy!.id));
    const jumps = await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.itemId, item1Copy!.id));
    expect(jumps.map((j) => [j.name, j.targetItemId, j.priority]).sort()).toEqual(
      [
        ['inner', item2Copy!.id, 5],
        ['outer', outside.itemId, 0],
      ].sort(),
    );
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, item1Copy!.id))).toEqual([]);
    expect(board[0]).toBeDefined();
    // the originals are untouched
    expect(await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.itemId, i1.itemId))).toHaveLength(
      2,
    );
  });

  it('copies only directories and data items; needs level 3 and a target directory', async () => {
    const [board] = await t.db
      .insert(cabinNodes)
      .values({ companyId: a.id, type: 'dashboard', name: 'Board', createdBy: a.limited.id })
      .returning({ id: cabinNodes.id });
    const before = await companyNodeCount(a.id);
    const res = await call('POST', '/copy', a.limited.token, { ids: [board!.id], targetId: null });
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'Only directories and data items can be copied',
      data: { field: 'ids' },
    });
    const dir = await makeDirectory(t, a.id);
    expect((await call('POST', '/copy', a.limited.token, { ids: [dir], targetId: null })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await call('POST', '/copy', a.admin.token, { ids: [dir] })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'targetId' },
    });
    expect((await call('POST', '/copy', a.admin.token, { ids: [], targetId: null })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'ids' },
    });
    expect((await call('POST', '/copy', a.admin.token, { ids: [dir], targetId: dir })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'targetId' },
    });
    expect(await companyNodeCount(a.id)).toBe(before + 1);
    expect((await call('POST', '/copy', a.admin.token, { ids: [dir], targetId: null })).json().code).toBe(0);
    expect(await companyNodeCount(a.id)).toBe(before + 2);
  });
});

describe('delete', () => {
  it('deletes deeply, with records, rollups and jumps of the items', async () => {
    const dir = await makeDirectory(t, a.id, { createdBy: a.limited.id });
    const sub = await makeDirectory(t, a.id, { parentId: dir });
    const inner = await makeItem(t, a.id, { parentId: sub, fields: SAMPLE_FIELDS });
    const outside = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await t.db.insert(dataItemJumps).values([
      { itemId: outside.itemId, targetItemId: inner.itemId, name: 'in' },
      { itemId: inner.itemId, targetItemId: outside.itemId, name: 'out' },
    ]);
    await addRecord(a.id, inner.itemId);
    await addRecord(a.id, outside.itemId);

    const res = await call('POST', '/delete', a.limited.token, { ids: [dir] });
    expect(res.json()).toMatchObject({ code: 0, message: 'Delete successfully' });
    expect(
      await t.db
        .select()
        .from(cabinNodes)
        .where(inArray(cabinNodes.id, [dir, sub, inner.nodeId])),
    ).toEqual([]);
    expect(await t.db.select().from(dataItems).where(eq(dataItems.id, inner.itemId))).toEqual([]);
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, inner.itemId))).toEqual([]);
    expect(await t.db.select().from(dataRollups).where(eq(dataRollups.itemId, inner.itemId))).toEqual([]);
    expect(
      await t.db
        .select()
        .from(dataItemJumps)
        .where(inArray(dataItemJumps.itemId, [inner.itemId, outside.itemId])),
    ).toEqual([]);
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, outside.itemId))).toHaveLength(
      1,
    );
    expect(await node(outside.nodeId)).toBeDefined();
  });

  it('needs level 3 on every node; empty ids name the field', async () => {
    const mine = await makeItem(t, a.id, { createdBy: a.limited.id });
    const notMine = await makeItem(t, a.id);
    await addRecord(a.id, mine.itemId);
    expect(
      (await call('POST', '/delete', a.limited.token, { ids: [mine.nodeId, notMine.nodeId] })).json().code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect((await call('POST', '/delete', a.limited.token, { ids: [] })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'ids' },
    });
    expect(await node(mine.nodeId)).toBeDefined();
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, mine.itemId))).toHaveLength(1);
  });
});
