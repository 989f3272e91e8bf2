import { ERROR_CODES } from '@platform/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, login, makeCompany, nextPhone, TEST_PASSWORD, type TestApp } from '../../test/helper';
import { tokens } from '../auth/tables';
import { ageCodes, getToken, postJson, requestCode } from '../auth/test-support';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { addActiveMember } from '../companies/service';
import { companyMembers } from '../companies/tables';
import { alertDelegations } from '../delegations/tables';
import { groupMembers, userGroups } from '../groups/tables';
import { dataRecords } from '../records/tables';
import { createUser, findUserByPhone } from './service';
import { users } from './tables';
import { getAs, makeMember, makeRole, membershipRow, postAs, roleIdsHeld, userRow } from './test-support';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

/** A user of another company's making, for cross-company cases. */
async function invite(companyId: number, userId: number, roleIds: number[]) {
  await t.db.insert(companyMembers).values({ companyId, userId, status: 'invited', invitedRoleIds: roleIds });
}

interface SysUser {
  userId: number;
  userName: string;
  phone: string;
  status: number;
  memberStatus: string;
  roleIds: number[];
  roleNames: string[];
  joinedAt: string | null;
}

async function liveTokenCount(userId: number): Promise<number> {
  const rows = await t.db
    .select({ id: tokens.id })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), isNull(tokens.revokedAt)));
  return rows.length;
}

async function sysUsers(token: string, query: Record<string, string> = {}) {
  const res = await getAs(t, token, '/user/getSysUserList', { pageSize: '100', ...query });
  expect(res.json().code).toBe(0);
  return res.json().data as { list: SysUser[]; total: number; pageNum: number; pageSize: number };
}

describe('GET /user/getSysUserList', () => {
  it('lists active and invited members with their roles; refused ones are not listed', async () => {
    const a = await makeCompany(t, 'List Co');
    const invitee = await createUser(t.db, { phone: nextPhone(), userName: 'Invitee' });
    await invite(a.id, invitee.id, [a.adminRoleId]);
    const refuser = await createUser(t.db, { phone: nextPhone(), userName: 'Refuser' });
    await t.db.insert(companyMembers).values({ companyId: a.id, userId: refuser.id, status: 'refused' });

    const page = await sysUsers(a.admin.token);
    expect(page.total).toBe(3);
    expect(page.list).toEqual([
      {
        userId: a.admin.id,
        userName: 'List Co admin',
        phone: a.admin.phone,
        status: 1,
        memberStatus: 'active',
        roleIds: [a.adminRoleId],
        roleNames: ['管理员'],
        joinedAt: expect.any(String),
      },
      {
        userId: a.limited.id,
        userName: 'List Co user',
        phone: a.limited.phone,
        status: 1,
        memberStatus: 'active',
        roleIds: [a.ordinaryRoleId],
        roleNames: ['普通用户'],
        joinedAt: expect.any(String),
      },
      {
        // invited without a name: the phone stands for it, not the account's name
        userId: invitee.id,
        userName: invitee.phone,
        phone: invitee.phone,
        status: 1,
        memberStatus: 'invited',
        roleIds: [a.adminRoleId],
        roleNames: ['管理员'],
        joinedAt: null,
      },
    ]);
  });

  it('matches the keyword in the name or the phone, wildcards literally, and pages', async () => {
    const a = await makeCompany(t, 'Search Co');
    const byName = await sysUsers(a.admin.token, { keyword: 'co USER' });
    expect(byName.list.map((u) => u.userId)).toEqual([a.limited.id]);
    const byPhone = await sysUsers(a.admin.token, { keyword: a.admin.phone.slice(-6) });
    expect(byPhone.list.map((u) => u.userId)).toEqual([a.admin.id]);
    expect((await sysUsers(a.admin.token, { keyword: '%' })).total).toBe(0);
    expect((await sysUsers(a.admin.token, { keyword: '_' })).total).toBe(0);

    const second = await sysUsers(a.admin.token, { pageNum: '2', pageSize: '1' });
    expect(second).toMatchObject({ total: 2, pageNum: 2, pageSize: 1 });
    expect(second.list.map((u) => u.userId)).toEqual([a.limited.id]);
  });

  it('names bad paging fields', async () => {
    const a = await makeCompany(t, 'Paging Co');
    for (const [field, value] of [
      ['pageSize', '0'],
      ['pageSize', '101'],
      ['pageNum', '0'],
      ['pageNum', 'x'],
    ]) {
      const res = await getAs(t, a.admin.token, '/user/getSysUserList', { [field!]: value! });
      expect(res.json(), `${field}=${value}`).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
  });
});

describe('POST /user/addSysUser', () => {
  const INVITATION_SENT = {
    code: 0,
    message: 'Invitation sent: the person joins when they accept it',
    data: null,
  };

  it("adding another company's user by phone does not enrol them: it only invites, and reveals nothing of the account", async () => {
    const a = await makeCompany(t, 'Poacher Co');
    const other = await makeCompany(t, 'Elsewhere Co');
    const res = await postAs(t, a.admin.token, '/user/addSysUser', {
      phone: other.limited.phone,
      userName: 'Renamed by A',
      password: 'takeover99',
      roleIds: [a.ordinaryRoleId],
    });
    expect(res.json()).toEqual(INVITATION_SENT);
    expect(res.body).not.toContain('Elsewhere');
    // a pending invitation, no role, no company change, no new password
    expect(await membershipRow(t, a.id, other.limited.id)).toMatchObject({
      status: 'invited',
      invitedBy: a.admin.id,
      invitedRoleIds: [a.ordinaryRoleId],
      invitedName: 'Renamed by A',
      joinedAt: null,
    });
    expect(await roleIdsHeld(t, a.id, other.limited.id)).toEqual([]);
    expect(await userRow(t, other.limited.id)).toMatchObject({
      userName: 'Elsewhere Co user',
      currentCompanyId: other.id,
      unclaimed: false,
    });
    await expect(login(t.app, other.limited.phone, 'takeover99')).rejects.toThrow();
    const me = (await getAs(t, other.limited.token, '/user/getUser')).json().data;
    expect(me.companies.map((c: { id: number }) => c.id)).toEqual([other.id]);
    // the company sees its own label for the person, never the account's name or status
    const row = (await sysUsers(a.admin.token)).list.find((u) => u.phone === other.limited.phone);
    expect(row).toEqual({
      userId: other.limited.id,
      userName: 'Renamed by A',
      phone: other.limited.phone,
      status: 1,
      memberStatus: 'invited',
      roleIds: [a.ordinaryRoleId],
      roleNames: ['普通用户'],
      joinedAt: null,
    });
    expect((await sysUsers(a.admin.token, { keyword: 'Elsewhere' })).total).toBe(0);
    // the person sees the invitation, and joins only by agreeing
    const invitations = (await getAs(t, other.limited.token, '/company/member/getMyInvitations')).json().data;
    expect(invitations.map((i: { companyId: number }) => i.companyId)).toEqual([a.id]);
    await getAs(t, other.limited.token, '/company/member/agreeInvitation', { companyId: String(a.id) });
    expect(await roleIdsHeld(t, a.id, other.limited.id)).toEqual([a.ordinaryRoleId]);
    const joined = (await sysUsers(a.admin.token)).list.find((u) => u.phone === other.limited.phone);
    expect(joined).toMatchObject({ userName: 'Elsewhere Co user', memberStatus: 'active' });
  });

  it('answers alike whether or not the phone has an account, enabled or disabled', async () => {
    const a = await makeCompany(t, 'Prober Co');
    const registered = await createUser(t.db, {
      phone: nextPhone(),
      userName: 'Known',
      password: TEST_PASSWORD,
    });
    const disabled = await createUser(t.db, { phone: nextPhone(), userName: 'Off', password: TEST_PASSWORD });
    await t.db.update(users).set({ status: 0 }).where(eq(users.id, disabled.id));
    const fresh = nextPhone();
    const answers = [];
    for (const phone of [registered.phone, disabled.phone, fresh]) {
      const res = await postAs(t, a.admin.token, '/user/addSysUser', {
        phone,
        userName: 'Probe',
        roleIds: [],
      });
      answers.push({ status: res.statusCode, body: res.json(), headers: Object.keys(res.headers).sort() });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]!.body).toEqual(INVITATION_SENT);
    const rows = (await sysUsers(a.admin.token)).list.filter((u) => u.memberStatus === 'invited');
    const shape = rows.map(({ userId: _id, phone: _phone, ...rest }) => rest);
    expect(shape).toEqual([0, 1, 2].map(() => ({ ...shape[0] })));
    expect(shape[0]).toEqual({
      userName: 'Probe',
      status: 1,
      memberStatus: 'invited',
      roleIds: [],
      roleNames: [],
      joinedAt: null,
    });
  });

  it('a new phone gets an unclaimed account without a password the admin chose; its owner claims it by registering with an SMS code and accepts', async () => {
    const a = await makeCompany(t, 'Newcomer Co');
    const phone = nextPhone();
    const res = await postAs(t, a.admin.token, '/user/addSysUser', {
      phone,
      userName: ' 新同事 ',
      password: 'chosen1234',
      roleIds: [a.ordinaryRoleId],
    });
    expect(res.json()).toEqual(INVITATION_SENT);
    const account = await findUserByPhone(t.db, phone);
    expect(account).toMatchObject({
      passwordHash: null,
      unclaimed: true,
      userName: `用户${phone.slice(-4)}`,
      currentCompanyId: null,
    });
    expect(await membershipRow(t, a.id, account!.id)).toMatchObject({
      status: 'invited',
      invitedName: '新同事',
    });
    await expect(login(t.app, phone, 'chosen1234')).rejects.toThrow();

    // the phone's owner registers as if the phone were new, with their own name and password
    const code = await requestCode(t, phone);
    const registered = await postJson(t, '/user/addUser', {
      phone,
      smsCode: code,
      password: 'mine12345',
      userName: '真名',
    });
    expect(registered.json()).toMatchObject({ code: 0, data: { token: expect.any(String) } });
    expect(await userRow(t, account!.id)).toMatchObject({ userName: '真名', unclaimed: false });
    const token = await login(t.app, phone, 'mine12345');
    // the invitation waits for their answer: no company, no codes yet
    expect((await getAs(t, token, '/user/getUser')).json().data).toMatchObject({
      companyId: null,
      menuCode: [],
    });
    const invitations = (await getAs(t, token, '/company/member/getMyInvitations')).json().data;
    expect(invitations).toEqual([
      expect.objectContaining({ companyId: a.id, invitedBy: 'Newcomer Co admin' }),
    ]);
    await getAs(t, token, '/company/member/agreeInvitation', { companyId: String(a.id) });
    const me = (await getAs(t, token, '/user/getUser')).json().data;
    expect(me).toMatchObject({ companyId: a.id, userName: '真名' });
    expect(me.menuCode).toEqual(['pc_my_assignment', 'pc_my_order', 'sd_capsule', 'smart_data']);
    // once claimed, the phone is taken (said to whoever proves the phone with a new code)
    await ageCodes(t, phone);
    const fresh = await requestCode(t, phone);
    const again = await postJson(t, '/user/addUser', { phone, smsCode: fresh, password: 'other1234' });
    expect(again.json()).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'phone' } });
  });

  it("a new phone's owner can also claim the account by logging in with an SMS code", async () => {
    const a = await makeCompany(t, 'Sms claim Co');
    const phone = nextPhone();
    await postAs(t, a.admin.token, '/user/addSysUser', { phone, userName: 'Driver', roleIds: [] });
    const code = await requestCode(t, phone);
    const res = await getToken(t, { phone, smsCode: code });
    expect(res.json().code).toBe(0);
    expect((await findUserByPhone(t.db, phone))!.unclaimed).toBe(false);
    const invitations = (await getAs(t, res.json().data.token, '/company/member/getMyInvitations')).json()
      .data;
    expect(invitations.map((i: { companyId: number }) => i.companyId)).toEqual([a.id]);
  });

  it('renews a pending invitation with the roles given; it stays pending', async () => {
    const a = await makeCompany(t, 'Invited Co');
    const invitee = await createUser(t.db, { phone: nextPhone(), userName: 'Pending' });
    await invite(a.id, invitee.id, [a.adminRoleId]);
    const res = await postAs(t, a.admin.token, '/user/addSysUser', {
      phone: invitee.phone,
      userName: 'Pending',
      roleIds: [a.ordinaryRoleId],
    });
    expect(res.json().code).toBe(0);
    expect(await membershipRow(t, a.id, invitee.id)).toMatchObject({
      status: 'invited',
      invitedRoleIds: [a.ordinaryRoleId],
    });
    expect(await roleIdsHeld(t, a.id, invitee.id)).toEqual([]);
  });

  it('refuses an active member', async () => {
    const a = await makeCompany(t, 'Dup Co');
    const res = await postAs(t, a.admin.token, '/user/addSysUser', {
      phone: a.limited.phone,
      userName: 'Again',
      roleIds: [a.adminRoleId],
    });
    expect(res.json()).toEqual({
      code: ERROR_CODES.CONFLICT,
      message: 'This user is already a member',
      data: { field: 'phone' },
    });
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([a.ordinaryRoleId]);
    expect((await membershipRow(t, a.id, a.limited.id))?.status).toBe('active');
  });

  it('names each bad field and creates nothing', async () => {
    const a = await makeCompany(t, 'Bad add Co');
    const b = await makeCompany(t, 'Other add Co');
    const phone = nextPhone();
    const good = { phone, userName: 'Someone', roleIds: [a.ordinaryRoleId] };
    const cases: Array<[Record<string, unknown>, string, string | null]> = [
      [{ phone: '12345' }, 'phone', 'Please enter a valid mobile phone number'],
      [{ userName: '' }, 'userName', 'Please enter a name'],
      [{ userName: 'y'.repeat(26) }, 'userName', 'The length of the name cannot exceed 25 characters'],
      [{ roleIds: [b.adminRoleId] }, 'roleIds', null],
      [{ roleIds: [a.ordinaryRoleId, 999_999] }, 'roleIds', null],
      [{ roleIds: ['x'] }, 'roleIds.0', null],
    ];
    for (const [change, field, message] of cases) {
      const res = await postAs(t, a.admin.token, '/user/addSysUser', { ...good, ...change });
      expect(res.json(), field).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field } });
      if (message) expect(res.json().message).toBe(message);
    }
    const { roleIds: _omit, ...noRoles } = good;
    expect((await postAs(t, a.admin.token, '/user/addSysUser', noRoles)).json()).toMatchObject({
      data: { field: 'roleIds' },
    });
    expect(await findUserByPhone(t.db, phone)).toBeUndefined();
  });

  it('lets a manager grant only roles within their own authority', async () => {
    const a = await makeCompany(t, 'Manager Co');
    const managerRole = await makeRole(t, a.id, ['user_management', 'um_user', 'smart_data', 'sd_capsule']);
    const viewerRole = await makeRole(t, a.id, ['smart_data', 'sd_capsule']);
    const manager = await makeMember(t, a, [managerRole], 'Manager');
    const phone = nextPhone();
    const refused = await postAs(t, manager.token, '/user/addSysUser', {
      phone,
      userName: 'Would be admin',
      roleIds: [a.adminRoleId],
    });
    expect(refused.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'You cannot grant, revoke or manage permissions you do not hold yourself',
      data: { field: 'roleIds' },
    });
    expect(await findUserByPhone(t.db, phone)).toBeUndefined();
    const allowed = await postAs(t, manager.token, '/user/addSysUser', {
      phone,
      userName: 'Viewer',
      roleIds: [viewerRole],
    });
    expect(allowed.json()).toEqual(INVITATION_SENT);
  });

  it("another company's administrator adding your member only invites them into their own company", async () => {
    const a = await makeCompany(t, 'Home Co');
    const b = await makeCompany(t, 'Snatcher Co');
    const res = await postAs(t, b.admin.token, '/user/addSysUser', {
      phone: a.limited.phone,
      userName: 'Ours now',
      roleIds: [b.adminRoleId],
    });
    expect(res.json()).toEqual(INVITATION_SENT);
    expect(await membershipRow(t, b.id, a.limited.id)).toMatchObject({ status: 'invited' });
    expect(await roleIdsHeld(t, b.id, a.limited.id)).toEqual([]);
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([a.ordinaryRoleId]);
    const me = (await getAs(t, a.limited.token, '/user/getUser')).json().data;
    expect(me).toMatchObject({ companyId: a.id });
    expect(me.companies.map((c: { id: number }) => c.id)).toEqual([a.id]);
    // nor can B then act on the account as if it were theirs
    const disable = await postAs(t, b.admin.token, '/user/updateSysUser', {
      userId: a.limited.id,
      status: 0,
    });
    expect(disable.json().code).toBe(ERROR_CODES.BUSINESS);
    expect((await userRow(t, a.limited.id))!.status).toBe(1);
  });
});

describe('POST /user/updateSysUser', () => {
  it("replaces a member's roles", async () => {
    const a = await makeCompany(t, 'Roles Co');
    const extra = await makeRole(t, a.id, ['sd_board']);
    const res = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: a.limited.id,
      roleIds: [extra, a.ordinaryRoleId],
    });
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([a.ordinaryRoleId, extra].sort((x, y) => x - y));
    const me = (await getAs(t, a.limited.token, '/user/getUser')).json().data;
    expect(me.menuCode).toContain('sd_board');
  });

  it('renames and disables an account that belongs to this company only; its token stops working', async () => {
    const a = await makeCompany(t, 'Disable Co');
    const res = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: a.limited.id,
      userName: 'Former staff',
      status: 0,
    });
    expect(res.json().code).toBe(0);
    expect(await userRow(t, a.limited.id)).toMatchObject({ userName: 'Former staff', status: 0 });
    const after = await getAs(t, a.limited.token, '/user/getUser');
    expect(after.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect((await sysUsers(a.admin.token)).list.find((u) => u.userId === a.limited.id)?.status).toBe(0);
  });

  it('a disabled user keeps no session: every token is revoked, and enabling the account again does not revive them', async () => {
    const a = await makeCompany(t, 'Revive Co');
    const secondSession = await login(t.app, a.limited.phone);
    expect(await liveTokenCount(a.limited.id)).toBe(2);
    await postAs(t, a.admin.token, '/user/updateSysUser', { userId: a.limited.id, status: 0 });
    expect(await liveTokenCount(a.limited.id)).toBe(0);
    // the disabled person cannot log in again either
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/general/user/access/getToken',
      payload: `phone=${a.limited.phone}&password=${TEST_PASSWORD}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
    });
    expect(relogin.json()).toMatchObject({
      code: ERROR_CODES.FORBIDDEN,
      message: 'This account is disabled',
    });

    expect(
      (await postAs(t, a.admin.token, '/user/updateSysUser', { userId: a.limited.id, status: 1 })).json()
        .code,
    ).toBe(0);
    for (const old of [a.limited.token, secondSession]) {
      expect((await getAs(t, old, '/user/getUser')).json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    }
    // they log in anew
    const fresh = await login(t.app, a.limited.phone);
    expect((await getAs(t, fresh, '/user/getUser')).json().code).toBe(0);
  });

  it("a disabled user's submission keys are refused while the account is disabled", async () => {
    const a = await makeCompany(t, 'Key disable Co');
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const created = await postAs(t, a.limited.token, '/smartdata/key/create', {
      name: 'script',
      kind: 'user',
    });
    const key = created.json().data.key as string;
    const submit = (count: number) =>
      t.app.inject({
        method: 'POST',
        url: '/general/smartdata/submit',
        payload: { itemId, f2: count },
        headers: { authorization: key, 'accept-language': 'en' },
      });
    expect((await submit(1)).json().code).toBe(0);
    await postAs(t, a.admin.token, '/user/updateSysUser', { userId: a.limited.id, status: 0 });
    expect((await submit(2)).json()).toMatchObject({
      code: ERROR_CODES.TOKEN_INVALID,
      message: 'The submission key is invalid or has been revoked',
    });
    const written = await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId));
    expect(written.map((r) => r.values)).toEqual([{ f2: 1 }]);
    // a key is not a session: it works again once the account is enabled (revoke it to end it)
    await postAs(t, a.admin.token, '/user/updateSysUser', { userId: a.limited.id, status: 1 });
    expect((await submit(3)).json().code).toBe(0);
  });

  it("another company's administrator cannot disable a member of yours", async () => {
    const a = await makeCompany(t, 'Victim Co');
    const b = await makeCompany(t, 'Hostile Co');
    const res = await postAs(t, b.admin.token, '/user/updateSysUser', { userId: a.limited.id, status: 0 });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
    expect((await userRow(t, a.limited.id))!.status).toBe(1);
    expect(await liveTokenCount(a.limited.id)).toBe(1);
    expect((await getAs(t, a.limited.token, '/user/getUser')).json().code).toBe(0);
  });

  it('refuses to change the account of someone who also belongs to another company', async () => {
    const a = await makeCompany(t, 'Shared A');
    const b = await makeCompany(t, 'Shared B');
    await addActiveMember(t.db, b.id, a.limited.id, [b.ordinaryRoleId]);
    const extra = await makeRole(t, a.id, ['sd_board']);
    for (const change of [{ status: 0 }, { userName: 'Mine now' }]) {
      const res = await postAs(t, a.admin.token, '/user/updateSysUser', {
        userId: a.limited.id,
        roleIds: [extra],
        ...change,
      });
      expect(res.json()).toEqual({
        code: ERROR_CODES.BUSINESS,
        message: 'This account also belongs to other companies; only its owner can change its name or status',
        data: { field: 'userId' },
      });
    }
    expect(await userRow(t, a.limited.id)).toMatchObject({ userName: 'Shared A user', status: 1 });
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([a.ordinaryRoleId]);
    // unchanged values (a form sent back whole) are no account change
    const same = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: a.limited.id,
      userName: 'Shared A user',
      status: 1,
      roleIds: [extra],
    });
    expect(same.json().code).toBe(0);
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([extra]);
  });

  it('sets the roles an invited member will get, but not their account', async () => {
    const a = await makeCompany(t, 'Invite edit Co');
    const invitee = await createUser(t.db, { phone: nextPhone(), userName: 'Soon' });
    await invite(a.id, invitee.id, [a.adminRoleId]);
    const res = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: invitee.id,
      roleIds: [a.ordinaryRoleId],
    });
    expect(res.json().code).toBe(0);
    expect(await membershipRow(t, a.id, invitee.id)).toMatchObject({
      status: 'invited',
      invitedRoleIds: [a.ordinaryRoleId],
    });
    expect(await roleIdsHeld(t, a.id, invitee.id)).toEqual([]);
    const disable = await postAs(t, a.admin.token, '/user/updateSysUser', { userId: invitee.id, status: 0 });
    expect(disable.json().code).toBe(ERROR_CODES.BUSINESS);
    expect((await userRow(t, invitee.id))!.status).toBe(1);
  });

  it('refuses a user who is not a member', async () => {
    const a = await makeCompany(t, 'Stranger A');
    const b = await makeCompany(t, 'Stranger B');
    const res = await postAs(t, a.admin.token, '/user/updateSysUser', { userId: b.limited.id, roleIds: [] });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'This user is not a member of the company',
      data: { field: 'userId' },
    });
  });

  it('names a bad name, status or role and changes nothing', async () => {
    const a = await makeCompany(t, 'Bad update Co');
    const b = await makeCompany(t, 'Bad update B');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ userName: '' }, 'userName'],
      [{ userName: 'z'.repeat(26) }, 'userName'],
      [{ status: 2 }, 'status'],
      [{ roleIds: [b.ordinaryRoleId] }, 'roleIds'],
      [{ userId: 0 }, 'userId'],
    ];
    for (const [change, field] of cases) {
      const res = await postAs(t, a.admin.token, '/user/updateSysUser', {
        userId: a.limited.id,
        status: 0,
        ...change,
      });
      expect(res.json(), field).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field } });
    }
    expect(await userRow(t, a.limited.id)).toMatchObject({ userName: 'Bad update Co user', status: 1 });
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([a.ordinaryRoleId]);
  });

  it('keeps an administrator: the last one cannot drop the role or be disabled', async () => {
    const a = await makeCompany(t, 'Last admin Co');
    const demote = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: a.admin.id,
      roleIds: [a.ordinaryRoleId],
    });
    expect(demote.json()).toEqual({
      code: ERROR_CODES.BUSINESS,
      message: 'The company must keep at least one administrator',
      data: null,
    });
    expect(await roleIdsHeld(t, a.id, a.admin.id)).toEqual([a.adminRoleId]);

    const disableSelf = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: a.admin.id,
      status: 0,
    });
    expect(disableSelf.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'You cannot disable your own account',
    });

    // with a second administrator the first may step down
    const second = await makeMember(t, a, [a.adminRoleId], 'Second admin');
    const ok = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: a.admin.id,
      roleIds: [a.ordinaryRoleId],
    });
    expect(ok.json().code).toBe(0);
    // a disabled administrator does not count: once the third disables the second, the third is the last
    const third = await makeMember(t, a, [a.adminRoleId], 'Third admin');
    expect(
      (await postAs(t, third.token, '/user/updateSysUser', { userId: second.id, status: 0 })).json().code,
    ).toBe(0);
    const last = await postAs(t, third.token, '/user/updateSysUser', { userId: third.id, roleIds: [] });
    expect(last.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'The company must keep at least one administrator',
    });
    expect(await roleIdsHeld(t, a.id, third.id)).toEqual([a.adminRoleId]);
  });

  it('lets a manager act only on members and roles within their own codes', async () => {
    const a = await makeCompany(t, 'Limits Co');
    const managerRole = await makeRole(t, a.id, ['um_user', 'smart_data', 'sd_capsule', 'pc_my_order']);
    const manager = await makeMember(t, a, [managerRole], 'Manager');
    // the ordinary role carries pc_my_assignment, which the manager lacks: its holder is out of reach
    const beyond = await postAs(t, manager.token, '/user/updateSysUser', {
      userId: a.limited.id,
      roleIds: [],
    });
    expect(beyond.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([a.ordinaryRoleId]);
    const onAdmin = await postAs(t, manager.token, '/user/updateSysUser', { userId: a.admin.id, status: 0 });
    expect(onAdmin.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
    expect((await userRow(t, a.admin.id))!.status).toBe(1);
    const promote = await postAs(t, manager.token, '/user/updateSysUser', {
      userId: manager.id,
      roleIds: [managerRole, a.adminRoleId],
    });
    expect(promote.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roleIds' } });
    expect(await roleIdsHeld(t, a.id, manager.id)).toEqual([managerRole]);
    // a member whose codes are all the manager's own is within reach
    const viewerRole = await makeRole(t, a.id, ['smart_data', 'sd_capsule']);
    const viewer = await makeMember(t, a, [viewerRole], 'Viewer');
    const fine = await postAs(t, manager.token, '/user/updateSysUser', {
      userId: viewer.id,
      userName: 'Viewer renamed',
      roleIds: [],
    });
    expect(fine.json().code).toBe(0);
    expect(await userRow(t, viewer.id)).toMatchObject({ userName: 'Viewer renamed' });
    expect(await roleIdsHeld(t, a.id, viewer.id)).toEqual([]);
  });
});

describe('POST /user/removeSysUser', () => {
  it("ends the membership, the company's roles, groups and delegations, and keeps the account", async () => {
    const a = await makeCompany(t, 'Remove A');
    const b = await makeCompany(t, 'Remove B');
    await addActiveMember(t.db, b.id, a.limited.id, [b.ordinaryRoleId]);
    const [groupA] = await t.db.insert(userGroups).values({ companyId: a.id, name: 'A team' }).returning();
    const [groupB] = await t.db.insert(userGroups).values({ companyId: b.id, name: 'B team' }).returning();
    await t.db.insert(groupMembers).values([
      { groupId: groupA!.id, userId: a.limited.id },
      { groupId: groupB!.id, userId: a.limited.id },
    ]);
    await t.db.insert(alertDelegations).values([
      { companyId: a.id, delegatorId: a.admin.id, delegateId: a.limited.id },
      { companyId: b.id, delegatorId: b.admin.id, delegateId: a.limited.id },
    ]);

    const res = await postAs(t, a.admin.token, '/user/removeSysUser', { userId: a.limited.id });
    expect(res.json()).toEqual({ code: 0, message: 'Delete successfully', data: null });
    expect(await membershipRow(t, a.id, a.limited.id)).toBeUndefined();
    expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual([]);
    const groups = await t.db.select().from(groupMembers).where(eq(groupMembers.userId, a.limited.id));
    expect(groups.map((g) => g.groupId)).toEqual([groupB!.id]);
    const delegations = await t.db
      .select()
      .from(alertDelegations)
      .where(eq(alertDelegations.delegateId, a.limited.id));
    expect(delegations.map((d) => d.companyId)).toEqual([b.id]);
    // the account stays and moves on to its other company
    expect(await userRow(t, a.limited.id)).toMatchObject({ status: 1, currentCompanyId: b.id });
    const me = (await getAs(t, a.limited.token, '/user/getUser')).json().data;
    expect(me.companyId).toBe(b.id);
    expect(me.companies.map((c: { id: number }) => c.id)).toEqual([b.id]);
    expect((await sysUsers(a.admin.token)).list.map((u) => u.userId)).toEqual([a.admin.id]);
  });

  it('leaves a person of no other company without a current company', async () => {
    const a = await makeCompany(t, 'Alone Co');
    await postAs(t, a.admin.token, '/user/removeSysUser', { userId: a.limited.id });
    expect((await userRow(t, a.limited.id))!.currentCompanyId).toBeNull();
    const me = (await getAs(t, a.limited.token, '/user/getUser')).json().data;
    expect(me).toMatchObject({ companyId: null, companies: [], menuCode: [] });
  });

  it('withdraws an invitation', async () => {
    const a = await makeCompany(t, 'Withdraw Co');
    const invitee = await createUser(t.db, { phone: nextPhone(), userName: 'Not yet' });
    await invite(a.id, invitee.id, [a.ordinaryRoleId]);
    expect((await postAs(t, a.admin.token, '/user/removeSysUser', { userId: invitee.id })).json().code).toBe(
      0,
    );
    expect(await membershipRow(t, a.id, invitee.id)).toBeUndefined();
  });

  it('refuses a non-member, the last administrator, and a manager removing an administrator', async () => {
    const a = await makeCompany(t, 'Keep Co');
    const b = await makeCompany(t, 'Keep B');
    const stranger = await postAs(t, a.admin.token, '/user/removeSysUser', { userId: b.admin.id });
    expect(stranger.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
    expect((await membershipRow(t, b.id, b.admin.id))?.status).toBe('active');

    const self = await postAs(t, a.admin.token, '/user/removeSysUser', { userId: a.admin.id }, 'zh');
    expect(self.json()).toEqual({
      code: ERROR_CODES.BUSINESS,
      message: '公司至少需要保留一名管理员',
      data: null,
    });
    expect((await membershipRow(t, a.id, a.admin.id))?.status).toBe('active');

    const managerRole = await makeRole(t, a.id, ['um_user', 'smart_data']);
    const manager = await makeMember(t, a, [managerRole], 'Manager');
    const onAdmin = await postAs(t, manager.token, '/user/removeSysUser', { userId: a.admin.id });
    expect(onAdmin.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
    expect((await membershipRow(t, a.id, a.admin.id))?.status).toBe('active');

    // with another administrator, one may leave
    await makeMember(t, a, [a.adminRoleId], 'Other admin');
    expect((await postAs(t, a.admin.token, '/user/removeSysUser', { userId: a.admin.id })).json().code).toBe(
      0,
    );
  });
});

describe('GET /company/member/getMemberList', () => {
  it('lists active members for any member, without invitations, with avatars', async () => {
    const a = await makeCompany(t, 'Members Co');
    const invitee = await createUser(t.db, { phone: nextPhone(), userName: 'Invited only' });
    await invite(a.id, invitee.id, []);
    await t.db
      .update(users)
      .set({ headImgUrl: '/general/files/public/avatars/x-thumb.png' })
      .where(eq(users.id, a.admin.id));
    const res = await getAs(t, a.limited.token, '/company/member/getMemberList');
    expect(res.json().data).toEqual({
      list: [
        {
          userId: a.admin.id,
          userName: 'Members Co admin',
          phone: a.admin.phone,
          headImgUrl: '/general/files/public/avatars/x-thumb.png',
        },
        { userId: a.limited.id, userName: 'Members Co user', phone: a.limited.phone, headImgUrl: null },
      ],
      total: 2,
      pageNum: 1,
      pageSize: 20,
    });
    const found = await getAs(t, a.limited.token, '/company/member/getMemberList', { keyword: 'ADMIN' });
    expect(found.json().data.list.map((m: { userId: number }) => m.userId)).toEqual([a.admin.id]);
  });

  it('needs a current company', async () => {
    const loner = await createUser(t.db, { phone: nextPhone(), userName: 'Loner', password: TEST_PASSWORD });
    const token = await login(t.app, loner.phone);
    const res = await getAs(t, token, '/company/member/getMemberList');
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(res.json().message).toBe('You are not a member of any company yet');
  });
});
