/**
 * The menu-code choice of a role. Codes are shown grouped as MENU_CODE_GROUPS; only codes the
 * company may grant (/role/getMenuCodes) are offered. A page is reachable only when every
 * route above it is permitted too (filterRoutes drops a parent whose code is missing), so
 * checking a code also checks the codes of the routes above it, and unchecking a code
 * unchecks the codes beneath it: a role never holds a page it cannot open.
 */
import { ASYNC_ROUTES, MENU_CODE_GROUPS, type MenuCodeGroup, type RouteEntry } from '@platform/domain';

/** code → codes of the routes above it (anywhere in the route table) */
function collectAncestors(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (routes: readonly RouteEntry[], above: readonly string[]) => {
    for (const route of routes) {
      const code = route.meta?.permission ?? null;
      if (code) {
        const set = out.get(code) ?? new Set<string>();
        for (const a of above) if (a !== code) set.add(a);
        out.set(code, set);
      }
      if (route.children) walk(route.children, code ? [...above, code] : above);
    }
  };
  walk(ASYNC_ROUTES, []);
  return out;
}

const ANCESTORS = collectAncestors();

export function ancestorsOf(code: string): ReadonlySet<string> {
  return ANCESTORS.get(code) ?? new Set();
}

/**
 * The next set of codes after the person changed the checked leaves from `before` to `after`:
 * newly checked codes bring their ancestors, newly unchecked codes take their descendants.
 * Only codes in `available` are ever added.
 */
export function closeOver(
  before: readonly string[],
  after: readonly string[],
  available: ReadonlySet<string>,
): string[] {
  const prev = new Set(before);
  const next = new Set(after);
  const added = after.filter((c) => !prev.has(c));
  const removed = before.filter((c) => !next.has(c));
  for (const code of added) for (const a of ancestorsOf(code)) if (available.has(a)) next.add(a);
  if (removed.length) {
    for (const code of [...next]) {
      if (removed.some((r) => ancestorsOf(code).has(r))) next.delete(code);
    }
  }
  return [...next];
}

export interface CodeGroup {
  group: MenuCodeGroup;
  codes: string[];
}

/** The groups of MENU_CODE_GROUPS restricted to the available codes (empty groups left out). */
export function groupCodes(available: readonly string[]): CodeGroup[] {
  const set = new Set(available);
  return (Object.keys(MENU_CODE_GROUPS) as MenuCodeGroup[])
    .map((group) => ({ group, codes: MENU_CODE_GROUPS[group].filter((c) => set.has(c)) as string[] }))
    .filter((g) => g.codes.length > 0);
}

export const GROUP_KEY_PREFIX = 'group:';
