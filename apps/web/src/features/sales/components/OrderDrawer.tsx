import { Descriptions, Drawer, Grid, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { LoadFailed } from '../../../shared/LoadFailed';
import { formatMinute } from '../../../shared/time';
import { formatYuan } from '../../user/format';
import { type SalesOrder, type SalesOrderLine, useOrder } from '../api';
import { orderDetailPath } from '../paths';
import { type Delivery, OrderContract, OrderDeliveries } from './OrderContract';
import { StatusTag } from './StatusTag';

/** One order in a drawer over the list, with a link to its own page. */
export function OrderDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('sales');
  const wide = Grid.useBreakpoint().md === true;
  const order = useOrder(id);
  const data = order.data;
  return (
    <Drawer
      open={id != null}
      onClose={onClose}
      size={wide ? 760 : '100%'}
      title={data ? t('orders.drawerTitle', { number: data.number }) : ''}
      extra={
        data ? (
          // the list stays open in its tab: the drawer closes as its order opens on a page
          <Link to={orderDetailPath(data)} onClick={onClose} data-testid="sales-open-page">
            {t('detail.openPage')}
          </Link>
        ) : null
      }
      destroyOnHidden
    >
      {order.isError ? <LoadFailed onRetry={() => void order.refetch()} /> : null}
      {data ? <OrderDetail order={data} /> : null}
    </Drawer>
  );
}

/**
 * One order: its customer, its lines with their amounts and the total, and its contract for
 * those who handle contracts (data-testid `sales-order-detail`).
 */
export function OrderDetail({
  order: data,
}: {
  order: SalesOrder & { lines: SalesOrderLine[]; deliveries?: Delivery[] };
}) {
  const { t } = useTranslation('sales');
  const wide = Grid.useBreakpoint().md === true;
  const lang = currentLang();
  const money = (cents: number) => <span className="sales-money">{formatYuan(cents, lang)}</span>;
  const dash = (value: string | null | undefined) => value || '—';

  const columns: ColumnsType<SalesOrderLine> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      render: (name: string, line) => (
        <span>
          <Tag color={line.kind === 'service' ? 'blue' : 'gold'}>{t(`kinds.${line.kind}`)}</Tag>
          {name}
          {line.months ? (
            <span className="sales-muted"> · {t('orders.monthsValue', { months: line.months })}</span>
          ) : null}
        </span>
      ),
    },
    { title: t('fields.quantity'), dataIndex: 'quantity', align: 'right', width: 80 },
    {
      title: t('fields.unitPriceShort'),
      dataIndex: 'unitPriceCents',
      align: 'right',
      width: 130,
      render: money,
    },
    { title: t('fields.amount'), dataIndex: 'amountCents', align: 'right', width: 140, render: money },
  ];

  return (
    <div data-testid="sales-order-detail">
      <Descriptions
        size="small"
        bordered
        column={wide ? 2 : 1}
        items={[
          { key: 'number', label: t('fields.number'), children: data.number },
          { key: 'status', label: t('fields.status'), children: <StatusTag status={data.status} /> },
          { key: 'customer', label: t('fields.customer'), children: data.customer },
          { key: 'contact', label: t('fields.contact'), children: dash(data.contact) },
          { key: 'phone', label: t('fields.phone'), children: dash(data.phone) },
          { key: 'address', label: t('fields.address'), children: dash(data.address) },
          { key: 'createdAt', label: t('fields.createdAt'), children: formatMinute(data.createdAt) },
          { key: 'paidOn', label: t('fields.paidOn'), children: dash(data.paidOn) },
          { key: 'notes', label: t('fields.notes'), children: dash(data.notes), span: wide ? 2 : 1 },
        ]}
      />
      <h4 className="sales-drawer-heading">{t('orders.lines')}</h4>
      <Table<SalesOrderLine>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={data.lines}
        pagination={false}
        scroll={{ x: 560 }}
        data-testid="sales-drawer-lines"
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={3} align="right">
              <strong>{t('fields.total')}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              <strong data-testid="sales-drawer-total">{formatYuan(data.totalCents, lang)}</strong>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
      <OrderDeliveries deliveries={data.deliveries ?? []} />
      <OrderContract order={data} />
    </div>
  );
}
