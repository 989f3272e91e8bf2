/**
 * The permitted routes (spec point 2/4): built ONCE from the user's menu codes when a token
 * and a user record are both present, kept until logout or a company switch resets them.
 * Entries whose page is not built yet leave the menu of a working module (availability.ts).
 */
import { filterRoutes, type RouteEntry } from '@platform/domain/routes/types';
import { useSyncExternalStore } from 'react';
import { session } from '../store/session';
import { hideUnbuiltEntries } from './availability';

export interface PermittedState {
  generated: boolean;
  routes: RouteEntry[];
  /** after a reset that goes somewhere (a company change goes home): build only once there */
  landing?: string;
}

let state: PermittedState = { generated: false, routes: [] };
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export const permitted = {
  get: (): PermittedState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /**
   * Build the permitted routes of `table` (the route table's ASYNC_ROUTES, which come with the
   * pages after login: ../signedIn.tsx) from the menu codes; a no-op once generated.
   */
  generate(menuCodes: readonly string[], table: readonly RouteEntry[]): void {
    if (state.generated) return;
    state = { generated: true, routes: hideUnbuiltEntries(filterRoutes(table, menuCodes)) };
    emit();
  },
  /**
   * Forget the generated routes (logout, company switch): the next user record rebuilds them.
   * With `landing`, the new routes are built only once the app is on that path, so the page
   * left behind is never judged by the new codes (it would show /404 for a moment and stay).
   */
  reset(landing?: string): void {
    state = landing ? { generated: false, routes: [], landing } : { generated: false, routes: [] };
    emit();
  },
};

session.onClear(() => permitted.reset());

export function usePermitted(): PermittedState {
  return useSyncExternalStore(permitted.subscribe, permitted.get, permitted.get);
}
