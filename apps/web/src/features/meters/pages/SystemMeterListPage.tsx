import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { formatMinute } from '../../../shared/time';
import { type SystemMeter, useSystemList, VIRTUAL } from '../api';
import { SystemListFrame, useSystemPaging } from '../components/SystemListFrame';
import '../meters.css';

/** System maintenance systememeter (system_emeter): every company's meters, newest first. */
export default function SystemMeterListPage() {
  const { t } = useTranslation('meters');
  const paging = useSystemPaging();
  const list = useSystemList<SystemMeter>('list', paging.pageNum, paging.pageSize, paging.companyId);
  const rows = (list.data ?? []).filter((m) => paging.matches(m.name, m.code, m.formula));
  return (
    <SystemListFrame
      title={t('system.meters', '电表管理')}
      hint={t('system.metersHint', '所有公司的电表，最新的在前。')}
      paging={paging}
      testId="system-meter-list"
    >
      {list.isError ? <LoadFailed onRetry={() => list.refetch()} /> : null}
      <Table<SystemMeter>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        pagination={paging.pagination(list.data?.length ?? 0)}
        locale={{ emptyText: t('system.empty', '没有电表') }}
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('fields.company', '公司'), dataIndex: 'companyId' },
          { title: t('fields.name', '名称'), dataIndex: 'name' },
          { title: t('fields.code', '编码'), dataIndex: 'code' },
          {
            title: t('fields.type', '类型'),
            dataIndex: 'type',
            render: (v: number) =>
              v === VIRTUAL ? (
                <Tag color="purple">{t('kind.virtual', '虚拟电表')}</Tag>
              ) : (
                <Tag color="blue">{t('kind.standard', '标准电表')}</Tag>
              ),
          },
          {
            title: t('fields.source', '数据项 / 公式'),
            key: 'source',
            render: (_, m) =>
              m.type === VIRTUAL ? (
                <Typography.Text code>{m.formula}</Typography.Text>
              ) : (
                `#${m.itemId ?? '—'}`
              ),
          },
          {
            title: t('fields.updatedAt', '更新时间'),
            dataIndex: 'updatedAt',
            render: (v: string) => formatMinute(v),
          },
        ]}
      />
    </SystemListFrame>
  );
}
