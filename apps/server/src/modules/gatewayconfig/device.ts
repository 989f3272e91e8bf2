import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import type { DeviceRef } from '../devices/access';
import { devices } from '../devices/tables';
import { gateways } from '../gateways/tables';

/**
 * A refusal of the device as not found, made "The gateway is not bound." when the company
 * did have this gateway and unbound it (its records stay, its cabin node is gone): a push to it
 * says why it cannot be. Anything else stays as it was.
 */
export async function unboundOrRethrow(
  db: Db,
  companyId: number,
  gatewayId: number,
  error: unknown,
): Promise<never> {
  if (error instanceof AppError && error.key === 'notFound') {
    const [row] = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.companyId, companyId), eq(devices.gatewayId, gatewayId), isNull(devices.nodeId)));
    if (row) throw new AppError('gatewayNotBound');
  }
  throw error;
}

/** The gateway as the configuration pages show it: what the caller may do, what it runs. */
export async function deviceView(db: Db, ref: DeviceRef) {
  const [row] = await db
    .select({
      model: gateways.model,
      configVersion: gateways.configVersion,
      configHash: gateways.configHash,
      companyId: gateways.companyId,
    })
    .from(gateways)
    .where(eq(gateways.id, ref.id));
  return {
    id: ref.id,
    name: ref.name,
    serialNumber: ref.serialNumber,
    model: row?.model ?? '',
    online: ref.online,
    bound: row?.companyId === ref.companyId,
    level: ref.level,
    runningVersion: row?.configVersion ?? null,
    runningHash: row?.configHash ?? null,
  };
}
