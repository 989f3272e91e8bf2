import { PlusOutlined } from '@ant-design/icons';
import { SALES_STATUS_LABELS, SALES_STATUSES, type SalesStatus } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Grid, Input, Popconfirm, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { allPages, usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import { formatYuan } from '../../user/format';
import { orderParams, payOrder, type SalesOrder, salesApi, salesKeys, useOrders } from '../api';
import { OrderDrawer } from '../components/OrderDrawer';
import { PayModal } from '../components/PayModal';
import { StatusTag } from '../components/StatusTag';
import '../sales.css';

/**
 * /smartSale/ordermanagement (ss_order_management): the company's sales orders, newest first,
 * searched by number or customer and filtered by status; each opens in a drawer, and a
 * submitted one is marked paid (on a day) or cancelled. Row buttons' data-testids end in the
 * order's number: `sales-detail-…`, `sales-pay-…`, `sales-cancel-…`.
 */
export default function OrderManagementPage() {
  const { t } = useTranslation('sales');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const wide = Grid.useBreakpoint().md === true;
  const lang = currentLang();
  const { paging, pagination, reset, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<SalesStatus | undefined>();
  const orders = useOrders({ ...paging, keyword, status });
  const [viewing, setViewing] = useState<number | null>(null);
  const [paying, setPaying] = useState<SalesOrder | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: salesKeys.all });

  const pay = async (order: SalesOrder, paidOn: string): Promise<boolean> => {
    try {
      const envelope = await payOrder(order, paidOn);
      const ends = envelope.data.serviceEndsOn;
      if (ends) {
        modal.success({
          title: t('orders.paidServiceEnds', { customer: order.customer, date: ends }),
          okText: t('common.confirm'),
          okButtonProps: { 'data-testid': 'sales-paid-ok' },
        });
      } else message.success(envelope.message);
      await refresh();
      return true;
    } catch {
      // the http client showed the error
      return false;
    }
  };

  const cancel = async (order: SalesOrder) => {
    try {
      const envelope = await salesApi.cancel(order.id);
      message.success(envelope.message);
      await refresh();
    } catch {
      // the http client showed the error
    }
  };

  const actions = (order: SalesOrder) => (
    <Space size={0} wrap>
      <Button
        type="link"
        size="small"
        onClick={() => setViewing(order.id)}
        data-testid={`sales-detail-${order.number}`}
      >
        {t('orders.detail')}
      </Button>
      {order.status === 'submitted' ? (
        <>
          <Button
            type="link"
            size="small"
            onClick={() => setPaying(order)}
            data-testid={`sales-pay-${order.number}`}
          >
            {t('orders.pay')}
          </Button>
          <Popconfirm
            title={t('orders.cancelConfirm', { number: order.number })}
            okText={t('orders.cancelOk')}
            okButtonProps={{ danger: true, 'data-testid': 'sales-cancel-ok' }}
            cancelText={t('orders.keep')}
            onConfirm={() => cancel(order)}
          >
            <Button type="link" size="small" danger data-testid={`sales-cancel-${order.number}`}>
              {t('orders.cancel')}
            </Button>
          </Popconfirm>
        </>
      ) : null}
    </Space>
  );

  const money = (cents: number) => <span className="sales-money">{formatYuan(cents, lang)}</span>;

  const columns: ColumnsType<SalesOrder> = [
    {
      title: t('fields.number'),
      dataIndex: 'number',
      sorter: true,
      width: 210,
      render: (number: string) => <Typography.Text copyable={{ text: number }}>{number}</Typography.Text>,
    },
    { title: t('fields.customer'), dataIndex: 'customer', sorter: true, ellipsis: true },
    {
      title: t('fields.total'),
      dataIndex: 'totalCents',
      sorter: true,
      align: 'right',
      width: 140,
      render: money,
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      sorter: true,
      width: 100,
      render: (value: SalesStatus) => <StatusTag status={value} />,
    },
    {
      title: t('fields.paidOn'),
      dataIndex: 'paidOn',
      sorter: true,
      width: 120,
      render: (v: string | null) => v ?? '—',
    },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      sorter: true,
      width: 160,
      render: (v: string) => formatMinute(v),
    },
    { title: t('common.actions'), key: 'actions', width: 180, fixed: 'right', render: (_, o) => actions(o) },
  ];

  const phoneColumns: ColumnsType<SalesOrder> = [
    {
      title: t('fields.number'),
      key: 'order',
      render: (_, order) => (
        <div className="sales-phone-cell">
          <span className="sales-phone-line">
            <Typography.Text strong>{order.number}</Typography.Text>
            <StatusTag status={order.status} />
          </span>
          <span>{order.customer}</span>
          <span className="sales-phone-line">
            {money(order.totalCents)}
            <span className="sales-muted">{order.paidOn ?? formatMinute(order.createdAt)}</span>
          </span>
          {actions(order)}
        </div>
      ),
    },
  ];

  const exportColumns: ReadonlyArray<ExportColumn<SalesOrder>> = [
    [t('fields.number'), (o) => o.number],
    [t('fields.customer'), (o) => o.customer],
    [t('fields.contact'), (o) => o.contact],
    [t('fields.phone'), (o) => o.phone],
    [t('fields.total'), (o) => (o.totalCents / 100).toFixed(2)],
    [t('fields.status'), (o) => SALES_STATUS_LABELS[o.status][lang]],
    [t('fields.paidOn'), (o) => o.paidOn ?? ''],
    [t('fields.createdAt'), (o) => formatMinute(o.createdAt)],
  ];

  const filtered = keyword !== '' || status !== undefined;

  return (
    <Card variant="borderless" data-testid="sales-orders" className="sales-card">
      <PageHeader
        title={t('orders.title')}
        extra={
          <Link to="/smartSale/submitorder">
            <Button type="primary" icon={<PlusOutlined />} data-testid="sales-new-order">
              {t('orders.newOrder')}
            </Button>
          </Link>
        }
      />
      <div className="sales-toolbar">
        <Input.Search
          allowClear
          className="sales-search"
          placeholder={t('orders.search')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="sales-search"
        />
        <Select<SalesStatus>
          allowClear
          className="sales-status-filter"
          placeholder={t('orders.allStatuses')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            reset();
          }}
          options={SALES_STATUSES.map((s) => ({ value: s, label: SALES_STATUS_LABELS[s][lang] }))}
          data-testid="sales-status-filter"
        />
        <ExportButton<SalesOrder>
          load={() => allPages<SalesOrder>('/sales/order/list', orderParams({ keyword, status }))}
          columns={exportColumns}
          fileName={t('orders.exportFile')}
          testId="sales-export"
        />
      </div>
      {orders.isError ? <LoadFailed onRetry={() => void orders.refetch()} /> : null}
      <Table<SalesOrder>
        onChange={onSort}
        rowKey="id"
        columns={wide ? columns : phoneColumns}
        dataSource={orders.data?.list ?? []}
        loading={orders.isFetching}
        pagination={pagination(orders.data)}
        scroll={wide ? { x: 1040 } : undefined}
        data-testid="sales-order-table"
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? t('orders.noMatch') : t('orders.empty')}
            />
          ),
        }}
      />
      <OrderDrawer id={viewing} onClose={() => setViewing(null)} />
      <PayModal order={paying} onClose={() => setPaying(null)} onPay={pay} />
    </Card>
  );
}
