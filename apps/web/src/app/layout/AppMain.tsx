/**
 * Keep-alive outlet: every visited view except those marked noCache stays mounted (hidden)
 * while another tab is shown, so its form input and scroll survive a tab switch. A view is
 * dropped when its tab closes, and re-mounted when "refresh" bumps its version.
 * Cached views share the one location: read route parameters with useParams (they keep
 * their own), not from useLocation.
 */
import { type ReactNode, useRef } from 'react';
import { useLocation, useOutlet } from 'react-router-dom';
import { REDIRECT_PREFIX } from '../router/build';
import { useBuiltRoutes } from '../router/context';
import { useViewVersions } from '../router/refresh';
import { useVisitedViews } from './tags';

export function AppMain() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const { find } = useBuiltRoutes();
  const visited = useVisitedViews();
  const versions = useViewVersions();
  const cache = useRef(new Map<string, ReactNode>());

  const isRedirect = pathname.startsWith(`${REDIRECT_PREFIX}/`);
  const noCache = Boolean(find(pathname)?.entry.meta?.noCache);

  const kept = cache.current;
  if (!isRedirect && !noCache && outlet) kept.set(pathname, outlet);
  // closed tabs (and views that became uncacheable) lose their kept copy
  for (const path of [...kept.keys()]) {
    if (path !== pathname && !visited.some((v) => v.path === path && !v.noCache)) kept.delete(path);
  }

  return (
    <>
      {[...kept.entries()].map(([path, element]) => (
        <div
          key={`${path}#${versions.get(path) ?? 0}`}
          className="app-view"
          data-path={path}
          style={path === pathname && !noCache && !isRedirect ? undefined : { display: 'none' }}
        >
          {element}
        </div>
      ))}
      {(noCache || isRedirect) && outlet ? (
        <div
          key={`${pathname}#${versions.get(pathname) ?? 0}#live`}
          className="app-view"
          data-path={pathname}
        >
          {outlet}
        </div>
      ) : null}
    </>
  );
}
