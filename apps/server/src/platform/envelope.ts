/**
 * The response envelope {code, message, data} of seed point 7 and the error catalogue of
 * point 8. Handlers return `ok(data)` or throw `new AppError(key)`; they never write text.
 */
import {
  CATALOGUE,
  ERROR_CODES,
  type ErrorKey,
  type Lang,
  messageFor,
  SUCCESS_MESSAGES,
  type SuccessKey,
} from '@platform/domain';

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export class AppError extends Error {
  readonly key: ErrorKey;
  readonly params: Record<string, string | number>;
  readonly data: unknown;

  constructor(key: ErrorKey, params: Record<string, string | number> = {}, data: unknown = null) {
    super(CATALOGUE[key].en);
    this.key = key;
    this.params = params;
    this.data = data;
  }

  get code(): number {
    return CATALOGUE[this.key].code;
  }
}

/** A rule broken on a named field: the message names it and `data.field` carries it. */
export function fieldError(field: string, key: ErrorKey = 'validation'): AppError {
  return new AppError(key, { field }, { field });
}

/** Throws the field's error when a domain check returned a catalogue key. */
export function assertField(field: string, broken: ErrorKey | null): void {
  if (broken) throw fieldError(field, broken);
}

/** HTTP status for an envelope code: the envelope is the contract, the status helps proxies and logs. */
export function httpStatusFor(code: number): number {
  if (code === ERROR_CODES.TOKEN_EXPIRED || code === ERROR_CODES.TOKEN_INVALID) return 401;
  if (code === ERROR_CODES.BUSINESS) return 400;
  if (code >= 40000 && code < 60000) return Math.floor(code / 100);
  return 500;
}

export function ok<T>(data: T, success: SuccessKey | null = null, lang: Lang = 'zh'): Envelope<T> {
  return { code: 0, message: success ? SUCCESS_MESSAGES[success][lang] : 'success', data };
}

export function errorEnvelope(error: AppError, lang: Lang): Envelope {
  return { code: error.code, message: messageFor(error.key, lang, error.params), data: error.data };
}
