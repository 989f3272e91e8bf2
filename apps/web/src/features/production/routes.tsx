import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Production (/productionManagement): the plans (pm_scheduling), the process of one plan where
 * its units are recorded and finished by serial number (pm_process), and the output reports
 * (pm_reports). The route table holds each route's permission; the server checks the same codes.
 */
export const pages: PageMap = {
  productionScheduling: lazy(() => import('./pages/SchedulingPage')),
  productionProcess: lazy(() => import('./pages/ProcessPage')),
  productionReports: lazy(() => import('./pages/ReportsPage')),
};
