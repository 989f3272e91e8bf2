/**
 * The link between SIM cards and the gateway registry, in one place.
 *
 * - A gateway's status messages carry the ICCID of the card in it (the birth message, and a
 *   status message of its own when the card changes: docs/device-protocol.md). After each merge
 *   (`app.gateways.onState`) a birth, or an ICCID other than before, is a sighting of that card
 *   by that gateway (`recordSighting`): the first gateway becomes the holder, another one flags
 *   the card as moved.
 * - The `simChanged` event (`{"event": "simChanged", "detail": "<old> → <new>"}`) is a sighting
 *   of the new card too (devices/operation-log.ts hands it over), for firmware that sends the
 *   event before or instead of the status message.
 * - A card moved into a gateway of a company is noted in that device's operation log.
 * - A card new to the platform takes as holder the gateway that reports its ICCID now
 *   (`reportedHolders`, used by the import).
 *
 * The gateways keep the ICCID as reported (upper case, a 19-digit card perhaps with its BCD
 * filler F); the cards keep it normalised (packages/domain normaliseIccid): the two are matched
 * through that normal form.
 */
import { normaliseIccid } from '@platform/domain';
import { inArray, sql } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { logOperation } from '../devices/operation-log';
import type { GatewayRef } from '../gateways/hub';
import { gateways } from '../gateways/tables';
import { recordSighting } from './holder';

export interface ReportedHolder {
  serialNumber: string;
  /** when the gateway last said it holds the card */
  seenAt: Date;
}

/** The gateways that report each of these (normalised) ICCIDs now; the latest one wins. */
export async function reportedHolders(db: Db, iccids: string[]): Promise<Map<string, ReportedHolder>> {
  const holders = new Map<string, ReportedHolder>();
  if (iccids.length === 0) return holders;
  const forms = [...iccids, ...iccids.filter((i) => i.length === 19).map((i) => `${i}F`)];
  const rows = await db
    .select({
      serialNumber: gateways.serialNumber,
      iccid: gateways.iccid,
      seenAt:
        sql<Date>`coalesce(${gateways.lastSeenAt}, ${gateways.onlineAt}, ${gateways.registeredAt})`.mapWith(
          (v) => new Date(v),
        ),
    })
    .from(gateways)
    .where(inArray(sql`upper(${gateways.iccid})`, forms));
  for (const row of rows) {
    if (!row.iccid) continue;
    const iccid = normaliseIccid(row.iccid);
    const known = holders.get(iccid);
    if (!known || known.seenAt.getTime() < row.seenAt.getTime()) {
      holders.set(iccid, { serialNumber: row.serialNumber, seenAt: row.seenAt });
    }
  }
  return holders;
}

/** A gateway reported a card: the sighting, and a note in the device's log when the card moved there. */
async function sighted(
  app: App,
  gateway: { id: number; serialNumber: string; companyId: number | null },
  iccid: string,
  at: Date,
): Promise<void> {
  const outcome = await recordSighting(app.db, { iccid, serialNumber: gateway.serialNumber }, at);
  if (outcome.kind !== 'moved' || gateway.companyId === null) return;
  await logOperation(app.db, {
    companyId: gateway.companyId,
    gatewayId: gateway.id,
    kind: 'event',
    actor: 'device',
    detail: `simMoved · ${outcome.iccid} · ${outcome.from} → ${gateway.serialNumber}`,
    data: { event: 'simMoved', known: true, iccid: outcome.iccid, from: outcome.from },
    at,
  });
}

/** The new card an event's detail names ("<old> → <new>", or just the new one), or null. */
export function iccidOfSimChanged(detail: string): string | null {
  const found = detail.match(/[0-9A-Za-z]{19,20}/g);
  return found ? found[found.length - 1]! : null;
}

/** A `simChanged` event of a gateway (devices/operation-log.ts passes it on). */
export async function simChangedEvent(
  app: App,
  gateway: GatewayRef,
  detail: string,
  at: Date,
): Promise<void> {
  const iccid = iccidOfSimChanged(detail);
  if (iccid) await sighted(app, gateway, iccid, at);
}

/** Follows the gateways' status messages: births and ICCID changes are sightings. */
export function linkSimsToGateways(app: App): void {
  app.gateways.onState(async ({ before, after }) => {
    if (!after.iccid) return;
    const birth =
      after.online && after.onlineAt !== null && after.onlineAt.getTime() !== before.onlineAt?.getTime();
    if (!birth && after.iccid === before.iccid) return;
    await sighted(app, after, after.iccid, after.lastSeenAt ?? after.onlineAt ?? new Date());
  });
}
