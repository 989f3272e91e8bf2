/**
 * After an action that changes the person's user record (avatar, name, companies, current
 * company), fetch it again so the top bar and the company switcher follow. The permitted
 * routes are built once from the menu codes (spec point 2), so when the current company or
 * the codes changed the routes, tabs and cached queries are dropped and the app goes home,
 * as a company switch does.
 */
import type { NavigateFunction } from 'react-router-dom';
import { tags } from '../app/layout/tags';
import { queryClient } from '../app/query';
import { HOME_PATH } from '../app/router/build';
import { permitted } from '../app/router/permitted';
import { loadSession } from '../app/store/loader';
import { session } from '../app/store/session';
import type { CurrentUser } from '../app/store/types';

function sameCodes(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((code) => set.has(code));
}

/** Rebuild routes from the (already loaded) user record and go home. */
export function rebuildRoutes(navigate: NavigateFunction): void {
  tags.reset();
  queryClient.clear();
  permitted.reset(HOME_PATH);
  navigate(HOME_PATH, { replace: true });
}

/**
 * Reload the user record; returns true when the routes had to be rebuilt (the caller's page
 * is then going away).
 */
export async function refreshSession(navigate: NavigateFunction): Promise<boolean> {
  const before: CurrentUser | null = session.get().user;
  const user = await loadSession();
  if (before?.companyId !== user.companyId || !sameCodes(before?.menuCode, user.menuCode)) {
    rebuildRoutes(navigate);
    return true;
  }
  return false;
}
