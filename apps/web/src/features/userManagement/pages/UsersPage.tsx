import { DeleteOutlined, EditOutlined, UserAddOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Flex, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/store/session';
import { usePaging } from '../../../shared/paging';
import { type SysUser, umApi, umKeys, useSysUsers } from '../api';
import { AddUserModal } from '../components/AddUserModal';
import { EditUserModal } from '../components/EditUserModal';
import { roleDisplayName } from '../components/roleType';
import '../userManagement.css';
import { formatMinute } from '../../../shared/time';

/**
 * The company's members: search, add (an invitation the person accepts), edit (name, roles,
 * status), remove from the company or withdraw an invitation.
 */
export default function UsersPage() {
  const { t } = useTranslation('userManagement');
  const { message } = App.useApp();
  const { user: me } = useSession();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [keyword, setKeyword] = useState('');
  const users = useSysUsers(paging, keyword);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<SysUser | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: umKeys.usersAll });
    void queryClient.invalidateQueries({ queryKey: umKeys.roles });
  };

  const remove = async (target: SysUser) => {
    try {
      const envelope = await umApi.removeSysUser(target.userId);
      message.success(envelope.message);
      const page = await users.refetch();
      stepBackIfEmpty(page.data);
      void queryClient.invalidateQueries({ queryKey: umKeys.roles });
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<SysUser> = [
    {
      title: t('users.userName', '姓名'),
      dataIndex: 'userName',
      width: 180,
      render: (name: string, row) => (
        <Space size={6}>
          <Typography.Text strong>{name}</Typography.Text>
          {row.userId === me?.userId ? <Tag>{t('users.me', '我')}</Tag> : null}
        </Space>
      ),
    },
    { title: t('users.phone', '手机号'), dataIndex: 'phone', width: 140 },
    {
      title: t('users.roles', '角色'),
      dataIndex: 'roleNames',
      render: (names: string[]) =>
        names.length ? (
          <Flex gap={4} wrap>
            {names.map((name) => (
              <Tag key={name} color="blue">
                {roleDisplayName(t, { name })}
              </Tag>
            ))}
          </Flex>
        ) : (
          <span className="um-muted">{t('users.noRole', '未分配角色')}</span>
        ),
    },
    {
      title: t('users.status', '状态'),
      dataIndex: 'status',
      width: 90,
      render: (status: number, row) =>
        row.memberStatus === 'invited' ? (
          <Tag color="processing">{t('users.invited', '邀请中')}</Tag>
        ) : status === 1 ? (
          <Tag color="green">{t('users.enabled', '启用')}</Tag>
        ) : (
          <Tag color="red">{t('users.disabled', '停用')}</Tag>
        ),
    },
    {
      title: t('users.joinedAt', '加入时间'),
      dataIndex: 'joinedAt',
      width: 170,
      render: (value: string | null) => (value ? formatMinute(value) : '—'),
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)}>
            {t('common.edit', '编辑')}
          </Button>
          <Popconfirm
            title={
              row.memberStatus === 'invited'
                ? t('users.withdrawConfirm', '确定撤回对“{{name}}”的邀请吗？', { name: row.userName })
                : t('users.removeConfirm', '确定将“{{name}}”移出本公司吗？', { name: row.userName })
            }
            description={
              row.memberStatus === 'invited'
                ? undefined
                : t('users.removeHint', '仅移除其在本公司的成员身份，不会删除账号。')
            }
            okText={t('common.ok', '确定')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel', '取消')}
            onConfirm={() => remove(row)}
            disabled={row.userId === me?.userId}
          >
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={row.userId === me?.userId}
              data-testid={`user-remove-${row.phone}`}
            >
              {row.memberStatus === 'invited' ? t('users.withdraw', '撤回') : t('users.remove', '移除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" title={t('users.title', '用户管理')} data-testid="users-page">
      <div className="um-toolbar">
        <Input.Search
          className="um-search"
          allowClear
          placeholder={t('users.searchPlaceholder', '搜索姓名或手机号')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="users-search"
        />
        <div className="um-toolbar-actions">
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            onClick={() => setAdding(true)}
            data-testid="users-add"
          >
            {t('users.add', '新增用户')}
          </Button>
        </div>
      </div>
      <Table<SysUser>
        rowKey="userId"
        columns={columns}
        dataSource={users.data?.list ?? []}
        loading={users.isFetching}
        pagination={pagination(users.data)}
        scroll={{ x: 920 }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword
                  ? t('users.noMatch', '没有符合“{{keyword}}”的用户', { keyword })
                  : t('users.empty', '暂无用户')
              }
            />
          ),
        }}
      />
      <AddUserModal open={adding} onClose={() => setAdding(false)} onDone={refresh} />
      <EditUserModal
        user={editing}
        isSelf={editing?.userId === me?.userId}
        onClose={() => setEditing(null)}
        onDone={refresh}
      />
    </Card>
  );
}
