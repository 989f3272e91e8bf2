/**
 * The tenant-isolation case of every /general route. The guard test fails when a route has
 * no entry here, so a new route cannot land without saying how another company's data is
 * kept from its callers. Token and menu-code checks need no entry: they are generic.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bearer, type TestApp, type TestCompany } from './helper';

export interface TenantContext {
  t: TestApp;
  /** the victim company, with data made by `setup` */
  a: TestCompany;
  /** the caller's company: its administrator has every company code */
  b: TestCompany;
}

export type TenantCase =
  | {
      /**
       * Make a resource in company A, then return a request by company B's administrator that
       * targets it, and a check that A's data was neither returned nor changed.
       */
      attack: (ctx: TenantContext) => Promise<{
        request: InjectOptions;
        verify: (res: LightMyRequestResponse) => Promise<void> | void;
      }>;
    }
  | {
      /** why the route cannot reach another company's data (e.g. acts only on the caller's own token) */
      ownScope: string;
    };

export type RouteCases = Record<string, TenantCase>;

/** key: `METHOD /general/path` */
export function routeKey(method: string, url: string): string {
  return `${method} ${url}`;
}

/**
 * The requests of a module's cases, under `/general${prefix}` with the caller's token, and the
 * check that an answer is "not found" or a refusal, never A's data.
 */
export function routeCalls(prefix: string) {
  return {
    post: (url: string, token: string, payload: object) => ({
      method: 'POST' as const,
      url: `/general${prefix}${url}`,
      headers: bearer(token),
      payload,
    }),
    get: (url: string, token: string) => ({
      method: 'GET' as const,
      url: `/general${prefix}${url}`,
      headers: bearer(token),
    }),
    /** B's answer is "not found" or a refusal, and names none of the secrets */
    refusedWithout:
      (...secrets: string[]) =>
      (res: { json(): { code: number }; body: string }) => {
        expect(res.json().code).not.toBe(0);
        for (const secret of secrets) expect(res.body).not.toContain(secret);
      },
  };
}
