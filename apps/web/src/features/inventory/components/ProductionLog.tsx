import { CheckCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { UNIT_ACTION_LABELS, type UnitAction } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { allPages } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import { inventoryKeys, type LogQuery, type LogRow, useLog } from '../api';
import { useFilters } from '../filters';
import { langOf, productionWord } from '../model';
import { PagedTable, serialColumn } from './ListTable';
import { SerialsModal } from './SerialsModal';
import { FilterSelect, SearchBox } from './Toolbar';

/** the moves the log records, in the order a unit makes them */
const ACTIONS = [
  'produce',
  'purchase',
  'finish',
  'chooseEntry',
  'stock',
  'chooseExit',
  'ship',
  'release',
  'disable',
  'enable',
] as const;

const dash = <span className="inv-muted">—</span>;

/**
 * The production log (im_production_log): every move of every unit, newest first, by serial
 * number and action; units produced are recorded here, and units in production marked finished.
 */
export function ProductionLog() {
  const { t, i18n } = useTranslation('inventory');
  const lang = langOf(i18n.language);
  const queryClient = useQueryClient();
  const { paging, pagination, filters, filter, filtered, onSort } = useFilters<LogQuery>(20);
  const [writing, setWriting] = useState<'produce' | 'finish' | null>(null);
  const log = useLog({ ...paging, ...filters });

  const actionWord = (action: string) =>
    UNIT_ACTION_LABELS[action as UnitAction]?.[lang] ?? t(`log.actions.${action}`, { defaultValue: action });

  const columns: ColumnsType<LogRow> = [
    {
      title: t('fields.at'),
      dataIndex: 'at',
      sorter: true,
      width: 170,
      render: (iso: string) => formatTime(iso),
    },
    serialColumn<LogRow>(t('fields.sn')),
    {
      title: t('fields.action'),
      dataIndex: 'action',
      sorter: true,
      width: 140,
      render: (action: string) => <span data-testid="inv-log-action">{actionWord(action)}</span>,
    },
    {
      title: t('fields.move'),
      key: 'move',
      width: 260,
      render: (_, row) => (
        <span>
          {row.fromStatus ? `${productionWord(row.fromStatus, lang)} → ` : ''}
          {productionWord(row.toStatus, lang)}
          {row.disabled ? (
            <Tag color="red" className="inv-tag inv-tag-after">
              {t('log.disabled')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    {
      title: t('fields.order'),
      dataIndex: 'orderNumber',
      width: 170,
      render: (n: string | null) => (n ? <span className="inv-mono">{n}</span> : dash),
    },
  ];

  const exportColumns: ExportColumn<LogRow>[] = [
    [t('fields.at'), (r) => formatTime(r.at)],
    [t('fields.sn'), (r) => r.sn],
    [t('fields.action'), (r) => actionWord(r.action)],
    [
      t('fields.move'),
      (r) =>
        `${r.fromStatus ? `${productionWord(r.fromStatus, lang)} → ` : ''}${productionWord(r.toStatus, lang)}${r.disabled ? ` (${t('log.disabled')})` : ''}`,
    ],
    [t('fields.order'), (r) => r.orderNumber ?? ''],
  ];

  return (
    <div data-testid="inv-log">
      <div className="inv-toolbar">
        <SearchBox
          placeholder={t('units.search')}
          onSearch={(keyword) => filter({ keyword })}
          testId="inv-log-search"
        />
        <FilterSelect<string>
          label={t('fields.action')}
          placeholder={t('log.allActions')}
          value={filters.action}
          options={ACTIONS.map((a) => ({ value: a, label: actionWord(a) }))}
          onChange={(action) => filter({ action })}
          testId="inv-log-action-filter"
        />
        <span className="inv-toolbar-end">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setWriting('produce')}
            data-testid="inv-produce"
          >
            {t('log.produce')}
          </Button>
          <Button
            icon={<CheckCircleOutlined />}
            onClick={() => setWriting('finish')}
            data-testid="inv-finish"
          >
            {t('log.finish')}
          </Button>
          <ExportButton<LogRow>
            load={() => allPages<LogRow>('/inventory/log/list', filters)}
            columns={exportColumns}
            fileName={t('tabs.log')}
            testId="inv-log-export"
          />
        </span>
      </div>
      <PagedTable<LogRow>
        testId="inv-log-table"
        query={log}
        pagination={pagination}
        onChange={onSort}
        columns={columns}
        scrollX={910}
        empty={filtered ? t('log.noMatch') : t('log.empty')}
      />
      <SerialsModal
        mode={writing}
        onClose={() => setWriting(null)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: inventoryKeys.all })}
      />
    </div>
  );
}
