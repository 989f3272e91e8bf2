import { ERROR_CODES } from '@platform/domain';
import { and, count, eq } from 'drizzle-orm';
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
import { addActiveMember, createCompany } from './service';
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

/** A user with an account and a token, in no company. */
async function loner(name = 'loner') {
  const user = await createUser(t.db, { phone: nextPhone(), userName: name, password: TEST_PASSWORD });
  return { id: user.id, phone: user.phone, token: await login(t.app, user.phone) };
}

async function companyCount() {
  const [row] = await t.db.select({ n: count() }).from(companies);
  return row!.n;
}

async function currentCompanyOf(userId: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, userId));
  return row!.currentCompanyId;
}

async function getUser(token: string) {
  return (await call('GET', '/user/getUser', token)).json().data as {
    menuCode: string[];
    companyId: number | null;
  };
}

describe('GET /company/getCompany', () => {
  it('returns the current company with the default-logo null', async () => {
    const res = await call('GET', '/company/getCompany', a.admin.token);
    expect(res.json()).toEqual({
      code: 0,
      message: 'success',
      data: {
        id: a.id,
        name: 'Acme',
        displayName: 'Acme',
        cfg: '{}',
        logoUrl: null,
        serviceExpiresAt: null,
        isPlatform: false,
        timeZone: 'Asia/Shanghai',
      },
    });
  });

  it('takes logoUrl from cfg.logoThumbnailUri and the expiry as ISO text', async () => {
    const owner = await loner();
    const company = await createCompany(t.db, {
      name: 'Logo Co',
      ownerId: owner.id,
      serviceExpiresAt: new Date('2031-02-03T04:05:06Z'),
    });
    const cfg = JSON.stringify({
      logoThumbnailUri: '/general/files/public/logos/x-thumb.png',
      theme: 'dark',
    });
    await t.db.update(companies).set({ cfg }).where(eq(companies.id, company.company.id));
    const res = await call('GET', '/company/getCompany', owner.token);
    expect(res.json().data).toMatchObject({
      cfg,
      logoUrl: '/general/files/public/logos/x-thumb.png',
      serviceExpiresAt: '2031-02-03T04:05:06.000Z',
    });
  });

  it('refuses a user who belongs to no company', async () => {
    const res = await call('GET', '/company/getCompany', (await loner()).token);
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(res.json().message).toBe('You are not a member of any company yet');
  });
});

describe('GET company/getCompanyList', () => {
  it('lists active memberships of live companies and marks the current one', async () => {
    const user = await loner('multi');
    await addActiveMember(t.db, a.id, user.id, [a.ordinaryRoleId]);
    await addActiveMember(t.db, b.id, user.id, [b.ordinaryRoleId]);
    const invitedOnly = await createCompany(t.db, { name: 'Invited Only', ownerId: a.admin.id });
    await t.db
      .insert(companyMembers)
      .values({ companyId: invitedOnly.company.id, userId: user.id, status: 'invited' });
    const gone = await createCompany(t.db, { name: 'Gone Co', ownerId: a.admin.id });
    await addActiveMember(t.db, gone.company.id, user.id, []);
    await t.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, gone.company.id));

    const res = await call('GET', '/company/getCompanyList', user.token);
    expect(res.json().data).toEqual([
      { id: a.id, name: 'Acme', displayName: 'Acme', logoUrl: null, current: true },
      { id: b.id, name: 'Beta', displayName: 'Beta', logoUrl: null, current: false },
    ]);
  });

  it('is empty for a user in no company', async () => {
    const res = await call('GET', '/company/getCompanyList', (await loner()).token);
    expect(res.json()).toMatchObject({ code: 0, data: [] });
  });
});

describe('POST /company/addCompany', () => {
  it('makes the caller its administrator and keeps their current company', async () => {
    const res = await call('POST', '/company/addCompany', b.limited.token, { name: '  Gamma Works  ' });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const id = res.json().data.id as number;
    const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
    expect(row).toMatchObject({ name: 'Gamma Works', displayName: 'Gamma Works', createdBy: b.limited.id });
    const held = await t.db
      .select({ roleType: roles.roleType })
      .from(memberRoles)
      .innerJoin(roles, eq(roles.id, memberRoles.roleId))
      .where(and(eq(memberRoles.companyId, id), eq(memberRoles.userId, b.limited.id)));
    expect(held).toEqual([{ roleType: 1 }]);
    expect(await currentCompanyOf(b.limited.id)).toBe(b.id);
  });

  it('switches a caller who had no company to the new one, with its admin codes', async () => {
    const user = await loner();
    expect((await getUser(user.token)).menuCode).toEqual([]);
    const res = await call('POST', '/company/addCompany', user.token, { name: 'First Of Mine' });
    const me = await getUser(user.token);
    expect(me.companyId).toBe(res.json().data.id);
    expect(me.menuCode).toContain('sys_company_info');
    expect(me.menuCode).not.toContain('system_company');
  });

  it.each([
    ['', 'Please enter a name'],
    ['   ', 'Please enter a name'],
    ['x'.repeat(26), 'The length of the name cannot exceed 25 characters'],
  ])('refuses the name %j by field, writing nothing', async (name, message) => {
    const before = await companyCount();
    const res = await call('POST', '/company/addCompany', a.admin.token, { name });
    expect(res.json()).toEqual({ code: ERROR_CODES.VALIDATION, message, data: { field: 'name' } });
    expect(await companyCount()).toBe(before);
  });

  it('accepts 25 characters counted as a person counts them', async () => {
    const res = await call('POST', '/company/addCompany', a.admin.token, { name: '公'.repeat(25) });
    expect(res.json().code).toBe(0);
  });

  it('names a missing name', async () => {
    const res = await call('POST', '/company/addCompany', a.admin.token, {});
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'name' } });
  });

  it('refuses a name a live company holds, but frees the name of a deleted one', async () => {
    const before = await companyCount();
    const taken = await call('POST', '/company/addCompany', a.admin.token, { name: 'Beta' });
    expect(taken.json()).toEqual({
      code: ERROR_CODES.CONFLICT,
      message: 'A company with this name already exists',
      data: { field: 'name' },
    });
    expect(await companyCount()).toBe(before);

    const old = await createCompany(t.db, { name: 'Phoenix', ownerId: a.admin.id });
    await t.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, old.company.id));
    const reused = await call('POST', '/company/addCompany', a.admin.token, { name: 'Phoenix' });
    expect(reused.json().code).toBe(0);
  });
});

describe('POST /company/updateCompany', () => {
  it('renames the current company', async () => {
    const c = await makeCompany(t, 'Old Name');
    const res = await call('POST', '/company/updateCompany', c.admin.token, {
      name: 'New Name',
      displayName: 'Shown Name',
    });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const got = (await call('GET', '/company/getCompany', c.admin.token)).json().data;
    expect(got).toMatchObject({ id: c.id, name: 'New Name', displayName: 'Shown Name' });
  });

  it('checks displayName like a name and writes nothing when one field is bad', async () => {
    const c = await makeCompany(t, 'Keep Me');
    for (const [payload, field, message] of [
      [{ name: 'Fine', displayName: '' }, 'displayName', 'Please enter a name'],
      [
        { name: 'y'.repeat(30), displayName: 'Fine' },
        'name',
        'The length of the name cannot exceed 25 characters',
      ],
    ] as const) {
      const res = await call('POST', '/company/updateCompany', c.admin.token, payload);
      expect(res.json()).toEqual({ code: ERROR_CODES.VALIDATION, message, data: { field } });
    }
    const [row] = await t.db.select().from(companies).where(eq(companies.id, c.id));
    expect(row).toMatchObject({ name: 'Keep Me', displayName: 'Keep Me' });
  });

  it("refuses another company's name but accepts its own", async () => {
    const c = await makeCompany(t, 'Own Name');
    const taken = await call('POST', '/company/updateCompany', c.admin.token, { name: 'Acme' });
    expect(taken.json()).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'name' } });
    const same = await call('POST', '/company/updateCompany', c.admin.token, { name: 'Own Name' });
    expect(same.json().code).toBe(0);
  });
});

describe('the company time zone', () => {
  it('is Asia/Shanghai for a new company and changes with updateCompany', async () => {
    const c = await makeCompany(t, 'Zoned');
    const before = (await call('GET', '/company/getCompany', c.admin.token)).json().data;
    expect(before.timeZone).toBe('Asia/Shanghai');
    const res = await call('POST', '/company/updateCompany', c.admin.token, { timeZone: 'Europe/Berlin' });
    expect(res.json()).toMatchObject({ code: 0 });
    const after = (await call('GET', '/company/getCompany', c.admin.token)).json().data;
    expect(after).toMatchObject({ timeZone: 'Europe/Berlin', name: 'Zoned' });
  });

  it('refuses what is not an IANA zone name, naming the field, and keeps the zone', async () => {
    const c = await makeCompany(t, 'Bad Zone');
    for (const timeZone of ['Mars/Olympus', '+08:00', 'UTC+8', 'CST', '']) {
      const res = await call('POST', '/company/updateCompany', c.admin.token, { timeZone });
      expect(res.json(), timeZone).toEqual({
        code: ERROR_CODES.VALIDATION,
        message: 'The time zone must be an IANA time zone name, such as Asia/Shanghai or Europe/Berlin',
        data: { field: 'timeZone' },
      });
    }
    const zh = await t.app.inject({
      method: 'POST',
      url: '/general/company/updateCompany',
      payload: { timeZone: 'Asia/Nowhere' },
      headers: bearer(c.admin.token),
    });
    expect(zh.json().message).toBe('时区必须是 IANA 时区名称，例如 Asia/Shanghai 或 Europe/Berlin');
    const [row] = await t.db.select().from(companies).where(eq(companies.id, c.id));
    expect(row!.timeZone).toBe('Asia/Shanghai');
  });

  it("cannot be changed by another company's administrator nor by a member without company settings", async () => {
    const c = await makeCompany(t, 'Kept Zone');
    const other = await makeCompany(t, 'Other Zone');
    // the other administrator's call changes only their own company
    const res = await call('POST', '/company/updateCompany', other.admin.token, {
      timeZone: 'America/New_York',
    });
    expect(res.json().code).toBe(0);
    const limited = await call('POST', '/company/updateCompany', c.limited.token, { timeZone: 'UTC' });
    expect(limited.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const rows = await t.db.select().from(companies);
    expect(rows.find((r) => r.id === c.id)!.timeZone).toBe('Asia/Shanghai');
    expect(rows.find((r) => r.id === other.id)!.timeZone).toBe('America/New_York');
  });
});

describe('POST /company/deleteCompany', () => {
  async function deleted(id: number) {
    const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
    return row!.deletedAt != null;
  }

  it('refuses a holder of sys_company_info without an administrator role', async () => {
    const c = await makeCompany(t, 'Guarded');
    const [manager] = await t.db
      .insert(roles)
      .values({ companyId: c.id, name: 'info', roleType: 2, menuCodes: ['sys_company_info'] })
      .returning();
    await t.db.insert(memberRoles).values({ companyId: c.id, userId: c.limited.id, roleId: manager!.id });
    const res = await call('POST', '/company/deleteCompany', c.limited.token, {
      id: c.id,
      confirmName: 'Guarded',
    });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(await deleted(c.id)).toBe(false);
  });

  it('needs the exact name typed again', async () => {
    const c = await makeCompany(t, 'Exact');
    const res = await call('POST', '/company/deleteCompany', c.admin.token, {
      id: c.id,
      confirmName: 'exact',
    });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'The name you typed does not match the company name',
      data: { field: 'confirmName' },
    });
    expect(await deleted(c.id)).toBe(false);
  });

  it('refuses any id but the current company', async () => {
    const c = await makeCompany(t, 'Current');
    const other = await createCompany(t.db, { name: 'Also Mine', ownerId: c.admin.id });
    const res = await call('POST', '/company/deleteCompany', c.admin.token, {
      id: other.company.id,
      confirmName: 'Also Mine',
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    expect(await deleted(other.company.id)).toBe(false);
  });

  it("keeps the platform operator's company", async () => {
    const p = await makeCompany(t, 'Platform Co', { isPlatform: true });
    const res = await call('POST', '/company/deleteCompany', p.admin.token, {
      id: p.id,
      confirmName: 'Platform Co',
    });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(await deleted(p.id)).toBe(false);
  });

  it('soft-deletes and moves every member whose current company it was', async () => {
    const c = await makeCompany(t, 'Doomed');
    // the admin also belongs to two other companies, joined in this order
    await addActiveMember(t.db, a.id, c.admin.id, [a.ordinaryRoleId]);
    await addActiveMember(t.db, b.id, c.admin.id, [b.ordinaryRoleId]);
    // a member who is somewhere else right now stays there
    await addActiveMember(t.db, c.id, a.limited.id, [c.ordinaryRoleId]);

    const res = await call('POST', '/company/deleteCompany', c.admin.token, {
      id: c.id,
      confirmName: 'Doomed',
    });
    expect(res.json()).toMatchObject({ code: 0, message: 'Delete successfully', data: null });
    expect(await deleted(c.id)).toBe(true);
    expect(await currentCompanyOf(c.admin.id)).toBe(b.id);
    expect(await currentCompanyOf(c.limited.id)).toBeNull();
    expect(await currentCompanyOf(a.limited.id)).toBe(a.id);

    const me = await getUser(c.admin.token);
    expect(me.companyId).toBe(b.id);
    const list = (await call('GET', '/company/getCompanyList', c.admin.token)).json().data;
    expect(list.map((x: { id: number }) => x.id)).not.toContain(c.id);
    expect((await call('GET', '/company/getCompany', c.limited.token)).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    // the name is free again
    expect((await call('POST', '/company/addCompany', a.admin.token, { name: 'Doomed' })).json().code).toBe(
      0,
    );
  });
});

describe('POST /company/switchCompany', () => {
  it('changes the current company and with it getUser.menuCode', async () => {
    const user = await loner('switcher');
    await addActiveMember(t.db, a.id, user.id, [a.adminRoleId]);
    await addActiveMember(t.db, b.id, user.id, [b.ordinaryRoleId]);
    const before = await getUser(user.token);
    expect(before.companyId).toBe(a.id);
    expect(before.menuCode).toContain('um_user');

    const res = await call('POST', '/company/switchCompany', user.token, { companyId: b.id });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const after = await getUser(user.token);
    expect(after.companyId).toBe(b.id);
    expect(after.menuCode).toEqual(['pc_my_assignment', 'pc_my_order', 'sd_capsule', 'smart_data']);
    expect((await call('GET', '/company/getCompany', user.token)).json().data.id).toBe(b.id);
  });

  it('refuses a company the caller is not an active member of', async () => {
    const user = await loner();
    await addActiveMember(t.db, a.id, user.id, [a.ordinaryRoleId]);
    const invited = await createCompany(t.db, { name: 'Invites Me', ownerId: b.admin.id });
    await t.db
      .insert(companyMembers)
      .values({ companyId: invited.company.id, userId: user.id, status: 'invited' });
    const gone = await createCompany(t.db, { name: 'Gone Too', ownerId: b.admin.id });
    await addActiveMember(t.db, gone.company.id, user.id, []);
    await t.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, gone.company.id));

    for (const companyId of [b.id, invited.company.id, gone.company.id, 999999]) {
      const res = await call('POST', '/company/switchCompany', user.token, { companyId });
      expect(res.json()).toEqual({
        code: ERROR_CODES.VALIDATION,
        message: 'This user is not a member of the company',
        data: { field: 'companyId' },
      });
    }
    expect(await currentCompanyOf(user.id)).toBe(a.id);
  });

  it('names a malformed companyId', async () => {
    const res = await call('POST', '/company/switchCompany', a.admin.token, { companyId: 'x' });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'companyId' } });
  });
});
