import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * The data cabin (sd_capsule), a data item's configuration (sd_capsule) and item groups
 * (sd_item_group): the list under /project/itemgroup and its editor under /smartdata.
 */
export const pages: PageMap = {
  dataCapsule: lazy(() => import('./pages/DataCapsulePage')),
  dataItemConfig: lazy(() => import('./pages/DataItemConfigPage')),
  itemGroup: lazy(() => import('./pages/ItemGroupListPage')),
  itemGroupConfig: lazy(() => import('./pages/ItemGroupConfigPage')),
};
