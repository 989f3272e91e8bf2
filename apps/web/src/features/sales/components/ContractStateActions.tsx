import { CheckOutlined, DeleteOutlined } from '@ant-design/icons';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Contract } from '../contracts-api';

/**
 * A draft contract's two moves, each after its confirmation: mark signed, delete. Nothing for a
 * signed contract. `inRow`: small link buttons of a table row (data-testids end in the number);
 * else the buttons of the contract's drawer.
 */
export function ContractStateActions({
  contract,
  inRow,
  onSign,
  onDelete,
}: {
  contract: Pick<Contract, 'number' | 'status'>;
  inRow: boolean;
  onSign: () => unknown;
  onDelete: () => unknown;
}) {
  const { t } = useTranslation('sales');
  if (contract.status !== 'draft') return null;
  const ids = inRow
    ? { sign: `contract-sign-${contract.number}`, signOk: 'contract-sign-ok' }
    : { sign: 'contract-drawer-sign', signOk: 'contract-drawer-sign-ok' };
  const del = inRow
    ? { button: `contract-delete-${contract.number}`, ok: 'contract-delete-ok' }
    : { button: 'contract-drawer-delete', ok: 'contract-drawer-delete-ok' };
  const look = inRow ? ({ type: 'link', size: 'small' } as const) : ({} as const);
  return (
    <>
      <Popconfirm
        title={t('contracts.signConfirm', { number: contract.number })}
        okText={t('contracts.sign')}
        okButtonProps={{ 'data-testid': ids.signOk }}
        cancelText={t('common.cancel')}
        onConfirm={onSign}
      >
        <Button
          {...look}
          {...(inRow ? {} : { type: 'primary', icon: <CheckOutlined /> })}
          data-testid={ids.sign}
        >
          {t('contracts.sign')}
        </Button>
      </Popconfirm>
      <Popconfirm
        title={t('contracts.deleteConfirm', { number: contract.number })}
        okText={t('contracts.delete')}
        okButtonProps={{ danger: true, 'data-testid': del.ok }}
        cancelText={t('common.cancel')}
        onConfirm={onDelete}
      >
        <Button {...look} danger {...(inRow ? {} : { icon: <DeleteOutlined /> })} data-testid={del.button}>
          {t('contracts.delete')}
        </Button>
      </Popconfirm>
    </>
  );
}
