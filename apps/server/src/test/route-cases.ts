/**
 * The tenant-isolation case of every /general route. The guard test fails when a route has
 * no entry here, so a new route cannot land without saying how another company's data is
 * kept from its callers. Token and menu-code checks need no entry: they are generic.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp, TestCompany } from './helper';

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
