import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Personal center (/user/userinfo, /user/myorder, /user/myassignmentanze), keyed by route name:
 * user info needs no code; orders pc_my_order; assignments pc_my_assignment.
 */
export const pages: PageMap = {
  userInfo: lazy(() => import('./pages/UserInfoPage')),
  myOrder: lazy(() => import('./pages/MyOrderPage')),
  myAssignment: lazy(() => import('./pages/MyAssignmentPage')),
};
