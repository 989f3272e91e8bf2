import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

export const pages: PageMap = {
  home: lazy(() => import('./pages/HomePage')),
};
