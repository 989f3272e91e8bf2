import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, login, makeCompany, TEST_PASSWORD, type TestApp } from '../../test/helper';
import { addActiveMember } from '../companies/service';
import { companies } from '../companies/tables';
import { DAY, getAs, insertOrder, makeMember, postAs, userRow } from './test-support';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ EXPIRY_NOTICE_DAYS: '14', LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

async function getUser(token: string) {
  const res = await getAs(t, token, '/user/getUser');
  expect(res.json().code).toBe(0);
  return res.json().data;
}

describe('GET /user/getUser', () => {
  it('shows the account, its companies and no order when the company has none', async () => {
    const a = await makeCompany(t, 'Plain Co');
    const me = await getUser(a.admin.token);
    expect(me).toMatchObject({
      userId: a.admin.id,
      userName: 'Plain Co admin',
      phone: a.admin.phone,
      email: null,
      headImgUrl: null,
      orderInfo: null,
      companyId: a.id,
      companies: [{ id: a.id, name: 'Plain Co', displayName: 'Plain Co', logoUrl: null }],
      termsAccepted: false,
      serviceExpiresAt: null,
      expiryNoticeDays: 14,
    });
    expect(me.menuCode).toContain('um_user');
  });

  it("gives the paid order in force now as orderInfo, never another company's", async () => {
    const a = await makeCompany(t, 'Ordering Co');
    const other = await makeCompany(t, 'Other Co');
    await insertOrder(t, other.id, { swProductId: 99, subTypeId: 9 });
    expect((await getUser(a.admin.token)).orderInfo).toBeNull();

    const now = Date.now();
    await insertOrder(t, a.id, { swProductId: 13, subTypeId: 1, startsAt: new Date(now - 100 * DAY) });
    // the later start of two orders in force wins
    await insertOrder(t, a.id, { swProductId: 13, subTypeId: 2, startsAt: new Date(now - 5 * DAY) });
    // neither a cancelled order, a future one nor an ended one counts, however recent
    await insertOrder(t, a.id, {
      swProductId: 14,
      subTypeId: 1,
      status: 'cancelled',
      startsAt: new Date(now - DAY),
    });
    await insertOrder(t, a.id, {
      swProductId: 15,
      subTypeId: 1,
      startsAt: new Date(now + DAY),
      endsAt: new Date(now + 400 * DAY),
    });
    await insertOrder(t, a.id, {
      swProductId: 16,
      subTypeId: 1,
      startsAt: new Date(now - 2 * DAY),
      endsAt: new Date(now - DAY),
    });
    expect((await getUser(a.admin.token)).orderInfo).toEqual({ swProductId: 13, subTypeId: 2 });
    expect((await getUser(a.limited.token)).orderInfo).toEqual({ swProductId: 13, subTypeId: 2 });
  });

  it('takes serviceExpiresAt from the company, or from a paid order that runs longer', async () => {
    const a = await makeCompany(t, 'Expiring Co');
    const own = new Date(Date.now() + 10 * DAY);
    await t.db.update(companies).set({ serviceExpiresAt: own }).where(eq(companies.id, a.id));
    await insertOrder(t, a.id, { endsAt: new Date(Date.now() + 5 * DAY) });
    await insertOrder(t, a.id, { status: 'refunded', endsAt: new Date(Date.now() + 900 * DAY) });
    expect((await getUser(a.admin.token)).serviceExpiresAt).toBe(own.toISOString());

    const longer = new Date(Date.now() + 200 * DAY);
    await insertOrder(t, a.id, { endsAt: longer });
    expect((await getUser(a.admin.token)).serviceExpiresAt).toBe(longer.toISOString());
  });

  it('lists every active company with its logo thumbnail', async () => {
    const a = await makeCompany(t, 'First Co');
    const b = await makeCompany(t, 'Second Co');
    await t.db
      .update(companies)
      .set({ cfg: JSON.stringify({ logoThumbnailUri: '/general/files/public/logos/x-thumb.png' }) })
      .where(eq(companies.id, b.id));
    await addActiveMember(t.db, b.id, a.limited.id, [b.ordinaryRoleId]);
    const me = await getUser(a.limited.token);
    expect(me.companyId).toBe(a.id);
    expect(me.companies).toEqual([
      { id: a.id, name: 'First Co', displayName: 'First Co', logoUrl: null },
      {
        id: b.id,
        name: 'Second Co',
        displayName: 'Second Co',
        logoUrl: '/general/files/public/logos/x-thumb.png',
      },
    ]);
  });
});

describe('POST /user/updateUser', () => {
  it('changes the name (trimmed) and email and returns them', async () => {
    const a = await makeCompany(t, 'Rename Co');
    const res = await postAs(t, a.limited.token, '/user/updateUser', {
      userName: '  王小明 ',
      email: 'xm@example.com',
    });
    expect(res.json()).toEqual({
      code: 0,
      message: 'Operation successful',
      data: { userId: a.limited.id, userName: '王小明', email: 'xm@example.com' },
    });
    expect(await userRow(t, a.limited.id)).toMatchObject({ userName: '王小明', email: 'xm@example.com' });
    expect(await getUser(a.limited.token)).toMatchObject({ userName: '王小明', email: 'xm@example.com' });
  });

  it('clears the email with an empty value and leaves the name alone', async () => {
    const a = await makeCompany(t, 'Clear Co');
    await postAs(t, a.limited.token, '/user/updateUser', { email: 'x@example.com' });
    const res = await postAs(t, a.limited.token, '/user/updateUser', { email: '' });
    expect(res.json().data).toEqual({ userId: a.limited.id, userName: 'Clear Co user', email: null });
  });

  it.each([
    ['', 'nameRequired', 'Please enter a name'],
    ['   ', 'nameRequired', 'Please enter a name'],
    ['x'.repeat(26), 'nameTooLong', 'The length of the name cannot exceed 25 characters'],
  ])('refuses the name %j with the spec message and writes nothing', async (userName, _key, message) => {
    const a = await makeCompany(t, `Bad name ${userName.length}`);
    const res = await postAs(t, a.limited.token, '/user/updateUser', { userName, email: 'ok@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: ERROR_CODES.VALIDATION, message, data: { field: 'userName' } });
    expect(await userRow(t, a.limited.id)).toMatchObject({
      userName: expect.stringContaining('user'),
      email: null,
    });
  });

  it('accepts 25 characters counted as a person counts them', async () => {
    const a = await makeCompany(t, 'Long name Co');
    const name = '名'.repeat(25);
    expect((await postAs(t, a.limited.token, '/user/updateUser', { userName: name })).json().code).toBe(0);
  });

  it('refuses a malformed email by name, in Chinese by default', async () => {
    const a = await makeCompany(t, 'Email Co');
    for (const email of ['not-an-email', 'a@b', 'a b@example.com', 'a@@example.com']) {
      const res = await postAs(t, a.limited.token, '/user/updateUser', { userName: 'New', email }, 'zh');
      expect(res.json(), email).toEqual({
        code: ERROR_CODES.VALIDATION,
        message: '请输入有效的电子邮箱地址',
        data: { field: 'email' },
      });
    }
    expect(await userRow(t, a.limited.id)).toMatchObject({ userName: 'Email Co user', email: null });
  });
});

describe('POST /user/updatePassword', () => {
  it('needs the old password: a wrong one is named and nothing changes', async () => {
    const a = await makeCompany(t, 'Pw wrong Co');
    const res = await postAs(t, a.limited.token, '/user/updatePassword', {
      oldPassword: 'wrong999',
      password: 'newpass123',
    });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'The old password is incorrect',
      data: { field: 'oldPassword' },
    });
    await expect(login(t.app, a.limited.phone, 'newpass123')).rejects.toThrow();
    expect(await login(t.app, a.limited.phone, TEST_PASSWORD)).toBeTruthy();
  });

  it('refuses a weak new password by name', async () => {
    const a = await makeCompany(t, 'Pw weak Co');
    for (const password of ['short1', 'lettersonly', '12345678901']) {
      const res = await postAs(t, a.limited.token, '/user/updatePassword', {
        oldPassword: TEST_PASSWORD,
        password,
      });
      expect(res.json(), password).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'password' },
      });
    }
    expect(await login(t.app, a.limited.phone, TEST_PASSWORD)).toBeTruthy();
  });

  it('sets the new password and ends the other sessions, keeping this one', async () => {
    const a = await makeCompany(t, 'Pw ok Co');
    const other = await login(t.app, a.limited.phone);
    const res = await postAs(t, a.limited.token, '/user/updatePassword', {
      oldPassword: TEST_PASSWORD,
      password: 'newpass123',
    });
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    expect(await login(t.app, a.limited.phone, 'newpass123')).toBeTruthy();
    await expect(login(t.app, a.limited.phone, TEST_PASSWORD)).rejects.toThrow();
    expect((await getAs(t, other, '/user/getUser')).json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect((await getAs(t, a.limited.token, '/user/getUser')).json().code).toBe(0);
  });
});

describe('POST /user/acceptTerms', () => {
  it('needs the box ticked: false or missing is refused and nothing stored', async () => {
    const a = await makeCompany(t, 'Terms no Co');
    const res = await postAs(t, a.limited.token, '/user/acceptTerms', { accepted: false });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'Please read and tick the terms of use before confirming',
      data: { field: 'accepted' },
    });
    const missing = await postAs(t, a.limited.token, '/user/acceptTerms', {});
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'accepted' } });
    expect((await userRow(t, a.limited.id))!.termsAcceptedAt).toBeNull();
    expect((await getUser(a.limited.token)).termsAccepted).toBe(false);
  });

  it('records the first acceptance; accepting again keeps its time', async () => {
    const a = await makeCompany(t, 'Terms yes Co');
    const first = await postAs(t, a.limited.token, '/user/acceptTerms', { accepted: true });
    expect(first.json().code).toBe(0);
    const at = first.json().data.termsAcceptedAt as string;
    expect(new Date(at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await userRow(t, a.limited.id))!.termsAcceptedAt!.toISOString()).toBe(at);
    expect((await getUser(a.limited.token)).termsAccepted).toBe(true);
    const again = await postAs(t, a.limited.token, '/user/acceptTerms', { accepted: true });
    expect(again.json().data.termsAcceptedAt).toBe(at);
  });
});

describe('GET /user/getMyAssignments', () => {
  it('answers an empty page until task automation lands', async () => {
    const a = await makeCompany(t, 'Tasks Co');
    const res = await getAs(t, a.limited.token, '/user/getMyAssignments', { pageNum: '2', pageSize: '5' });
    expect(res.json()).toEqual({
      code: 0,
      message: 'success',
      data: { list: [], total: 0, pageNum: 2, pageSize: 5 },
    });
  });

  it('names a bad paging field', async () => {
    const a = await makeCompany(t, 'Tasks paging Co');
    const res = await getAs(t, a.limited.token, '/user/getMyAssignments', { pageSize: '101' });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'pageSize' } });
  });

  it('needs pc_my_assignment', async () => {
    const a = await makeCompany(t, 'Tasks denied Co');
    const nobody = await makeMember(t, a, []);
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/user/getMyAssignments',
      headers: bearer(nobody.token),
    });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
  });
});
