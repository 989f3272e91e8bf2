import { EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { formatTime } from '../../../shared/time';
import { inventoryKeys, type StockRow, useCategory } from '../api';
import { CategoryModal } from '../components/CategoryModal';
import { BackLink, DetailFallback, DetailHead } from '../components/DetailFrame';
import { ListTable } from '../components/ListTable';
import { Holdings, KindTag } from '../components/Tags';
import { UnitList } from '../components/UnitList';
import { inventoryPaths } from '../model';
import '../inventory.css';

/**
 * /inventoryManagement/categoryDetail/:categoryId/:categoryName (im_category): one category, its
 * stock per warehouse and, when it carries serial numbers, its units.
 */
export default function CategoryDetailPage() {
  const { t } = useTranslation('inventory');
  const queryClient = useQueryClient();
  const { categoryId } = useParams();
  const id = Number(categoryId);
  const category = useCategory(id);
  const [editing, setEditing] = useState(false);

  const back = (
    <BackLink to={inventoryPaths.categories} label={t('category.back')} testId="inv-category-back" />
  );
  if (!category.data)
    return (
      <DetailFallback query={category} back={back} failed={t('category.loadFailed')} testId="inv-category" />
    );
  const data = category.data;
  const warehouses = [...new Set(data.stock.map((s) => s.warehouse).filter(Boolean))].sort();

  const columns: ColumnsType<StockRow> = [
    {
      title: t('fields.warehouse'),
      dataIndex: 'warehouse',
      width: 160,
      render: (w: string) => w || <span className="inv-muted">{t('stock.noWarehouse')}</span>,
    },
    {
      title: t('fields.holds'),
      key: 'holds',
      width: 320,
      render: (_, row) => <Holdings counts={row.counts} quantity={row.quantity} unit={data.unit} />,
    },
  ];

  return (
    <div className="inv-detail" data-testid="inv-category">
      <Card variant="borderless">
        <DetailHead
          back={back}
          title={data.name}
          titleTestId="inv-category-title"
          tags={<KindTag kind={data.kind} />}
          extra={
            <Button
              icon={<EditOutlined />}
              onClick={() => setEditing(true)}
              data-testid="inv-category-detail-edit"
            >
              {t('common.edit')}
            </Button>
          }
        />
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 3 }}
          items={[
            {
              key: 'tracking',
              label: t('fields.tracking'),
              children: t(data.serialized ? 'tracking.serialized' : 'tracking.counted'),
            },
            { key: 'model', label: t('fields.model'), children: data.model || '—' },
            { key: 'unit', label: t('fields.unit'), children: data.unit || '—' },
            { key: 'updatedAt', label: t('fields.updatedAt'), children: formatTime(data.updatedAt) },
            { key: 'notes', label: t('fields.notes'), children: data.notes || '—' },
          ]}
        />
        <div className="inv-section">
          <div className="inv-section-title">{t('category.stock')}</div>
          <ListTable<StockRow>
            testId="inv-category-stock"
            rowKey={(row) => `${row.warehouse}-${row.counts ? 'units' : 'counted'}`}
            query={category}
            rows={data.stock}
            columns={columns}
            scrollX={480}
            empty={t('category.noStock')}
          />
        </div>
      </Card>
      {data.serialized ? (
        <Card variant="borderless" className="inv-card-gap" title={t('category.units')}>
          <UnitList categoryId={data.id} warehouses={warehouses} />
        </Card>
      ) : null}
      <CategoryModal
        open={editing}
        editing={data}
        onClose={() => setEditing(false)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: inventoryKeys.all })}
      />
    </div>
  );
}
