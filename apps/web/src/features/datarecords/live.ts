/**
 * Live records over the page's one live socket (app/live: `/general/smartdata/live`, one
 * subscription per item shared with every other component showing it). The socket
 * reconnects with a doubling back-off (1 s … 30 s) so a restarted server or a dropped network
 * heals on its own; `connected` (the server confirmed the subscription) drives the page's
 * small "live" indicator.
 *
 * The server ends the stream when the access it was opened with ends (`{"type":"ended"}` with
 * an envelope: logout, disabled account, removal, lost code, expired token) and drops items
 * whose permission was lowered (`{"type":"revoked","itemIds"}`). Neither is a network failure:
 * the item stops (status 'refused') instead of reconnecting, and an ended login is handled like
 * any request that found the token invalid.
 */
import { useItemRecords } from '../../app/live';
import type { DataRecord } from './api';

/** Hands the records committed live to the item to `onRecords`; `connected` once subscribed. */
export function useLiveRecords(
  itemId: number,
  onRecords: (records: DataRecord[]) => void,
): { connected: boolean } {
  const { status } = useItemRecords(itemId, (records) => onRecords(records as unknown as DataRecord[]));
  return { connected: status === 'live' };
}
