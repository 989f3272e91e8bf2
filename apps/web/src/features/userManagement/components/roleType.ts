import { builtinRoleLabelType } from '@platform/domain';
import type { TFunction } from 'i18next';

/** Role labels of spec point 3: 1 administrator, 2 ordinary user. */
export function roleTypeLabel(t: TFunction<'userManagement'>, type: number): string {
  return type === 1 ? t('role.types.1', '管理员') : t('role.types.2', '普通用户');
}

/**
 * A role's name as shown: a built-in role still carrying its stored name reads as its label
 * in the reader's language; every other name is the role's own. `builtin` unknown (a member's
 * role names): the stored built-in names are read as labels.
 */
export function roleDisplayName(
  t: TFunction<'userManagement'>,
  role: { name: string; builtin?: boolean },
): string {
  const type = builtinRoleLabelType(role);
  return type === null ? role.name : roleTypeLabel(t, type);
}
