import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Charts of data items (code sd_capsule, then the item's data permission on the server): the
 * editor with its live preview (chartConfig), a chart as a page (chartPages) and in a dialog
 * (chartDialogs). ECharts loads with these pages only.
 */
export const pages: PageMap = {
  chartConfig: lazy(() => import('./pages/ChartConfigPage')),
  chartPages: lazy(() => import('./pages/ChartPage')),
  chartDialogs: lazy(() => import('./pages/ChartDialogsPage')),
};
