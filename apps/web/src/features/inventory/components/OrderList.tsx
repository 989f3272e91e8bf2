import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { PageHeader } from '../../../shared/PageHeader';
import { allPages } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import { inventoryKeys, type OrderQuery, type OrderRow, useOrders } from '../api';
import { useFilters } from '../filters';
import {
  CATEGORY_KINDS,
  type CategoryKind,
  inventoryPaths,
  ORDER_STATES,
  type OrderKind,
  type OrderState,
} from '../model';
import { PagedTable } from './ListTable';
import { OrderModal } from './OrderModal';
import { KindTag, StateTag } from './Tags';
import { FilterSelect, SearchBox } from './Toolbar';

const dash = <span className="inv-muted">—</span>;

/**
 * Entry or exit orders, newest first: search (number, customer, warehouse or a serial number in
 * one), state and (entries) source filters, paging, a CSV export, and a new order opened on its
 * page once made.
 */
export function OrderList({ kind }: { kind: OrderKind }) {
  const { t } = useTranslation('inventory');
  const queryClient = useQueryClient();
  const { paging, pagination, filters, filter, filtered, onSort } = useFilters<Omit<OrderQuery, 'kind'>>();
  const [creating, setCreating] = useState(false);
  const orders = useOrders({ ...paging, kind, ...filters });
  const entry = kind === 'entry';

  const columns: ColumnsType<OrderRow> = [
    {
      title: t('fields.number'),
      dataIndex: 'number',
      sorter: true,
      width: 170,
      render: (number: string, row) => (
        <Link to={inventoryPaths.order(row)} className="inv-mono" data-testid={`inv-order-link-${row.id}`}>
          {number}
        </Link>
      ),
    },
    entry
      ? {
          title: t('fields.source'),
          dataIndex: 'source',
          width: 110,
          render: (source: CategoryKind | null) => (source ? <KindTag kind={source} /> : dash),
        }
      : { title: t('fields.customer'), dataIndex: 'customer', sorter: true, width: 180, ellipsis: true },
    { title: t('fields.warehouse'), dataIndex: 'warehouse', sorter: true, width: 130 },
    {
      title: t('fields.state'),
      dataIndex: 'state',
      sorter: true,
      width: 100,
      render: (state: OrderState) => <StateTag state={state} />,
    },
    { title: t('fields.units'), dataIndex: 'units', width: 80, align: 'right' },
    {
      title: t('fields.quantity'),
      dataIndex: 'quantity',
      width: 90,
      align: 'right',
      render: (n: number) => (n ? n : dash),
    },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      sorter: true,
      width: 170,
      render: (iso: string) => formatTime(iso),
    },
    {
      title: t('fields.closedAt'),
      dataIndex: 'closedAt',
      sorter: true,
      width: 170,
      render: (iso: string | null) => (iso ? formatTime(iso) : dash),
    },
  ];

  const exportColumns: ExportColumn<OrderRow>[] = [
    [t('fields.number'), (o) => o.number],
    entry
      ? [t('fields.source'), (o) => (o.source ? t(`kind.${o.source}`) : '')]
      : [t('fields.customer'), (o) => o.customer],
    ...(entry
      ? []
      : ([
          [t('fields.contact'), (o) => o.contact],
          [t('fields.phone'), (o) => o.phone],
          [t('fields.address'), (o) => o.address],
        ] as ExportColumn<OrderRow>[])),
    [t('fields.warehouse'), (o) => o.warehouse],
    [t('fields.state'), (o) => t(`state.${o.state}`)],
    [t('fields.units'), (o) => o.units],
    [t('fields.quantity'), (o) => o.quantity],
    [t('fields.createdAt'), (o) => formatTime(o.createdAt)],
    [t('fields.closedAt'), (o) => (o.closedAt ? formatTime(o.closedAt) : '')],
    [t('fields.notes'), (o) => o.notes],
  ];

  return (
    <Card variant="borderless" data-testid={`inv-${kind}-list`}>
      <PageHeader
        className="inv-page-header"
        title={t(`menu.${kind}List`)}
        hint={t(`order.${kind}.hint`)}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="inv-order-new"
          >
            {t(`order.${kind}.new`)}
          </Button>
        }
      />
      <div className="inv-toolbar">
        <SearchBox
          placeholder={t(`order.${kind}.search`)}
          onSearch={(keyword) => filter({ keyword })}
          testId="inv-order-search"
        />
        <FilterSelect<OrderState>
          label={t('fields.state')}
          placeholder={t('order.allStates')}
          value={filters.state}
          options={ORDER_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
          onChange={(state) => filter({ state })}
          testId="inv-order-state-filter"
        />
        {entry ? (
          <FilterSelect<CategoryKind>
            label={t('fields.source')}
            placeholder={t('order.allSources')}
            value={filters.source}
            options={CATEGORY_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
            onChange={(source) => filter({ source })}
            testId="inv-order-source-filter"
          />
        ) : null}
        <span className="inv-toolbar-end">
          <ExportButton<OrderRow>
            load={() => allPages<OrderRow>('/inventory/order/list', { kind, ...filters })}
            columns={exportColumns}
            fileName={t(`menu.${kind}List`)}
            testId="inv-order-export"
          />
        </span>
      </div>
      <PagedTable<OrderRow>
        testId="inv-order-table"
        query={orders}
        pagination={pagination}
        onChange={onSort}
        columns={columns}
        scrollX={entry ? 1020 : 1090}
        empty={filtered ? t('order.noMatch') : t(`order.${kind}.empty`)}
      />
      <OrderModal
        kind={kind}
        open={creating}
        editing={null}
        onClose={() => setCreating(false)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: inventoryKeys.all })}
      />
    </Card>
  );
}
