import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * The energy data platform (/energy): coal, gas, steam consumed and steam produced are one view
 * (pages/EnergyPage) that reads its kind from the path; each page's menu code (edp_coal,
 * edp_gas, edp_steam_consume, edp_steam_output) is in the route table, and the server checks it
 * again on every call of the kind.
 */
const EnergyPage = lazy(() => import('./pages/EnergyPage'));

export const pages: PageMap = {
  energyCoal: EnergyPage,
  energyGas: EnergyPage,
  energySteamConsume: EnergyPage,
  energySteamOutput: EnergyPage,
};
