import type { TFunction } from 'i18next';

/** Role labels of spec point 3: 1 administrator, 2 ordinary user. */
export function roleTypeLabel(t: TFunction<'userManagement'>, type: number): string {
  return type === 1 ? t('role.types.1', '管理员') : t('role.types.2', '普通用户');
}
