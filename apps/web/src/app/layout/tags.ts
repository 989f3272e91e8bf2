/**
 * Visited views of the tab strip (spec point 2): deduplicated by path; home and affix views
 * always present and not closable; a view under project/projectMenu/ replaces the open
 * project-menu view in place instead of adding one. Cleared on logout.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';
import { session } from '../store/session';

export interface VisitedView {
  /** pathname: the identity of the view (and its keep-alive key) */
  path: string;
  /** pathname + search, where the tab leads back to */
  fullPath: string;
  /** route title i18n key */
  title: string;
  /** the name of the object the view shows (a data item, a template…), when its path names one */
  name?: string;
  affix: boolean;
  noCache: boolean;
}

export const PROJECT_MENU_SEGMENT = 'project/projectMenu/';

/** route parameters that carry the shown object's name: `name`, `itemName`, `boardName`… */
const NAME_PARAM = /^(name|[a-zA-Z]+Name)$/;

/**
 * The object's name in a view's route parameters (in path order; a parent's name is context,
 * not the object): two open data items then read as two tabs, not "数据项数据" twice.
 */
export function objectName(params: Record<string, string | undefined>): string | undefined {
  for (const [key, value] of Object.entries(params)) {
    if (key !== 'parentName' && NAME_PARAM.test(key) && value && value !== '-') return value;
  }
  return undefined;
}

let views: readonly VisitedView[] = [];
/** names pages gave their views (useViewName), by path: a page may name itself before its tab exists */
const givenNames = new Map<string, string>();
const listeners = new Set<() => void>();

function set(next: readonly VisitedView[]): void {
  views = next;
  for (const listener of listeners) listener();
}

export const tags = {
  get: (): readonly VisitedView[] => views,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** Make sure the pinned views (home, affix routes) are there, in front. */
  pin(pinned: readonly VisitedView[]): void {
    const missing = pinned.filter((p) => !views.some((v) => v.path === p.path));
    if (missing.length) set([...missing, ...views]);
  },

  add(added: VisitedView): void {
    const view = { ...added, name: added.name ?? givenNames.get(added.path) };
    const same = views.findIndex((v) => v.path === view.path);
    if (same >= 0) {
      const current = views[same]!;
      if (current.fullPath === view.fullPath && current.title === view.title && current.name === view.name)
        return;
      const next = [...views];
      next[same] = { ...current, fullPath: view.fullPath, title: view.title, name: view.name };
      set(next);
      return;
    }
    if (view.path.includes(PROJECT_MENU_SEGMENT)) {
      const project = views.findIndex((v) => v.path.includes(PROJECT_MENU_SEGMENT));
      if (project >= 0) {
        const next = [...views];
        next[project] = view;
        set(next);
        return;
      }
    }
    set([...views, view]);
  },

  /** The name of the object a view shows, given by its page when the path names none. */
  rename(path: string, name: string): void {
    givenNames.set(path, name);
    const index = views.findIndex((v) => v.path === path);
    if (index < 0 || views[index]!.name === name) return;
    const next = [...views];
    next[index] = { ...views[index]!, name };
    set(next);
  },

  /** Close one view; affix views stay. Returns the views left. */
  close(path: string): readonly VisitedView[] {
    set(views.filter((v) => v.path !== path || v.affix));
    return views;
  },

  closeOthers(path: string): void {
    set(views.filter((v) => v.affix || v.path === path));
  },

  closeAll(): readonly VisitedView[] {
    set(views.filter((v) => v.affix));
    return views;
  },

  reset(): void {
    givenNames.clear();
    set([]);
  },
};

session.onClear(() => tags.reset());

export function useVisitedViews(): readonly VisitedView[] {
  return useSyncExternalStore(tags.subscribe, tags.get, tags.get);
}

/**
 * For a page whose path carries an id but no name (a gateway's page, say): its tab reads the
 * object's name once the page knows it, as the tabs of paths with a name parameter do.
 */
export function useViewName(name: string | null | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (name) tags.rename(pathname, name);
  }, [pathname, name]);
}
