import { ERROR_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, nextPhone, type TestApp, type TestCompany } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { parseCfg } from './service';
import { companies, companyMembers } from './tables';
import { makePng, multipartFile } from './test-support';

async function companyRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
  return row!;
}

async function membership(t: TestApp, companyId: number, userId: number) {
  const [row] = await t.db
    .select()
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  return row;
}

/** Gives the company a logo through the real route; returns the stored cfg. */
async function uploadLogo(t: TestApp, company: TestCompany): Promise<Record<string, unknown>> {
  const { payload, headers } = multipartFile(await makePng(300, 200));
  const res = await t.app.inject({
    method: 'POST',
    url: '/general/cos/uploadCompanyLogo',
    payload,
    headers: { ...headers, ...bearer(company.admin.token) },
  });
  expect(res.json().code).toBe(0);
  return parseCfg((await companyRow(t, company.id)).cfg);
}

async function expectLogoFilesPresent(t: TestApp, cfg: Record<string, unknown>) {
  for (const url of [cfg.logoUri, cfg.logoThumbnailUri]) {
    const key = t.app.storage.keyOfPublicUrl(String(url));
    expect(key).not.toBeNull();
    expect(await t.app.storage.get('public', key!)).not.toBeNull();
  }
}

/** A registered user invited to company A by A's administrator. */
async function invitedToA(t: TestApp, a: TestCompany) {
  const invitee = await createUser(t.db, { phone: nextPhone(), userName: 'invitee' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/general/company/member/inviteMember',
    payload: { phone: invitee.phone, roleIds: [a.ordinaryRoleId] },
    headers: bearer(a.admin.token),
  });
  expect(res.json().code).toBe(0);
  return invitee;
}

export const companiesRouteCases: RouteCases = {
  'GET /general/company/getCompany': {
    attack: async ({ t, a, b }) => {
      const victim = await companyRow(t, a.id);
      return {
        request: { method: 'GET', url: '/general/company/getCompany', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().data.id).toBe(b.id);
          expect(res.body).not.toContain(victim.name);
        },
      };
    },
  },
  'GET /general/company/getCompanyList': {
    attack: async ({ b }) => ({
      request: { method: 'GET', url: '/general/company/getCompanyList', headers: bearer(b.admin.token) },
      verify: (res) => {
        expect(res.json().data.map((c: { id: number }) => c.id)).toEqual([b.id]);
      },
    }),
  },
  'POST /general/company/addCompany': {
    ownScope: 'creates a new company owned by the caller; it takes no company id',
  },
  'POST /general/company/updateCompany': {
    attack: async ({ t, a, b }) => {
      const before = await companyRow(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/company/updateCompany',
          payload: { displayName: 'B renamed', timeZone: 'Europe/Berlin' },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(0);
          expect(await companyRow(t, a.id)).toEqual(before);
          expect((await companyRow(t, b.id)).displayName).toBe('B renamed');
          expect((await companyRow(t, b.id)).timeZone).toBe('Europe/Berlin');
        },
      };
    },
  },
  'POST /general/company/deleteCompany': {
    attack: async ({ t, a, b }) => {
      const victim = await companyRow(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/company/deleteCompany',
          payload: { id: a.id, confirmName: victim.name },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect((await companyRow(t, a.id)).deletedAt).toBeNull();
          expect((await companyRow(t, b.id)).deletedAt).toBeNull();
        },
      };
    },
  },
  'POST /general/company/switchCompany': {
    attack: async ({ t, a, b }) => ({
      request: {
        method: 'POST',
        url: '/general/company/switchCompany',
        payload: { companyId: a.id },
        headers: bearer(b.admin.token),
      },
      verify: async (res) => {
        expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'companyId' } });
        const [user] = await t.db.select().from(users).where(eq(users.id, b.admin.id));
        expect(user!.currentCompanyId).toBe(b.id);
      },
    }),
  },
  'POST /general/cos/uploadCompanyLogo': {
    attack: async ({ t, a, b }) => {
      const victimCfg = await uploadLogo(t, a);
      const { payload, headers } = multipartFile(await makePng(200, 200));
      return {
        request: {
          method: 'POST',
          url: '/general/cos/uploadCompanyLogo',
          payload,
          headers: { ...headers, ...bearer(b.admin.token) },
        },
        verify: async (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.logoThumbnailUri).toContain(`/logos/${b.id}/`);
          expect(parseCfg((await companyRow(t, a.id)).cfg)).toEqual(victimCfg);
          await expectLogoFilesPresent(t, victimCfg);
        },
      };
    },
  },
  'POST /general/cos/removeCompanyLogo': {
    attack: async ({ t, a, b }) => {
      const victimCfg = await uploadLogo(t, a);
      return {
        request: {
          method: 'POST',
          url: '/general/cos/removeCompanyLogo',
          payload: {},
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(0);
          expect(parseCfg((await companyRow(t, a.id)).cfg)).toEqual(victimCfg);
          await expectLogoFilesPresent(t, victimCfg);
        },
      };
    },
  },
  'POST /general/cos/removeSysCompanyLogo': {
    ownScope:
      "cross-company by design (platform maintenance); system_company counts only in roles of the platform operator's company, so an ordinary company's administrator gets 40300 (logo.test.ts)",
  },
  'POST /general/company/member/inviteMember': {
    attack: async ({ t, a, b }) => {
      const target = await createUser(t.db, { phone: nextPhone(), userName: 'target' });
      return {
        request: {
          method: 'POST',
          url: '/general/company/member/inviteMember',
          // roles of company A handed to B's invitation
          payload: { phone: target.phone, roleIds: [a.adminRoleId] },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roleIds' } });
          expect(await membership(t, b.id, target.id)).toBeUndefined();
          expect(await membership(t, a.id, target.id)).toBeUndefined();
        },
      };
    },
  },
  'GET /general/company/member/getMyInvitations': {
    ownScope: 'lists only invitations addressed to the caller',
  },
  'GET /general/company/member/agreeInvitation': {
    attack: async ({ t, a, b }) => {
      const invitee = await invitedToA(t, a);
      return {
        request: {
          method: 'GET',
          url: `/general/company/member/agreeInvitation?companyId=${a.id}`,
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await membership(t, a.id, b.admin.id)).toBeUndefined();
          expect((await membership(t, a.id, invitee.id))!.status).toBe('invited');
        },
      };
    },
  },
  'GET /general/company/member/refuseInvitation': {
    attack: async ({ t, a, b }) => {
      const invitee = await invitedToA(t, a);
      return {
        request: {
          method: 'GET',
          url: `/general/company/member/refuseInvitation?companyId=${a.id}`,
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect((await membership(t, a.id, invitee.id))!.status).toBe('invited');
        },
      };
    },
  },
};
