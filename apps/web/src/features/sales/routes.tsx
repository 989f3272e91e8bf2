import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Sales (/smartSale): submitting an order of products and service subscriptions
 * (ss_submit_order) and managing the orders: the list, one order, paying and cancelling
 * (ss_order_management). The order detail of the data engine, the sales contracts and their
 * templates are not built yet: the menu leaves them out.
 */
export const pages: PageMap = {
  submitOrder: lazy(() => import('./pages/SubmitOrderPage')),
  orderManagement: lazy(() => import('./pages/OrderManagementPage')),
};
