import { DeleteOutlined, EditOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Role, umApi, umKeys, useRoles } from '../api';
import { RoleModal } from '../components/RoleModal';
import { roleDisplayName, roleTypeLabel } from '../components/roleType';
import '../userManagement.css';

/** Roles of the company: what each may open (menu codes), how many people hold it. */
export default function RolePage() {
  const { t } = useTranslation('userManagement');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const roles = useRoles();
  const [editing, setEditing] = useState<Role | null>(null);
  const [open, setOpen] = useState(false);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: umKeys.roles });

  const remove = async (role: Role) => {
    try {
      const envelope = await umApi.deleteRole(role.id);
      message.success(envelope.message);
      refresh();
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<Role> = [
    {
      title: t('role.name', '角色名称'),
      dataIndex: 'name',
      width: 220,
      render: (name: string, row) => (
        <Space size={6} wrap>
          <Typography.Text strong data-testid="role-row-name">
            {roleDisplayName(t, { name, builtin: row.builtin })}
          </Typography.Text>
          {row.builtin ? (
            <Tag icon={<LockOutlined />} color="purple">
              {t('role.builtin', '内置')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('role.roleType', '角色类型'),
      dataIndex: 'roleType',
      width: 120,
      render: (type: number) => <Tag color={type === 1 ? 'gold' : 'default'}>{roleTypeLabel(t, type)}</Tag>,
    },
    {
      title: t('role.description', '描述'),
      dataIndex: 'description',
      ellipsis: true,
      render: (value: string | null) => value || <span className="um-muted">—</span>,
    },
    {
      title: t('role.menuCodes', '菜单权限'),
      dataIndex: 'menuCodes',
      // "Menu permissions" on one line
      width: 160,
      align: 'right',
      render: (codes: string[]) => t('role.codeCount', '{{count}} 项', { count: codes.length }),
    },
    { title: t('role.userCount', '用户数'), dataIndex: 'userCount', width: 90, align: 'right' },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => {
              setEditing(row);
              setOpen(true);
            }}
            data-testid={`role-edit-${row.name}`}
          >
            {t('common.edit', '编辑')}
          </Button>
          {row.builtin ? (
            <Tooltip title={t('role.builtinHint', '内置角色不能删除')}>
              <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled>
                {t('common.delete', '删除')}
              </Button>
            </Tooltip>
          ) : (
            <Popconfirm
              title={t('role.deleteConfirm', '确定删除角色“{{name}}”吗？', { name: row.name })}
              description={
                row.userCount > 0
                  ? t('role.deleteInUse', '仍有 {{count}} 位用户使用该角色，请先为他们更换角色。', {
                      count: row.userCount,
                    })
                  : undefined
              }
              okText={t('common.ok', '确定')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel', '取消')}
              onConfirm={() => remove(row)}
            >
              <Button
                type="link"
                size="small"
                danger
                icon={<DeleteOutlined />}
                data-testid={`role-delete-${row.name}`}
              >
                {t('common.delete', '删除')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={t('role.title', '角色管理')}
      data-testid="role-page"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing(null);
            setOpen(true);
          }}
          data-testid="role-add"
        >
          {t('role.add', '新增角色')}
        </Button>
      }
    >
      <Table<Role>
        rowKey="id"
        columns={columns}
        dataSource={roles.data ?? []}
        loading={roles.isFetching}
        pagination={{ hideOnSinglePage: true, pageSize: 20 }}
        scroll={{ x: 880 }}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('role.empty', '暂无角色')} />,
        }}
      />
      <RoleModal open={open} role={editing} onClose={() => setOpen(false)} onDone={refresh} />
    </Card>
  );
}
