/**
 * The short-lived signed link a gateway downloads its image from (the protocol's `url`):
 *
 *   <base>/general/firmware/download/<upgradeId>?exp=<unix seconds>&sig=<base64url HMAC-SHA256>
 *
 * The signature covers the upgrade, the version it installs and the expiry, with the file
 * links' secret (platform/file-links.ts) kept apart by its purpose. A changed byte, another
 * upgrade's link, a link past its expiry, or a link of an upgrade that has ended opens nothing.
 * The link lives as long as the upgrade may (its total timeout) and a minute more.
 */
import { timingSafeEqual } from 'node:crypto';
import type { App } from '../../platform/context';
import type { UpgradeRow } from './tables';

const PURPOSE = 'firmware-download';
export const DOWNLOAD_PATH = '/general/firmware/download/';

function signature(app: App, upgradeId: number, versionId: number, exp: number): Buffer {
  return app.fileLinks.signFor(PURPOSE, `${upgradeId}\n${versionId}\n${exp}`);
}

export function downloadLink(app: App, row: UpgradeRow, nowMs = Date.now()): string {
  const exp = Math.ceil(nowMs / 1000) + row.timeouts.total + 60;
  const sig = signature(app, row.id, row.versionId ?? 0, exp).toString('base64url');
  return `${row.linkBase.replace(/\/+$/, '')}${DOWNLOAD_PATH}${row.id}?exp=${exp}&sig=${sig}`;
}

export type DownloadCheck = 'ok' | 'expired' | 'invalid';

/** Whether `exp`/`sig` are this server's link for this upgrade and its version, still valid. */
export function checkDownload(
  app: App,
  row: Pick<UpgradeRow, 'id' | 'versionId'>,
  exp: string | undefined,
  sig: string | undefined,
  nowMs = Date.now(),
): DownloadCheck {
  if (row.versionId === null) return 'invalid';
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return 'invalid';
  const expected = signature(app, row.id, row.versionId, Number(exp));
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(exp) * 1000 < nowMs ? 'expired' : 'ok';
}

/** The origin gateways download from: PUBLIC_URL, else the request's own. */
export function linkBase(app: App, request: { protocol: string; host: string }): string {
  const configured = app.config.publicUrl?.replace(/\/+$/, '');
  return (configured ?? `${request.protocol}://${request.host}`).slice(0, 300);
}
