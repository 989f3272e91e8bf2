import { BUILTIN_FAMILY_TEMPLATES, checkFamilyRoles, FAMILY_CODE } from '@platform/domain';
import { describe, expect, it } from 'vitest';
import {
  checkDraft,
  copyCode,
  copyDraft,
  draftOf,
  draftSignature,
  emptyRole,
  rolesOf,
} from './templateDraft';

const cabinet = BUILTIN_FAMILY_TEMPLATES.find((t) => t.code === 'meter-cabinet')!;

describe('a copy of a template', () => {
  it('takes -copy, then -copy-2…, never a code taken, and stays a valid code', () => {
    expect(copyCode('meter-cabinet', new Set())).toBe('meter-cabinet-copy');
    expect(copyCode('meter-cabinet', new Set(['meter-cabinet-copy']))).toBe('meter-cabinet-copy-2');
    const long = 'a'.repeat(31);
    const code = copyCode(long, new Set());
    expect(code.length).toBeLessThanOrEqual(32);
    expect(code).toMatch(FAMILY_CODE);
    expect(code.endsWith('-copy')).toBe(true);
  });

  it('names the copy in both languages, keeps the roles and passes the form check', () => {
    const copy = copyDraft(cabinet, new Set(['meter-cabinet']));
    expect(copy.name).toEqual({ zh: '计量柜（副本）', en: 'Meter cabinet (copy)' });
    expect(rolesOf(copy)).toEqual(cabinet.roles);
    expect(checkDraft(copy)).toEqual({});
    // every row its own id
    expect(new Set(copy.roles.map((r) => r.uid)).size).toBe(copy.roles.length);
  });
});

describe('the form check', () => {
  it('names every broken field as the server would, and agrees with the domain on roles', () => {
    const draft = draftOf(cabinet);
    draft.code = 'Bad code';
    draft.name.en = ' ';
    draft.roles[1] = { ...draft.roles[1]!, key: 'voltage' };
    draft.roles.push(emptyRole());
    const found = checkDraft(draft);
    expect(Object.keys(found).sort()).toEqual(
      ['code', 'name.en', 'roles[1].key', 'roles[5].key', 'roles[5].name.en', 'roles[5].name.zh'].sort(),
    );
    expect(found['roles[1].key']).toEqual({ problem: 'duplicate' });
    expect(checkFamilyRoles(rolesOf(draft))).toMatchObject({ ok: false, field: 'roles[1].key' });
  });

  it('sees a moved row as a change, a row id alone as none', () => {
    const a = draftOf(cabinet);
    const b = draftOf(cabinet);
    expect(draftSignature(a)).toBe(draftSignature(b));
    b.roles.reverse();
    expect(draftSignature(a)).not.toBe(draftSignature(b));
  });
});
