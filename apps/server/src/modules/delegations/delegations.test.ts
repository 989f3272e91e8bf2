import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  login,
  makeCompany,
  nextPhone,
  TEST_PASSWORD,
  type TestApp,
  type TestCompany,
} from '../../test/helper';
import { addActiveMember } from '../companies/service';
import { companyMembers } from '../companies/tables';
import { createUser } from '../users/service';
import { alertDelegations } from './tables';

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
    url: `/general/company${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

/** A fresh active member of the company, with a token. */
async function member(company: TestCompany, userName: string) {
  const user = await createUser(t.db, { phone: nextPhone(), userName, password: TEST_PASSWORD });
  await addActiveMember(t.db, company.id, user.id, [company.ordinaryRoleId]);
  return { id: user.id, phone: user.phone, token: await login(t.app, user.phone) };
}

async function delegationsOf(delegatorId: number) {
  return t.db.select().from(alertDelegations).where(eq(alertDelegations.delegatorId, delegatorId));
}

describe('POST company/addAlertDelegator and the two lists', () => {
  it("adds a delegate, who then sees the delegator; each list holds only the caller's side", async () => {
    const boss = await member(a, 'Boss');
    const deputy = await member(a, 'Deputy');
    const res = await call('POST', '/addAlertDelegator', boss.token, { delegateId: deputy.id });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const id = res.json().data.id as number;
    expect(await delegationsOf(boss.id)).toMatchObject([{ id, companyId: a.id, delegateId: deputy.id }]);

    const mine = (await call('GET', '/getAlertDelegations', boss.token)).json().data;
    expect(mine).toEqual([
      {
        id,
        delegateId: deputy.id,
        delegateName: 'Deputy',
        delegatePhone: deputy.phone,
        createdAt: expect.any(String),
      },
    ]);
    expect(Number.isNaN(Date.parse(mine[0].createdAt))).toBe(false);
    expect((await call('GET', '/getAlertDelegatorList', boss.token)).json().data).toEqual([]);

    const theirs = (await call('GET', '/getAlertDelegatorList', deputy.token)).json().data;
    expect(theirs).toEqual([
      {
        id,
        delegatorId: boss.id,
        delegatorName: 'Boss',
        delegatorPhone: boss.phone,
        createdAt: mine[0].createdAt,
      },
    ]);
    expect((await call('GET', '/getAlertDelegations', deputy.token)).json().data).toEqual([]);
  });

  it('refuses the caller as their own delegate', async () => {
    const res = await call('POST', '/addAlertDelegator', a.admin.token, { delegateId: a.admin.id });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'You cannot delegate alerts to yourself',
      data: { field: 'delegateId' },
    });
    expect(await delegationsOf(a.admin.id)).toEqual([]);
  });

  it('refuses anyone who is not an active member of the current company', async () => {
    const invited = await createUser(t.db, { phone: nextPhone(), userName: 'invited' });
    await t.db.insert(companyMembers).values({ companyId: a.id, userId: invited.id, status: 'invited' });
    for (const delegateId of [b.admin.id, invited.id, 999999]) {
      const res = await call('POST', '/addAlertDelegator', a.admin.token, { delegateId });
      expect(res.json()).toEqual({
        code: ERROR_CODES.VALIDATION,
        message: 'This user is not a member of the company',
        data: { field: 'delegateId' },
      });
    }
    expect(await delegationsOf(a.admin.id)).toEqual([]);
  });

  it('refuses a repeat', async () => {
    const boss = await member(a, 'Repeat boss');
    await call('POST', '/addAlertDelegator', boss.token, { delegateId: a.limited.id });
    const res = await call('POST', '/addAlertDelegator', boss.token, { delegateId: a.limited.id });
    expect(res.json()).toEqual({
      code: ERROR_CODES.CONFLICT,
      message: 'Alerts are already delegated to this user',
      data: { field: 'delegateId' },
    });
    expect(await delegationsOf(boss.id)).toHaveLength(1);
  });

  it('names a missing or malformed delegateId', async () => {
    for (const payload of [{}, { delegateId: 'x' }, { delegateId: 0 }]) {
      const res = await call('POST', '/addAlertDelegator', a.admin.token, payload);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'delegateId' } });
    }
  });

  it('keeps each company to its own delegations after a switch', async () => {
    const both = await member(a, 'Two hats');
    await addActiveMember(t.db, b.id, both.id, [b.ordinaryRoleId]);
    await call('POST', '/addAlertDelegator', both.token, { delegateId: a.limited.id });
    expect((await call('GET', '/getAlertDelegations', both.token)).json().data).toHaveLength(1);
    await t.app.inject({
      method: 'POST',
      url: '/general/company/switchCompany',
      payload: { companyId: b.id },
      headers: bearer(both.token),
    });
    expect((await call('GET', '/getAlertDelegations', both.token)).json().data).toEqual([]);
  });
});

describe('POST company/deleteAlertDelegator', () => {
  it("deletes the caller's own delegation only", async () => {
    const boss = await member(a, 'Deleting boss');
    const deputy = await member(a, 'Deleting deputy');
    const id = (await call('POST', '/addAlertDelegator', boss.token, { delegateId: deputy.id })).json().data
      .id;

    // the delegate cannot remove it, nor can another member
    for (const token of [deputy.token, a.admin.token]) {
      const res = await call('POST', '/deleteAlertDelegator', token, { id });
      expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    }
    expect(await delegationsOf(boss.id)).toHaveLength(1);

    const res = await call('POST', '/deleteAlertDelegator', boss.token, { id });
    expect(res.json()).toEqual({ code: 0, message: 'Delete successfully', data: null });
    expect(await delegationsOf(boss.id)).toEqual([]);
    const again = await call('POST', '/deleteAlertDelegator', boss.token, { id });
    expect(again.json().code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('names a missing id', async () => {
    const res = await call('POST', '/deleteAlertDelegator', a.admin.token, {});
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'id' } });
  });
});
