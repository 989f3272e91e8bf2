import { Card, Empty, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../../app/i18n';
import { usePaging } from '../../../shared/paging';
import { type MyOrder, useMyOrders } from '../api';
import { formatYuan } from '../format';
import '../user.css';
import { formatMinute, formatTime } from '../../../shared/time';

const STATUS_COLOR: Record<string, string> = { paid: 'green', cancelled: 'default', refunded: 'orange' };

/** The current company's service orders (the subscription the expiry notice points to). */
export default function MyOrderPage() {
  const { t } = useTranslation('user');
  const { paging, pagination } = usePaging();
  const orders = useMyOrders(paging);
  const lang = currentLang();

  const columns: ColumnsType<MyOrder> = [
    {
      title: t('orders.orderNo', '订单编号'),
      dataIndex: 'orderNo',
      width: 180,
      render: (value: string) => <Typography.Text copyable={{ text: value }}>{value}</Typography.Text>,
    },
    { title: t('orders.product', '产品'), dataIndex: 'productName', ellipsis: true },
    {
      title: t('orders.period', '服务期限'),
      key: 'period',
      width: 220,
      render: (_, order) =>
        `${formatTime(order.startsAt, 'yyyy-MM-dd')} ~ ${formatTime(order.endsAt, 'yyyy-MM-dd')}`,
    },
    {
      title: t('orders.amount', '金额'),
      dataIndex: 'amountCents',
      align: 'right',
      width: 140,
      render: (cents: number) => <span className="user-amount">{formatYuan(cents, lang)}</span>,
    },
    {
      title: t('orders.status', '状态'),
      dataIndex: 'status',
      width: 100,
      render: (status: string) => (
        <Tag color={STATUS_COLOR[status] ?? 'default'}>{t(`orders.statuses.${status}`, status)}</Tag>
      ),
    },
    {
      title: t('orders.createdAt', '下单时间'),
      dataIndex: 'createdAt',
      width: 170,
      render: (value: string) => formatMinute(value),
    },
  ];

  return (
    <Card variant="borderless" title={t('orders.title', '我的订单')} data-testid="myorder-page">
      <Table<MyOrder>
        rowKey="id"
        columns={columns}
        dataSource={orders.data?.list ?? []}
        loading={orders.isFetching}
        pagination={pagination(orders.data)}
        scroll={{ x: 960 }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('orders.empty', '暂无订单。购买或续订服务后，订单会显示在这里。')}
            />
          ),
        }}
      />
    </Card>
  );
}
