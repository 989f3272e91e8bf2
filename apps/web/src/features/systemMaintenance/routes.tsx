import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * System maintenance: the hub of the operator's pages (system_data_management) and the
 * gateway registry with its detail (system_gateway). Other system pages live with their
 * features (SIM cards in features/sims).
 */
export const pages: PageMap = {
  dataManagement: lazy(() => import('./pages/DataManagementPage')),
  systemGateway: lazy(() => import('./pages/GatewayRegistryPage')),
  sysGatewayDetail: lazy(() => import('./pages/GatewayDetailPage')),
};
