import { DeleteOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, Popconfirm, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { type Group, umApi, umKeys, useGroups } from '../api';
import { AddGroupModal } from '../components/AddGroupModal';
import { GroupMembersDrawer } from '../components/GroupMembersDrawer';
import '../userManagement.css';

/** User groups of the company: search, add, delete, and manage members in a drawer. */
export default function GroupPage() {
  const { t } = useTranslation('userManagement');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [keyword, setKeyword] = useState('');
  const groups = useGroups(paging, keyword);
  const [adding, setAdding] = useState(false);
  const [openGroup, setOpenGroup] = useState<Group | null>(null);

  const remove = async (group: Group) => {
    try {
      const envelope = await umApi.deleteGroup(group.id);
      message.success(envelope.message);
      const page = await groups.refetch();
      stepBackIfEmpty(page.data);
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<Group> = [
    {
      title: t('group.name', '组名称'),
      dataIndex: 'name',
      width: 220,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      title: t('group.description', '描述'),
      dataIndex: 'description',
      ellipsis: true,
      render: (value: string | null) => value || <span className="um-muted">—</span>,
    },
    { title: t('group.memberCount', '成员数'), dataIndex: 'memberCount', width: 100, align: 'right' },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 180,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<TeamOutlined />}
            onClick={() => setOpenGroup(row)}
            data-testid={`group-members-${row.name}`}
          >
            {t('group.members', '成员')}
          </Button>
          <Popconfirm
            title={t('group.deleteConfirm', '确定删除用户组“{{name}}”吗？', { name: row.name })}
            description={t('group.deleteHint', '组内成员不会被删除。')}
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
              data-testid={`group-delete-${row.name}`}
            >
              {t('common.delete', '删除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" title={t('group.title', '用户组')} data-testid="group-page">
      <div className="um-toolbar">
        <Input.Search
          className="um-search"
          allowClear
          placeholder={t('group.searchPlaceholder', '搜索组名称')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
        />
        <div className="um-toolbar-actions">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="group-add"
          >
            {t('group.add', '新增用户组')}
          </Button>
        </div>
      </div>
      <Table<Group>
        rowKey="id"
        columns={columns}
        dataSource={groups.data?.list ?? []}
        loading={groups.isFetching}
        pagination={pagination(groups.data)}
        scroll={{ x: 680 }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword
                  ? t('group.noMatch', '没有符合“{{keyword}}”的用户组', { keyword })
                  : t('group.empty', '还没有用户组。用户组可用于批量设置数据权限。')
              }
            />
          ),
        }}
      />
      <AddGroupModal
        open={adding}
        onClose={() => setAdding(false)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: umKeys.groupsAll })}
      />
      <GroupMembersDrawer group={openGroup} onClose={() => setOpenGroup(null)} />
    </Card>
  );
}
