/**
 * A device-family template as the system maintenance form holds it: code, names and the role
 * rows (each with a row id of its own, so the drawing's bindings follow a row however it is
 * moved or its key retyped), what a copy starts from, and the form's own check, which names
 * fields the way the server's refusals do (`code`, `name.zh`, `roles[1].key`).
 */
import { FAMILY_CODE, FAMILY_LIMITS, type FamilyRole, ROLE_KEY } from '@platform/domain';

export interface RoleRow extends FamilyRole {
  /** the row's own id while the form is open (not sent) */
  uid: number;
}

export interface TemplateDraft {
  code: string;
  name: { zh: string; en: string };
  roles: RoleRow[];
}

let nextUid = 1;
export const newUid = () => nextUid++;

export function emptyRole(): RoleRow {
  return { uid: newUid(), key: '', name: { zh: '', en: '' }, unit: '' };
}

export function draftOf(t: {
  code: string;
  name: { zh: string; en: string };
  roles: FamilyRole[];
}): TemplateDraft {
  return {
    code: t.code,
    name: { ...t.name },
    roles: t.roles.map((r) => ({ ...r, name: { ...r.name }, uid: newUid() })),
  };
}

/** The roles as sent: the rows without their ids, the texts trimmed. */
export function rolesOf(draft: TemplateDraft): FamilyRole[] {
  return draft.roles.map((r) => ({
    key: r.key.trim(),
    name: { zh: r.name.zh.trim(), en: r.name.en.trim() },
    unit: r.unit.trim(),
  }));
}

const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/** `<code>-copy` (then -copy-2, -copy-3…) not among `taken`, at most 32 characters. */
export function copyCode(code: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '-copy' : `-copy-${n}`;
    const candidate = `${cut(code, FAMILY_LIMITS.code - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A new template from `t`: its code with -copy, its names with （副本） / (copy), its roles. */
export function copyDraft(
  t: { code: string; name: { zh: string; en: string }; roles: FamilyRole[] },
  taken: ReadonlySet<string>,
): TemplateDraft {
  const draft = draftOf(t);
  const zh = '（副本）';
  const en = ' (copy)';
  return {
    ...draft,
    code: copyCode(t.code, taken),
    name: {
      zh: `${cut(t.name.zh, FAMILY_LIMITS.name - zh.length)}${zh}`,
      en: `${cut(t.name.en, FAMILY_LIMITS.name - en.length)}${en}`,
    },
  };
}

export type DraftProblem =
  | 'code'
  | 'required'
  | 'tooLong'
  | 'roleKey'
  | 'duplicate'
  | 'noRoles'
  | 'tooManyRoles';

/** Every broken field of the form, by the path the server would name it with. */
export function checkDraft(draft: TemplateDraft): Record<string, { problem: DraftProblem; max?: number }> {
  const out: Record<string, { problem: DraftProblem; max?: number }> = {};
  if (!FAMILY_CODE.test(draft.code.trim())) out.code = { problem: 'code' };
  for (const lang of ['zh', 'en'] as const) {
    const name = draft.name[lang].trim();
    if (name === '') out[`name.${lang}`] = { problem: 'required' };
    else if (name.length > FAMILY_LIMITS.name)
      out[`name.${lang}`] = { problem: 'tooLong', max: FAMILY_LIMITS.name };
  }
  if (draft.roles.length === 0) out.roles = { problem: 'noRoles' };
  if (draft.roles.length > FAMILY_LIMITS.roles)
    out.roles = { problem: 'tooManyRoles', max: FAMILY_LIMITS.roles };
  const seen = new Set<string>();
  for (const [i, r] of draft.roles.entries()) {
    const key = r.key.trim();
    if (!ROLE_KEY.test(key)) out[`roles[${i}].key`] = { problem: 'roleKey' };
    else if (seen.has(key)) out[`roles[${i}].key`] = { problem: 'duplicate' };
    seen.add(key);
    for (const lang of ['zh', 'en'] as const) {
      const name = r.name[lang].trim();
      if (name === '') out[`roles[${i}].name.${lang}`] = { problem: 'required' };
      else if (name.length > FAMILY_LIMITS.name)
        out[`roles[${i}].name.${lang}`] = { problem: 'tooLong', max: FAMILY_LIMITS.name };
    }
    if (r.unit.trim().length > FAMILY_LIMITS.unit)
      out[`roles[${i}].unit`] = { problem: 'tooLong', max: FAMILY_LIMITS.unit };
  }
  return out;
}

/** The draft as compared for "unsaved" (row ids aside). */
export function draftSignature(draft: TemplateDraft): string {
  return JSON.stringify([draft.code, draft.name, rolesOf(draft)]);
}
