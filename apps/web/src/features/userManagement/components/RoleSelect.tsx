import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRoles } from '../api';
import { roleDisplayName, roleTypeLabel } from './roleType';

/** Multiple choice of the company's roles (administrator roles tagged). */
export function RoleSelect({
  value,
  onChange,
  testId,
}: {
  value?: number[];
  onChange?: (value: number[]) => void;
  testId?: string;
}) {
  const { t } = useTranslation('userManagement');
  const roles = useRoles({ silent: true });
  return (
    <Select<number[]>
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      loading={roles.isLoading}
      placeholder={t('users.rolesPlaceholder', '选择角色')}
      showSearch={{ optionFilterProp: 'label' }}
      data-testid={testId}
      notFoundContent={
        roles.isError ? t('users.rolesUnavailable', '无法读取角色列表（需要角色管理权限）') : undefined
      }
      options={(roles.data ?? []).map((role) => ({
        value: role.id,
        label: roleDisplayName(t, role),
        title: roleDisplayName(t, role),
      }))}
      optionRender={(option) => {
        const role = roles.data?.find((r) => r.id === option.value);
        return (
          <span>
            {option.label}
            {role?.roleType === 1 ? (
              <Tag color="gold" style={{ marginInlineStart: 8 }}>
                {roleTypeLabel(t, 1)}
              </Tag>
            ) : null}
          </span>
        );
      }}
    />
  );
}
