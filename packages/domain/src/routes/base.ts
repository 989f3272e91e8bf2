import type { RouteEntry } from './types';

/**
 * The routes always present, with or without a login (see table.ts for the route table as a
 * whole; ASYNC_ROUTES are there). A module of its own, and their titles (with the product's) in
 * locales/base/ apart from the others': the login page needs these only.
 */
export const BASE_ROUTES: RouteEntry[] = [
  { path: '/login', name: 'login', hidden: true, meta: { title: 'menu.login' } },
  { path: '/404', name: 'notFound', hidden: true, meta: { title: 'menu.notFound' } },
  {
    path: '/redirect/:path*',
    name: 'redirect',
    hidden: true,
    meta: { title: 'menu.redirect', noCache: true },
  },
  { path: '/', name: 'root', redirect: '/home', hidden: true, meta: { title: 'menu.root' } },
  { path: '/home', name: 'home', meta: { title: 'menu.home', icon: 'HomeOutlined', affix: true } },
];
