/**
 * Checks of form elements and jump associations against an item's fields, throwing the
 * field error of the first broken rule (nothing is written before they pass).
 */
import {
  checkForm,
  checkName,
  type FieldDef,
  type FormElement,
  JUMP_OPERATORS,
  type JumpCondition,
  type JumpMapping,
} from '@platform/domain';
import { AppError, fieldError } from '../../platform/envelope';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The whole form via checkForm of packages/domain, naming `form[i].property` on failure. */
export function checkFormElements(form: readonly unknown[], fields: readonly FieldDef[]): FormElement[] {
  for (const [i, el] of form.entries()) if (!isObject(el)) throw fieldError(`form[${i}]`);
  const checked = checkForm(fields, form as FormElement[]);
  if (!checked.ok) {
    const field = `form[${checked.index}].${checked.field}`;
    // the message names the element and the field; data.field says where, for the designer
    if (checked.params) throw new AppError(checked.key, checked.params, { field });
    throw fieldError(field, checked.key);
  }
  return checked.form;
}

/** The elements still bound to a fitting field after a field change (the others are dropped). */
export function formStillValid(form: readonly FormElement[], fields: readonly FieldDef[]): FormElement[] {
  return form.filter((el) => checkForm(fields, [el]).ok);
}

/**
 * A jump: a filter name, complete conditions on source fields, a mapping whose `to` keys are
 * target fields and whose `from` keys are source fields.
 */
export function checkJumpInput(
  input: { name: string; conditions: JumpCondition[]; mapping: JumpMapping[] },
  sourceFields: readonly FieldDef[],
  targetFields: readonly FieldDef[],
): { name: string; conditions: JumpCondition[]; mapping: JumpMapping[] } {
  const name = input.name.trim();
  if (checkName(name))
    throw fieldError('name', checkName(name) === 'nameTooLong' ? 'nameTooLong' : 'jumpIncomplete');
  const source = new Set(sourceFields.map((f) => f.key));
  const target = new Set(targetFields.map((f) => f.key));
  const conditions = input.conditions.map((c, i): JumpCondition => {
    if (!isObject(c)) throw fieldError(`conditions[${i}]`, 'jumpIncomplete');
    if (typeof c.field !== 'string' || !source.has(c.field))
      throw fieldError(`conditions[${i}].field`, 'jumpIncomplete');
    if (typeof c.op !== 'string' || !(JUMP_OPERATORS as readonly string[]).includes(c.op)) {
      throw fieldError(`conditions[${i}].op`, 'jumpIncomplete');
    }
    const needsValue = c.op !== 'empty' && c.op !== 'notEmpty';
    if (needsValue && (c.value == null || c.value === '' || !['string', 'number'].includes(typeof c.value))) {
      throw fieldError(`conditions[${i}].value`, 'jumpIncomplete');
    }
    return needsValue ? { field: c.field, op: c.op, value: c.value } : { field: c.field, op: c.op };
  });
  const mapping = input.mapping.map((m, i): JumpMapping => {
    if (!isObject(m)) throw fieldError(`mapping[${i}]`);
    if (typeof m.to !== 'string' || !target.has(m.to)) throw fieldError(`mapping[${i}].to`);
    if (m.from != null) {
      if (typeof m.from !== 'string' || !source.has(m.from)) throw fieldError(`mapping[${i}].from`);
      return { to: m.to, from: m.from };
    }
    if (typeof m.value !== 'string' && typeof m.value !== 'number') throw fieldError(`mapping[${i}].value`);
    return { to: m.to, value: m.value };
  });
  return { name, conditions, mapping };
}
