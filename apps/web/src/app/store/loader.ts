/**
 * Fetches the user record (and the current company) for a token. Called when there is a
 * token but no user (after login, after a reload with a stale record), after a company
 * switch and after the terms are accepted.
 */
import { get } from '../http/client';
import { session } from './session';
import type { CurrentCompany, CurrentUser } from './types';

let inFlight: Promise<CurrentUser> | null = null;

export function loadSession(): Promise<CurrentUser> {
  if (inFlight) return inFlight;
  inFlight = (async () => {
    try {
      const user = await get<CurrentUser>('/user/getUser');
      let company: CurrentCompany | null = null;
      if (user.companyId != null) {
        company = await get<CurrentCompany>('/company/getCompany', undefined, { silent: true }).catch(
          () => null,
        );
      }
      session.set({ user, company });
      return user;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}

/** The company logo (cfg.logoThumbnailUri) of the current company, if it has one. */
export function companyLogo(company: CurrentCompany | null): string | null {
  if (!company) return null;
  let cfg: unknown = company.cfg;
  if (typeof cfg === 'string') {
    try {
      cfg = JSON.parse(cfg);
    } catch {
      cfg = null;
    }
  }
  const uri = (cfg as { logoThumbnailUri?: unknown } | null)?.logoThumbnailUri;
  if (typeof uri === 'string' && uri) return uri;
  return company.logoUrl ?? null;
}
