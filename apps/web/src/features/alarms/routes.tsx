import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/** Cloud monitoring: alarm rules (cs_rules), the alarm log and the alarm wall (cs_info), docs/alarms.md. */
export const pages: PageMap = {
  alertRule: lazy(() => import('./pages/AlertRulePage')),
  alertLog: lazy(() => import('./pages/AlertLogPage')),
  alertDashboard: lazy(() => import('./pages/AlertDashboardPage')),
};
