/**
 * The tenant cases of the SIM card routes. Company side: company B's administrator (who holds
 * cd_sim) aims at company A's card and gets 40400 or nothing of it. System side: B's
 * administrator role is given system_sim outright, which counts only in the platform
 * operator's company, so B is refused with 40300 and A's card stays as it was.
 */
import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bearer, type TestApp, type TestCompany } from '../../test/helper';
import type { RouteCases, TenantCase } from '../../test/route-cases';
import { companies } from '../companies/tables';
import { multipartForm } from '../records/test-support';
import { roles } from '../roles/tables';
import { cardById, makeCard, makeMovedCard } from './test-support';

const BASE = '/general/devicecommunication/sim';
const SYS = '/general/system/sim';

/** B's administrator role lists system_sim (it must not count: B is no platform company). */
async function writeSystemCode(t: TestApp, b: TestCompany): Promise<void> {
  const [role] = await t.db.select().from(roles).where(eq(roles.id, b.adminRoleId));
  if (!role!.menuCodes.includes('system_sim')) {
    await t.db
      .update(roles)
      .set({ menuCodes: [...role!.menuCodes, 'system_sim'] })
      .where(eq(roles.id, b.adminRoleId));
  }
}

function csv(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** A case against A's card: B's request, then A's card must read exactly as before. */
function cardCase(
  kind: 'company' | 'system',
  request: (
    card: Awaited<ReturnType<typeof makeCard>>,
    b: TestCompany,
  ) => {
    method: 'GET' | 'POST';
    url: string;
    payload?: unknown;
    headers?: Record<string, string>;
  },
  check: (res: LightMyRequestResponse, iccid: string) => void = () => {},
): TenantCase {
  return {
    attack: async ({ t, a, b }) => {
      if (kind === 'system') await writeSystemCode(t, b);
      const card = await makeMovedCard(t, a.id);
      const before = await cardById(t, card.id);
      const r = request(card, b);
      return {
        request: {
          method: r.method,
          url: r.url,
          payload: r.payload as string | object | undefined,
          headers: { ...(r.headers ?? {}), ...bearer(b.admin.token) },
        },
        verify: async (res) => {
          const code = res.json().code;
          expect(code).toBe(kind === 'system' ? ERROR_CODES.FORBIDDEN : ERROR_CODES.NOT_FOUND);
          expect(res.body).not.toContain(card.iccid);
          expect(await cardById(t, card.id)).toEqual(before);
          check(res, card.iccid);
        },
      };
    },
  };
}

function listCase(url: (iccid: string) => string, kind: 'company' | 'system'): TenantCase {
  return {
    attack: async ({ t, a, b }) => {
      if (kind === 'system') await writeSystemCode(t, b);
      const card = await makeCard(t, a.id, { notes: 'secret of A' });
      return {
        request: { method: 'GET', url: url(card.iccid), headers: bearer(b.admin.token) },
        verify: (res) => {
          if (kind === 'system') expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          else expect(res.statusCode).toBe(200);
          expect(res.body).not.toContain(card.iccid);
          expect(res.body).not.toContain('secret of A');
        },
      };
    },
  };
}

function importCase(url: string, kind: 'company' | 'system'): TenantCase {
  return {
    attack: async ({ t, a, b }) => {
      if (kind === 'system') await writeSystemCode(t, b);
      const card = await makeCard(t, a.id);
      const before = await cardById(t, card.id);
      const { payload, headers } = multipartForm(
        {},
        { bytes: csv(`ICCID,备注,套餐(MB)\n${card.iccid},taken over,1\n`), filename: 'cards.csv' },
      );
      return {
        request: { method: 'POST', url, payload, headers: { ...headers, ...bearer(b.admin.token) } },
        verify: async (res) => {
          const body = res.json();
          if (kind === 'system') {
            expect(body.code).toBe(ERROR_CODES.FORBIDDEN);
          } else {
            // refused as a card registered elsewhere: nothing of A's card is in the answer
            expect(body.data).toMatchObject({ inserted: 0, updated: 0 });
            expect(body.data.rejected).toEqual([{ row: 2, column: 'iccid', message: expect.any(String) }]);
          }
          expect(res.body).not.toContain('victim card');
          expect(await cardById(t, card.id)).toEqual(before);
        },
      };
    },
  };
}

export const simRouteCases: RouteCases = {
  [`GET ${BASE}/list`]: listCase((iccid) => `${BASE}/list?keyword=${iccid}`, 'company'),
  [`GET ${BASE}/detail`]: cardCase('company', (card) => ({
    method: 'GET',
    url: `${BASE}/detail?id=${card.id}`,
  })),
  [`POST ${BASE}/update`]: cardCase('company', (card) => ({
    method: 'POST',
    url: `${BASE}/update`,
    payload: { id: card.id, planMb: 1, notes: 'taken over' },
  })),
  [`POST ${BASE}/acknowledgeMove`]: cardCase('company', (card) => ({
    method: 'POST',
    url: `${BASE}/acknowledgeMove`,
    payload: { id: card.id },
  })),
  [`GET ${BASE}/export`]: listCase(() => `${BASE}/export?format=csv`, 'company'),
  [`GET ${BASE}/template`]: {
    ownScope: 'the blank template holds no company data, only column names and notes',
  },
  [`POST ${BASE}/import`]: importCase(`${BASE}/import`, 'company'),

  [`GET ${SYS}/list`]: listCase((iccid) => `${SYS}/list?keyword=${iccid}`, 'system'),
  [`GET ${SYS}/detail`]: cardCase('system', (card) => ({
    method: 'GET',
    url: `${SYS}/detail?id=${card.id}`,
  })),
  [`POST ${SYS}/update`]: cardCase('system', (card) => ({
    method: 'POST',
    url: `${SYS}/update`,
    payload: { id: card.id, notes: 'taken over' },
  })),
  [`POST ${SYS}/acknowledgeMove`]: cardCase('system', (card) => ({
    method: 'POST',
    url: `${SYS}/acknowledgeMove`,
    payload: { id: card.id },
  })),
  [`POST ${SYS}/assign`]: cardCase('system', (card, b) => ({
    method: 'POST',
    url: `${SYS}/assign`,
    payload: { ids: [card.id], companyId: b.id },
  })),
  [`POST ${SYS}/sync`]: cardCase('system', (card) => ({
    method: 'POST',
    url: `${SYS}/sync`,
    payload: { ids: [card.id] },
  })),
  [`POST ${SYS}/setState`]: cardCase('system', (card) => ({
    method: 'POST',
    url: `${SYS}/setState`,
    payload: { id: card.id, action: 'suspend' },
  })),
  [`GET ${SYS}/companies`]: {
    attack: async ({ t, a, b }) => {
      await writeSystemCode(t, b);
      const [company] = await t.db
        .select({ name: companies.name })
        .from(companies)
        .where(eq(companies.id, a.id));
      const name = company!.name;
      return {
        request: { method: 'GET', url: `${SYS}/companies`, headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          expect(res.body).not.toContain(name);
        },
      };
    },
  },
  [`GET ${SYS}/export`]: listCase(() => `${SYS}/export?format=csv`, 'system'),
  [`GET ${SYS}/template`]: cardCase('system', () => ({ method: 'GET', url: `${SYS}/template?format=csv` })),
  [`POST ${SYS}/import`]: importCase(`${SYS}/import`, 'system'),
};
