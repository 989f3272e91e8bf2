/**
 * Calls of the login page (docs/api-foundation.md "Login and registration"), and the step
 * every way of logging in ends with: fetch the user with the new token, then store token,
 * user and company together. Storing them together matters: the router builds the permitted
 * routes as soon as it sees a token and a user, so the login button keeps spinning until
 * the person can actually land somewhere, and a failed getUser leaves them on the login page
 * instead of half logged in.
 */
import type { AxiosRequestConfig } from 'axios';
import { get, post, postForm, request } from '../../app/http/client';
import { session } from '../../app/store/session';

export { safeRedirect } from '../../app/router/safeRedirect';

import type { CurrentCompany, CurrentUser } from '../../app/store/types';

export interface TokenData {
  token: string;
  /** seconds */
  expiresIn: number;
}

export interface ScanQr {
  sceneId: string;
  scanUrl: string;
  /** seconds the QR code stays valid */
  expiresIn: number;
  /** who vouches for the person: the embedded default's stand-in or the real messaging app */
  provider: 'standin' | 'wechat';
  /** 'qr': draw scanUrl as a QR code for a phone; 'embed': frame scanUrl (the provider's QR page) */
  display: 'qr' | 'embed';
}

export type ScanStatus = 'waiting' | 'scanned' | 'needPhone' | 'success' | 'expired';

export interface ScanPoll {
  status: ScanStatus;
  token?: string;
  expiresIn?: number;
  nickname?: string;
}

export const authApi = {
  loginWithPassword: (phone: string, password: string) =>
    postForm<TokenData>('/user/access/getToken', { phone, password }),
  loginWithSmsCode: (phone: string, smsCode: string) =>
    postForm<TokenData>('/user/access/getToken', { phone, smsCode }),
  sendSmsCode: (phone: string) => get<null>('/user/access/getSmsCode', { phone }),
  register: (body: { phone: string; smsCode: string; password: string; userName?: string }) =>
    post<TokenData>('/user/addUser', body),
  resetPassword: (body: { phone: string; smsCode: string; password: string }) =>
    request<null>({ method: 'POST', url: '/user/access/resetPassword', data: body }),
  /** silent: the scan tab shows why it has no QR code (not configured, could not load) */
  scanQrCode: () => get<ScanQr>('/user/access/getWXScanQrCode', undefined, { silent: true }),
  /** silent: a poll every 2 s must not stack notifications when the network blinks */
  pollScan: (sceneId: string) =>
    get<ScanPoll>('/user/PollingWXScanLoginStatus', { sceneId }, { silent: true }),
  bindScanPhone: (body: { sceneId: string; phone: string; smsCode: string }) =>
    post<TokenData>('/user/WXScanPhoneRegister', body),
};

/** Fetch the user (and the current company) with a token that is not stored yet, then store all three. */
export async function completeLogin({ token, expiresIn }: TokenData): Promise<CurrentUser> {
  const auth: AxiosRequestConfig = { headers: { Authorization: `Bearer ${token}` } };
  const user = await get<CurrentUser>('/user/getUser', undefined, auth);
  let company: CurrentCompany | null = null;
  if (user.companyId != null) {
    // a company that cannot be read does not stop the login: the layout falls back to defaults
    company = await get<CurrentCompany>('/company/getCompany', undefined, { ...auth, silent: true }).catch(
      () => null,
    );
  }
  session.set({ token, expiresIn, user, company });
  return user;
}
