import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Device views (code dm_list, opened from the device drawer): the device's points charted over
 * time, and its running configuration drawn with live data moving through it. ECharts and
 * React Flow load with their page only.
 */
export const pages: PageMap = {
  dtuChart: lazy(() => import('./pages/DtuChartPage')),
  dataFlow: lazy(() => import('./pages/DataFlowPage')),
};
