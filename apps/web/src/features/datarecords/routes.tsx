import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Records of data items (code sd_capsule): the records list (dataValue), the form entry page
 * of form items (formPage) and the child records of one record (childValue).
 */
export const pages: PageMap = {
  dataValue: lazy(() => import('./pages/DataValuePage')),
  formPage: lazy(() => import('./pages/FormPage')),
  childValue: lazy(() => import('./pages/ChildValuePage')),
};
