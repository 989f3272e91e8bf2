/**
 * Turns the route table (data, vue-router style paths) into react-router route objects.
 * - A top-level entry with children is a layout group: its descendants render inside the
 *   layout, flattened to absolute paths; a group without a page of its own redirects to its
 *   `redirect` (when still permitted and shown) or to its first visible child.
 * - A hidden top-level entry without children (big screens, previews) renders full screen;
 *   a visible one (home) sits in the layout.
 * - /login, /404 and /redirect/* are handled here, whatever their page names.
 * Paths not in the built set fall to the catch-all: /404 with a token, /login otherwise, so a
 * path that exists in the table but is not permitted also ends on /404.
 */
import { joinPath, type RouteEntry } from '@platform/domain/routes/types';
import type { ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { pageFor } from './registry';

export interface RouteInfo {
  id: string;
  entry: RouteEntry;
  /** absolute path as react-router matches it */
  fullPath: string;
  /** ancestors from the top-level entry down to this one (inclusive) */
  chain: Array<{ entry: RouteEntry; fullPath: string }>;
  inLayout: boolean;
}

export interface BuiltRoutes {
  /** the layout's children and the full-screen routes, for useRoutes */
  layoutChildren: RouteObject[];
  bare: RouteObject[];
  info: Map<string, RouteInfo>;
  /** top-level entries the user may see (base + permitted), for the sidebar and home */
  tree: RouteEntry[];
}

export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';
export const REDIRECT_PREFIX = '/redirect';
export const HOME_PATH = '/home';

const SPECIAL = new Set([LOGIN_PATH, NOT_FOUND_PATH, REDIRECT_PREFIX]);

/** vue-router paths → react-router: `:x(.*)` / `:x*` become a splat, other patterns drop their regex. */
export function toRouterPath(path: string): string {
  return path
    .replace(/:[A-Za-z0-9_]+\(\.\*\)\*?/g, '*')
    .replace(/:[A-Za-z0-9_]+\*/g, '*')
    .replace(/(:[A-Za-z0-9_]+)\([^)]*\)/g, '$1')
    .replace(/\/+$/, '')
    .replace(/^$/, '/');
}

export function isSpecial(entry: RouteEntry): boolean {
  const path = toRouterPath(entry.path);
  return SPECIAL.has(path) || path.startsWith(`${REDIRECT_PREFIX}/`);
}

function hasParams(path: string): boolean {
  return path.includes(':') || path.includes('*');
}

function firstVisibleLeaf(entry: RouteEntry, fullPath: string): string | null {
  for (const child of entry.children ?? []) {
    const childPath = toRouterPath(joinPath(fullPath, child.path));
    if (child.hidden || hasParams(childPath)) continue;
    if (child.children?.length) {
      const deeper = firstVisibleLeaf(child, childPath);
      if (deeper) return deeper;
      continue;
    }
    return childPath;
  }
  return null;
}

/**
 * The paths under a group a person can reach from its menu. Hidden entries are left out: a
 * module's first entry hidden because its page is not built yet (availability.ts) must not
 * stay the module's landing page.
 */
function visibleDescendantPaths(entry: RouteEntry, fullPath: string, into = new Set<string>()): Set<string> {
  for (const child of entry.children ?? []) {
    if (child.hidden) continue;
    const childPath = toRouterPath(joinPath(fullPath, child.path));
    into.add(childPath);
    visibleDescendantPaths(child, childPath, into);
  }
  return into;
}

export type ElementFor = (info: RouteInfo) => ReactNode;

/**
 * @param tree base routes followed by the permitted async routes
 * @param element renders a page route (the caller wraps pages with suspense, titles, fallbacks)
 */
export function buildRoutes(tree: readonly RouteEntry[], element: ElementFor): BuiltRoutes {
  const info = new Map<string, RouteInfo>();
  const layoutChildren: RouteObject[] = [];
  const bare: RouteObject[] = [];
  let counter = 0;

  const visit = (
    entry: RouteEntry,
    parentPath: string,
    chain: RouteInfo['chain'],
    inLayout: boolean,
    out: RouteObject[],
  ): void => {
    const fullPath = toRouterPath(parentPath ? joinPath(parentPath, entry.path) : entry.path);
    const id = `r${counter++}`;
    const here: RouteInfo = { id, entry, fullPath, chain: [...chain, { entry, fullPath }], inLayout };
    info.set(id, here);
    const children = entry.children ?? [];
    let node: ReactNode;
    if (pageFor(entry.name)) {
      node = element(here);
    } else if (children.length > 0) {
      const redirect = entry.redirect ? toRouterPath(entry.redirect) : null;
      const target =
        redirect && visibleDescendantPaths(entry, fullPath).has(redirect)
          ? redirect
          : firstVisibleLeaf(entry, fullPath);
      const firstChild = children.find((child) => !child.hidden);
      if (target) node = <Navigate to={target} replace />;
      // under a parameterised parent (/project/projectMenu/:projectId): keep the parameters
      else if (firstChild) node = <Navigate to={toRouterPath(firstChild.path)} relative="path" replace />;
      else node = element(here);
    } else if (entry.redirect) {
      node = <Navigate to={toRouterPath(entry.redirect)} replace />;
    } else {
      node = element(here);
    }
    out.push({ id, path: fullPath, element: node });
    for (const child of children) visit(child, fullPath, here.chain, inLayout, out);
  };

  const visible: RouteEntry[] = [];
  for (const entry of tree) {
    if (isSpecial(entry)) continue;
    const grouped = (entry.children?.length ?? 0) > 0;
    // groups and visible pages (home) sit in the layout; hidden top-level pages and the
    // root redirect render on their own (big screens, previews)
    if (grouped || !entry.hidden) {
      visit(entry, '', [], true, layoutChildren);
      visible.push(entry);
    } else {
      visit(entry, '', [], false, bare);
    }
  }
  return { layoutChildren, bare, info, tree: visible };
}
