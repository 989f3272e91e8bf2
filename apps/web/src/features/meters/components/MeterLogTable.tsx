import { Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatMinute } from '../../../shared/time';
import type { LogRow } from '../api';
import { num } from '../format';

/** What a log event says, in words: a replacement's readings and ratios, a rollover's readings. */
export function useEventText() {
  const { t } = useTranslation('meters');
  return (kind: string, d: Record<string, unknown>): string => {
    const n = (key: string) => (typeof d[key] === 'number' ? num(d[key] as number, 3) : null);
    const parts: string[] = [];
    if (kind === 'replacement') {
      if (n('oldFinal') != null) parts.push(t('log.oldFinal', '旧表止码 {{v}}', { v: n('oldFinal') }));
      if (n('newInitial') != null) parts.push(t('log.newInitial', '新表起码 {{v}}', { v: n('newInitial') }));
      const sides = (x: unknown) => {
        const r = x as { ctPrimary?: number; ctSecondary?: number; ptPrimary?: number; ptSecondary?: number };
        return r?.ctPrimary == null
          ? null
          : `CT ${num(r.ctPrimary)}/${num(r.ctSecondary)} · PT ${num(r.ptPrimary)}/${num(r.ptSecondary)}`;
      };
      const before = sides(d.old);
      const after = sides(d.new);
      if (before && after && before !== after)
        parts.push(t('log.ratios', '互感器 {{before}} → {{after}}', { before, after }));
    } else {
      if (n('previous') != null) parts.push(t('log.previous', '翻转前 {{v}}', { v: n('previous') }));
      if (n('next') != null) parts.push(t('log.next', '翻转后 {{v}}', { v: n('next') }));
    }
    return parts.join('；') || JSON.stringify(d);
  };
}

export function MeterLogTable({
  rows,
  loading,
  showMeter,
  testId,
}: {
  rows: LogRow[];
  loading: boolean;
  showMeter?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('meters');
  const text = useEventText();
  const columns: ColumnsType<LogRow> = [
    {
      title: t('log.kind', '事件'),
      dataIndex: 'kind',
      render: (k: string) => <Tag color={k === 'replacement' ? 'blue' : 'orange'}>{t(`log.${k}`, k)}</Tag>,
    },
    { title: t('log.at', '时间'), dataIndex: 'at', render: (v: string) => formatMinute(v) },
    ...(showMeter
      ? [
          { title: t('fields.company', '公司'), dataIndex: 'companyId' },
          {
            title: t('fields.meter', '电表'),
            key: 'meter',
            render: (_: unknown, r: LogRow) => `${r.meterName} (${r.meterCode})`,
          },
        ]
      : []),
    { title: t('log.details', '内容'), key: 'details', render: (_, r) => text(r.kind, r.details) },
    { title: t('log.note', '备注'), dataIndex: 'note' },
    { title: t('log.by', '记录人'), dataIndex: 'createdBy', render: (v: string | null) => v ?? '—' },
  ];
  return (
    <Table<LogRow>
      rowKey="id"
      size="small"
      loading={loading}
      columns={columns}
      dataSource={rows}
      pagination={showMeter ? false : { pageSize: 10, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('log.empty', '没有换表或翻转记录') }}
      data-testid={testId ?? 'meter-log'}
    />
  );
}
