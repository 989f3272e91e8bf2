/** Carousels (dashboardDisplay, testBoardDisplay): list, play, edit, delete. */
import { DeleteOutlined, EditOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { formatMinute } from '../../../shared/time';
import { boardApi, boardKeys, type PlayRow, usePlays } from '../api';
import { configPlayPath, playPath } from '../paths';

export default function PlayListPage() {
  const { t } = useTranslation('boards');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const plays = usePlays();

  const remove = (row: PlayRow) =>
    modal.confirm({
      title: t('plays.deleteConfirm', '删除轮播“{{name}}”？', { name: row.name }),
      content: t('plays.deleteHint', '只删除轮播，其中的看板保留。'),
      okText: t('common.delete', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'play-delete-ok' } as never,
      cancelText: t('common.cancel', '取消'),
      onOk: async () => {
        try {
          const envelope = await boardApi.removePlay(row.id);
          message.success(envelope.message);
          await queryClient.invalidateQueries({ queryKey: boardKeys.plays });
        } catch {
          // shown by the http client
        }
      },
    });

  const columns: ColumnsType<PlayRow> = [
    { title: t('plays.name', '轮播名称'), dataIndex: 'name' },
    {
      title: t('plays.boards', '看板（秒）'),
      key: 'entries',
      render: (_, row) =>
        row.entries
          .map((e) => `${e.name ?? t('plays.missing', '（已删除或无权查看）')} ${e.seconds}s`)
          .join(' → '),
    },
    {
      title: t('list.updatedAt', '更新时间'),
      dataIndex: 'updatedAt',
      width: 170,
      responsive: ['md'],
      render: (v: string) => formatMinute(v),
    },
    {
      title: t('list.actions', '操作'),
      key: 'actions',
      width: 220,
      render: (_, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            icon={<PlayCircleOutlined />}
            onClick={() => navigate(playPath(row.id))}
            data-testid={`play-start-${row.id}`}
          >
            {t('plays.play', '播放')}
          </Button>
          <Button type="link" icon={<EditOutlined />} onClick={() => navigate(configPlayPath(row.id))}>
            {t('plays.edit', '编辑')}
          </Button>
          <Button
            type="link"
            danger
            icon={<DeleteOutlined />}
            onClick={() => remove(row)}
            aria-label={t('common.delete', '删除')}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('plays.title', '看板轮播')}
      variant="borderless"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate(configPlayPath('new'))}
          data-testid="play-new"
        >
          {t('plays.new', '新建轮播')}
        </Button>
      }
    >
      <Table
        rowKey="id"
        size="middle"
        loading={plays.isLoading}
        dataSource={plays.data ?? []}
        columns={columns}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('plays.empty', '还没有轮播')} /> }}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
