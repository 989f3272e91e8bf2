import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/** /userManagement/users (um_user), /group (route name userGroup, um_user_group), /role (um_role). */
export const pages: PageMap = {
  users: lazy(() => import('./pages/UsersPage')),
  userGroup: lazy(() => import('./pages/GroupPage')),
  role: lazy(() => import('./pages/RolePage')),
};
