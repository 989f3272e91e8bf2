import { MinusCircleOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inventoryApi, type OrderDetail, type OrderLine } from '../api';
import { langOf, productionWord, type Refused, refusedOf } from '../model';
import { ListTable, serialColumn } from './ListTable';
import { StockTag } from './Tags';

/**
 * The serial-numbered lines of an order with each unit's status now; while the order is open,
 * the lines selected are taken out (each unit back where it was).
 */
export function SerialLines({
  order,
  editable,
  onDone,
  onRefused,
}: {
  order: OrderDetail;
  editable: boolean;
  onDone: () => void;
  onRefused: (refused: Refused) => void;
}) {
  const { t, i18n } = useTranslation('inventory');
  const lang = langOf(i18n.language);
  const { message } = App.useApp();
  const [selected, setSelected] = useState<string[]>([]);
  const lines = order.lines.filter((l) => l.sn !== null);
  // a line gone from the order is no longer selected
  const chosen = selected.filter((sn) => lines.some((l) => l.sn === sn));

  const remove = async () => {
    try {
      const envelope = await inventoryApi.removeUnits(order.id, chosen);
      message.success(t('detail.removed', { count: envelope.data.removed }));
      setSelected([]);
      onDone();
    } catch (error) {
      onRefused(refusedOf(error));
    }
  };

  const columns: ColumnsType<OrderLine> = [
    serialColumn<OrderLine>(t('fields.sn')),
    { title: t('fields.category'), dataIndex: 'categoryName', width: 150 },
    { title: t('fields.model'), dataIndex: 'model', width: 110, render: (v: string) => v || '—' },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 150,
      render: (status: string | null) => (
        <span data-testid="inv-line-status">{productionWord(status, lang)}</span>
      ),
    },
    {
      title: t('fields.stockStatus'),
      dataIndex: 'stockStatus',
      width: 130,
      render: (status: number | null) => (status === null ? '—' : <StockTag status={status} />),
    },
  ];

  return (
    <div className="inv-section" data-testid="inv-lines">
      <div className="inv-section-head">
        <span className="inv-section-title">
          {t('detail.lines')} <span className="inv-muted">({lines.length})</span>
        </span>
        {editable ? (
          <Popconfirm
            title={t('detail.removeConfirm', { count: chosen.length })}
            okText={t('common.remove')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={remove}
            disabled={chosen.length === 0}
          >
            <Button
              danger
              icon={<MinusCircleOutlined />}
              disabled={chosen.length === 0}
              data-testid="inv-lines-remove"
            >
              {t('detail.removeSelected')}
              {chosen.length ? ` (${chosen.length})` : ''}
            </Button>
          </Popconfirm>
        ) : null}
      </div>
      <ListTable<OrderLine>
        testId="inv-lines-table"
        rows={lines}
        columns={columns}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
        scrollX={720}
        empty={editable ? t('detail.noLinesOpen') : t('detail.noLines')}
        rowSelection={
          editable
            ? {
                selectedRowKeys: chosen,
                onChange: (keys) => setSelected(keys as string[]),
                getCheckboxProps: (line) => ({ 'aria-label': line.sn ?? '' }) as object,
              }
            : undefined
        }
        rowKey={(line) => line.sn ?? String(line.id)}
      />
    </div>
  );
}
