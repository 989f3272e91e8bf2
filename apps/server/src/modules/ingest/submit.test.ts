import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/tokens';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { dataItems } from '../dataitems/tables';
import { dataRecords } from '../records/tables';
import { memberRoles } from '../roles/tables';
import { makeMember, makeRole } from '../users/test-support';
import { invalidateItem } from './pipeline';
import { submitEach } from './submit';
import { submissionKeys } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Submit A');
  b = await makeCompany(t, 'Submit B');
});

afterAll(async () => {
  await t.close();
});

async function newKey(token: string, body: Record<string, unknown> = { name: 'meter', kind: 'user' }) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/general/smartdata/key/create',
    payload: body,
    headers: bearer(token),
  });
  expect(res.json().code).toBe(0);
  return res.json().data as { id: number; key: string };
}

function post(key: string, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/general/smartdata/submit',
    payload: payload as Record<string, unknown>,
    headers: { authorization: key, 'accept-language': 'en' },
  });
}

async function recordsOf(itemId: number) {
  return t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId)).orderBy(dataRecords.id);
}

describe('submission keys', () => {
  it('shows a key once, stores only its hash, lists it by prefix and revokes it', async () => {
    const { id, key } = await newKey(a.limited.token);
    expect(key).toMatch(/^sdk_[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(submissionKeys).where(eq(submissionKeys.id, id));
    expect(row).toMatchObject({ keyHash: sha256(key), prefix: key.slice(0, 12), userId: a.limited.id });
    expect(JSON.stringify(row)).not.toContain(key);

    const list = await t.app.inject({
      method: 'GET',
      url: '/general/smartdata/key/list',
      headers: bearer(a.limited.token),
    });
    expect(list.json().data).toEqual([
      expect.objectContaining({ id, name: 'meter', kind: 'user', prefix: key.slice(0, 12), revokedAt: null }),
    ]);
    expect(list.body).not.toContain(key);
    // another member of the same company neither sees nor revokes it
    const other = await t.app.inject({
      method: 'GET',
      url: '/general/smartdata/key/list',
      headers: bearer(a.admin.token),
    });
    expect(other.json().data).toEqual([]);
    const stolen = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/revoke',
      payload: { id },
      headers: bearer(a.admin.token),
    });
    expect(stolen.json().code).toBe(ERROR_CODES.NOT_FOUND);

    const revoked = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/revoke',
      payload: { id },
      headers: bearer(a.limited.token),
    });
    expect(revoked.json().code).toBe(0);
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const res = await post(key, { itemId, f1: 1 });
    expect(res.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect(await recordsOf(itemId)).toEqual([]);
  });

  it('needs a name, and a device id for device keys', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/create',
      payload: { name: 'gw', kind: 'device' },
      headers: bearer(a.admin.token),
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'deviceId' } });
    const noName = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/create',
      payload: { name: ' ', kind: 'user' },
      headers: bearer(a.admin.token),
    });
    expect(noName.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'name' } });
  });
});

describe('POST /general/smartdata/submit', () => {
  it('writes one record by field names and keys, answered with the success message', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { key } = await newKey(a.limited.token);
    const res = await post(key, { itemId, ts: '2026-11-23T08:00:00Z', 温度: 21.456, f2: '3', note: 'ok' });
    expect(res.json()).toEqual({ code: 0, message: 'Data Submission Successful', data: { count: 1 } });
    const [row] = await recordsOf(itemId);
    expect(row).toMatchObject({
      values: { f1: 21.46, f2: 3, f3: 'ok' },
      source: 'http',
      createdBy: a.limited.id,
      companyId: a.id,
    });
    expect(row!.ts.toISOString()).toBe('2026-11-23T08:00:00.000Z');
    const zh = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/submit',
      payload: { itemId, f2: 4 },
      headers: { authorization: key },
    });
    expect(zh.json().message).toBe('数据提交成功');
  });

  it('writes a batch all or nothing', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { key } = await newKey(a.admin.token);
    const batch = Array.from({ length: 50 }, (_, i) => ({ itemId, f2: i }));
    const res = await post(key, batch);
    expect(res.json()).toMatchObject({ code: 0, data: { count: 50 } });
    expect((await recordsOf(itemId)).map((r) => r.values.f2)).toEqual(batch.map((r) => r.f2));

    const bad = await post(key, [
      { itemId, f2: 1 },
      { itemId, f2: 2 },
      { itemId, count: 'x' },
    ]);
    expect(bad.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { index: 2, itemId, field: 'f2' },
    });
    expect(bad.json().data.message).toContain('count');
    expect(await recordsOf(itemId)).toHaveLength(50);

    const noItem = await post(key, [{ itemId, f2: 1 }, { f2: 2 }]);
    expect(noItem.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { index: 1, field: 'itemId' },
    });
    const tooMany = await post(
      key,
      Array.from({ length: 5001 }, () => ({ itemId })),
    );
    expect(tooMany.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'records' } });
    expect(await recordsOf(itemId)).toHaveLength(50);
  });

  it('refuses unknown and malformed keys', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    for (const key of ['sdk_nope', 'nonsense', '']) {
      const res = await post(key, { itemId, f2: 1 });
      expect(res.json().code, key).toBe(ERROR_CODES.TOKEN_INVALID);
    }
    const none = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/submit',
      payload: { itemId },
    });
    expect(none.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect(await recordsOf(itemId)).toEqual([]);
  });

  it("refuses another company's item as absent", async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { key } = await newKey(b.admin.token);
    const res = await post(key, { itemId, f2: 1 });
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { index: 0, itemId, field: 'itemId' },
    });
    expect(await recordsOf(itemId)).toEqual([]);
  });

  it("follows the key user's data permission: read only 40300, none 40400, public collection allowed", async () => {
    const readOnly = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const hidden = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await setPermissions(t, readOnly.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    await setPermissions(t, hidden.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
    const { key } = await newKey(a.limited.token);
    const ro = await post(key, { itemId: readOnly.itemId, f2: 1 });
    expect(ro.json()).toMatchObject({ code: ERROR_CODES.FORBIDDEN, data: { itemId: readOnly.itemId } });
    const no = await post(key, [{ itemId: readOnly.itemId }, { itemId: hidden.itemId, f2: 1 }]);
    expect(no.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const hid = await post(key, { itemId: hidden.itemId, f2: 1 });
    expect(hid.json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await recordsOf(readOnly.itemId)).toEqual([]);
    expect(await recordsOf(hidden.itemId)).toEqual([]);

    await t.db.update(dataItems).set({ publicCollect: true }).where(eq(dataItems.id, readOnly.itemId));
    invalidateItem(readOnly.itemId);
    expect((await post(key, { itemId: readOnly.itemId, f2: 1 })).json().code).toBe(0);
    expect(await recordsOf(readOnly.itemId)).toHaveLength(1);
  });

  it('lets a device key write only to items naming its device, or public ones', async () => {
    const fed = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, kind: 13 });
    const other = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, kind: 13 });
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: 'GW-001', deviceName: 'gateway' }] })
      .where(eq(dataItems.id, fed.itemId));
    invalidateItem(fed.itemId);
    const { key } = await newKey(a.admin.token, { name: 'gateway', kind: 'device', deviceId: 'GW-001' });
    expect((await post(key, { itemId: fed.itemId, f1: 3.5 })).json().code).toBe(0);
    const refused = await post(key, { itemId: other.itemId, f1: 3.5 });
    expect(refused.json()).toMatchObject({ code: ERROR_CODES.FORBIDDEN, data: { itemId: other.itemId } });
    expect(await recordsOf(other.itemId)).toEqual([]);
    expect((await recordsOf(fed.itemId))[0]!.values).toEqual({ f1: 3.5 });
  });

  it('stops working when the key user leaves the company', async () => {
    const c = await makeCompany(t, 'Submit C');
    const { itemId } = await makeItem(t, c.id, { fields: SAMPLE_FIELDS });
    const { key } = await newKey(c.limited.token);
    expect((await post(key, { itemId, f2: 1 })).json().code).toBe(0);
    const { companyMembers } = await import('../companies/tables');
    await t.db
      .update(companyMembers)
      .set({ status: 'refused' })
      .where(eq(companyMembers.userId, c.limited.id));
    expect((await post(key, { itemId, f2: 2 })).json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect(await recordsOf(itemId)).toHaveLength(1);
  });
});

describe('a key writes only where its holder may write', () => {
  async function memberWith(company: TestCompany, codes: string[]) {
    const role = await makeRole(t, company.id, codes);
    return { role, member: await makeMember(t, company, [role]) };
  }

  it('a member with only pc_my_order cannot create a key, so cannot write into an item', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { member } = await memberWith(a, ['pc_my_order']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/create',
      payload: { name: 'sneaky', kind: 'user' },
      headers: { ...bearer(member.token), 'accept-language': 'en' },
    });
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.FORBIDDEN,
      message: 'You do not have permission for this operation',
    });
    expect(await t.db.select().from(submissionKeys).where(eq(submissionKeys.userId, member.id))).toEqual([]);
    const device = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/create',
      payload: { name: 'sneaky', kind: 'device', deviceId: 'GW-1' },
      headers: bearer(member.token),
    });
    expect(device.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(await recordsOf(itemId)).toEqual([]);
  });

  it('a key whose holder later lost the data cabin code is refused at each submission, HTTP and MQTT alike', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { member } = await memberWith(a, ['smart_data', 'sd_capsule']);
    const { key } = await newKey(member.token);
    expect((await post(key, { itemId, f2: 1 })).json().code).toBe(0);

    const orders = await makeRole(t, a.id, ['pc_my_order']);
    await t.db.delete(memberRoles).where(eq(memberRoles.userId, member.id));
    await t.db.insert(memberRoles).values({ companyId: a.id, userId: member.id, roleId: orders });
    expect((await post(key, { itemId, f2: 2 })).json()).toMatchObject({
      code: ERROR_CODES.FORBIDDEN,
      message: 'You do not have permission for this operation',
    });
    const answers = await submitEach(
      t.app,
      key,
      [
        { itemId, f2: 3 },
        { itemId, f2: 4 },
      ],
      'mqtt',
      'en',
    );
    expect(answers.map((x) => x.code)).toEqual([ERROR_CODES.FORBIDDEN, ERROR_CODES.FORBIDDEN]);
    expect((await recordsOf(itemId)).map((r) => r.values.f2)).toEqual([1]);
    // public collection does not help either: the key is the holder's, and the holder lost the code
    await t.db.update(dataItems).set({ publicCollect: true }).where(eq(dataItems.id, itemId));
    invalidateItem(itemId);
    expect((await post(key, { itemId, f2: 5 })).json().code).toBe(ERROR_CODES.FORBIDDEN);

    // with the code back, the same key writes again (revoke it to end it for good)
    const cabin = await makeRole(t, a.id, ['sd_capsule']);
    await t.db.insert(memberRoles).values({ companyId: a.id, userId: member.id, roleId: cabin });
    expect((await post(key, { itemId, f2: 6 })).json().code).toBe(0);
    expect((await recordsOf(itemId)).map((r) => r.values.f2)).toEqual([1, 6]);
  });

  it('a key whose holder later lost write permission on the item is refused at submission', async () => {
    const { itemId, nodeId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { member } = await memberWith(a, ['sd_capsule']);
    const { key } = await newKey(member.token);
    expect((await post(key, { itemId, f2: 1 })).json().code).toBe(0);
    await setPermissions(t, nodeId, [{ scope: 'user', subjectId: member.id, level: 1 }]);
    expect((await post(key, { itemId, f2: 2 })).json()).toMatchObject({
      code: ERROR_CODES.FORBIDDEN,
      data: { index: 0, itemId, field: 'itemId' },
    });
    await setPermissions(t, nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
    expect((await post(key, { itemId, f2: 3 })).json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await recordsOf(itemId)).map((r) => r.values.f2)).toEqual([1]);
  });

  it('a device key writes only where its holder may write, not wherever the item names the device', async () => {
    const fed = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, kind: 13 });
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: 'GW-HIDDEN', deviceName: 'gateway' }] })
      .where(eq(dataItems.id, fed.itemId));
    invalidateItem(fed.itemId);
    await setPermissions(t, fed.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    const { key } = await newKey(a.limited.token, { name: 'gw', kind: 'device', deviceId: 'GW-HIDDEN' });
    expect((await post(key, { itemId: fed.itemId, f1: 1 })).json()).toMatchObject({
      code: ERROR_CODES.FORBIDDEN,
      data: { itemId: fed.itemId },
    });
    await setPermissions(t, fed.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    expect((await post(key, { itemId: fed.itemId, f1: 2 })).json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await recordsOf(fed.itemId)).toEqual([]);
    await setPermissions(t, fed.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 2 }]);
    expect((await post(key, { itemId: fed.itemId, f1: 3 })).json().code).toBe(0);
  });
});

describe('submitEach (messages of one key that arrive together)', () => {
  it('answers each as it would be answered alone, in one commit; a bad one refuses only itself', async () => {
    const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const readOnly = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await setPermissions(t, readOnly.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    const { key } = await newKey(a.limited.token);
    await t.app.ingest.idle();
    const flushes = t.app.ingest.stats.flushes;
    const answers = await submitEach(
      t.app,
      key,
      [
        { itemId: item.itemId, f2: 1 },
        [
          { itemId: item.itemId, f2: 2 },
          { itemId: item.itemId, count: 'x' },
        ],
        { itemId: readOnly.itemId, f2: 3 },
        [],
        [
          { itemId: item.itemId, f2: 4 },
          { itemId: item.itemId, f2: 5 },
        ],
        { itemId: 2_000_000_000, f2: 6 },
      ],
      'mqtt',
      'en',
    );
    expect(answers.map((x) => x.code)).toEqual([
      0,
      ERROR_CODES.VALIDATION,
      ERROR_CODES.FORBIDDEN,
      ERROR_CODES.VALIDATION,
      0,
      ERROR_CODES.NOT_FOUND,
    ]);
    expect(answers[0]).toEqual({ code: 0, message: 'Data Submission Successful', data: { count: 1 } });
    expect(answers[1]).toMatchObject({ data: { index: 1, itemId: item.itemId, field: 'f2' } });
    expect(answers[3]).toMatchObject({ data: { field: 'records' } });
    expect(answers[4]!.data).toEqual({ count: 2 });
    // the two accepted calls went into one transaction
    expect(t.app.ingest.stats.flushes - flushes).toBe(1);
    expect((await recordsOf(item.itemId)).map((r) => r.values.f2)).toEqual([1, 4, 5]);
    expect(await recordsOf(readOnly.itemId)).toEqual([]);
  });

  it('refuses every message when the key is not valid, writing nothing', async () => {
    const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const answers = await submitEach(
      t.app,
      'sdk_unknown',
      [
        { itemId: item.itemId, f2: 1 },
        { itemId: item.itemId, f2: 2 },
      ],
      'mqtt',
      'en',
    );
    expect(answers.map((x) => x.code)).toEqual([ERROR_CODES.TOKEN_INVALID, ERROR_CODES.TOKEN_INVALID]);
    expect(await recordsOf(item.itemId)).toEqual([]);
  });
});

describe('submission with a login token (spec point 1: "an Authorization header carrying the login key")', () => {
  it('writes as the token user, with the same checks as a key of theirs', async () => {
    const writable = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const res = await post(`Bearer ${a.limited.token}`, { itemId: writable.itemId, f1: 21.5 });
    expect(res.json()).toEqual({ code: 0, message: 'Data Submission Successful', data: { count: 1 } });
    expect((await recordsOf(writable.itemId)).map((r) => [r.createdBy, r.source, r.values.f1])).toEqual([
      [a.limited.id, 'http', 21.5],
    ]);
    // the bare token works as the bare key does
    expect((await post(a.limited.token, { itemId: writable.itemId, f1: 22 })).json().code).toBe(0);
  });

  it('refuses what the token user may not write: read-only, hidden, another company', async () => {
    const readOnly = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await setPermissions(t, readOnly.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    const hidden = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await setPermissions(t, hidden.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    const theirs = await makeItem(t, b.id, { fields: SAMPLE_FIELDS });
    const cases: Array<[number, number]> = [
      [readOnly.itemId, ERROR_CODES.FORBIDDEN],
      [hidden.itemId, ERROR_CODES.NOT_FOUND],
      [theirs.itemId, ERROR_CODES.NOT_FOUND],
    ];
    for (const [itemId, code] of cases) {
      const res = await post(`Bearer ${a.limited.token}`, { itemId, f1: 1 });
      expect(res.json(), String(itemId)).toMatchObject({ code, data: { index: 0, itemId, field: 'itemId' } });
      expect(await recordsOf(itemId)).toEqual([]);
    }
  });

  it('refuses a revoked or unknown token, and a user without the data cabin code', async () => {
    const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const member = await makeMember(t, a, [await makeRole(t, a.id, ['pc_my_order'])]);
    const refused = await post(`Bearer ${member.token}`, { itemId: item.itemId, f1: 1 });
    expect(refused.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const out = await makeMember(t, a, [a.ordinaryRoleId]);
    await t.app.inject({ method: 'GET', url: '/general/user/access/logout', headers: bearer(out.token) });
    expect((await post(`Bearer ${out.token}`, { itemId: item.itemId, f1: 1 })).json().code).toBe(
      ERROR_CODES.TOKEN_INVALID,
    );
    expect((await post('Bearer not-a-token', { itemId: item.itemId, f1: 1 })).json().code).toBe(
      ERROR_CODES.TOKEN_INVALID,
    );
    expect(await recordsOf(item.itemId)).toEqual([]);
  });
});
