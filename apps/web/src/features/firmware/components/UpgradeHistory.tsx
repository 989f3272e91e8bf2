import { Empty, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import { ZoneHint } from '../../../shared/ZoneHint';
import { isLive, type Upgrade, useUpgrades } from '../api';
import { STATE_COLOR } from '../states';

/** Every upgrade of one gateway, newest first, with how each ended. */
export function UpgradeHistory({ deviceId, live }: { deviceId: number; live: boolean }) {
  const { t } = useTranslation('firmware');
  const { paging, pagination } = usePaging(10);
  const rows = useUpgrades(deviceId, paging, live ? 3000 : false);
  return (
    <Table<Upgrade>
      rowKey="id"
      size="small"
      loading={rows.isLoading}
      dataSource={rows.data?.list ?? []}
      pagination={{ ...pagination(rows.data), hideOnSinglePage: true }}
      scroll={{ x: 760 }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} /> }}
      onRow={(row) => ({ 'data-testid': `fw-history-${row.id}` }) as never}
      data-testid="fw-history"
      columns={[
        {
          title: t('history.versions'),
          key: 'versions',
          width: 150,
          render: (_, row) => (
            <span className="fw-mono">
              {row.fromVersion ?? '?'} → {row.version}
            </span>
          ),
        },
        {
          title: t('history.state'),
          dataIndex: 'state',
          width: 130,
          render: (_, row) => (
            <Tag color={STATE_COLOR[row.state]} data-testid="fw-history-state" data-state={row.state}>
              {t(`states.${row.state}`)}
              {isLive(row) && row.progress != null ? ` ${row.progress}%` : ''}
            </Tag>
          ),
        },
        {
          title: t('history.reason'),
          key: 'reason',
          render: (_, row) =>
            row.reason ? (
              <Tooltip title={row.detail}>
                <Typography.Text className="fw-small">{t(`reasons.${row.reason}`)}</Typography.Text>
              </Tooltip>
            ) : (
              '—'
            ),
        },
        {
          title: t('history.by'),
          key: 'by',
          width: 110,
          render: (_, row) => (
            <>
              {row.createdBy?.name ?? '—'}
              {row.batchId != null ? (
                <Tag className="fw-batch-tag" bordered={false}>
                  {t('history.batch')}
                </Tag>
              ) : null}
            </>
          ),
        },
        {
          title: (
            <>
              {t('history.createdAt')} <ZoneHint />
            </>
          ),
          dataIndex: 'createdAt',
          width: 170,
          render: (at: string) => formatTime(at),
        },
        {
          title: t('history.endedAt'),
          dataIndex: 'endedAt',
          width: 170,
          render: (at: string | null) => (at ? formatTime(at) : '—'),
        },
      ]}
    />
  );
}
