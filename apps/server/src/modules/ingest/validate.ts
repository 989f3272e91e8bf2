/** Record checks of the pipeline: the domain's checkRecord, shaped for the pipeline's errors. */
import { checkRecord, type ErrorKey, type FieldDef, type RecordValues } from '@platform/domain';

export type Validated =
  | { ok: true; values: RecordValues }
  | { ok: false; field: string; key: ErrorKey; params: Record<string, string | number> };

/** Input keys are field keys or field names; the result is keyed by field key. */
export function validateRecord(fields: FieldDef[], input: unknown, timeZone?: string): Validated {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, field: 'values', key: 'validation', params: { field: 'values' } };
  }
  const result = checkRecord(fields, input as Record<string, unknown>, timeZone ? { tz: timeZone } : {});
  if (result.ok) return result;
  return { ok: false, field: result.field, key: result.key, params: { field: result.name } };
}
