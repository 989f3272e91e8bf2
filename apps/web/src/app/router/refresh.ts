/**
 * "Refresh" re-mounts the current view (spec: /redirect/:path): the redirect route bumps the
 * path's version and goes back; the keep-alive outlet keys each view by path and version.
 */
import { useSyncExternalStore } from 'react';

let versions: ReadonlyMap<string, number> = new Map();
const listeners = new Set<() => void>();

export const viewVersions = {
  get: (): ReadonlyMap<string, number> => versions,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  bump(path: string): void {
    const next = new Map(versions);
    next.set(path, (next.get(path) ?? 0) + 1);
    versions = next;
    for (const listener of listeners) listener();
  },
};

export function useViewVersions(): ReadonlyMap<string, number> {
  return useSyncExternalStore(viewVersions.subscribe, viewVersions.get, viewVersions.get);
}
