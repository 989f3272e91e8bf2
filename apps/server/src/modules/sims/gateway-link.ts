/**
 * The link between SIM cards and the gateway registry, in one place: which gateway reports a
 * card now (for cards new to the platform), and the gateway messages that move cards.
 *
 * The registry (table `gateways`, with each gateway's reported `iccid`) and its message hub
 * (`app.gateways`) are not part of this version yet: until they are, no gateway reports a
 * card, and sightings come only through `recordSighting` (holder.ts).
 */
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';

export interface ReportedHolder {
  serialNumber: string;
  /** when the gateway last said it holds the card */
  seenAt: Date;
}

/** The gateways that report each of these (normalised) ICCIDs now. */
export async function reportedHolders(_db: Db, _iccids: string[]): Promise<Map<string, ReportedHolder>> {
  return new Map();
}

/** Subscribes to the gateways' birth messages and `simChanged` events. */
export function linkSimsToGateways(_app: App): void {}
