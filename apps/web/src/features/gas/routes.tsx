import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Gas blending (/setgas): the mixture recipes and their component calculation, the parent gases,
 * the gas properties, quality control of filled cylinders, their certificates and the reference
 * materials. Each route's permission (gm_product, gm_component_cal, gm_pure_gas, gm_gas_info,
 * gm_quality_ctrl, gm_cert_report, gm_ref_material) is the route table's; the server checks the
 * same codes on every call.
 */
export const pages: PageMap = {
  gasProductList: lazy(() => import('./pages/ProductListPage')),
  gasCalculation: lazy(() => import('./pages/CalculationPage')),
  pureGas: lazy(() => import('./pages/PureGasPage')),
  gasProperties: lazy(() => import('./pages/GasPropertiesPage')),
  qualityControl: lazy(() => import('./pages/QualityControlPage')),
  certAndReport: lazy(() => import('./pages/CertificatesPage')),
  referenceMaterial: lazy(() => import('./pages/ReferenceMaterialPage')),
};
