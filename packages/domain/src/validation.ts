/**
 * Validation rules of seed point 5, shared by server schemas and web forms. Each check
 * returns the catalogue key of the first rule broken, or null when the value is fine.
 */
import type { ErrorKey } from './errors';

export const NAME_MAX_LENGTH = 25;
export const IMAGE_MAX_BYTES = 3 * 1024 * 1024;
export const THUMBNAIL_MAX_SIDE = 150;
export const REQUEST_TIMEOUT_MS = 15_000;
/** The largest id the database holds (integer identity columns). */
export const ROW_ID_MAX = 2 ** 31 - 1;

/**
 * Whether `value` is an id the database can hold: an integer from 1 to 2³¹ − 1. Ids that come
 * inside JSON values (not through a route schema's Id) are checked with this before any query:
 * 1e308 and 8640000000000001 are integers to JavaScript and refused by PostgreSQL.
 */
export function isRowId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= ROW_ID_MAX;
}
export const MOBILE_BREAKPOINT_PX = 992;
export const SIDEBAR_WIDTH_PX = 240;

/** A UTF-16 surrogate without its partner: it has no UTF-8 form, so no database can store it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Text PostgreSQL can hold in text and jsonb columns: no NUL character (both refuse it) and no
 * lone surrogate. Every string a request carries is checked with this before it is used.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** Count characters as a person does (a CJK character or an emoji is one). */
export function nameLength(name: string): number {
  return [...name].length;
}

export function checkName(name: string | null | undefined): ErrorKey | null {
  if (name == null || name.trim() === '') return 'nameRequired';
  if (nameLength(name) > NAME_MAX_LENGTH) return 'nameTooLong';
  return null;
}

/** Directory and item names in the data cabin may not hold '%'. */
export function checkCabinName(name: string | null | undefined): ErrorKey | null {
  return checkName(name) ?? (name!.includes('%') ? 'nameNoPercent' : null);
}

/** Letters (any script), digits, spaces, '_' , '-', '(' and ')' only. */
const DATA_ITEM_NAME = /^[\p{L}\p{N} _\-()（）]+$/u;

export function checkDataItemName(name: string | null | undefined): ErrorKey | null {
  return checkCabinName(name) ?? (DATA_ITEM_NAME.test(name!) ? null : 'nameNoSpecial');
}

/** Mainland China mobile numbers: 11 digits starting with 1[3-9]. */
const PHONE = /^1[3-9]\d{9}$/;

export function checkPhone(phone: string | null | undefined): ErrorKey | null {
  if (phone == null || phone === '') return 'phoneInvalid';
  return PHONE.test(phone) ? null : 'phoneInvalid';
}

export const EMAIL_MAX_LENGTH = 120;
/** A pragmatic address check: one '@', no spaces, a dot in the domain, at most 120 characters. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function checkEmail(email: string | null | undefined): ErrorKey | null {
  if (email == null || email.length > EMAIL_MAX_LENGTH) return 'emailInvalid';
  return EMAIL.test(email) ? null : 'emailInvalid';
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

export function checkPassword(password: string | null | undefined): ErrorKey | null {
  if (password == null) return 'passwordWeak';
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return 'passwordWeak';
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return 'passwordWeak';
  return null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** Full IPv6 form: eight groups of one to four hex digits, no '::' shortening. */
const IPV6_FULL = /^([0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}$/;

export function checkIp(ip: string): ErrorKey | null {
  return IPV4.test(ip) || IPV6_FULL.test(ip) ? null : 'ipInvalid';
}

/** Groups of two hex digits separated by single spaces, nothing else. */
const HEX_PACKET = /^[0-9A-Fa-f]{2}( [0-9A-Fa-f]{2})*$/;

export function checkHexPacket(text: string): ErrorKey | null {
  return HEX_PACKET.test(text) ? null : 'hexPacketInvalid';
}

/** Optional minus sign, digits, optional decimals. */
const NUMERIC = /^-?\d+(\.\d+)?$/;

export function checkNumeric(text: string): ErrorKey | null {
  return NUMERIC.test(text) ? null : 'numberInvalid';
}

export type ImageKind = 'jpeg' | 'png';

/** Recognise an image by its first bytes, never by its name. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  return null;
}

export function checkImage(bytes: Uint8Array): ErrorKey | null {
  if (sniffImage(bytes) == null) return 'imageFormat';
  if (bytes.length > IMAGE_MAX_BYTES) return 'imageTooLarge';
  return null;
}
