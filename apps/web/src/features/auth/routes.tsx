import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/** /login is the only page reachable without a token; registration and password reset are its sub-views. */
export const pages: PageMap = {
  login: lazy(() => import('./pages/LoginPage')),
};
