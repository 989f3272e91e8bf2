import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/** /sysSetting: companyManagement (sys_company_info). */
export const pages: PageMap = {
  companyManagement: lazy(() => import('./pages/CompanyManagementPage')),
};
