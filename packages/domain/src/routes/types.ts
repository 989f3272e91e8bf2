import type { MenuCode } from '../menu-codes';

/** Route entries as seed point 2 describes them; the web maps `name` to a page component. */
export interface RouteMeta {
  /** i18n key of the title, `menu.<name>` */
  title: string;
  /** icon name from @ant-design/icons, e.g. 'DatabaseOutlined' */
  icon?: string;
  /** the menu code needed; absent or null = any logged-in user */
  permission?: MenuCode | null;
  noCache?: boolean;
  affix?: boolean;
  /** path of the menu entry to highlight when this hidden route is open */
  activeMenu?: string;
}

export interface RouteEntry {
  path: string;
  name: string;
  meta?: RouteMeta;
  hidden?: boolean;
  alwaysShow?: boolean;
  redirect?: string;
  children?: RouteEntry[];
}

/**
 * Keep a route only if its permission is none or among the user's codes; children are
 * filtered the same way. A parent whose children were all removed and that has no page of
 * its own (a redirect-only group) is removed too.
 */
export function filterRoutes(routes: readonly RouteEntry[], codes: Iterable<string>): RouteEntry[] {
  const allowed = codes instanceof Set ? (codes as Set<string>) : new Set(codes);
  const out: RouteEntry[] = [];
  for (const route of routes) {
    const permission = route.meta?.permission;
    if (permission && !allowed.has(permission)) continue;
    if (!route.children) {
      out.push(route);
      continue;
    }
    const children = filterRoutes(route.children, allowed);
    if (children.length === 0 && route.children.length > 0) continue;
    out.push({ ...route, children });
  }
  return out;
}

/** Join a parent path and a child path the way the router does. */
export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  const base = parent.endsWith('/') ? parent.slice(0, -1) : parent;
  return `${base}/${child}`;
}

/** Every route with its full path, depth first. */
export function flattenRoutes(
  routes: readonly RouteEntry[],
  parent = '',
): Array<RouteEntry & { fullPath: string }> {
  const out: Array<RouteEntry & { fullPath: string }> = [];
  for (const route of routes) {
    const fullPath = parent ? joinPath(parent, route.path) : route.path;
    out.push({ ...route, fullPath });
    if (route.children) out.push(...flattenRoutes(route.children, fullPath));
  }
  return out;
}
