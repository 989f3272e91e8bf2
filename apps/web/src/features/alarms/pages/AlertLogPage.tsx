import { DownloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import { type AlarmFilters, type AlarmRow, alarmApi, alarmKeys, useAlarmLog } from '../api';
import { AckDialog } from '../components/AckDialog';
import { LEVEL_COLOURS } from '../levels';

const STATUS_COLOURS: Record<string, string> = { active: 'red', acknowledged: 'blue', cleared: 'default' };

/** /cloudSurveillance/alertLog: the alarm log (cs_info) with filters, acknowledge, clear and export. */
export default function AlertLogPage() {
  const { t } = useTranslation('alarms');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset } = usePaging(20);
  const [filters, setFilters] = useState<AlarmFilters>({});
  const [acking, setAcking] = useState<AlarmRow | null>(null);
  const log = useAlarmLog(paging, filters);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: alarmKeys.all });
  const filter = (change: AlarmFilters) => {
    setFilters((f) => ({ ...f, ...change }));
    reset();
  };
  return (
    <Card variant="borderless" data-testid="alert-log-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          placeholder={t('fields.level')}
          style={{ width: 120 }}
          options={[1, 2, 3].map((l) => ({ value: l, label: t('log.level', { level: l }) }))}
          onChange={(level?: number) => filter({ level })}
        />
        <Select
          allowClear
          placeholder={t('fields.status')}
          style={{ width: 150 }}
          options={['open', 'active', 'acknowledged', 'cleared'].map((s) => ({
            value: s,
            label: t(`status.${s}`),
          }))}
          onChange={(status?: string) => filter({ status })}
        />
        <Button icon={<DownloadOutlined />} onClick={() => alarmApi.exportLog('csv', filters)}>
          CSV
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => alarmApi.exportLog('xlsx', filters)}>
          XLSX
        </Button>
      </Space>
      <Table<AlarmRow>
        rowKey="id"
        loading={log.isFetching}
        dataSource={log.data?.list ?? []}
        pagination={pagination(log.data)}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t('log.empty') }}
        columns={[
          {
            title: t('fields.level'),
            dataIndex: 'level',
            render: (level: number) => <Tag color={LEVEL_COLOURS[level]}>{t('log.level', { level })}</Tag>,
          },
          { title: t('fields.name'), dataIndex: 'name' },
          { title: t('fields.item'), render: (_, r) => r.itemName ?? r.deviceName ?? '' },
          { title: t('fields.value'), dataIndex: 'value' },
          {
            title: t('fields.status'),
            dataIndex: 'status',
            render: (s: string) => <Tag color={STATUS_COLOURS[s]}>{t(`status.${s}`)}</Tag>,
          },
          { title: t('fields.firedAt'), render: (_, r) => formatMinute(r.firedAt) },
          {
            title: t('fields.ack'),
            render: (_, r) => (r.acknowledgedBy ? `${r.acknowledgedBy}: ${r.ackComment ?? ''}` : ''),
          },
          { title: t('fields.clearedAt'), render: (_, r) => (r.clearedAt ? formatMinute(r.clearedAt) : '') },
          {
            title: t('common.actions'),
            render: (_, r) => (
              <Space>
                {r.status === 'active' && (
                  <Button type="link" onClick={() => setAcking(r)}>
                    {t('log.acknowledge')}
                  </Button>
                )}
                {r.status !== 'cleared' && (
                  <Popconfirm
                    title={t('log.clearConfirm')}
                    okText={t('log.clear')}
                    cancelText={t('common.cancel')}
                    onConfirm={async () => {
                      const res = await alarmApi.clear(r.id);
                      message.success(res.message);
                      refresh();
                    }}
                  >
                    <Button type="link" danger>
                      {t('log.clear')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <AckDialog alarmId={acking?.id ?? null} onClose={() => setAcking(null)} onDone={refresh} />
    </Card>
  );
}
