/**
 * Access rules of spec point 2:
 * - only /login without a token; any other path → /login?redirect=<path+search>;
 * - a token on /login → the redirect target or /;
 * - a token without a user record → fetch /user/getUser, then build the permitted routes once;
 * - unknown or unpermitted paths → /404; / → /home; /redirect/* re-mounts a view.
 */
import { BASE_ROUTES } from '@platform/domain/routes/base';
import type { RouteEntry } from '@platform/domain/routes/types';
import { Spin } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import {
  Navigate,
  type RouteObject,
  useLocation,
  useParams,
  useRoutes,
  useSearchParams,
} from 'react-router-dom';
import { loadSession } from '../store/loader';
import { session, useSession } from '../store/session';
import {
  buildRoutes,
  LOGIN_PATH,
  NOT_FOUND_PATH,
  REDIRECT_PREFIX,
  type RouteInfo,
  toRouterPath,
} from './build';
import { RoutesContext, withFinder } from './context';
import { permitted, usePermitted } from './permitted';
import { viewVersions } from './refresh';
import { pageFor } from './registry';
import { safeRedirect } from './safeRedirect';
import { useDocumentTitle } from './title';

// the layout (menus, tabs, icons, dropdowns) loads after login, and the pages with antd's
// Result (its illustrations weigh 10 KB gzip) when they are shown: the login page waits for none
const loadLayout = () => import('../layout/AppLayout');
const AppLayout = lazy(() => loadLayout().then((m) => ({ default: m.AppLayout })));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));
const NotAvailablePage = lazy(() =>
  import('../pages/NotAvailablePage').then((m) => ({ default: m.NotAvailablePage })),
);
// the other features' words, dayjs and TanStack Query: needed by every page after login only
const loadSignedIn = () => import('../signedIn');
type SignedInModule = Awaited<ReturnType<typeof loadSignedIn>>;
let signedInModule: SignedInModule | null = null;
const SessionError = lazy(() => import('../pages/SessionError').then((m) => ({ default: m.SessionError })));

export function PageLoading() {
  return (
    <div style={{ padding: 48, display: 'flex', justifyContent: 'center' }}>
      <Spin />
    </div>
  );
}

function FullScreenLoading() {
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

function PageView({ info }: { info: RouteInfo }) {
  const Page = pageFor(info.entry.name);
  return (
    <Suspense fallback={<PageLoading />}>
      {Page ? <Page /> : <NotAvailablePage title={info.entry.meta?.title} />}
    </Suspense>
  );
}

function loginEntry(): RouteEntry | undefined {
  return BASE_ROUTES.find((entry) => toRouterPath(entry.path) === LOGIN_PATH);
}

/**
 * What the first page after login needs (the shell and what signedIn.tsx brings), fetched ahead
 * once the person starts using the login page (a press or a key: the page is usable by then, and
 * the fetch does not hold it up), in the browser's idle time. Login then waits for the server only.
 */
function usePrefetchAfterLogin(): void {
  useEffect(() => {
    const events = ['pointerdown', 'keydown'] as const;
    let cancel = () => {};
    const start = () => {
      // a failure here is no failure: the navigation that needs the code fetches it again
      Promise.all([loadSignedIn(), loadLayout()]).catch(() => undefined);
    };
    const prefetch = () => {
      for (const event of events) document.removeEventListener(event, prefetch, true);
      // not in every browser (Safari): a short wait instead
      const idle = window.requestIdleCallback as typeof window.requestIdleCallback | undefined;
      if (idle) {
        const handle = window.requestIdleCallback(start, { timeout: 2000 });
        cancel = () => window.cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(start, 200);
        cancel = () => window.clearTimeout(handle);
      }
    };
    for (const event of events) document.addEventListener(event, prefetch, true);
    return () => {
      for (const event of events) document.removeEventListener(event, prefetch, true);
      cancel();
    };
  }, []);
}

function LoginRoute() {
  const { token } = useSession();
  usePrefetchAfterLogin();
  const [params] = useSearchParams();
  if (token) {
    return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  }
  const entry = loginEntry();
  const Page = pageFor(entry?.name ?? 'Login');
  return (
    <Suspense fallback={<FullScreenLoading />}>
      {Page ? <Page /> : <NotAvailablePage title={entry?.meta?.title} />}
    </Suspense>
  );
}

function ToLogin() {
  const location = useLocation();
  if (session.endedByLogout()) return <Navigate to={LOGIN_PATH} replace />;
  const redirect = `${location.pathname}${location.search}`;
  return <Navigate to={`${LOGIN_PATH}?redirect=${encodeURIComponent(redirect)}`} replace />;
}

/** /redirect/<path>: bump the view's version (its keep-alive copy re-mounts) and go back to it. */
function RedirectView() {
  const params = useParams();
  const location = useLocation();
  const target = `/${params['*'] ?? ''}`;
  useEffect(() => {
    viewVersions.bump(target);
  }, [target]);
  return <Navigate to={`${target}${location.search}`} replace />;
}

function Titled({ children, routes }: { children: ReactNode; routes: ReturnType<typeof withFinder> }) {
  useDocumentTitle(routes);
  return <RoutesContext.Provider value={routes}>{children}</RoutesContext.Provider>;
}

export function AppRoutes() {
  const { token, user, company } = useSession();
  const { generated, routes, landing } = usePermitted();
  const [loadError, setLoadError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [signedIn, setSignedIn] = useState(signedInModule);
  const location = useLocation();

  // a token without a user record: fetch it (after login, or a stale reload)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button
  useEffect(() => {
    if (!token || user) return;
    let cancelled = false;
    setLoadError(false);
    loadSession().catch(() => {
      if (!cancelled) setLoadError(true);
    });
    return () => {
      cancelled = true;
    };
  }, [token, user, attempt]);

  // a company stored before it carried its time zone: fetch it again, once
  const staleCompany = Boolean(token && user && company && company.timeZone === undefined);
  useEffect(() => {
    if (staleCompany) loadSession().catch(() => undefined);
  }, [staleCompany]);
  // a token: load what the pages after login need, beside the user record
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button
  useEffect(() => {
    if (!token || signedIn) return;
    let cancelled = false;
    setLoadError(false);
    loadSignedIn().then(
      (module) => {
        signedInModule = module;
        if (!cancelled) setSignedIn(module);
      },
      () => {
        if (!cancelled) setLoadError(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, signedIn, attempt]);

  // token + user record: generate the permitted routes once
  const away = Boolean(landing && location.pathname !== landing);
  useEffect(() => {
    if (token && user && signedIn && !generated && !away) {
      permitted.generate(user.menuCode, signedIn.ASYNC_ROUTES);
    }
  }, [token, user, signedIn, generated, away]);

  const ready = Boolean(token && user && generated && signedIn);

  const built = useMemo(() => {
    const tree = ready ? [...BASE_ROUTES, ...routes] : BASE_ROUTES;
    const result = buildRoutes(tree, (info) => <PageView info={info} />);
    const entry = loginEntry();
    const extra: RouteObject[] = [];
    if (entry) {
      const id = 'login';
      result.info.set(id, {
        id,
        entry,
        fullPath: LOGIN_PATH,
        chain: [{ entry, fullPath: LOGIN_PATH }],
        inLayout: false,
      });
      extra.push({ id, path: LOGIN_PATH });
    }
    const notFound = BASE_ROUTES.find((e) => toRouterPath(e.path) === NOT_FOUND_PATH);
    if (notFound) {
      const id = 'notFound';
      result.info.set(id, {
        id,
        entry: notFound,
        fullPath: NOT_FOUND_PATH,
        chain: [{ entry: notFound, fullPath: NOT_FOUND_PATH }],
        inLayout: false,
      });
      extra.push({ id, path: NOT_FOUND_PATH });
    }
    return withFinder(result, extra);
  }, [ready, routes]);

  const objects: RouteObject[] = useMemo(() => {
    const login: RouteObject = { path: LOGIN_PATH, element: <LoginRoute /> };
    if (!token) return [login, { path: '*', element: <ToLogin /> }];
    if (!ready) {
      const to = away && landing ? <Navigate to={landing} replace /> : null;
      return [login, { path: '*', element: to }];
    }
    return [
      login,
      {
        path: NOT_FOUND_PATH,
        element: (
          <Suspense fallback={<FullScreenLoading />}>
            <NotFoundPage />
          </Suspense>
        ),
      },
      {
        element: (
          <Suspense fallback={<FullScreenLoading />}>
            <AppLayout />
          </Suspense>
        ),
        children: [{ path: `${REDIRECT_PREFIX}/*`, element: <RedirectView /> }, ...built.layoutChildren],
      },
      ...built.bare,
      { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
    ];
  }, [token, ready, built, away, landing]);

  const element = useRoutes(objects, location);

  if (token && !ready && location.pathname !== LOGIN_PATH) {
    if (loadError) {
      return (
        <Suspense fallback={<FullScreenLoading />}>
          <SessionError onRetry={() => setAttempt((n) => n + 1)} />
        </Suspense>
      );
    }
    return <FullScreenLoading />;
  }
  return (
    <Titled routes={built}>
      {ready && signedIn ? <signedIn.SignedIn>{element}</signedIn.SignedIn> : element}
    </Titled>
  );
}
