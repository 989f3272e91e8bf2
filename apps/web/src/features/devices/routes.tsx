import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Devices (docs/devices.md): the list under device management (dm_list) and device
 * communication (cd_device) is one page, with the detail drawer; a device's operation log
 * (full screen, dm_list); device permissions (dm_permission); maintenance (dm_maintenance).
 */
const DeviceListPage = lazy(() => import('./pages/DeviceListPage'));

export const pages: PageMap = {
  deviceList: DeviceListPage,
  cloudDevice: DeviceListPage,
  operationLog: lazy(() => import('./pages/OperationLogPage')),
  deviceManagementPermission: lazy(() => import('./pages/DevicePermissionPage')),
  deviceMaintenance: lazy(() => import('./pages/MaintenancePage')),
};
