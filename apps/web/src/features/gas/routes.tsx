import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Gas blending (/setgas): the mixture recipes and their component calculation, the parent gases
 * and the gas properties. Each route's permission (gm_product, gm_component_cal, gm_pure_gas,
 * gm_gas_info) is the route table's; the server checks the same codes on every call.
 */
export const pages: PageMap = {
  gasProductList: lazy(() => import('./pages/ProductListPage')),
  gasCalculation: lazy(() => import('./pages/CalculationPage')),
  pureGas: lazy(() => import('./pages/PureGasPage')),
  gasProperties: lazy(() => import('./pages/GasPropertiesPage')),
};
