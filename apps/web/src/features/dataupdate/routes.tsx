import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/** Cloud monitoring: data-update monitoring (cs_sditem_update), docs/data-update.md. */
export const pages: PageMap = {
  dataUpdate: lazy(() => import('./pages/DataUpdatePage')),
};
