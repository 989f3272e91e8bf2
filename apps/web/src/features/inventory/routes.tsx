import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

const EntryDetail = lazy(() => import('./pages/EntryDetailPage'));

/**
 * Inventory (/inventoryManagement): the stock with its units and the production log
 * (im_inventory, im_production_log), entry orders (im_entry) of own products, SIM cards and
 * other goods, exit orders to customers (im_exit), and the categories of goods (im_category).
 * Each route's permission is the route table's; the server checks the same codes on every call.
 */
export const pages: PageMap = {
  inventoryList: lazy(() => import('./pages/InventoryListPage')),
  entryList: lazy(() => import('./pages/EntryListPage')),
  entryOwnDetail: EntryDetail,
  entrySimDetail: EntryDetail,
  entryOtherDetail: EntryDetail,
  exitList: lazy(() => import('./pages/ExitListPage')),
  exitDetail: lazy(() => import('./pages/ExitDetailPage')),
  categoryList: lazy(() => import('./pages/CategoryListPage')),
  categoryDetail: lazy(() => import('./pages/CategoryDetailPage')),
};
