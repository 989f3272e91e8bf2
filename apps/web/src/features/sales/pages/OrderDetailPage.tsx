import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { useOrder } from '../api';
import { OrderDetail } from '../components/OrderDrawer';
import { StatusTag } from '../components/StatusTag';
import '../sales.css';

/**
 * /smartSale/orderDetail/…/:recordId/… (ss_order_management): one order on its own page, to
 * link to or print; `recordId` is the order's id (paths.ts). An order of another company or none
 * reads "failed to load", as the server refuses it.
 */
export default function OrderDetailPage() {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.recordId);
  const order = useOrder(Number.isInteger(id) && id > 0 ? id : null);
  const data = order.data;
  return (
    <Card variant="borderless" className="sales-card" data-testid="sales-order-page">
      <PageHeader
        title={
          <span className="sales-title-line">
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              aria-label={t('detail.back')}
              onClick={() => navigate('/smartSale/ordermanagement')}
            />
            {t('orders.drawerTitle', { number: data?.number ?? params.itemName ?? '' })}
            {data ? <StatusTag status={data.status} /> : null}
          </span>
        }
      />
      {order.isError ? <LoadFailed onRetry={() => void order.refetch()} /> : null}
      {data ? <OrderDetail order={data} /> : order.isError ? null : <Skeleton active />}
    </Card>
  );
}
