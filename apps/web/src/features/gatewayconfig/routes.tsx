import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Gateway configuration: the node editor (deviceConfig, dtuConfig; code sd_capsule, as the data
 * cabin opens devices) and the push page with its history (upgradeCfg; code dm_list, as the
 * device list opens it). React Flow is in the editor's chunk only.
 */
export const pages: PageMap = {
  deviceConfig: lazy(() => import('./pages/ConfigEditorPage')),
  dtuConfig: lazy(() => import('./pages/DtuConfigPage')),
  upgradeCfg: lazy(() => import('./pages/PushPage')),
};
