/**
 * Authentication and the menu-code guard. Every route under /general must declare
 * `config.permission` (a route without one refuses to register, so a new route cannot skip
 * the check):
 *   'public'  no token (login, registration, SMS code)
 *   'login'   any valid token, company optional (personal center, own profile)
 *   'member'  a valid token and a current company, no code (member lists, own delegations)
 *   MenuCode  a valid token, a current company, and that code among the caller's codes
 *   MenuCode[] the same with any one of these codes (two menus showing the same data: the
 *             device list and device communication's devices)
 * The caller's company comes from the server-side user record, never from the request.
 */
import { type Lang, type MenuCode, parseLang } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { tokens } from '../modules/auth/tables';
import { companies, companyMembers } from '../modules/companies/tables';
import { memberRoles, roles } from '../modules/roles/tables';
import { users } from '../modules/users/tables';
import type { Db } from './db';
import { AppError } from './envelope';
import { sha256 } from './tokens';

export type Permission = 'public' | 'login' | 'member' | MenuCode | readonly MenuCode[];

/** Whether codes `held` satisfy a route's menu-code permission (one code, or any of several). */
export function holdsPermission(
  held: ReadonlySet<string>,
  permission: MenuCode | readonly MenuCode[],
): boolean {
  return typeof permission === 'string' ? held.has(permission) : permission.some((code) => held.has(code));
}

export interface AuthContext {
  userId: number;
  /** the caller's current company; null when the user belongs to none yet */
  companyId: number | null;
  menuCodes: ReadonlySet<string>;
  token: string;
  /** when the token stops being valid; long-lived connections end then */
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: Permission;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    lang: Lang;
  }
  interface FastifyInstance {
    /** every /general route with its permission, as registered; drives the guard tests */
    declaredRoutes: DeclaredRoute[];
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  permission: Permission;
}

/** The authenticated caller; for use in handlers of non-public routes. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('tokenMissing');
  return request.auth;
}

/** The caller's company id; for routes that need one (every MenuCode route has one). */
export function callerCompany(request: FastifyRequest): number {
  const companyId = caller(request).companyId;
  if (companyId == null) throw new AppError('noCompany');
  return companyId;
}

/** Who acts in a company's business write: the company, the person (for the log) and their language. */
export interface Actor {
  companyId: number;
  userId: number;
  lang: Lang;
}

/** The caller as the actor of a business write; for routes that need a company. */
export function callerActor(request: FastifyRequest): Actor {
  return { companyId: callerCompany(request), userId: caller(request).userId, lang: request.lang };
}

export async function menuCodesOf(db: Db, userId: number, companyId: number | null): Promise<Set<string>> {
  if (companyId == null) return new Set();
  const rows = await db
    .select({ codes: roles.menuCodes, isPlatform: companies.isPlatform })
    .from(memberRoles)
    .innerJoin(roles, eq(roles.id, memberRoles.roleId))
    .innerJoin(companies, eq(companies.id, memberRoles.companyId))
    .innerJoin(
      companyMembers,
      and(eq(companyMembers.companyId, memberRoles.companyId), eq(companyMembers.userId, memberRoles.userId)),
    )
    .where(
      and(
        eq(memberRoles.userId, userId),
        eq(memberRoles.companyId, companyId),
        eq(companyMembers.status, 'active'),
      ),
    );
  const codes = new Set<string>();
  for (const row of rows) {
    for (const code of row.codes) {
      // system_* codes only count in the platform operator's company
      if (
        !row.isPlatform &&
        (code.startsWith('system_') || code.startsWith('sys_m_') || code === 'system_maintenance')
      )
        continue;
      codes.add(code);
    }
  }
  return codes;
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  // a browser cannot set headers on a WebSocket: its upgrade request carries ?token= instead
  if (!header && request.headers.upgrade?.toLowerCase() === 'websocket') {
    const token = (request.query as { token?: unknown } | undefined)?.token;
    return typeof token === 'string' && token ? token : null;
  }
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match ? match[1]!.trim() : null;
}

/**
 * Who a token belongs to now: its user, current company (null when the membership or the
 * company is gone) and codes. Throws tokenInvalid / tokenExpired. Long-lived connections call
 * it again when access changes (platform/access-watch.ts).
 */
export async function authenticate(db: Db, token: string): Promise<AuthContext> {
  const [row] = await db
    .select({
      userId: tokens.userId,
      expiresAt: tokens.expiresAt,
      revokedAt: tokens.revokedAt,
      status: users.status,
      companyId: users.currentCompanyId,
    })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(eq(tokens.tokenHash, sha256(token)));
  if (!row || row.revokedAt) throw new AppError('tokenInvalid');
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('tokenExpired');
  if (row.status !== 1) throw new AppError('tokenInvalid');
  let companyId = row.companyId;
  if (companyId != null) {
    const [member] = await db
      .select({ status: companyMembers.status, deletedAt: companies.deletedAt })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, row.userId)));
    if (member?.status !== 'active' || member.deletedAt) companyId = null;
  }
  return {
    userId: row.userId,
    companyId,
    menuCodes: await menuCodesOf(db, row.userId, companyId),
    token,
    expiresAt: row.expiresAt,
  };
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; prefix: string }) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('lang', 'zh');
    const declared: DeclaredRoute[] = [];
    app.decorate('declaredRoutes', declared);

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(opts.prefix)) return;
      if (route.method === 'HEAD' || route.method === 'OPTIONS') return;
      const permission = (route.config as { permission?: Permission } | undefined)?.permission;
      if (!permission) {
        throw new Error(`Route ${route.method} ${route.url} declares no config.permission`);
      }
      for (const method of [route.method].flat()) declared.push({ method, url: route.url, permission });
    });

    // onRequest, before the body is read or validated: a caller without the right token or
    // code learns nothing about what the route would accept.
    app.addHook('onRequest', async (request) => {
      request.lang = parseLang(request.headers['accept-language']);
      const permission = request.routeOptions.config?.permission;
      if (!permission || permission === 'public') return;
      const token = bearer(request);
      if (!token) throw new AppError('tokenMissing');
      const auth = await authenticate(opts.db, token);
      request.auth = auth;
      if (permission === 'login') return;
      if (auth.companyId == null) throw new AppError('noCompany');
      if (permission === 'member') return;
      if (!holdsPermission(auth.menuCodes, permission)) throw new AppError('forbidden');
    });
  },
  { name: 'auth' },
);
