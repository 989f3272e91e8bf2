/** Form helpers of the device pages: a refusal shown beside the field it names. */
import { ERROR_CODES } from '@platform/domain/error-codes';
import type { FormInstance } from 'antd';
import { ApiError } from '../../app/http/client';

/** The field a refusal names (`data.field`), when it is one of the form's. */
export function fieldOf(error: unknown, fields: readonly string[]): string | null {
  if (!(error instanceof ApiError)) return null;
  const field = (error.data as { field?: unknown } | null)?.field;
  return typeof field === 'string' && fields.includes(field) ? field : null;
}

/**
 * Shows the server's message under the field it names (the http client has shown the
 * notification already, unless the call was silent). Answers whether a field took it.
 */
export function showFieldError(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  const field = fieldOf(error, fields);
  if (!field || !(error instanceof ApiError)) return false;
  form.setFields([{ name: field, errors: [error.message] }]);
  return true;
}

/**
 * Where a refused bind request belongs: its rules name `serialNumber`, `name` or `parentId`;
 * the business refusals (unknown serial number, bound to another company, bound already,
 * offline, another company's request waiting) are all about the gateway the serial number
 * names, so they stand under that field.
 */
export function bindFieldOf(error: unknown): 'serialNumber' | 'name' | 'parentId' | null {
  const named = fieldOf(error, ['serialNumber', 'name', 'parentId']);
  if (named) return named as 'serialNumber' | 'name' | 'parentId';
  if (error instanceof ApiError && error.code === ERROR_CODES.BUSINESS) return 'serialNumber';
  return null;
}
