import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Sales (/smartSale): submitting an order of products and service subscriptions
 * (ss_submit_order) and managing the orders: the list, one order, paying and cancelling
 * (ss_order_management), one order on its own page (orderDetail), contracts made from an order
 * and their templates (ss_sale_contract).
 */
export const pages: PageMap = {
  submitOrder: lazy(() => import('./pages/SubmitOrderPage')),
  orderManagement: lazy(() => import('./pages/OrderManagementPage')),
  orderDetail: lazy(() => import('./pages/OrderDetailPage')),
  saleContract: lazy(() => import('./pages/SaleContractPage')),
  saleTemplate: lazy(() => import('./pages/SaleTemplatePage')),
};
