import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Report templates of the data cabin (sd_capsule): the template (reportTemplate), its grid
 * editor (editTemplate) and the report filled with real data (previewReport).
 */
export const pages: PageMap = {
  reportTemplate: lazy(() => import('./pages/ReportTemplatePage')),
  editTemplate: lazy(() => import('./pages/EditTemplatePage')),
  previewReport: lazy(() => import('./pages/PreviewReportPage')),
};
