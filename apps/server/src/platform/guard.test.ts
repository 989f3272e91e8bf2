/**
 * Table-driven checks over every registered /general route: token rules (none, unknown,
 * revoked, expired), the menu code, and the tenant case each route must declare.
 */
import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../modules/auth/tables';
import { memberRoles, roles } from '../modules/roles/tables';
import { ALL_ROUTE_CASES } from '../test/all-route-cases';
import { bearer, buildTestApp, login, makeCompany, type TestApp, type TestCompany } from '../test/helper';
import { routeKey } from '../test/route-cases';
import { sha256 } from './tokens';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** a member of company A whose only role carries no code at all */
let noCodeToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Company A');
  b = await makeCompany(t, 'Company B');
  const [empty] = await t.db
    .insert(roles)
    .values({ companyId: a.id, name: 'empty', menuCodes: [] })
    .returning();
  await t.db.delete(memberRoles).where(eq(memberRoles.userId, a.limited.id));
  await t.db.insert(memberRoles).values({ companyId: a.id, userId: a.limited.id, roleId: empty!.id });
  noCodeToken = a.limited.token;
});

afterAll(async () => {
  await t.close();
});

/** Each check walks every route in one test: the limit catches a hang, not a loaded machine. */
const EVERY_ROUTE_TIMEOUT = 180_000;

const routes = () =>
  t.app.declaredRoutes.filter((r) => !r.url.includes('/docs') && r.url !== '/general/files/public/*');

function call(method: string, url: string, headers: Record<string, string>) {
  return t.app.inject({ method: method as 'GET', url: url.replace(/:(\w+)/g, '1'), headers });
}

describe('every route', () => {
  it('is registered with a permission and has a tenant case', () => {
    const missing = routes()
      .map((r) => routeKey(r.method, r.url))
      .filter((key) => !(key in ALL_ROUTE_CASES));
    expect(missing).toEqual([]);
    expect(routes().length).toBeGreaterThan(0);
  });

  it(
    'refuses a missing, unknown, revoked or expired token on every non-public route',
    async () => {
      const guarded = routes().filter((r) => r.permission !== 'public');
      const revoked = await login(t.app, b.limited.phone);
      await t.app.inject({ method: 'GET', url: '/general/user/access/logout', headers: bearer(revoked) });
      const expired = await login(t.app, b.limited.phone);
      await t.db
        .update(tokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(tokens.tokenHash, sha256(expired)));
      for (const r of guarded) {
        const label = `${r.method} ${r.url}`;
        expect((await call(r.method, r.url, {})).json().code, `${label} without token`).toBe(
          ERROR_CODES.TOKEN_INVALID,
        );
        expect((await call(r.method, r.url, bearer('nonsense'))).json().code, `${label} unknown`).toBe(
          ERROR_CODES.TOKEN_INVALID,
        );
        expect((await call(r.method, r.url, bearer(revoked))).json().code, `${label} revoked`).toBe(
          ERROR_CODES.TOKEN_INVALID,
        );
        expect((await call(r.method, r.url, bearer(expired))).json().code, `${label} expired`).toBe(
          ERROR_CODES.TOKEN_EXPIRED,
        );
      }
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it(
    'refuses a caller without the route menu code',
    async () => {
      const coded = routes().filter(
        (r) => r.permission !== 'public' && r.permission !== 'login' && r.permission !== 'member',
      );
      for (const r of coded) {
        const res = await call(r.method, r.url, bearer(noCodeToken));
        expect(res.json().code, `${r.method} ${r.url} needs ${r.permission}`).toBe(ERROR_CODES.FORBIDDEN);
        expect(res.statusCode).toBe(403);
      }
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it(
    "never reaches another company's data",
    async () => {
      for (const r of routes()) {
        const entry = ALL_ROUTE_CASES[routeKey(r.method, r.url)];
        if (!entry || 'ownScope' in entry) continue;
        const { request, verify } = await entry.attack({ t, a, b });
        const res = await t.app.inject(request);
        await verify(res);
      }
    },
    EVERY_ROUTE_TIMEOUT,
  );
});
