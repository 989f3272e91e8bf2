import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Device-family flow charts (docs/configuration-screens.md, issue 13 points 4 and 7): a device's
 * flow chart under its six route names (one page), the PV inverter dashboard, and system
 * maintenance's templates (systemnss3dfw: the list, and one template in the screen editor).
 */
const FlowChart = lazy(() => import('./pages/FlowChartPage'));

export const pages: PageMap = {
  flowChart: FlowChart,
  flowChart6E: FlowChart,
  nssFlowChart: FlowChart,
  nssFlowChart4D: FlowChart,
  nssVisualization: FlowChart,
  nssPreview: FlowChart,
  inverterDashboard: lazy(() => import('./pages/InverterDashboardPage')),
  systemNss3dfw: lazy(() => import('./pages/TemplatesPage')),
};
