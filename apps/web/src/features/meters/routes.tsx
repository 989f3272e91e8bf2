import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Electricity meters (docs/energy.md, issue 13 points 1-3), all under the cabin's code
 * sd_capsule and then the meter node's data permission: the meter form (electricMeterConfig,
 * new meters at id 0, paths.ts), a standard meter's live values, energy and log, a virtual
 * meter's formula and energy, and the monthly reports. System maintenance's lists of every
 * company's meters (system_emeter) and meter log (system_emeter_log) live here too, with the
 * calls they share. The company's time-of-use tariff is edited in company settings
 * (components/TouSettingsCard.tsx, shown by features/sysSetting).
 */
export const pages: PageMap = {
  electricMeterConfig: lazy(() => import('./pages/MeterConfigPage')),
  standardElectricMeter: lazy(() => import('./pages/StandardMeterPage')),
  virtualElectricMeter: lazy(() => import('./pages/VirtualMeterPage')),
  standardReport: lazy(() => import('./pages/MeterReportPage')),
  virtualReport: lazy(() => import('./pages/MeterReportPage')),
  systemEmeter: lazy(() => import('./pages/SystemMeterListPage')),
  systemEmeterLog: lazy(() => import('./pages/SystemMeterLogPage')),
};
