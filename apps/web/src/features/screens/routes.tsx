import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Configuration screens (dm_list, opened from a device's actions), docs/configuration-screens.md:
 * the editor (two route names, one page) and the live screen.
 */
const ScreenEdit = lazy(() => import('./pages/ScreenEditPage'));

export const pages: PageMap = {
  editConfigurationTool: ScreenEdit,
  editConfigurationTool1: ScreenEdit,
  showConfigurationTool: lazy(() => import('./pages/ScreenShowPage')),
};
