import { CONTRACT_STATUS_LABELS, type ContractStatus } from '@platform/domain';
import { Button, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { useHasCode } from '../../../shared/hasCode';
import { inventoryPaths } from '../../inventory/model';
import type { SalesOrder } from '../api';
import { useContracts } from '../contracts-api';
import { contractPath, newContractPath } from '../paths';

/**
 * The order's contract, for a user with the contract code: its number and status with a link,
 * or a button that makes one (not for a cancelled order). Nothing for other users.
 */
export function OrderContract({ order }: { order: Pick<SalesOrder, 'id' | 'status'> }) {
  const { t } = useTranslation('sales');
  const allowed = useHasCode()('ss_sale_contract');
  const contracts = useContracts({ pageNum: 1, pageSize: 1, keyword: '', orderId: order.id }, allowed);
  if (!allowed || !contracts.data) return null;
  const contract = contracts.data.list[0];
  return (
    <div className="sales-order-contract" data-testid="sales-order-contract">
      <h4 className="sales-drawer-heading">{t('contracts.ofOrder')}</h4>
      {contract ? (
        <Space wrap>
          <Link to={contractPath(contract.id)} data-testid="sales-order-contract-link">
            {contract.number}
          </Link>
          <ContractStatusTag status={contract.status} />
          <Typography.Text type="secondary">{contract.templateName}</Typography.Text>
        </Space>
      ) : order.status === 'cancelled' ? (
        <Typography.Text type="secondary">{t('contracts.noneCancelled')}</Typography.Text>
      ) : (
        <Link to={newContractPath(order.id)}>
          <Button data-testid="sales-order-make-contract">{t('contracts.make')}</Button>
        </Link>
      )}
    </div>
  );
}

/** An exit order of the inventory that delivers the order. */
export interface Delivery {
  id: number;
  number: string;
  state: 'open' | 'confirmed' | 'cancelled';
}

/**
 * The exit orders that deliver the order (made in the inventory, naming this order), linked for
 * those who handle exit orders.
 */
export function OrderDeliveries({ deliveries }: { deliveries: readonly Delivery[] }) {
  const { t } = useTranslation('sales');
  const linked = useHasCode()('im_exit');
  if (deliveries.length === 0) return null;
  return (
    <div className="sales-order-contract" data-testid="sales-order-deliveries">
      <h4 className="sales-drawer-heading">{t('detail.deliveries')}</h4>
      <Space wrap>
        {deliveries.map((d) => (
          <span key={d.id}>
            {linked ? (
              <Link to={inventoryPaths.order({ id: d.id, kind: 'exit', source: null, state: d.state })}>
                {d.number}
              </Link>
            ) : (
              d.number
            )}{' '}
            <Tag>{t(`detail.deliveryState.${d.state}`)}</Tag>
          </span>
        ))}
      </Space>
    </div>
  );
}

const CONTRACT_COLOR: Record<ContractStatus, string> = { draft: 'default', signed: 'success' };

/** A contract's status in the domain's words (kept here, beside its first use, to save the page a chunk). */
export function ContractStatusTag({ status }: { status: ContractStatus }) {
  return (
    <Tag color={CONTRACT_COLOR[status]} data-testid={`contract-status-${status}`}>
      {CONTRACT_STATUS_LABELS[status][currentLang()]}
    </Tag>
  );
}
