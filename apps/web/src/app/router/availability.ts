/**
 * Which permitted routes have a page built. A module (top-level group) with at least one
 * built page is working: its entries whose page is not built yet leave the menu (every entry a
 * person sees opens a working page; the path itself still answers "not available yet"). A
 * module with no built page at all keeps its entries and is marked "not available yet" where
 * it is offered (home's module cards).
 */
import type { RouteEntry } from '@platform/domain';
import { pageFor } from './registry';

/** The entry or one of its visible descendants has a built page. */
export function hasBuiltPage(entry: RouteEntry): boolean {
  if (pageFor(entry.name)) return true;
  return (entry.children ?? []).some((child) => !child.hidden && hasBuiltPage(child));
}

/**
 * Hides the not-built menu entries of a group that has built ones, recursively. A group's
 * redirect to an entry hidden so is dropped: the group then opens its first visible entry (the
 * router's rule), not a page that says "not available yet".
 */
function pruneGroup(entry: RouteEntry): RouteEntry {
  if (!entry.children?.length) return entry;
  let redirectHidden = false;
  const children = entry.children.map((child) => {
    if (child.hidden) return child;
    if (!hasBuiltPage(child)) {
      if (entry.redirect === `${entry.path}/${child.path}`) redirectHidden = true;
      return { ...child, hidden: true };
    }
    return pruneGroup(child);
  });
  const pruned: RouteEntry = { ...entry, children };
  if (redirectHidden) delete pruned.redirect;
  return pruned;
}

/** The permitted tree as the menu shows it: working modules keep only their working entries. */
export function hideUnbuiltEntries(routes: readonly RouteEntry[]): RouteEntry[] {
  return routes.map((entry) => (entry.children?.length && hasBuiltPage(entry) ? pruneGroup(entry) : entry));
}
