import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeDirectory, makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { memberRoles, roles } from '../roles/tables';
import { dataItemJumps, dataItems, itemGroupMembers, itemGroups } from './tables';

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
    url: `/general/smartdata${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

async function item(id: number) {
  const [row] = await t.db.select().from(dataItems).where(eq(dataItems.id, id));
  return row!;
}

describe('item get and update', () => {
  it('returns the definition with the caller level', async () => {
    const it1 = await makeItem(t, a.id, { name: 'Boiler', kind: 13, fields: SAMPLE_FIELDS });
    const res = await call('GET', `/item/get?itemId=${it1.itemId}`, a.limited.token);
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        id: it1.itemId,
        nodeId: it1.nodeId,
        name: 'Boiler',
        kind: 13,
        fields: SAMPLE_FIELDS,
        sources: [],
        form: [],
        titleField: null,
        publicCollect: false,
        description: null,
        level: 2,
      },
    });
    expect((await call('GET', `/item/get?itemId=${it1.itemId}`, a.admin.token)).json().data.level).toBe(3);
  });

  it('adds, renames and removes fields with stable keys; sets sources, title, public and description', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, createdBy: a.limited.id });
    await t.db
      .update(dataItems)
      .set({
        titleField: 'f2',
        form: [
          { id: 'e1', type: 'number', label: 'Count', field: 'f2', required: false },
          { id: 'e2', type: 'input', label: 'Note', field: 'f3', required: false },
        ],
      })
      .where(eq(dataItems.id, itemId));
    const res = await call('POST', '/item/update', a.limited.token, {
      itemId,
      fields: [
        { key: 'f1', name: 'Temperature', type: 1, unit: '℃', decimals: 1 },
        { key: 'f3', name: 'note', type: 5 },
        { name: 'pressure', type: 1 },
      ],
      sources: [
        { deviceId: ' dev-1 ', deviceName: 'Sensor', ip: '192.168.1.2' },
        { deviceId: 'dev-2', deviceName: 'B' },
      ],
      publicCollect: true,
      description: ' about ',
    });
    expect(res.json().code).toBe(0);
    const row = await item(itemId);
    expect(row.fields.map((f) => [f.key, f.name])).toEqual([
      ['f1', 'Temperature'],
      ['f3', 'note'],
      ['f4', 'pressure'],
    ]);
    expect(row.nextFieldNo).toBe(5);
    expect(row.sources).toEqual([
      { deviceId: 'dev-1', deviceName: 'Sensor', ip: '192.168.1.2' },
      { deviceId: 'dev-2', deviceName: 'B' },
    ]);
    expect(row.titleField).toBeNull(); // f2 is gone
    expect(row.form.map((e) => e.id)).toEqual(['e2']); // the element of f2 went with it
    expect(row).toMatchObject({ publicCollect: true, description: 'about' });
    expect(res.json().data).toMatchObject({ id: itemId, fields: row.fields, level: 3 });

    // a removed key never comes back; a later new field gets a fresh number
    const again = await call('POST', '/item/update', a.limited.token, {
      itemId,
      fields: [...row.fields, { name: 'again', type: 10 }],
      titleField: 'f5',
    });
    expect(again.json().code).toBe(0);
    expect((await item(itemId)).fields.at(-1)).toMatchObject({ key: 'f5', name: 'again' });
    expect((await item(itemId)).titleField).toBe('f5');
  });

  it.each([
    [{ fields: [{ name: '', type: 1 }] }, 'fields[0].name', 'Data name cannot be empty'],
    [
      {
        fields: [
          { name: 'a', type: 1 },
          { name: 'a', type: 5 },
        ],
      },
      'fields[1].name',
      null,
    ],
    [{ fields: [{ name: 'a' }] }, 'fields[0].type', 'All type entries must be completed'],
    [{ fields: [{ key: 'f9', name: 'a', type: 1 }] }, 'fields[0].key', null],
    [{ sources: [{ deviceName: 'x' }] }, 'sources[0].deviceId', null],
    [{ sources: [{ deviceId: 'x', deviceName: 'y'.repeat(65) }] }, 'sources[0].deviceName', null],
    [
      { sources: [{ deviceId: 'x', deviceName: 'y', ip: '1.2.3.999' }] },
      'sources[0].ip',
      'Please enter a valid IPv4 or full IPv6 address',
    ],
    [{ sources: [{ deviceId: 'x', deviceName: 'y', ip: 'fe80::1' }] }, 'sources[0].ip', null],
    [{ titleField: 'f99' }, 'titleField', null],
    [{ description: 'x'.repeat(501) }, 'description', null],
  ])('refuses %j naming %s, writing nothing', async (patch, field, message) => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const before = await item(itemId);
    const res = await call('POST', '/item/update', a.admin.token, { itemId, ...patch });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field } });
    if (message) expect(res.json().message).toBe(message);
    expect(await item(itemId)).toEqual(before);
  });

  it('saves a form bound to fitting fields and refuses a mismatch', async () => {
    const { itemId } = await makeItem(t, a.id, { kind: 11, fields: SAMPLE_FIELDS });
    const form = [
      { id: 'e1', type: 'number', label: 'Temp', field: 'f1', required: true, min: 0, max: 100 },
      { id: 'e2', type: 'input', label: 'Note', field: 'f3', required: false },
    ];
    expect((await call('POST', '/item/updateForm', a.admin.token, { itemId, form })).json().code).toBe(0);
    expect((await item(itemId)).form).toEqual(form);
    const bad = await call('POST', '/item/updateForm', a.admin.token, {
      itemId,
      form: [{ id: 'e1', type: 'number', label: 'Note', field: 'f3', required: false }],
    });
    // the answer names the element and the field, and where the element is
    expect(bad.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: `The form element "Note" cannot be bound to the field "${SAMPLE_FIELDS[2]!.name}": the field's type cannot hold what the element produces`,
      data: { field: 'form[0].field' },
    });
    const unbound = await call('POST', '/item/updateForm', a.admin.token, {
      itemId,
      form: [{ id: 'e1', type: 'textarea', label: '备注', field: '', required: false }],
    });
    expect(unbound.json()).toMatchObject({
      message: 'Choose the field that the form element "备注" writes',
      data: { field: 'form[0].field' },
    });
    expect((await item(itemId)).form).toEqual(form);
  });
});

describe('jumps', () => {
  const jump = (itemId: number, targetItemId: number, extra: object = {}) => ({
    itemId,
    priority: 1,
    name: 'hot',
    conditions: [{ field: 'f1', op: 'gt', value: 30 }],
    targetItemId,
    mapping: [
      { to: 'f1', from: 'f1' },
      { to: 'f3', value: 'alarm' },
    ],
    enabled: true,
    ...extra,
  });

  it('saves, lists by priority, changes and deletes jumps', async () => {
    const src = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const dst = await makeItem(t, a.id, { name: 'Alarms', fields: SAMPLE_FIELDS });
    const first = await call('POST', '/item/saveJump', a.admin.token, jump(src.itemId, dst.itemId));
    expect(first.json().code).toBe(0);
    const second = await call(
      'POST',
      '/item/saveJump',
      a.admin.token,
      jump(src.itemId, dst.itemId, { name: 'cold', priority: 9 }),
    );
    const list = await call('GET', `/item/jumps?itemId=${src.itemId}`, a.limited.token);
    expect(list.json().data.map((j: { name: string }) => j.name)).toEqual(['cold', 'hot']);
    expect(list.json().data[1]).toMatchObject({
      id: first.json().data.id,
      targetItemId: dst.itemId,
      targetName: 'Alarms',
      conditions: [{ field: 'f1', op: 'gt', value: 30 }],
      mapping: [
        { to: 'f1', from: 'f1' },
        { to: 'f3', value: 'alarm' },
      ],
      enabled: true,
    });
    const id = second.json().data.id as number;
    const changed = await call(
      'POST',
      '/item/saveJump',
      a.admin.token,
      jump(src.itemId, dst.itemId, { id, enabled: false, priority: 0 }),
    );
    expect(changed.json()).toMatchObject({ code: 0, data: { id } });
    const [row] = await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.id, id));
    expect(row).toMatchObject({ enabled: false, priority: 0, name: 'hot' });

    expect(
      (await call('POST', '/item/deleteJump', a.admin.token, { itemId: src.itemId, id })).json().code,
    ).toBe(0);
    expect(await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.id, id))).toEqual([]);
    // a jump of another item is not reachable through this one
    const otherSrc = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const res = await call('POST', '/item/deleteJump', a.admin.token, {
      itemId: otherSrc.itemId,
      id: first.json().data.id,
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
  });

  it('refuses bad jumps naming the field, writing nothing', async () => {
    const src = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const dst = await makeItem(t, a.id, { fields: [{ key: 'f1', name: 'only', type: 1 }] });
    const cases: Array<[object, string, string | null]> = [
      [
        jump(src.itemId, src.itemId),
        'targetItemId',
        'Cannot set its own data item as the destination data item',
      ],
      [jump(src.itemId, dst.itemId, { name: '' }), 'name', null],
      [
        jump(src.itemId, dst.itemId, { conditions: [{ field: 'f9', op: 'gt', value: 1 }] }),
        'conditions[0].field',
        null,
      ],
      [
        jump(src.itemId, dst.itemId, { conditions: [{ field: 'f1', op: 'like', value: 1 }] }),
        'conditions[0].op',
        null,
      ],
      [
        jump(src.itemId, dst.itemId, { conditions: [{ field: 'f1', op: 'gt' }] }),
        'conditions[0].value',
        null,
      ],
      [jump(src.itemId, dst.itemId, { mapping: [{ to: 'f3', from: 'f3' }] }), 'mapping[0].to', null],
      [jump(src.itemId, dst.itemId, { mapping: [{ to: 'f1', from: 'f8' }] }), 'mapping[0].from', null],
      [jump(src.itemId, dst.itemId, { targetItemId: null }), 'targetItemId', null],
    ];
    for (const [payload, field, message] of cases) {
      const res = await call('POST', '/item/saveJump', a.admin.token, payload);
      expect(res.json(), field).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field } });
      if (message) expect(res.json().message).toBe(message);
    }
    expect(await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.itemId, src.itemId))).toEqual([]);
  });

  it('needs level 3 on the item and 2 on the target', async () => {
    const src = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, createdBy: a.limited.id });
    const readOnly = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const hidden = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const writable = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await setPermissions(t, readOnly.nodeId, [{ scope: 'company', subjectId: null, level: 1 }]);
    await setPermissions(t, hidden.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
    const tok = a.limited.token;
    expect((await call('POST', '/item/saveJump', tok, jump(src.itemId, readOnly.itemId))).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await call('POST', '/item/saveJump', tok, jump(src.itemId, hidden.itemId))).json()).toMatchObject(
      {
        code: ERROR_CODES.NOT_FOUND,
        data: { field: 'targetItemId' },
      },
    );
    expect((await call('POST', '/item/saveJump', tok, jump(writable.itemId, src.itemId))).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect(await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.itemId, src.itemId))).toEqual([]);
    expect((await call('POST', '/item/saveJump', tok, jump(src.itemId, writable.itemId))).json().code).toBe(
      0,
    );
  });
});

describe('item groups', () => {
  it('saves, lists, reads (readable items only) and deletes groups', async () => {
    const i1 = await makeItem(t, a.id, { name: 'G one', kind: 13 });
    const i2 = await makeItem(t, a.id, { name: 'G two' });
    const save = await call('POST', '/itemgroup/save', a.admin.token, {
      name: ' Lines ',
      itemIds: [i2.itemId, i1.itemId],
    });
    expect(save.json().code).toBe(0);
    const id = save.json().data.id as number;
    const list = await call('GET', '/itemgroup/list?pageNum=1&pageSize=10', a.admin.token);
    expect(list.json().data).toMatchObject({ total: 1, pageNum: 1, pageSize: 10 });
    expect(list.json().data.list[0]).toMatchObject({ id, name: 'Lines', itemCount: 2 });
    const got = await call('GET', `/itemgroup/get?groupId=${id}`, a.admin.token);
    expect(got.json().data).toEqual({
      id,
      name: 'Lines',
      items: [
        { itemId: i2.itemId, name: 'G two', kind: 10, nodeId: i2.nodeId },
        { itemId: i1.itemId, name: 'G one', kind: 13, nodeId: i1.nodeId },
      ],
    });

    // a member with the group code sees only the items they can read
    const [role] = await t.db
      .insert(roles)
      .values({ companyId: a.id, name: 'groups', menuCodes: ['smart_data', 'sd_item_group'] })
      .returning();
    await t.db.insert(memberRoles).values({ companyId: a.id, userId: a.limited.id, roleId: role!.id });
    const dir = await makeDirectory(t, a.id);
    const i3 = await makeItem(t, a.id, { parentId: dir, name: 'Hidden' });
    await setPermissions(t, dir, [{ scope: 'company', subjectId: null, level: 0 }]);
    const change = await call('POST', '/itemgroup/save', a.admin.token, {
      id,
      name: 'Lines',
      itemIds: [i1.itemId, i3.itemId],
    });
    expect(change.json().code).toBe(0);
    const members = await t.db.select().from(itemGroupMembers).where(eq(itemGroupMembers.groupId, id));
    expect(members.map((m) => m.itemId).sort()).toEqual([i1.itemId, i3.itemId].sort());
    const asLimited = await call('GET', `/itemgroup/get?groupId=${id}`, a.limited.token);
    expect(asLimited.json().data.items.map((i: { itemId: number }) => i.itemId)).toEqual([i1.itemId]);
    expect(asLimited.body).not.toContain('Hidden');

    expect((await call('POST', '/itemgroup/delete', a.admin.token, { id })).json().code).toBe(0);
    expect(await t.db.select().from(itemGroups).where(eq(itemGroups.id, id))).toEqual([]);
    expect(await item(i1.itemId)).toBeDefined();
  });

  it('refuses a bad name or items of another company, writing nothing', async () => {
    const own = await makeItem(t, a.id);
    const foreign = await makeItem(t, b.id);
    const before = await t.db.select().from(itemGroups).where(eq(itemGroups.companyId, a.id));
    expect(
      (await call('POST', '/itemgroup/save', a.admin.token, { name: '', itemIds: [own.itemId] })).json(),
    ).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'name' },
    });
    expect(
      (
        await call('POST', '/itemgroup/save', a.admin.token, {
          name: 'x',
          itemIds: [own.itemId, foreign.itemId],
        })
      ).json(),
    ).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'itemIds' } });
    expect(await t.db.select().from(itemGroups).where(eq(itemGroups.companyId, a.id))).toEqual(before);
  });
});
