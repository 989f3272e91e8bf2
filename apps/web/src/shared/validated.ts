/**
 * antd's `form.validateFields()` rejects when a rule fails. The form has already shown why beside
 * each field, so the rejection is not an error to report: left unhandled it reached the console as
 * "Uncaught (in promise)". `validated` answers the values, or undefined when a rule failed; any
 * other failure is thrown on.
 */
import type { FormInstance } from 'antd';

/** antd's rejection for failed rules: `{ errorFields, values, outOfDate }`. */
export function isValidationFailure(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    Array.isArray((error as { errorFields?: unknown }).errorFields)
  );
}

/** The form's values when every rule passes, else undefined (the fields show why). */
export async function validated<T>(form: FormInstance<T>): Promise<T | undefined> {
  try {
    return await form.validateFields();
  } catch (error) {
    if (isValidationFailure(error)) return undefined;
    throw error;
  }
}
