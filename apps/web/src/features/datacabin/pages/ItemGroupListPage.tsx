import { DeleteOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Popconfirm, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { usePaging } from '../../../shared/paging';
import { cabinApi, type ItemGroup, useItemGroups } from '../api';
import { paths } from '../cabin';
import '../datacabin.css';
import { formatMinute } from '../../../shared/time';

/** /project/itemgroup: named sets of data items (used by projects and boards). */
export default function ItemGroupListPage() {
  const { t } = useTranslation('datacabin');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { paging, pagination, stepBackIfEmpty } = usePaging();
  const groups = useItemGroups(paging);

  const remove = async (group: ItemGroup) => {
    try {
      const envelope = await cabinApi.deleteItemGroup(group.id);
      message.success(envelope.message);
      const page = await groups.refetch();
      stepBackIfEmpty(page.data);
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<ItemGroup> = [
    {
      title: t('groups.name', '数据项组名称'),
      dataIndex: 'name',
      render: (name: string, group) => (
        <Typography.Link onClick={() => navigate(paths.itemGroupConfig(group.id))}>{name}</Typography.Link>
      ),
    },
    {
      title: t('groups.itemCount', '数据项数'),
      key: 'count',
      width: 120,
      render: (_, group) => group.itemCount ?? group.items?.length ?? '—',
    },
    {
      title: t('groups.createdAt', '创建时间'),
      dataIndex: 'createdAt',
      width: 180,
      responsive: ['md'],
      render: (v?: string) => (v ? formatMinute(v) : '—'),
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 170,
      render: (_, group) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<SettingOutlined />}
            onClick={() => navigate(paths.itemGroupConfig(group.id))}
          >
            {t('cabin.configure', '配置')}
          </Button>
          <Popconfirm
            title={t('groups.deleteConfirm', '删除数据项组“{{name}}”？组内数据项不会被删除。', {
              name: group.name,
            })}
            okText={t('common.delete', '删除')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel', '取消')}
            onConfirm={() => remove(group)}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />}>
              {t('common.delete', '删除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" title={t('groups.title', '数据项组')} data-testid="itemgroup-page">
      <div className="dc-tab-actions">
        <span />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate(paths.itemGroupConfig('new'))}
          data-testid="itemgroup-add"
        >
          {t('groups.add', '新建数据项组')}
        </Button>
      </div>
      <Table<ItemGroup>
        rowKey="id"
        columns={columns}
        dataSource={groups.data?.list ?? []}
        loading={groups.isFetching}
        pagination={pagination(groups.data)}
        scroll={{ x: 560 }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t(
                'groups.empty',
                '还没有数据项组。数据项组把多个数据项放在一起，供项目和看板使用。',
              )}
            />
          ),
        }}
      />
    </Card>
  );
}
