/**
 * Who may do what to a device: the caller's data permission on the device's node in the data
 * cabin (modules/cabin/permissions.ts), the one permission model of the platform. Read to see
 * a device, read-write to operate it (edit, commands, configuration, upgrade, passthrough,
 * maintenance), administrator to unbind it and change its permissions.
 *
 * A device is a gateway bound to the caller's company: another company's gateway, an unbound
 * one, or one the caller cannot read is 40400 as if it did not exist; a readable one with too
 * low a level is 40300. Every device feature goes through `requireDeviceLevel`.
 */
import { DATA_PERMISSION, type DataPermission } from '@platform/domain';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, levelsFor, requireLevel } from '../cabin/permissions';
import { dataCaller } from '../cabin/routes';
import { type GatewayRow, gateways } from '../gateways/tables';
import { devices } from './tables';

export type DeviceRow = typeof devices.$inferSelect;

export interface DeviceRef {
  /** the device id of the API: the gateway's registry id */
  id: number;
  serialNumber: string;
  companyId: number;
  nodeId: number;
  name: string;
  online: boolean;
  /** the caller's level on the device */
  level: DataPermission;
}

/** A bound device of the company, or null. */
export async function companyDevice(
  db: Db,
  companyId: number,
  gatewayId: number,
): Promise<{ device: DeviceRow; gateway: GatewayRow } | null> {
  const [row] = await db
    .select({ device: devices, gateway: gateways })
    .from(devices)
    .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
    .where(
      and(
        eq(devices.companyId, companyId),
        eq(devices.gatewayId, gatewayId),
        eq(gateways.companyId, companyId),
        isNotNull(devices.nodeId),
      ),
    );
  return row ?? null;
}

/** The device if the caller holds `needed` on it; 40400 / 40300 otherwise (naming `field`). */
export async function deviceFor(
  db: Db,
  caller: DataCaller,
  gatewayId: number,
  needed: DataPermission,
  field = 'id',
): Promise<DeviceRef & { device: DeviceRow; gateway: GatewayRow }> {
  const found = await companyDevice(db, caller.companyId, gatewayId);
  if (!found) throw new AppError('notFound', {}, { field });
  const level = await requireLevel(db, caller, found.device.nodeId!, needed, field);
  return {
    id: gatewayId,
    serialNumber: found.gateway.serialNumber,
    companyId: caller.companyId,
    nodeId: found.device.nodeId!,
    name: found.device.name,
    online: found.gateway.online,
    level,
    ...found,
  };
}

/**
 * For the other device features' routes: the caller's company's device `deviceId` when the
 * caller holds `level` on it (read 1, read-write 2, administrator 3); 40400 / 40300 otherwise.
 */
export async function requireDeviceLevel(
  app: App,
  request: FastifyRequest,
  deviceId: number,
  level: DataPermission,
  field = 'id',
): Promise<DeviceRef> {
  const {
    device: _d,
    gateway: _g,
    ...ref
  } = await deviceFor(app.db, dataCaller(request), deviceId, level, field);
  return ref;
}

/** Every bound device of the company the caller can read, with its gateway and the caller's level. */
export async function readableDevices(
  db: Db,
  caller: DataCaller,
): Promise<Array<{ device: DeviceRow; gateway: GatewayRow; level: DataPermission }>> {
  const rows = await db
    .select({ device: devices, gateway: gateways })
    .from(devices)
    .innerJoin(gateways, eq(gateways.id, devices.gatewayId))
    .where(
      and(
        eq(devices.companyId, caller.companyId),
        eq(gateways.companyId, caller.companyId),
        isNotNull(devices.nodeId),
      ),
    );
  if (rows.length === 0) return [];
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.device.nodeId!),
  );
  return rows.flatMap((r) => {
    const level = levels.get(r.device.nodeId!) ?? DATA_PERMISSION.none;
    return level > DATA_PERMISSION.none ? [{ ...r, level }] : [];
  });
}
