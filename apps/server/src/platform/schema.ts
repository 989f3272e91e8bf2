/** Every table of every module, for drizzle's typed queries and drizzle-kit's migrations. */

export * from '../modules/alarms/tables';
export * from '../modules/analysis/tables';
export * from '../modules/auth/tables';
export * from '../modules/boards/tables';
export * from '../modules/cabin/tables';
export * from '../modules/charts/tables';
export * from '../modules/companies/tables';
export * from '../modules/dataitems/tables';
export * from '../modules/dataupdate/tables';
export * from '../modules/delegations/tables';
export * from '../modules/devices/tables';
export * from '../modules/firmware/tables';
export * from '../modules/gas/tables';
export * from '../modules/inventory/tables';
export * from '../modules/gatewayconfig/tables';
export * from '../modules/gateways/tables';
export * from '../modules/groups/tables';
export * from '../modules/ingest/tables';
export * from '../modules/orders/tables';
export * from '../modules/packets/tables';
export * from '../modules/records/tables';
export * from '../modules/roles/tables';
export * from '../modules/sims/tables';
export * from '../modules/templates/tables';
export * from '../modules/users/tables';
export * from './access-tables';
