/** The app's live data: see ./hooks.ts for the API, ./hub.ts and ./socket.ts for the rules. */
export {
  type ItemSnapshot,
  type ItemStatus,
  itemHub,
  type LiveRecord,
  type LiveSocketOptions,
  liveUrl,
  type SocketStatus,
  useItemLatest,
  useItemRecords,
  useLiveSocket,
} from './hooks';
export { MAX_LIVE_ITEMS } from './hub';
