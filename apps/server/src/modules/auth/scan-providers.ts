/**
 * Who vouches for the person behind a scan. The login page shows what the provider gives it
 * (scanUrl); the provider's callback turns what it received into an identity, and scan.ts
 * moves the session on (confirmed, or needPhone for an identity seen for the first time).
 *
 *   standin  the embedded default's stand-in for the messaging app: a page on this server
 *            that the QR code opens on a phone. The identity is a random secret the page
 *            keeps in that browser (an HttpOnly cookie); the nickname is only a display name.
 *   wechat   WeChat Open Platform website login (OAuth 2.0 authorization code, wechat.ts).
 *
 * One provider is active: WeChat when WECHAT_APP_ID/WECHAT_APP_SECRET are set, else the
 * stand-in when enabled (SCAN_STANDIN; on by default only without DATABASE_URL), else none,
 * and the scan-code login then says it is not configured.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import { sha256 } from '../../platform/tokens';
import { WechatLogin } from './wechat';

export type ScanProviderKind = 'standin' | 'wechat';

/** The person as the messaging app knows them: openId goes to users.wx_open_id. */
export interface ScanIdentity {
  openId: string;
  nickname: string;
}

export interface ScanProvider {
  readonly kind: ScanProviderKind;
  /**
   * How the login page shows scanUrl: 'qr' draws it as a QR code for a phone to open;
   * 'embed' frames it (the provider's own QR page).
   */
  readonly display: 'qr' | 'embed';
  /** The URL of a session; `state` comes back to the callback and names the session. */
  scanUrl(state: string, origin: string): string;
}

export const STAND_IN_PATH = '/general/user/wxScan';
/** The stand-in's identity secret: set by the first stand-in page a browser opens, sent only to the stand-in's pages. */
export const STAND_IN_COOKIE = 'scan_standin_id';
/** The display name the stand-in remembers for the next confirmation (not an identity). */
export const STAND_IN_NAME_COOKIE = 'scan_standin_name';
const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export class StandInProvider implements ScanProvider {
  readonly kind = 'standin' as const;
  readonly display = 'qr' as const;

  scanUrl(state: string, origin: string): string {
    return `${origin}${STAND_IN_PATH}/${state}`;
  }

  newSecret(): string {
    return randomBytes(32).toString('base64url');
  }

  /** A secret as the page set it, or null (absent, or not one the page could have made). */
  validSecret(value: string | undefined): string | null {
    return value && SECRET_FORMAT.test(value) ? value : null;
  }

  /**
   * The identity of the browser holding `secret`. Prefixed so that it can never equal an
   * identity of the real messaging app, nor one derived from a nickname before.
   */
  identity(secret: string, nickname: string): ScanIdentity {
    return { openId: `standin:${sha256(`standin:${secret}`).slice(0, 48)}`, nickname };
  }
}

export function scanProviderFor(config: Config): ScanProvider | null {
  if (config.wechatLogin) return new WechatLogin(config.wechatLogin);
  if (config.scanStandIn) return new StandInProvider();
  return null;
}
