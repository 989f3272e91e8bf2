/**
 * A company's devices: the list (only those the caller can read, with search, filters, sort
 * and paging), the detail, and what a person edits (name, address, picture). The list is made
 * in memory from the company's bound devices: their permission levels come from the cabin's
 * resolver, and a company's devices are counted in hundreds or thousands, not millions.
 */
import { randomBytes } from 'node:crypto';
import {
  checkCabinName,
  DATA_PERMISSION,
  type DataPermission,
  DEFAULT_DEVICE_PICTURE,
  type GatewayStatus,
  isDevicePicturePreset,
  isStorableText,
  type Lang,
} from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import type { App } from '../../platform/context';
import { AppError, assertField, fieldError } from '../../platform/envelope';
import type { CheckedImage } from '../../platform/images';
import { DEVICE_FILES_AREA } from '../../platform/storage';
import type { DataCaller } from '../cabin/permissions';
import { levelsFor } from '../cabin/permissions';
import { cabinNodes } from '../cabin/tables';
import { statusOf, telemetryOf } from '../gateways/registry';
import type { GatewayRow } from '../gateways/tables';
import { type DeviceRow, deviceFor, readableDevices } from './access';
import { logOperation } from './operation-log';
import { devices } from './tables';

const PRESET = 'preset:';
export const ADDRESS_MAX = 100;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export type PictureOut = { preset: string } | { url: string; thumbnailUrl: string };

/** A device's picture as the browser gets it: a preset, or signed links to the photo and its thumbnail. */
export function pictureOut(app: App, picture: string | null): PictureOut {
  if (!picture || picture.startsWith(PRESET)) {
    const preset = picture?.slice(PRESET.length);
    return { preset: isDevicePicturePreset(preset) ? preset : DEFAULT_DEVICE_PICTURE };
  }
  return { url: app.fileLinks.link(picture), thumbnailUrl: app.fileLinks.link(thumbnailKey(picture)) };
}

function thumbnailKey(key: string): string {
  return key.replace(/(\.[a-z]+)$/, '-thumb$1');
}

function later(a: Date, b: Date | null): Date {
  return b && b > a ? b : a;
}

export function deviceRowOut(app: App, device: DeviceRow, gateway: GatewayRow, level: DataPermission) {
  return {
    id: gateway.id,
    serialNumber: gateway.serialNumber,
    name: device.name,
    model: gateway.model,
    address: device.address,
    picture: pictureOut(app, device.picture),
    online: gateway.online,
    status: statusOf(gateway),
    onlineAt: iso(gateway.onlineAt),
    offlineAt: iso(gateway.offlineAt),
    lastSeenAt: iso(gateway.lastSeenAt),
    firstBoundAt: device.firstBoundAt.toISOString(),
    boundAt: iso(device.boundAt),
    updatedAt: later(device.updatedAt, gateway.statusAt).toISOString(),
    firmware: gateway.firmware,
    nodeId: device.nodeId!,
    level,
  };
}

export type DeviceRowOut = ReturnType<typeof deviceRowOut>;

export interface DeviceQuery {
  keyword?: string;
  online?: boolean;
  status?: GatewayStatus;
  sort?: 'name' | 'serialNumber' | 'boundAt' | 'lastSeenAt' | 'status' | 'updatedAt';
  order?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const STATUS_ORDER: Record<string, number> = { abnormal: 0, running: 1, inactive: 2 };

export async function listDevices(app: App, caller: DataCaller, query: DeviceQuery) {
  const keyword = query.keyword?.trim().toLowerCase();
  const rows = (await readableDevices(app.db, caller))
    .map((r) => deviceRowOut(app, r.device, r.gateway, r.level))
    .filter(
      (d) =>
        (!keyword ||
          d.serialNumber.toLowerCase().includes(keyword) ||
          d.name.toLowerCase().includes(keyword) ||
          d.address.toLowerCase().includes(keyword)) &&
        (query.online === undefined || d.online === query.online) &&
        (query.status === undefined || d.status === query.status),
    );
  const sort = query.sort ?? 'name';
  const direction =
    (query.order ?? (sort === 'name' || sort === 'serialNumber' || sort === 'status' ? 'asc' : 'desc')) ===
    'asc'
      ? 1
      : -1;
  const key = (d: DeviceRowOut): string | number =>
    sort === 'status'
      ? STATUS_ORDER[d.status]!
      : sort === 'name'
        ? d.name
        : sort === 'serialNumber'
          ? d.serialNumber
          : (d[sort] ?? '');
  rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return a.id - b.id;
    // empty times last whatever the direction
    if (x === '') return 1;
    if (y === '') return -1;
    return (typeof x === 'string' ? x.localeCompare(y as string, 'zh') : x - (y as number)) * direction;
  });
  return { list: rows.slice(query.offset, query.offset + query.limit), total: rows.length };
}

export async function deviceDetail(app: App, caller: DataCaller, gatewayId: number, lang: Lang) {
  const ref = await deviceFor(app.db, caller, gatewayId, DATA_PERMISSION.read);
  const { device, gateway } = ref;
  // the directories above the device that the caller can read, from the top down
  const nodes = await app.db
    .select({ id: cabinNodes.id, parentId: cabinNodes.parentId, name: cabinNodes.name })
    .from(cabinNodes)
    .where(eq(cabinNodes.companyId, caller.companyId));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const above: number[] = [];
  const seen = new Set<number>();
  for (
    let p = byId.get(ref.nodeId)?.parentId ?? null;
    p !== null && !seen.has(p);
    p = byId.get(p)?.parentId ?? null
  ) {
    seen.add(p);
    above.unshift(p);
  }
  const levels = above.length > 0 ? await levelsFor(app.db, caller, above) : new Map<number, number>();
  return {
    ...deviceRowOut(app, device, gateway, ref.level),
    iccid: gateway.iccid,
    configVersion: gateway.configVersion,
    configHash: gateway.configHash,
    ports: gateway.ports ?? [],
    parentId: byId.get(ref.nodeId)?.parentId ?? null,
    path: above.filter((id) => (levels.get(id) ?? 0) > 0).map((id) => byId.get(id)!.name),
    telemetry: telemetryOf(gateway, lang),
  };
}

/** Name, address, picture preset: level 2. The device's node in the cabin carries the same name. */
export async function updateDevice(
  app: App,
  caller: DataCaller,
  input: { id: number; name?: string; address?: string; picture?: string },
): Promise<void> {
  const name = input.name?.trim();
  if (name !== undefined) assertField('name', checkCabinName(name));
  const address = input.address?.trim();
  if (address !== undefined && ([...address].length > ADDRESS_MAX || !isStorableText(address)))
    throw fieldError('address');
  if (input.picture !== undefined && !isDevicePicturePreset(input.picture)) throw fieldError('picture');
  const { device } = await deviceFor(app.db, caller, input.id, DATA_PERMISSION.write);
  const changes: Partial<DeviceRow> = {};
  if (name !== undefined && name !== device.name) changes.name = name;
  if (address !== undefined && address !== device.address) changes.address = address;
  if (input.picture !== undefined && `${PRESET}${input.picture}` !== device.picture)
    changes.picture = `${PRESET}${input.picture}`;
  if (Object.keys(changes).length === 0) return;
  const now = new Date();
  await app.db.transaction(async (tx) => {
    await tx
      .update(devices)
      .set({ ...changes, updatedAt: now })
      .where(eq(devices.id, device.id));
    if (changes.name !== undefined)
      await tx
        .update(cabinNodes)
        .set({ name: changes.name, updatedAt: now })
        .where(eq(cabinNodes.id, device.nodeId!));
  });
  if (changes.picture !== undefined) await removePictureFiles(app, device, device.picture);
  await logOperation(app.db, {
    companyId: caller.companyId,
    gatewayId: input.id,
    kind: 'edit',
    actor: { userId: caller.userId },
    data: { changed: Object.keys(changes), ...changes },
  });
}

/** Removes an uploaded picture's files, only from this company's folder for this device. */
async function removePictureFiles(app: App, device: DeviceRow, picture: string | null): Promise<void> {
  if (!picture?.startsWith(`${DEVICE_FILES_AREA}${device.companyId}/${device.gatewayId}/`)) return;
  for (const key of [picture, thumbnailKey(picture)])
    await app.storage.remove('private', key).catch(() => undefined);
}

/** An uploaded JPG or PNG (checked by its bytes) with its 150 px thumbnail becomes the device's picture. */
export async function setDevicePicture(
  app: App,
  caller: DataCaller,
  gatewayId: number,
  image: CheckedImage,
): Promise<PictureOut> {
  const { device } = await deviceFor(app.db, caller, gatewayId, DATA_PERMISSION.write);
  const ext = image.kind === 'png' ? 'png' : 'jpg';
  const type = image.kind === 'png' ? 'image/png' : 'image/jpeg';
  const key = `${DEVICE_FILES_AREA}${caller.companyId}/${gatewayId}/${randomBytes(12).toString('hex')}.${ext}`;
  await app.storage.put('private', key, image.bytes, type);
  await app.storage.put('private', thumbnailKey(key), image.thumbnail, type);
  const [updated] = await app.db
    .update(devices)
    .set({ picture: key, updatedAt: new Date() })
    .where(and(eq(devices.id, device.id), eq(devices.companyId, caller.companyId)))
    .returning({ id: devices.id });
  if (!updated) {
    await removePictureFiles(app, device, key);
    throw new AppError('notFound', {}, { field: 'id' });
  }
  await removePictureFiles(app, device, device.picture);
  await logOperation(app.db, {
    companyId: caller.companyId,
    gatewayId,
    kind: 'edit',
    actor: { userId: caller.userId },
    data: { changed: ['picture'] },
  });
  return pictureOut(app, key);
}
