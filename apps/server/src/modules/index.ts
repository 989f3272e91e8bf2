import type { App } from '../platform/context';
import alarmRoutes from './alarms/routes';
import analysisRoutes from './analysis/routes';
import authRoutes from './auth/routes';
import boardPlayRoutes from './boards/play-routes';
import boardRoutes from './boards/routes';
import cabinRoutes from './cabin/routes';
import chartRoutes from './charts/routes';
import companiesRoutes from './companies/routes';
import dataItemRoutes from './dataitems/routes';
import dataUpdateRoutes from './dataupdate/routes';
import delegationsRoutes from './delegations/routes';
import deviceLiveRoutes from './devices/live-routes';
import maintenanceRoutes from './devices/maintenance-routes';
import devicePermissionRoutes from './devices/permission-routes';
import deviceRoutes from './devices/routes';
import deviceViewRoutes from './deviceviews/routes';
import devtoolsRoutes from './devtools/routes';
import energyDataRoutes from './energydata/routes';
import filesRoutes from './files/routes';
import firmwareRoutes from './firmware/routes';
import flowchartRoutes from './flowcharts/routes';
import cylinderRoutes from './gas/cylinder-routes';
import gasRoutes from './gas/routes';
import gatewayConfigRoutes from './gatewayconfig/routes';
import gatewayRoutes from './gateways/routes';
import groupsRoutes from './groups/routes';
import ingestRoutes from './ingest/routes';
import inventoryRoutes from './inventory/routes';
import meterRoutes from './meters/routes';
import mqttRoutes from './mqtt/routes';
import ordersRoutes from './orders/routes';
import packetRoutes from './packets/routes';
import passthroughRoutes from './passthrough/routes';
import productionRoutes from './production/routes';
import recordRoutes from './records/routes';
import rolesRoutes from './roles/routes';
import salesContractRoutes from './sales/contract-routes';
import salesRoutes from './sales/routes';
import screenRoutes from './screens/routes';
import simRoutes from './sims/routes';
import docTemplateRoutes from './templates/doc-routes';
import reportRoutes from './templates/report-routes';
import usersRoutes from './users/routes';

/** Every module's routes, registered under /general. */
export const MODULES: Array<(app: App) => Promise<void>> = [
  authRoutes,
  usersRoutes,
  rolesRoutes,
  ordersRoutes,
  filesRoutes,
  companiesRoutes,
  groupsRoutes,
  delegationsRoutes,
  ingestRoutes,
  mqttRoutes,
  gatewayRoutes,
  deviceRoutes,
  deviceLiveRoutes,
  devicePermissionRoutes,
  maintenanceRoutes,
  gatewayConfigRoutes,
  deviceViewRoutes,
  firmwareRoutes,
  passthroughRoutes,
  screenRoutes,
  flowchartRoutes,
  cabinRoutes,
  dataItemRoutes,
  recordRoutes,
  analysisRoutes,
  chartRoutes,
  alarmRoutes,
  dataUpdateRoutes,
  docTemplateRoutes,
  reportRoutes,
  boardRoutes,
  boardPlayRoutes,
  packetRoutes,
  devtoolsRoutes,
  simRoutes,
  gasRoutes,
  cylinderRoutes,
  inventoryRoutes,
  productionRoutes,
  meterRoutes,
  salesRoutes,
  salesContractRoutes,
  energyDataRoutes,
];
