import { DeleteOutlined, LogoutOutlined, UserAddOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Empty, Flex, Grid, Popconfirm, Select, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/store/session';
import { type Group, type GroupMember, umApi, umKeys, useGroupMembers, useMembers } from '../api';

/** A group's members: add company members, remove one, or leave the group oneself. */
export function GroupMembersDrawer({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const { t } = useTranslation('userManagement');
  const { message } = App.useApp();
  const { user: me } = useSession();
  const queryClient = useQueryClient();
  const screens = Grid.useBreakpoint();
  const members = useGroupMembers(group?.id ?? null);
  const [search, setSearch] = useState('');
  const candidates = useMembers(search, group != null);
  const [picked, setPicked] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);

  const inGroup = useMemo(() => new Set((members.data ?? []).map((m) => m.userId)), [members.data]);
  const options = (candidates.data?.list ?? [])
    .filter((m) => !inGroup.has(m.userId))
    .map((m) => ({ value: m.userId, label: `${m.userName} (${m.phone})` }));

  const changed = async () => {
    await members.refetch();
    void queryClient.invalidateQueries({ queryKey: umKeys.groupsAll });
  };

  const run = async (action: () => Promise<{ message: string }>, after?: () => void) => {
    setBusy(true);
    try {
      const envelope = await action();
      message.success(envelope.message);
      after?.();
      await changed();
    } catch {
      // the http client showed the error
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setPicked([]);
    setSearch('');
    onClose();
  };

  return (
    <Drawer
      open={group != null}
      onClose={close}
      size={screens.md ? 560 : '100%'}
      title={t('group.membersOf', '“{{name}}”的成员', { name: group?.name ?? '' })}
      destroyOnHidden
      data-testid="group-members-drawer"
    >
      <Flex gap={8} style={{ marginBottom: 16 }} wrap>
        <Select<number[]>
          mode="multiple"
          style={{ flex: 1, minWidth: 200 }}
          placeholder={t('group.pickMembers', '选择要加入的公司成员')}
          value={picked}
          onChange={setPicked}
          showSearch={{ onSearch: setSearch, filterOption: false }}
          loading={candidates.isFetching}
          options={options}
          notFoundContent={t('group.noCandidates', '没有可添加的成员')}
          data-testid="group-member-picker"
        />
        <Button
          type="primary"
          icon={<UserAddOutlined />}
          disabled={picked.length === 0}
          loading={busy}
          onClick={() =>
            group &&
            run(
              () => umApi.addUserToGroup(group.id, picked),
              () => setPicked([]),
            )
          }
          data-testid="group-member-add"
        >
          {t('group.addMembers', '添加')}
        </Button>
      </Flex>
      <Table<GroupMember>
        rowKey="userId"
        size="middle"
        loading={members.isFetching}
        dataSource={members.data ?? []}
        pagination={false}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('group.noMembers', '该组还没有成员')}
            />
          ),
        }}
        columns={[
          {
            title: t('users.userName', '姓名'),
            dataIndex: 'userName',
            render: (name: string, row) => (
              <Flex gap={6} align="center" wrap>
                <Typography.Text>{name}</Typography.Text>
                {row.userId === me?.userId ? <Tag>{t('users.me', '我')}</Tag> : null}
              </Flex>
            ),
          },
          { title: t('users.phone', '手机号'), dataIndex: 'phone', width: 130 },
          {
            title: t('common.actions', '操作'),
            key: 'actions',
            width: 110,
            align: 'right',
            render: (_, row) =>
              row.userId === me?.userId ? (
                <Popconfirm
                  title={t('group.quitConfirm', '确定退出该用户组吗？')}
                  okText={t('common.ok', '确定')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.cancel', '取消')}
                  onConfirm={() => group && run(() => umApi.quitUserGroup(group.id))}
                >
                  <Button type="link" size="small" danger icon={<LogoutOutlined />} data-testid="group-quit">
                    {t('group.quit', '退出')}
                  </Button>
                </Popconfirm>
              ) : (
                <Popconfirm
                  title={t('group.removeMemberConfirm', '确定将“{{name}}”移出该组吗？', {
                    name: row.userName,
                  })}
                  okText={t('common.ok', '确定')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.cancel', '取消')}
                  onConfirm={() => group && run(() => umApi.removeUserFromGroup(group.id, row.userId))}
                >
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    data-testid={`group-member-remove-${row.phone}`}
                  >
                    {t('group.removeMember', '移除')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Drawer>
  );
}
