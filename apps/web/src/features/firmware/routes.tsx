import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Firmware upgrade (docs/firmware.md): a gateway's upgrade page and a version's release notes
 * (both dm_list, as the device list opens them). The operator's firmware versions are a tab
 * of the gateway registry (features/systemMaintenance), the batch upgrade a dialog of the
 * device list (features/devices); both use this feature's components.
 */
export const pages: PageMap = {
  upgradeVersion: lazy(() => import('./pages/UpgradeVersionPage')),
  releaseNote: lazy(() => import('./pages/ReleaseNotePage')),
};
