import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * SIM data cards: the company's list and card page (device communication, cd_sim), and every
 * card of the platform in system maintenance (system_sim).
 */
export const pages: PageMap = {
  simList: lazy(() => import('./pages/SimListPage')),
  simDetail: lazy(() => import('./pages/SimDetailPage')),
  systemSim: lazy(() => import('./pages/SystemSimPage')),
  sysSimDetail: lazy(() => import('./pages/SysSimDetailPage')),
};
