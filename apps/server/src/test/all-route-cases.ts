import { alarmsRouteCases } from '../modules/alarms/route-cases';
import { analysisRouteCases } from '../modules/analysis/route-cases';
import { authRouteCases } from '../modules/auth/route-cases';
import { boardsRouteCases } from '../modules/boards/route-cases';
import { cabinRouteCases } from '../modules/cabin/route-cases';
import { chartsRouteCases } from '../modules/charts/route-cases';
import { companiesRouteCases } from '../modules/companies/route-cases';
import { dataItemsRouteCases } from '../modules/dataitems/route-cases';
import { dataUpdateRouteCases } from '../modules/dataupdate/route-cases';
import { delegationsRouteCases } from '../modules/delegations/route-cases';
import { devicesRouteCases } from '../modules/devices/route-cases';
import { deviceViewsRouteCases } from '../modules/deviceviews/route-cases';
import { devtoolsRouteCases } from '../modules/devtools/route-cases';
import { energyDataRouteCases } from '../modules/energydata/route-cases';
import { firmwareRouteCases } from '../modules/firmware/route-cases';
import { flowchartRouteCases } from '../modules/flowcharts/route-cases';
import { gasRouteCases } from '../modules/gas/route-cases';
import { gatewayConfigRouteCases } from '../modules/gatewayconfig/route-cases';
import { gatewaysRouteCases } from '../modules/gateways/route-cases';
import { groupsRouteCases } from '../modules/groups/route-cases';
import { ingestRouteCases } from '../modules/ingest/route-cases';
import { inventoryRouteCases } from '../modules/inventory/route-cases';
import { metersRouteCases } from '../modules/meters/route-cases';
import { mqttRouteCases } from '../modules/mqtt/route-cases';
import { ordersRouteCases } from '../modules/orders/route-cases';
import { packetsRouteCases } from '../modules/packets/route-cases';
import { passthroughRouteCases } from '../modules/passthrough/route-cases';
import { productionRouteCases } from '../modules/production/route-cases';
import { recordsRouteCases } from '../modules/records/route-cases';
import { rolesRouteCases } from '../modules/roles/route-cases';
import { salesContractRouteCases } from '../modules/sales/contract-route-cases';
import { salesRouteCases } from '../modules/sales/route-cases';
import { screensRouteCases } from '../modules/screens/route-cases';
import { simRouteCases } from '../modules/sims/route-cases';
import { docTemplateRouteCases } from '../modules/templates/doc-route-cases';
import { reportRouteCases } from '../modules/templates/report-route-cases';
import { usersRouteCases } from '../modules/users/route-cases';
import type { RouteCases } from './route-cases';

/** Every module's tenant cases; add a module's file here with its routes. */
export const ALL_ROUTE_CASES: RouteCases = {
  ...authRouteCases,
  ...usersRouteCases,
  ...rolesRouteCases,
  ...ordersRouteCases,
  ...companiesRouteCases,
  ...groupsRouteCases,
  ...delegationsRouteCases,
  ...ingestRouteCases,
  ...mqttRouteCases,
  ...cabinRouteCases,
  ...dataItemsRouteCases,
  ...recordsRouteCases,
  ...analysisRouteCases,
  ...chartsRouteCases,
  ...alarmsRouteCases,
  ...docTemplateRouteCases,
  ...reportRouteCases,
  ...boardsRouteCases,
  ...devtoolsRouteCases,
  ...gatewaysRouteCases,
  ...devicesRouteCases,
  ...gatewayConfigRouteCases,
  ...deviceViewsRouteCases,
  ...firmwareRouteCases,
  ...packetsRouteCases,
  ...passthroughRouteCases,
  ...screensRouteCases,
  ...flowchartRouteCases,
  ...simRouteCases,
  ...dataUpdateRouteCases,
  ...gasRouteCases,
  ...inventoryRouteCases,
  ...productionRouteCases,
  ...metersRouteCases,
  ...salesRouteCases,
  ...salesContractRouteCases,
  ...energyDataRouteCases,
};
