/**
 * The template's roles as an editable table: key, names in both languages and unit, rows added,
 * removed and moved. Roles are numbered by their row, so the page moves the drawing's bindings
 * along (`onMove`, `onRemove`); a refused field shows its message under it.
 */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { FAMILY_LIMITS } from '@platform/domain';
import { Button, Form, Input, Space, Table, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '../templateDraft';

export function RolesTable({
  roles,
  errors,
  disabled,
  onChange,
  onAdd,
  onMove,
  onRemove,
}: {
  roles: RoleRow[];
  errors: Record<string, string>;
  disabled: boolean;
  onChange: (index: number, role: RoleRow) => void;
  onAdd: () => void;
  onMove: (index: number, to: number) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('flowcharts');
  const cell = (i: number, path: string, input: React.ReactNode) => {
    const error = errors[`roles[${i}].${path}`];
    return (
      <Form.Item
        className="fc-role-cell"
        validateStatus={error ? 'error' : undefined}
        help={error}
        data-testid={`role-${i}-${path.replace('.', '-')}-item`}
      >
        {input}
      </Form.Item>
    );
  };
  return (
    <div className="fc-roles" data-testid="template-roles">
      <div className="fc-roles-head">
        <Typography.Text strong>
          {t('templates.roles', '角色')}{' '}
          <Typography.Text type="secondary">
            {t(
              'templates.rolesHint',
              '画面元素绑定角色；放到设备上时每个角色对应设备的一个数据点。编号即行号。',
            )}
          </Typography.Text>
        </Typography.Text>
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={onAdd}
          disabled={disabled || roles.length >= FAMILY_LIMITS.roles}
          data-testid="role-add"
        >
          {t('templates.addRole', '添加角色')}
        </Button>
      </div>
      {errors.roles ? (
        <Typography.Text type="danger" data-testid="roles-error">
          {errors.roles}
        </Typography.Text>
      ) : null}
      <Table<RoleRow>
        rowKey="uid"
        size="small"
        pagination={false}
        dataSource={roles}
        scroll={{ x: 'max-content', y: 260 }}
        locale={{ emptyText: t('templates.noRoles', '还没有角色') }}
        columns={[
          {
            title: '#',
            key: 'n',
            width: 44,
            render: (_, _r, i) => <Typography.Text type="secondary">{i + 1}</Typography.Text>,
          },
          {
            title: t('templates.roleKey', '键'),
            key: 'key',
            width: 170,
            render: (_, r, i) =>
              cell(
                i,
                'key',
                <Input
                  value={r.key}
                  maxLength={FAMILY_LIMITS.roleKey}
                  placeholder="acPower"
                  disabled={disabled}
                  onChange={(e) => onChange(i, { ...r, key: e.target.value })}
                  data-testid={`role-${i}-key`}
                />,
              ),
          },
          {
            title: t('templates.roleNameZh', '中文名称'),
            key: 'zh',
            width: 190,
            render: (_, r, i) =>
              cell(
                i,
                'name.zh',
                <Input
                  value={r.name.zh}
                  maxLength={FAMILY_LIMITS.name}
                  disabled={disabled}
                  onChange={(e) => onChange(i, { ...r, name: { ...r.name, zh: e.target.value } })}
                  data-testid={`role-${i}-zh`}
                />,
              ),
          },
          {
            title: t('templates.roleNameEn', '英文名称'),
            key: 'en',
            width: 190,
            render: (_, r, i) =>
              cell(
                i,
                'name.en',
                <Input
                  value={r.name.en}
                  maxLength={FAMILY_LIMITS.name}
                  disabled={disabled}
                  onChange={(e) => onChange(i, { ...r, name: { ...r.name, en: e.target.value } })}
                  data-testid={`role-${i}-en`}
                />,
              ),
          },
          {
            title: t('templates.unit', '单位'),
            key: 'unit',
            width: 100,
            render: (_, r, i) =>
              cell(
                i,
                'unit',
                <Input
                  value={r.unit}
                  maxLength={FAMILY_LIMITS.unit}
                  disabled={disabled}
                  onChange={(e) => onChange(i, { ...r, unit: e.target.value })}
                  data-testid={`role-${i}-unit`}
                />,
              ),
          },
          {
            title: t('templates.actions', '操作'),
            key: 'actions',
            width: 120,
            render: (_, _r, i) => (
              <Space size={2}>
                <Tooltip title={t('templates.moveUp', '上移')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    aria-label={t('templates.moveUp', '上移')}
                    disabled={disabled || i === 0}
                    onClick={() => onMove(i, i - 1)}
                    data-testid={`role-${i}-up`}
                  />
                </Tooltip>
                <Tooltip title={t('templates.moveDown', '下移')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    aria-label={t('templates.moveDown', '下移')}
                    disabled={disabled || i === roles.length - 1}
                    onClick={() => onMove(i, i + 1)}
                    data-testid={`role-${i}-down`}
                  />
                </Tooltip>
                <Tooltip title={t('templates.removeRole', '删除角色')}>
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('templates.removeRole', '删除角色')}
                    disabled={disabled || roles.length <= 1}
                    onClick={() => onRemove(i)}
                    data-testid={`role-${i}-remove`}
                  />
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
