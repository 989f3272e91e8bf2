import { EyeOutlined, RollbackOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, Grid, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/time';
import { ZoneHint } from '../../../shared/ZoneHint';
import { useVersions, type VersionMeta } from '../api';

interface Props {
  deviceId: number;
  open: boolean;
  headVersion: number | null;
  canRestore: boolean;
  onClose: () => void;
  onView: (version: number) => void;
  onRestore: (version: number) => void;
}

/** Every saved version, newest first: who saved it and when; view one, or restore it as a new version. */
export function VersionDrawer({
  deviceId,
  open,
  headVersion,
  canRestore,
  onClose,
  onView,
  onRestore,
}: Props) {
  const { t } = useTranslation('gatewayconfig');
  const [page, setPage] = useState(1);
  const versions = useVersions(deviceId, page, open);
  const wide = Grid.useBreakpoint().md === true;
  return (
    <Drawer
      title={t('history.title')}
      open={open}
      onClose={onClose}
      size={wide ? 640 : '100%'}
      destroyOnHidden
      data-testid="gc-versions"
    >
      <Table<VersionMeta>
        rowKey="version"
        size="small"
        loading={versions.isLoading}
        dataSource={versions.data?.list ?? []}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />,
        }}
        pagination={{
          current: page,
          pageSize: 10,
          total: versions.data?.total ?? 0,
          onChange: setPage,
          hideOnSinglePage: true,
          size: 'small',
        }}
        scroll={{ x: 560 }}
        columns={[
          {
            title: t('history.version'),
            dataIndex: 'version',
            width: 110,
            render: (version: number, row) => (
              <Space size={4} wrap>
                <Typography.Text strong>v{version}</Typography.Text>
                {version === headVersion && <Tag color="blue">{t('history.current')}</Tag>}
                {row.restoredFrom != null && (
                  <Typography.Text type="secondary" className="gc-small">
                    {t('history.restoredFrom', { version: row.restoredFrom })}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { title: t('history.nodes'), dataIndex: 'nodeCount', width: 70 },
          {
            title: t('history.savedBy'),
            dataIndex: 'savedBy',
            width: 110,
            render: (p: VersionMeta['savedBy']) => p?.name ?? '—',
          },
          {
            title: (
              <>
                {t('history.savedAt')} <ZoneHint />
              </>
            ),
            dataIndex: 'savedAt',
            width: 160,
            render: (at: string) => formatTime(at),
          },
          {
            title: t('history.hash'),
            dataIndex: 'hash',
            width: 110,
            render: (hash: string) => (
              <Typography.Text code copyable={{ text: hash }} title={hash}>
                {hash.slice(0, 8)}
              </Typography.Text>
            ),
          },
          {
            key: 'actions',
            width: 170,
            render: (_: unknown, row) => (
              <Space size={4}>
                <Button size="small" icon={<EyeOutlined />} onClick={() => onView(row.version)}>
                  {t('history.view')}
                </Button>
                {canRestore && row.version !== headVersion && (
                  <Popconfirm
                    title={t('history.restoreConfirm', { version: row.version })}
                    onConfirm={() => onRestore(row.version)}
                  >
                    <Button
                      size="small"
                      icon={<RollbackOutlined />}
                      data-testid={`gc-restore-${row.version}`}
                    >
                      {t('history.restore')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
