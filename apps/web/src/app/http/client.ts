/**
 * The ONE http client (spec points 7 and 8). Base path /general, 15 s time-out, bearer token
 * from the session, the current language in Accept-Language, array/object GET parameters as
 * JSON text. Every response is the envelope {code, message, data}:
 * - code 0 resolves (helpers resolve to `data`);
 * - any other code, also when it arrives with a non-2xx HTTP status, shows an error
 *   notification titled with the tip word (description: `data` for 50001 when it is a text,
 *   otherwise `message`) and rejects with an ApiError;
 * - 70004 (expired) and 70006 (invalid or revoked) also drop the stored token, user and
 *   company and reload the page after 1 s, which lands on /login; unless the request was sent
 *   with a token this page has since let go of (a call still on its way at logout, or from
 *   before another login): that refusal is about an ended session and is rejected quietly.
 * Success messages are the callers' to show (`message.success(envelope.message)`).
 * axios itself (20 KB gzip) loads with the first request, or earlier on `preloadHttp()`: the
 * login page is shown and filled in without it.
 */
import { ERROR_CODES } from '@platform/domain/error-codes';
import { REQUEST_TIMEOUT_MS } from '@platform/domain/validation';
import type { AxiosError, AxiosInstance, AxiosRequestConfig, AxiosResponse, AxiosStatic } from 'axios';
import i18n, { currentLang } from '../i18n';
import { COMPANY_KEY, session, TOKEN_KEY, USER_KEY } from '../store/session';
import { storage } from '../store/storage';
import { notifier } from './notifier';

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

declare module 'axios' {
  interface AxiosRequestConfig {
    /** do not show the error notification (the caller handles the failure itself) */
    silent?: boolean;
    /** the token the request was sent with (set by the client) */
    sentToken?: string;
  }
}

/** A failed call: an envelope with code ≠ 0, or no envelope at all (code -1). */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly status: number | undefined;

  constructor(code: number, message: string, data: unknown = null, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
    this.status = status;
  }
}

export const API_BASE = '/general';
const RELOAD_DELAY_MS = 1000;

/** GET parameters: arrays and objects as JSON text (spec point 7), the rest as text. */
export function serializeParams(params: Record<string, unknown> | undefined | null): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object' && !(value instanceof Date)) search.append(key, JSON.stringify(value));
    else if (value instanceof Date) search.append(key, value.toISOString());
    else search.append(key, String(value));
  }
  return search.toString();
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Envelope).code === 'number' &&
    'message' in (value as object)
  );
}

function tip(): string {
  return i18n.t('http.tip', { ns: 'app', defaultValue: '提示' });
}

function notifyError(description: string, config: AxiosRequestConfig | undefined): void {
  if (config?.silent) return;
  notifier().error({ message: tip(), description, key: `http-${description}` });
}

let reloadScheduled = false;

function dropSessionAndReload(): void {
  // storage only: the page keeps showing the notice for the second before the reload
  storage.remove(TOKEN_KEY);
  storage.remove(USER_KEY);
  storage.remove(COMPANY_KEY);
  if (reloadScheduled) return;
  reloadScheduled = true;
  window.setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
}

function failEnvelope(envelope: Envelope, config: AxiosRequestConfig | undefined, status?: number): ApiError {
  // 50001 with a text in `data` (the spec's business error): that text; a refusal that carries
  // structured data (the field it names, the serial numbers it refused) reads as its message
  const text =
    envelope.code === ERROR_CODES.BUSINESS && typeof envelope.data === 'string' && envelope.data !== ''
      ? envelope.data
      : envelope.message;
  const endsSession =
    envelope.code === ERROR_CODES.TOKEN_EXPIRED || envelope.code === ERROR_CODES.TOKEN_INVALID;
  if (endsSession && config?.sentToken && session.isRetired(config.sentToken))
    return new ApiError(envelope.code, text, envelope.data, status);
  // once the session has ended the page reloads onto /login within a second: the one notice
  // that says why stays alone (even when the call that learnt it was silent), however many of
  // the page's other calls and sockets are refused after it
  if (endsSession && !reloadScheduled)
    notifier().error({ message: tip(), description: text, key: 'http-session-ended' });
  else if (!reloadScheduled) notifyError(text, config);
  if (endsSession) dropSessionAndReload();
  return new ApiError(envelope.code, text, envelope.data, status);
}

/**
 * An envelope that arrived outside an HTTP answer (a live socket that ended): shown and acted
 * on exactly like a failed request's.
 */
export function reportFailure(envelope: Envelope): ApiError {
  return failEnvelope(envelope, undefined);
}

function noResponseText(timedOut: boolean): string {
  return (
    i18n.t('http.noResponse', { ns: 'app', defaultValue: 'no response from request:' }) +
    (timedOut ? i18n.t('http.timedOut', { ns: 'app', defaultValue: ' request timed out!' }) : '')
  );
}

function createHttp(axios: AxiosStatic): AxiosInstance {
  const http = axios.create({
    baseURL: API_BASE,
    timeout: REQUEST_TIMEOUT_MS,
    paramsSerializer: { serialize: (params) => serializeParams(params as Record<string, unknown>) },
  });

  http.interceptors.request.use((config) => {
    const token = session.get().token;
    if (token) {
      config.headers.set('Authorization', `Bearer ${token}`);
      config.sentToken = token;
    }
    config.headers.set('Accept-Language', currentLang());
    return config;
  });

  http.interceptors.response.use(
    (response: AxiosResponse) => {
      const body: unknown = response.data;
      if (!isEnvelope(body)) return response; // files, HTML: not enveloped
      if (body.code === 0) return response;
      return Promise.reject(failEnvelope(body, response.config, response.status));
    },
    (error: AxiosError) => {
      if (error.response) {
        const body: unknown = error.response.data;
        if (isEnvelope(body)) return Promise.reject(failEnvelope(body, error.config, error.response.status));
        const text = `${error.message}`;
        notifyError(text, error.config);
        return Promise.reject(new ApiError(-1, text, null, error.response.status));
      }
      if (error.request) {
        const text = noResponseText(error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT');
        notifyError(text, error.config);
        return Promise.reject(new ApiError(-1, text));
      }
      const text = error.message || String(error);
      notifyError(text, error.config);
      return Promise.reject(new ApiError(-1, text));
    },
  );
  return http;
}

let loading: Promise<AxiosInstance> | null = null;

/** The axios instance (base path, time-out, token, envelope handling), loaded once. */
export function httpClient(): Promise<AxiosInstance> {
  loading ??= import('axios').then(
    (module) => createHttp(module.default),
    (error: unknown) => {
      loading = null; // the next request tries again
      throw error;
    },
  );
  return loading;
}

/** Start loading the client ahead of the first request (the login form does on first focus). */
export function preloadHttp(): void {
  httpClient().catch(() => {
    // the request that needs it reports the failure
  });
}

async function loadedHttp(config: AxiosRequestConfig): Promise<AxiosInstance> {
  try {
    return await httpClient();
  } catch {
    // the code could not be fetched: to the person that is the same as no answer
    const text = noResponseText(false);
    notifyError(text, config);
    throw new ApiError(-1, text);
  }
}

/** The whole envelope, for callers that show the server's success message. */
export async function request<T>(config: AxiosRequestConfig): Promise<Envelope<T>> {
  const http = await loadedHttp(config);
  const response = await http.request<Envelope<T>>(config);
  return response.data;
}

export async function get<T>(
  url: string,
  params?: Record<string, unknown>,
  config?: AxiosRequestConfig,
): Promise<T> {
  return (await request<T>({ ...config, method: 'GET', url, params })).data;
}

export async function post<T>(url: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await request<T>({ ...config, method: 'POST', url, data: body ?? {} })).data;
}

/** form-encoded POST (the login call, getToken) */
export async function postForm<T>(
  url: string,
  fields: Record<string, string | number | boolean | null | undefined>,
  config?: AxiosRequestConfig,
): Promise<T> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) form.append(key, String(value));
  }
  return (
    await request<T>({
      ...config,
      method: 'POST',
      url,
      data: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
  ).data;
}
