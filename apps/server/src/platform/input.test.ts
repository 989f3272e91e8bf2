/**
 * Hostile input, one attack per rule: each answer is a refusal naming the field, never a 500,
 * and nothing is written. (The request fuzzer, fuzz.test.ts, covers every route at random.)
 */
import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabinNodes } from '../modules/cabin/tables';
import { makeDirectory, makeItem, SAMPLE_FIELDS } from '../modules/cabin/test-support';
import { userGroups } from '../modules/groups/tables';
import { submissionKeys } from '../modules/ingest/tables';
import { dataRecords } from '../modules/records/tables';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../test/helper';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off' });
  a = await makeCompany(t, 'Input A');
});

afterAll(async () => {
  await t.close();
});

async function send(options: InjectOptions) {
  const res = await t.app.inject({
    ...options,
    headers: { ...bearer(a.admin.token), 'accept-language': 'en', ...options.headers },
  });
  return { status: res.statusCode, body: res.json() as { code: number; message: string; data: unknown } };
}

function refusedNaming(field: string) {
  return { status: 400, body: { code: ERROR_CODES.VALIDATION, data: { field } } };
}

describe('an id beyond the database integer range', () => {
  it.each([
    ['a query id', { method: 'GET', url: '/general/smartdata/item/get?itemId=2147483648' }, 'itemId'],
    ['1e308 as a query id', { method: 'GET', url: '/general/smartdata/item/get?itemId=1e308' }, 'itemId'],
    [
      'Infinity as a query id',
      { method: 'GET', url: '/general/smartdata/item/get?itemId=Infinity' },
      'itemId',
    ],
    ['a body id', { method: 'POST', url: '/general/role/deleteRole', payload: { id: 2 ** 31 } }, 'id'],
    [
      'a user id',
      { method: 'POST', url: '/general/user/removeSysUser', payload: { userId: 2 ** 53 - 1 } },
      'userId',
    ],
    [
      'an id in an array',
      { method: 'POST', url: '/general/smartdata/cabin/delete', payload: { ids: [1, 2 ** 31] } },
      'ids.1',
    ],
    [
      'an invitation company',
      { method: 'GET', url: '/general/company/member/agreeInvitation?companyId=1e308' },
      'companyId',
    ],
    [
      'an id inside a JSON-text GET array',
      {
        method: 'POST',
        url: `/general/company/group/addUserToGroup?groupId=1&userIds=${encodeURIComponent('[2147483648]')}`,
      },
      'userIds',
    ],
  ] as const)('is refused naming the field: %s', async (_, request, field) => {
    expect(await send(request as InjectOptions)).toMatchObject(refusedNaming(field));
  });

  it('a page number of 1e308 or Infinity is refused, not turned into a row offset', async () => {
    for (const pageNum of ['1e308', 'Infinity', '100001']) {
      expect(
        await send({ method: 'GET', url: `/general/user/getSysUserList?pageNum=${pageNum}` }),
      ).toMatchObject(refusedNaming('pageNum'));
    }
    expect(
      (await send({ method: 'GET', url: '/general/user/getSysUserList?pageNum=100000' })).body.code,
    ).toBe(0);
  });
});

describe('a body of the wrong JSON type is not coerced', () => {
  it('"ids": 1 does not delete node 1', async () => {
    const node = await makeDirectory(t, a.id);
    expect(
      await send({ method: 'POST', url: '/general/smartdata/cabin/delete', payload: { ids: node } }),
    ).toMatchObject(refusedNaming('ids'));
    expect(await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, node))).toHaveLength(1);
  });

  it('"id": true does not revoke key 1, nor "id": "1"', async () => {
    const created = await send({
      method: 'POST',
      url: '/general/smartdata/key/create',
      payload: { name: 'meter', kind: 'user' },
    });
    const { id } = created.body.data as { id: number };
    for (const bad of [true, String(id), [id]]) {
      expect(
        await send({ method: 'POST', url: '/general/smartdata/key/revoke', payload: { id: bad } }),
      ).toMatchObject(refusedNaming('id'));
    }
    const [key] = await t.db.select().from(submissionKeys).where(eq(submissionKeys.id, id));
    expect(key!.revokedAt).toBeNull();
  });

  it('query strings still read numbers from text', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    expect(
      (await send({ method: 'GET', url: `/general/smartdata/item/get?itemId=${itemId}` })).body.code,
    ).toBe(0);
  });
});

describe('text the database cannot hold', () => {
  it.each([
    [
      'NUL in a name',
      { method: 'POST', url: '/general/company/group/addGroup', payload: { name: 'ops\u0000' } },
      'name',
    ],
    [
      'a lone surrogate in a name',
      { method: 'POST', url: '/general/company/group/addGroup', payload: { name: 'ops\ud800' } },
      'name',
    ],
    ['NUL in a keyword', { method: 'GET', url: '/general/smartdata/cabin/search?keyword=a%00' }, 'keyword'],
    [
      'NUL in an object key',
      {
        method: 'POST',
        url: '/general/smartdata/record/add',
        payload: { itemId: 1, values: { 'a\u0000': 1 } },
      },
      'values',
    ],
    [
      'NUL in a nested value',
      {
        method: 'POST',
        url: '/general/smartdata/item/update',
        payload: { itemId: 1, fields: [{ name: 'a\u0000', type: 5 }] },
      },
      'fields.0.name',
    ],
  ] as const)('is refused naming the field: %s', async (_, request, field) => {
    const groupsBefore = await t.db.select().from(userGroups);
    expect(await send(request as InjectOptions)).toMatchObject(refusedNaming(field));
    expect(await t.db.select().from(userGroups)).toEqual(groupsBefore);
  });

  it('sceneId=%00 on the public scan-login polling route answers 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/user/PollingWXScanLoginStatus?sceneId=%00',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'sceneId' } });
  });

  it('a record value with NUL or a lone surrogate is refused and not stored', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    for (const note of ['a\u0000b', '\udfff']) {
      const res = await send({
        method: 'POST',
        url: '/general/smartdata/record/add',
        payload: { itemId, values: { note } },
      });
      expect(res).toMatchObject({ status: 400, body: { code: ERROR_CODES.VALIDATION } });
    }
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId))).toEqual([]);
  });
});

describe('record times', () => {
  it('a submission with ts -1e15 (or past 9999) is refused naming index, item and field', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const created = await send({
      method: 'POST',
      url: '/general/smartdata/key/create',
      payload: { name: 'm', kind: 'user' },
    });
    const { key } = created.body.data as { key: string };
    for (const ts of [-1e15, 8.64e15, -1, '10000-01-01T00:00:00Z', '0000-01-01']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/smartdata/submit',
        headers: { authorization: key, 'accept-language': 'en' },
        payload: [
          { itemId, f2: 1 },
          { itemId, ts, f2: 2 },
        ],
      });
      expect(res.statusCode, String(ts)).toBe(400);
      expect(res.json(), String(ts)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { index: 1, itemId, field: 'ts' },
      });
    }
    const added = await send({
      method: 'POST',
      url: '/general/smartdata/record/add',
      payload: { itemId, ts: '0001-01-01T00:00:00Z', values: { f2: 1 } },
    });
    expect(added).toMatchObject(refusedNaming('ts'));
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId))).toEqual([]);
  });
});

describe('requests the router cannot read', () => {
  it('a malformed escape or an overlong path parameter gets the envelope naming the url, not a framework error', async () => {
    for (const url of ['/general/user/wxScan/%zz', `/general/user/wxScan/${'x'.repeat(5000)}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url.slice(0, 40)).toBe(400);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'url' } });
    }
  });

  it('a multipart body without a usable boundary, or cut short, is refused, not a server error', async () => {
    const cut = '--b1\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nPNG';
    for (const [type, payload] of [
      ['multipart/form-data', cut],
      [`multipart/form-data; boundary=${'b'.repeat(300)}`, cut],
      ['multipart/form-data; boundary=b1', cut],
    ] as const) {
      const res = await send({
        method: 'POST',
        url: '/general/cos/uploadAvatar',
        payload,
        headers: { 'content-type': type },
      });
      expect(res.status, type.slice(0, 40)).toBe(400);
      expect(res.body.code).toBe(ERROR_CODES.VALIDATION);
    }
  });
});

describe('a body over the size limit', () => {
  it('is answered "request too large", not the 3 MB image message', async () => {
    const res = await send({
      method: 'POST',
      url: '/general/company/group/addGroup',
      payload: JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({
      status: 413,
      body: { code: ERROR_CODES.TOO_LARGE, message: 'The request is too large' },
    });
    expect(res.body.message).not.toContain('3M');
  });
});
