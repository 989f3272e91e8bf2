import { CheckOutlined } from '@ant-design/icons';
import { Button, Card, Grid, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/time';
import type { ScheduleDetail, ScheduleUnit } from '../api';
import { emptyLocale } from './EmptyText';
import { UnitStatusTag } from './StatusTag';

const finishable = (unit: ScheduleUnit) => unit.status === 'inProduction' && !unit.disabled;

/**
 * The units a plan made, by serial number, with their status now (they move on to stocked,
 * out… once the inventory takes them); those in production are chosen and marked finished.
 */
export function UnitsCard({
  plan,
  onFinish,
}: {
  plan: ScheduleDetail;
  /** rejects when the server refused (the http client showed why) */
  onFinish: (sns: string[]) => Promise<unknown>;
}) {
  const { t } = useTranslation('production');
  const wide = Grid.useBreakpoint().md === true;
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const chosen = selected.filter((sn) => plan.units.some((u) => u.sn === sn && finishable(u)));

  const finish = async () => {
    setBusy(true);
    try {
      await onFinish(chosen);
      setSelected([]);
    } catch {
      // the http client showed the server's message; the choice stays for another try
    } finally {
      setBusy(false);
    }
  };

  const columns: ColumnsType<ScheduleUnit> = [
    {
      title: t('fields.sn'),
      dataIndex: 'sn',
      render: (sn: string) => <span className="production-number">{sn}</span>,
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: wide ? 170 : 110,
      render: (status: string, unit) => (
        <>
          <UnitStatusTag status={status} />
          {unit.disabled ? <span className="production-muted">{t('units.disabled')}</span> : null}
        </>
      ),
    },
    ...(wide
      ? [
          {
            title: t('fields.updatedAt'),
            dataIndex: 'updatedAt',
            width: 170,
            render: (v: string) => <span className="production-number">{formatTime(v)}</span>,
          },
        ]
      : []),
  ];

  return (
    <Card
      variant="borderless"
      title={t('units.title', { count: plan.units.length })}
      extra={
        <Button
          type="primary"
          icon={<CheckOutlined />}
          disabled={chosen.length === 0}
          loading={busy}
          onClick={finish}
          data-testid="production-finish-selected"
        >
          {t('units.finishSelected', { count: chosen.length })}
        </Button>
      }
      className="production-card"
      data-testid="production-units"
    >
      <Table<ScheduleUnit>
        rowKey="sn"
        size="small"
        columns={columns}
        dataSource={plan.units}
        rowSelection={{
          selectedRowKeys: chosen,
          onChange: (keys) => setSelected(keys.map(String)),
          getCheckboxProps: (unit) => ({ disabled: !finishable(unit), name: unit.sn }),
        }}
        pagination={{
          defaultPageSize: 10,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          hideOnSinglePage: true,
        }}
        locale={emptyLocale(t('units.empty'))}
        data-testid="production-units-table"
      />
    </Card>
  );
}
