import { StopOutlined, UndoOutlined } from '@ant-design/icons';
import { STOCK_STATUS_IDS } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { allPages } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import {
  inventoryApi,
  inventoryKeys,
  type UnitQuery,
  type UnitRow,
  useCategoryChoices,
  useUnits,
} from '../api';
import { useFilters } from '../filters';
import {
  inventoryPaths,
  langOf,
  productionWord,
  type Refused,
  refusedOf,
  stockWord,
  useHasCode,
} from '../model';
import { PagedTable, serialColumn } from './ListTable';
import { RefusalAlert } from './RefusalAlert';
import { StockTag } from './Tags';
import { FilterSelect, SearchBox } from './Toolbar';

const dash = <span className="inv-muted">—</span>;

const UNIT_ACTIONS = [
  { action: 'disable', icon: <StopOutlined /> },
  { action: 'enable', icon: <UndoOutlined /> },
] as const;

/**
 * Serial-numbered units: search by serial number, filters by category (unless `categoryId`
 * fixes it), stock status and warehouse, paging, a CSV export; those with im_inventory select
 * units to disable or enable them, each refusal listed.
 */
export function UnitList({ categoryId, warehouses }: { categoryId?: number; warehouses: readonly string[] }) {
  const { t, i18n } = useTranslation('inventory');
  const lang = langOf(i18n.language);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const has = useHasCode();
  const canChange = has('im_inventory');
  const { paging, pagination, filters, filter, filtered, onSort } = useFilters<UnitQuery>(20);
  const [selected, setSelected] = useState<UnitRow[]>([]);
  const [refused, setRefused] = useState<Refused | null>(null);
  const query = { ...paging, ...filters, ...(categoryId ? { categoryId } : {}) };
  const units = useUnits(query);
  const categories = useCategoryChoices();

  const change = (action: 'disable' | 'enable') =>
    modal.confirm({
      title: t(`units.${action}Confirm`, { count: selected.length }),
      content: t(`units.${action}Hint`),
      okText: t(`units.${action}`),
      okButtonProps: { danger: action === 'disable' },
      cancelText: t('common.cancel'),
      onOk: async () => {
        setRefused(null);
        try {
          const envelope = await inventoryApi.unitState(
            selected.map((u) => u.sn),
            action,
          );
          message.success(envelope.message);
          setSelected([]);
          await queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
        } catch (error) {
          setRefused(refusedOf(error));
        }
      },
    });

  const orderLink = (row: UnitRow) => {
    if (!row.orderNumber || !row.orderId || !row.orderKind) return dash;
    const code = row.orderKind === 'entry' ? 'im_entry' : 'im_exit';
    if (!has(code)) return row.orderNumber;
    const path = inventoryPaths.order({
      id: row.orderId,
      kind: row.orderKind,
      source: row.kind,
      state: 'open',
    });
    return (
      <Link to={path} className="inv-mono" data-testid={`inv-unit-order-${row.id}`}>
        {row.orderNumber}
      </Link>
    );
  };

  const columns: ColumnsType<UnitRow> = [
    { ...serialColumn<UnitRow>(t('fields.sn')), sorter: true },
    {
      title: categoryId ? t('fields.model') : t('fields.category'),
      key: 'category',
      sorter: true,
      width: 170,
      render: (_, row) => (
        <div className="inv-cell">
          {categoryId ? null : <span>{row.categoryName}</span>}
          {row.model ? <span className="inv-muted">{row.model}</span> : categoryId ? dash : null}
        </div>
      ),
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      sorter: true,
      width: 130,
      render: (status: string) => <span data-testid="inv-unit-status">{productionWord(status, lang)}</span>,
    },
    {
      title: t('fields.stockStatus'),
      dataIndex: 'stockStatus',
      width: 120,
      render: (status: number) => <StockTag status={status} />,
    },
    {
      title: t('fields.warehouse'),
      dataIndex: 'warehouse',
      sorter: true,
      width: 130,
      render: (v: string) => (v ? <span data-testid="inv-unit-warehouse">{v}</span> : dash),
    },
    { title: t('fields.openOrder'), key: 'order', width: 170, render: (_, row) => orderLink(row) },
    {
      title: t('fields.updatedAt'),
      dataIndex: 'updatedAt',
      sorter: true,
      width: 160,
      render: (iso: string) => formatTime(iso),
    },
  ];

  const exportColumns: ExportColumn<UnitRow>[] = [
    [t('fields.sn'), (u) => u.sn],
    [t('fields.category'), (u) => u.categoryName],
    [t('fields.model'), (u) => u.model],
    [t('fields.status'), (u) => productionWord(u.status, lang)],
    [t('fields.stockStatus'), (u) => stockWord(u.stockStatus, lang)],
    [t('fields.warehouse'), (u) => u.warehouse],
    [t('fields.openOrder'), (u) => u.orderNumber ?? ''],
    [t('fields.updatedAt'), (u) => formatTime(u.updatedAt)],
  ];

  return (
    <div data-testid="inv-units">
      <div className="inv-toolbar">
        <SearchBox
          placeholder={t('units.search')}
          onSearch={(keyword) => filter({ keyword })}
          testId="inv-unit-search"
        />
        {categoryId ? null : (
          <FilterSelect<number>
            search
            label={t('fields.category')}
            placeholder={t('units.allCategories')}
            value={filters.categoryId}
            options={(categories.data?.list ?? [])
              .filter((c) => c.serialized)
              .map((c) => ({ value: c.id, label: c.name }))}
            onChange={(value) => filter({ categoryId: value })}
            testId="inv-unit-category-filter"
          />
        )}
        <FilterSelect<number>
          label={t('fields.stockStatus')}
          placeholder={t('units.allStatuses')}
          value={filters.stockStatus}
          options={STOCK_STATUS_IDS.map((id) => ({ value: id, label: stockWord(id, lang) }))}
          onChange={(stockStatus) => filter({ stockStatus })}
          testId="inv-unit-status-filter"
        />
        <FilterSelect<string>
          label={t('fields.warehouse')}
          placeholder={t('units.allWarehouses')}
          value={filters.warehouse}
          options={warehouses.map((w) => ({ value: w, label: w }))}
          onChange={(warehouse) => filter({ warehouse })}
          testId="inv-unit-warehouse-filter"
        />
        <span className="inv-toolbar-end">
          {canChange
            ? UNIT_ACTIONS.map(({ action, icon }) => (
                <Button
                  key={action}
                  danger={action === 'disable'}
                  icon={icon}
                  disabled={selected.length === 0}
                  onClick={() => change(action)}
                  data-testid={`inv-unit-${action}`}
                >
                  {t(`units.${action}`)}
                  {selected.length ? ` (${selected.length})` : ''}
                </Button>
              ))
            : null}
          <ExportButton<UnitRow>
            load={() =>
              allPages<UnitRow>('/inventory/unit/list', { ...filters, ...(categoryId ? { categoryId } : {}) })
            }
            columns={exportColumns}
            fileName={t('units.fileName')}
            testId="inv-unit-export"
          />
        </span>
      </div>
      <RefusalAlert refused={refused} onClose={() => setRefused(null)} testId="inv-unit-refusal" />
      <PagedTable<UnitRow>
        testId="inv-unit-table"
        query={units}
        pagination={pagination}
        onChange={onSort}
        columns={columns}
        scrollX={1080}
        empty={filtered ? t('units.noMatch') : t('units.empty')}
        rowSelection={
          canChange
            ? {
                selectedRowKeys: selected.map((u) => u.id),
                preserveSelectedRowKeys: true,
                onChange: (_, rows) => setSelected(rows.filter(Boolean)),
                getCheckboxProps: (row) => ({ 'aria-label': row.sn }) as object,
              }
            : undefined
        }
      />
    </div>
  );
}
