/** What the API answers about firmware versions and upgrades (docs/firmware.md). */
import {
  isUpgradeLive,
  type Lang,
  messageFor,
  SUCCESS_MESSAGES,
  type UpgradeFailureReason,
  type UpgradeState,
  upgradeOutcomeKey,
} from '@platform/domain';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { devices } from '../devices/tables';
import { gateways } from '../gateways/tables';
import { users } from '../users/tables';
import type { FirmwareVersionRow, UpgradeRow } from './tables';

export interface FirmwareVersionView {
  id: number;
  model: string;
  version: string;
  size: number;
  sha256: string;
  notesZh: string;
  notesEn: string;
  fileName: string;
  uploadedAt: string;
  uploadedBy: { id: number; name: string } | null;
}

export interface UpgradeView {
  id: number;
  deviceId: number;
  serialNumber: string;
  deviceName: string;
  versionId: number | null;
  version: string;
  fromVersion: string | null;
  state: UpgradeState;
  progress: number | null;
  reason: UpgradeFailureReason | null;
  detail: string | null;
  message: string | null;
  batchId: number | null;
  createdAt: string;
  createdBy: { id: number; name: string } | null;
  dispatchedAt: string | null;
  updatedAt: string;
  endedAt: string | null;
  timeouts: { ack: number; progress: number; total: number };
  live: boolean;
}

/** The spec's words when an upgrade ends: success or "please try again later". */
export function upgradeMessage(state: string, lang: Lang): string | null {
  const key = upgradeOutcomeKey(state as UpgradeState);
  if (key === 'firmwareUpdated') return SUCCESS_MESSAGES.firmwareUpdated[lang];
  if (key === 'firmwareFailed') return messageFor('firmwareFailed', lang);
  return null;
}

async function userNames(db: Db, ids: Array<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.userName })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function versionViews(db: Db, rows: FirmwareVersionRow[]): Promise<FirmwareVersionView[]> {
  const names = await userNames(
    db,
    rows.map((r) => r.uploadedBy),
  );
  return rows.map((r) => ({
    id: r.id,
    model: r.model,
    version: r.version,
    size: r.size,
    sha256: r.sha256,
    notesZh: r.notesZh,
    notesEn: r.notesEn,
    fileName: r.fileName,
    uploadedAt: r.uploadedAt.toISOString(),
    uploadedBy: r.uploadedBy !== null ? { id: r.uploadedBy, name: names.get(r.uploadedBy) ?? '' } : null,
  }));
}

/**
 * Upgrade rows as the API shows them, in `lang` (the live socket adds the message in each
 * listener's language, so it passes null).
 */
export async function upgradeViews(db: Db, rows: UpgradeRow[], lang: Lang | null): Promise<UpgradeView[]> {
  if (rows.length === 0) return [];
  const gatewayIds = [...new Set(rows.map((r) => r.gatewayId))];
  const [names, sns, deviceNames] = await Promise.all([
    userNames(
      db,
      rows.map((r) => r.createdBy),
    ),
    db
      .select({ id: gateways.id, sn: gateways.serialNumber })
      .from(gateways)
      .where(inArray(gateways.id, gatewayIds)),
    db
      .select({ gatewayId: devices.gatewayId, companyId: devices.companyId, name: devices.name })
      .from(devices)
      .where(inArray(devices.gatewayId, gatewayIds)),
  ]);
  const snOf = new Map(sns.map((s) => [s.id, s.sn]));
  const nameOf = new Map(deviceNames.map((d) => [`${d.companyId}:${d.gatewayId}`, d.name]));
  return rows.map((r) => ({
    id: r.id,
    deviceId: r.gatewayId,
    serialNumber: snOf.get(r.gatewayId) ?? '',
    deviceName: nameOf.get(`${r.companyId}:${r.gatewayId}`) ?? '',
    versionId: r.versionId,
    version: r.version,
    fromVersion: r.fromVersion,
    state: r.state,
    progress: r.progress,
    reason: r.reason,
    detail: r.detail,
    message: lang ? upgradeMessage(r.state, lang) : null,
    batchId: r.batchId,
    createdAt: r.createdAt.toISOString(),
    createdBy: r.createdBy !== null ? { id: r.createdBy, name: names.get(r.createdBy) ?? '' } : null,
    dispatchedAt: r.dispatchedAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
    timeouts: r.timeouts,
    live: isUpgradeLive(r.state),
  }));
}
