import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Production (/productionManagement): the plans (pm_scheduling), the process of one plan where
 * its units are recorded and finished by serial number (pm_process, which opens a plan from its
 * own list of plans), and the output reports (pm_reports). The route table holds each route's permission; the server checks the same codes.
 */
export const pages: PageMap = {
  productionScheduling: lazy(() => import('./pages/SchedulingPage')),
  productionProcessPlans: lazy(() => import('./pages/ProcessPlansPage')),
  productionProcess: lazy(() => import('./pages/ProcessPage')),
  productionReports: lazy(() => import('./pages/ReportsPage')),
};
