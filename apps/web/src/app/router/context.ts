import { createContext, useContext } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import type { BuiltRoutes, RouteInfo } from './build';

export interface RoutesContextValue extends BuiltRoutes {
  /** the deepest route the path matches, with its table entry and ancestors */
  find(pathname: string): (RouteInfo & { params: Record<string, string | undefined> }) | null;
}

export const RoutesContext = createContext<RoutesContextValue | null>(null);

export function useBuiltRoutes(): RoutesContextValue {
  const value = useContext(RoutesContext);
  if (!value) throw new Error('useBuiltRoutes outside the router');
  return value;
}

export function withFinder(built: BuiltRoutes, extra: RouteObject[] = []): RoutesContextValue {
  const all = [...built.layoutChildren, ...built.bare, ...extra];
  return {
    ...built,
    find(pathname) {
      const matches = matchRoutes(all, pathname);
      const last = matches?.[matches.length - 1];
      const id = last?.route.id;
      const info = id ? built.info.get(id) : undefined;
      return info && last ? { ...info, params: last.params } : null;
    },
  };
}
