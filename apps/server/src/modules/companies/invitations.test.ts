import { ERROR_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
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
import { memberRoles, roles } from '../roles/tables';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { companies, companyMembers } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  // many logins from one test address: lift the per-address login limit
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
});
afterAll(() => t.close());

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/general${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

async function person(name = 'invitee') {
  const user = await createUser(t.db, { phone: nextPhone(), userName: name, password: TEST_PASSWORD });
  return { id: user.id, phone: user.phone, token: await login(t.app, user.phone) };
}

function invite(company: TestCompany, phone: string, roleIds: number[]) {
  return call('POST', '/company/member/inviteMember', company.admin.token, { phone, roleIds });
}

async function membership(companyId: number, userId: number) {
  const [row] = await t.db
    .select()
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  return row;
}

async function rolesHeld(companyId: number, userId: number) {
  const rows = await t.db
    .select({ roleId: memberRoles.roleId })
    .from(memberRoles)
    .where(and(eq(memberRoles.companyId, companyId), eq(memberRoles.userId, userId)));
  return rows.map((r) => r.roleId).sort((x, y) => x - y);
}

async function getUser(token: string) {
  return (await call('GET', '/user/getUser', token)).json().data as {
    menuCode: string[];
    companyId: number | null;
  };
}

const ORDINARY_CODES = ['pc_my_assignment', 'pc_my_order', 'sd_capsule', 'smart_data'];

describe('POST /company/member/inviteMember', () => {
  it('records an invitation that grants nothing yet', async () => {
    const invitee = await person();
    const res = await invite(a, invitee.phone, [a.ordinaryRoleId]);
    expect(res.json()).toEqual({
      code: 0,
      message: 'Invitation sent: the person joins when they accept it',
      data: null,
    });
    expect(await membership(a.id, invitee.id)).toMatchObject({
      status: 'invited',
      invitedBy: a.admin.id,
      invitedRoleIds: [a.ordinaryRoleId],
      joinedAt: null,
    });
    expect(await rolesHeld(a.id, invitee.id)).toEqual([]);
    expect(await getUser(invitee.token)).toMatchObject({ menuCode: [], companyId: null });
  });

  it('gives an invited user no codes even with the company set as current', async () => {
    const invitee = await person();
    await invite(a, invitee.phone, [a.adminRoleId]);
    await t.db.update(users).set({ currentCompanyId: a.id }).where(eq(users.id, invitee.id));
    expect(await getUser(invitee.token)).toMatchObject({ menuCode: [], companyId: null });
    expect((await call('GET', '/company/getCompany', invitee.token)).json().code).toBe(ERROR_CODES.FORBIDDEN);
  });

  it('answers a phone without an account as any other, inviting an account its owner can claim', async () => {
    const phone = '13700000000';
    const known = await person();
    const fresh = await invite(a, phone, [a.ordinaryRoleId]);
    const existing = await invite(a, known.phone, [a.ordinaryRoleId]);
    expect(fresh.statusCode).toBe(existing.statusCode);
    expect(fresh.json()).toEqual(existing.json());
    const [account] = await t.db.select().from(users).where(eq(users.phone, phone));
    expect(account).toMatchObject({ unclaimed: true, passwordHash: null });
    expect(await membership(a.id, account!.id)).toMatchObject({
      status: 'invited',
      invitedRoleIds: [a.ordinaryRoleId],
      invitedName: null,
    });
    expect(await rolesHeld(a.id, account!.id)).toEqual([]);
  });

  it('refuses a malformed phone and a missing roleIds', async () => {
    const bad = await invite(a, '12345', []);
    expect(bad.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'phone' } });
    const missing = await call('POST', '/company/member/inviteMember', a.admin.token, {
      phone: a.limited.phone,
    });
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roleIds' } });
  });

  it("refuses roles that are not the company's own", async () => {
    const invitee = await person();
    const res = await invite(a, invitee.phone, [a.ordinaryRoleId, b.adminRoleId]);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roleIds' } });
    expect(await membership(a.id, invitee.id)).toBeUndefined();
  });

  it('lets a delegated manager invite only into roles within their own codes', async () => {
    const manager = await person('manager');
    const [userAdmin] = await t.db
      .insert(roles)
      .values({ companyId: a.id, name: 'user manager', menuCodes: ['um_user', 'smart_data'] })
      .returning();
    await t.db.insert(companyMembers).values({ companyId: a.id, userId: manager.id, status: 'active' });
    await t.db.insert(memberRoles).values({ companyId: a.id, userId: manager.id, roleId: userAdmin!.id });
    await t.db.update(users).set({ currentCompanyId: a.id }).where(eq(users.id, manager.id));
    const invitee = await person();

    const tooMuch = await call('POST', '/company/member/inviteMember', manager.token, {
      phone: invitee.phone,
      roleIds: [a.adminRoleId],
    });
    expect(tooMuch.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'You cannot grant, revoke or manage permissions you do not hold yourself',
      data: { field: 'roleIds' },
    });
    expect(await membership(a.id, invitee.id)).toBeUndefined();

    const within = await call('POST', '/company/member/inviteMember', manager.token, {
      phone: invitee.phone,
      roleIds: [userAdmin!.id],
    });
    expect(within.json().code).toBe(0);
    expect(await membership(a.id, invitee.id)).toMatchObject({
      status: 'invited',
      invitedRoleIds: [userAdmin!.id],
    });
  });

  it('refuses someone who is already an active member', async () => {
    const res = await invite(a, a.limited.phone, [a.adminRoleId]);
    expect(res.json()).toEqual({
      code: ERROR_CODES.CONFLICT,
      message: 'This user is already a member',
      data: { field: 'phone' },
    });
    expect(await membership(a.id, a.limited.id)).toMatchObject({ status: 'active', invitedRoleIds: null });
    expect(await rolesHeld(a.id, a.limited.id)).toEqual([a.ordinaryRoleId]);
  });

  it('renews a refused invitation with the new roles and inviter', async () => {
    const invitee = await person();
    await invite(a, invitee.phone, [a.ordinaryRoleId]);
    await call('GET', `/company/member/refuseInvitation?companyId=${a.id}`, invitee.token);
    const [other] = await t.db
      .insert(roles)
      .values({ companyId: a.id, name: 'viewer', menuCodes: ['sd_board'] })
      .returning();
    const res = await invite(a, invitee.phone, [other!.id]);
    expect(res.json().code).toBe(0);
    expect(await membership(a.id, invitee.id)).toMatchObject({
      status: 'invited',
      invitedRoleIds: [other!.id],
    });
  });
});

describe('GET /company/member/getMyInvitations', () => {
  it("lists the caller's pending invitations only, newest first, without deleted companies", async () => {
    const invitee = await person();
    const c = await makeCompany(t, 'Closing');
    await invite(a, invitee.phone, [a.ordinaryRoleId]);
    await invite(b, invitee.phone, []);
    await invite(c, invitee.phone, []);
    await t.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, c.id));
    // someone else's invitation
    await invite(a, (await person('other')).phone, []);

    const res = await call('GET', '/company/member/getMyInvitations', invitee.token);
    const list = res.json().data as Array<Record<string, unknown>>;
    expect(
      list.map((i) => ({ companyId: i.companyId, companyName: i.companyName, invitedBy: i.invitedBy })),
    ).toEqual([
      { companyId: b.id, companyName: 'Beta', invitedBy: 'Beta admin' },
      { companyId: a.id, companyName: 'Acme', invitedBy: 'Acme admin' },
    ]);
    expect(Number.isNaN(Date.parse(String(list[0]!.createdAt)))).toBe(false);
  });
});

describe('GET /company/member/agreeInvitation', () => {
  it('makes the invitee an active member with the invited roles and their first company', async () => {
    const invitee = await person();
    await invite(a, invitee.phone, [a.ordinaryRoleId]);
    const res = await call('GET', `/company/member/agreeInvitation?companyId=${a.id}`, invitee.token);
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });

    const row = await membership(a.id, invitee.id);
    expect(row).toMatchObject({ status: 'active', invitedRoleIds: null });
    expect(row!.joinedAt).toBeInstanceOf(Date);
    expect(await rolesHeld(a.id, invitee.id)).toEqual([a.ordinaryRoleId]);
    expect(await getUser(invitee.token)).toEqual(
      expect.objectContaining({ companyId: a.id, menuCode: ORDINARY_CODES }),
    );
    expect((await call('GET', '/company/member/getMyInvitations', invitee.token)).json().data).toEqual([]);

    const again = await call('GET', `/company/member/agreeInvitation?companyId=${a.id}`, invitee.token);
    expect(again.json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      message: 'The invitation does not exist or has been handled',
    });
  });

  it('keeps the current company of someone who already has one, and grants only roles that still exist', async () => {
    const [temp] = await t.db
      .insert(roles)
      .values({ companyId: a.id, name: 'temporary', menuCodes: ['sd_board'] })
      .returning();
    await invite(a, b.limited.phone, [a.ordinaryRoleId, temp!.id]);
    await t.db.delete(roles).where(eq(roles.id, temp!.id));

    const res = await call('GET', `/company/member/agreeInvitation?companyId=${a.id}`, b.limited.token);
    expect(res.json().code).toBe(0);
    expect(await rolesHeld(a.id, b.limited.id)).toEqual([a.ordinaryRoleId]);
    expect((await getUser(b.limited.token)).companyId).toBe(b.id);
    const list = (await call('GET', '/company/getCompanyList', b.limited.token)).json().data;
    expect(list.map((c: { id: number }) => c.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('finds nothing for an unknown company, a refusal, or a deleted company', async () => {
    const invitee = await person();
    const c = await makeCompany(t, 'Vanished');
    await invite(c, invitee.phone, [c.ordinaryRoleId]);
    await t.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, c.id));
    await invite(b, invitee.phone, []);
    await call('GET', `/company/member/refuseInvitation?companyId=${b.id}`, invitee.token);

    for (const companyId of [999999, b.id, c.id]) {
      const res = await call('GET', `/company/member/agreeInvitation?companyId=${companyId}`, invitee.token);
      expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
    }
    expect(await membership(c.id, invitee.id)).toMatchObject({ status: 'invited' });
    expect(await membership(b.id, invitee.id)).toMatchObject({ status: 'refused' });
    expect(await getUser(invitee.token)).toMatchObject({ companyId: null, menuCode: [] });
  });

  it('names a malformed companyId', async () => {
    const res = await call('GET', '/company/member/agreeInvitation?companyId=abc', a.limited.token);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'companyId' } });
  });
});

describe('GET /company/member/refuseInvitation', () => {
  it('marks the invitation refused and grants nothing', async () => {
    const invitee = await person();
    await invite(a, invitee.phone, [a.adminRoleId]);
    const res = await call('GET', `/company/member/refuseInvitation?companyId=${a.id}`, invitee.token);
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    expect(await membership(a.id, invitee.id)).toMatchObject({ status: 'refused', invitedRoleIds: null });
    expect(await rolesHeld(a.id, invitee.id)).toEqual([]);
    expect((await call('GET', '/company/getCompanyList', invitee.token)).json().data).toEqual([]);
    expect((await call('GET', '/company/member/getMyInvitations', invitee.token)).json().data).toEqual([]);
    const again = await call('GET', `/company/member/refuseInvitation?companyId=${a.id}`, invitee.token);
    expect(again.json().code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('cannot undo an active membership', async () => {
    const res = await call('GET', `/company/member/refuseInvitation?companyId=${a.id}`, a.limited.token);
    expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await membership(a.id, a.limited.id)).toMatchObject({ status: 'active' });
  });
});
