import type { MenuCode } from '../menu-codes';
import type { RouteEntry, RouteMeta } from './types';

/** Optional route flags and meta fields beyond path, name, permission and icon. */
export interface RouteExtra {
  hidden?: boolean;
  alwaysShow?: boolean;
  redirect?: string;
  noCache?: boolean;
  affix?: boolean;
  activeMenu?: string;
  children?: RouteEntry[];
}

/** Build an entry whose title is the i18n key `menu.<name>`. */
function entry(
  path: string,
  name: string,
  permission: MenuCode | null,
  icon: string | undefined,
  extra: RouteExtra,
): RouteEntry {
  const { hidden, alwaysShow, redirect, children, noCache, affix, activeMenu } = extra;
  const meta: RouteMeta = { title: `menu.${name}`, permission };
  if (icon) meta.icon = icon;
  if (noCache) meta.noCache = true;
  if (affix) meta.affix = true;
  if (activeMenu) meta.activeMenu = activeMenu;
  const route: RouteEntry = { path, name, meta };
  if (hidden) route.hidden = true;
  if (alwaysShow) route.alwaysShow = true;
  if (redirect) route.redirect = redirect;
  if (children) route.children = children;
  return route;
}

/** A page that shows in the menu. */
export function page(
  path: string,
  name: string,
  permission: MenuCode | null,
  icon: string,
  extra: RouteExtra = {},
): RouteEntry {
  return entry(path, name, permission, icon, extra);
}

/**
 * A hidden page reached from another page: highlights `activeMenu` (full path of the opening
 * list page) and is not kept alive when it takes path parameters.
 */
export function detail(
  path: string,
  name: string,
  permission: MenuCode | null,
  activeMenu: string,
  extra: RouteExtra = {},
): RouteEntry {
  const noCache = extra.noCache ?? path.includes(':');
  return entry(path, name, permission, undefined, { ...extra, hidden: true, activeMenu, noCache });
}

/** A menu group (module); redirects to its first visible child unless told otherwise. */
export function group(
  path: string,
  name: string,
  permission: MenuCode | null,
  icon: string,
  children: RouteEntry[],
  extra: RouteExtra = {},
): RouteEntry {
  const first = children.find((child) => !child.hidden);
  const redirect = extra.redirect ?? (first ? `${path}/${first.path}` : undefined);
  return entry(path, name, permission, icon, { ...extra, redirect, children });
}
