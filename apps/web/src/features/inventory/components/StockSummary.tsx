import { Grid } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type CategoryRow, type StockRow, useCategoryChoices, useStock } from '../api';
import { inventoryPaths, useHasCode } from '../model';
import { ListTable } from './ListTable';
import { Holdings, KindTag } from './Tags';

interface Row extends StockRow {
  key: string;
  category?: CategoryRow;
}

const dash = <span className="inv-muted">—</span>;

/** The stock per category and warehouse: units by stock status, or the quantity on hand. */
export function StockSummary() {
  const { t } = useTranslation('inventory');
  const has = useHasCode();
  const wide = Grid.useBreakpoint().md === true;
  const stock = useStock();
  const categories = useCategoryChoices();
  const namesPending = categories.isPending && !categories.isError;
  const byId = new Map((categories.data?.list ?? []).map((c) => [c.id, c]));
  const rows: Row[] = (stock.data ?? []).map((s) => ({
    ...s,
    key: `${s.categoryId}-${s.warehouse}-${s.counts ? 'units' : 'counted'}`,
    category: byId.get(s.categoryId),
  }));

  const name = (row: Row) =>
    row.category && has('im_category') ? (
      <Link to={inventoryPaths.category(row.category)}>{row.category.name}</Link>
    ) : (
      (row.category?.name ?? `#${row.categoryId}`)
    );
  const warehouse = (w: string) => w || <span className="inv-muted">{t('stock.noWarehouse')}</span>;

  // a phone reads each row as one cell: the category, its warehouse, what it holds there
  const phoneColumns: ColumnsType<Row> = [
    {
      title: t('fields.holds'),
      key: 'row',
      render: (_, row) => (
        <div className="inv-cell">
          <span>
            {name(row)} {row.category ? <KindTag kind={row.category.kind} /> : null}
          </span>
          <span className="inv-muted">
            {warehouse(row.warehouse)}
            {row.category?.model ? ` · ${row.category.model}` : ''}
          </span>
          <Holdings counts={row.counts} quantity={row.quantity} unit={row.category?.unit} />
        </div>
      ),
    },
  ];

  const columns: ColumnsType<Row> = [
    { title: t('fields.category'), key: 'category', width: 170, render: (_, row) => name(row) },
    {
      title: t('fields.kind'),
      key: 'kind',
      width: 110,
      render: (_, row) => (row.category ? <KindTag kind={row.category.kind} /> : dash),
    },
    { title: t('fields.model'), key: 'model', width: 120, render: (_, row) => row.category?.model || dash },
    {
      title: t('fields.warehouse'),
      dataIndex: 'warehouse',
      width: 140,
      render: warehouse,
    },
    {
      title: t('fields.holds'),
      key: 'holds',
      width: 300,
      render: (_, row) => <Holdings counts={row.counts} quantity={row.quantity} unit={row.category?.unit} />,
    },
  ];

  return (
    <div data-testid="inv-stock">
      <ListTable<Row>
        testId="inv-stock-table"
        rowKey="key"
        // the rows wait for the category names, so a row never shows a bare "#id" while they load
        query={namesPending ? categories : stock}
        rows={namesPending ? [] : rows}
        columns={wide ? columns : phoneColumns}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scrollX={wide ? 840 : 300}
        empty={t('stock.empty')}
      />
    </div>
  );
}
