/**
 * WeChat Open Platform website login (微信开放平台 网站应用微信登录), its OAuth 2.0
 * authorization-code flow:
 *
 *   1. the login page frames  {open}/connect/qrconnect?appid&redirect_uri&response_type=code
 *      &scope=snsapi_login&state  (WeChat's QR page; self_redirect keeps the redirect inside
 *      the frame, as WeChat's own wxLogin.js does)
 *   2. the person scans and confirms in WeChat; the frame is sent to redirect_uri?code&state
 *   3. the server exchanges the code:  {api}/sns/oauth2/access_token?appid&secret&code
 *      &grant_type=authorization_code  →  {access_token, openid, unionid?, …} or {errcode, errmsg}
 *   4. and reads the nickname:          {api}/sns/userinfo?access_token&openid
 *
 * `state` names the scan session and is checked by the callback (scan.ts), a code completes
 * one session at most, and a code is exchanged only for a session that is still waiting.
 * The app secret travels only to the API host, never to a browser or a log.
 */
import { NAME_MAX_LENGTH } from '@platform/domain';
import type { WechatLoginConfig } from '../../config';
import type { ScanIdentity, ScanProvider } from './scan-providers';

export const WECHAT_CALLBACK_PATH = '/general/user/access/wxLoginCallback';
const TIMEOUT_MS = 10_000;
const OPENID = /^[A-Za-z0-9_-]{1,60}$/;

/** The provider refused the code, or could not be reached, or answered nonsense. */
export class WechatLoginError extends Error {}

interface TokenAnswer {
  access_token?: unknown;
  openid?: unknown;
  errcode?: unknown;
  errmsg?: unknown;
}

interface UserInfoAnswer {
  nickname?: unknown;
  errcode?: unknown;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** A name as a person typed it, without the control characters (NUL among them) a name never needs. */
export function withoutControlCharacters(value: string): string {
  return value.replace(CONTROL, '');
}

/** A nickname fit to be a user name: no control characters, at most the name length. */
export function displayName(value: unknown): string {
  if (typeof value !== 'string') return '';
  const clean = withoutControlCharacters(value).trim();
  return Array.from(clean).slice(0, NAME_MAX_LENGTH).join('').trim();
}

export class WechatLogin implements ScanProvider {
  readonly kind = 'wechat' as const;
  readonly display = 'embed' as const;

  constructor(private readonly config: WechatLoginConfig) {}

  redirectUri(origin: string): string {
    return `${origin}${WECHAT_CALLBACK_PATH}`;
  }

  scanUrl(state: string, origin: string): string {
    const query = new URLSearchParams({
      appid: this.config.appId,
      redirect_uri: this.redirectUri(origin),
      response_type: 'code',
      scope: 'snsapi_login',
      state,
      login_type: 'jssdk',
      self_redirect: 'true',
    });
    return `${this.config.openUrl}/connect/qrconnect?${query}#wechat_redirect`;
  }

  /** Step 3 and 4: the code becomes the person's identity (openid) and nickname. */
  async identify(code: string): Promise<ScanIdentity> {
    const token = await this.call<TokenAnswer>('/sns/oauth2/access_token', {
      appid: this.config.appId,
      secret: this.config.appSecret,
      code,
      grant_type: 'authorization_code',
    });
    if (
      typeof token.openid !== 'string' ||
      !OPENID.test(token.openid) ||
      typeof token.access_token !== 'string'
    ) {
      throw new WechatLoginError(`code exchange refused: ${String(token.errcode ?? 'no openid')}`);
    }
    let nickname = '';
    try {
      const info = await this.call<UserInfoAnswer>('/sns/userinfo', {
        access_token: token.access_token,
        openid: token.openid,
      });
      nickname = displayName(info.nickname);
    } catch {
      // the identity is settled; without a nickname the account is named after the phone
    }
    return { openId: `wx:${token.openid}`, nickname };
  }

  private async call<T>(path: string, params: Record<string, string>): Promise<T> {
    let text: string;
    try {
      const res = await fetch(`${this.config.apiUrl}${path}?${new URLSearchParams(params)}`, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new WechatLoginError(`${path}: HTTP ${res.status}`);
      text = await res.text();
    } catch (error) {
      // never let the URL (it carries the secret) reach a log through the error
      if (error instanceof WechatLoginError) throw error;
      throw new WechatLoginError(`${path}: ${(error as Error).name}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new WechatLoginError(`${path}: not JSON`);
    }
    if (!body || typeof body !== 'object') throw new WechatLoginError(`${path}: not an object`);
    const { errcode } = body as { errcode?: unknown };
    if (errcode != null && errcode !== 0) throw new WechatLoginError(`${path}: errcode ${String(errcode)}`);
    return body as T;
  }
}
