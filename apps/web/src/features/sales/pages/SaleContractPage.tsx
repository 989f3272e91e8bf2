import { PlusOutlined } from '@ant-design/icons';
import { CONTRACT_STATUS_LABELS, CONTRACT_STATUSES, type ContractStatus } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Grid, Input, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { allPages, usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import { formatYuan } from '../../user/format';
import { ContractDrawer } from '../components/ContractDrawer';
import { ContractStateActions } from '../components/ContractStateActions';
import { NewContractModal } from '../components/NewContractModal';
import { ContractStatusTag } from '../components/OrderContract';
import { type Contract, contractApi, contractKeys, contractParams, useContracts } from '../contracts-api';
import { orderDetailPath } from '../paths';
import '../sales.css';

/**
 * /smartSale/salecontract (ss_sale_contract): the company's contracts, newest first, searched by
 * contract or order number or customer and filtered by status. A contract is made from an order
 * and a template, read as a page, printed (or saved as PDF by the browser), downloaded for
 * Word, signed, or deleted while a draft. `?order=ID` opens the new-contract form for that
 * order, `?contract=ID` opens that contract. Row buttons' data-testids end in the contract's
 * number: `contract-view-…`, `contract-sign-…`, `contract-delete-…`.
 */
export default function SaleContractPage() {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const wide = Grid.useBreakpoint().md === true;
  const lang = currentLang();
  const [params, setParams] = useSearchParams();
  const { paging, pagination, reset, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<ContractStatus | undefined>();
  const contracts = useContracts({ ...paging, keyword, status });
  const viewing = Number(params.get('contract')) || null;
  const forOrder = Number(params.get('order')) || null;
  const [creating, setCreating] = useState(false);

  const setParam = (key: 'contract' | 'order', value: number | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value == null) next.delete(key);
        else next.set(key, String(value));
        return next;
      },
      { replace: true },
    );

  const refresh = () => queryClient.invalidateQueries({ queryKey: contractKeys.all });

  const sign = async (contract: Contract) => {
    try {
      message.success((await contractApi.sign(contract.id)).message);
      await refresh();
    } catch {
      // the http client showed the error
    }
  };

  const remove = async (contract: Contract) => {
    try {
      message.success((await contractApi.remove(contract.id)).message);
      if (viewing === contract.id) setParam('contract', null);
      await refresh();
    } catch {
      // the http client showed the error
    }
  };

  const actions = (contract: Contract) => (
    <Space size={0} wrap>
      <Button
        type="link"
        size="small"
        onClick={() => setParam('contract', contract.id)}
        data-testid={`contract-view-${contract.number}`}
      >
        {t('contracts.view')}
      </Button>
      <ContractStateActions
        contract={contract}
        inRow
        onSign={() => sign(contract)}
        onDelete={() => remove(contract)}
      />
    </Space>
  );

  const money = (cents: number) => <span className="sales-money">{formatYuan(cents, lang)}</span>;
  const orderLink = (contract: Contract) => (
    <Link to={orderDetailPath({ id: contract.orderId, number: contract.orderNumber })}>
      {contract.orderNumber}
    </Link>
  );

  const columns: ColumnsType<Contract> = [
    {
      title: t('contracts.number'),
      dataIndex: 'number',
      sorter: true,
      width: 200,
      render: (number: string) => <Typography.Text copyable={{ text: number }}>{number}</Typography.Text>,
    },
    { title: t('fields.number'), key: 'order', width: 200, render: (_, c) => orderLink(c) },
    { title: t('fields.customer'), dataIndex: 'customer', sorter: true, ellipsis: true },
    {
      title: t('contracts.amount'),
      dataIndex: 'totalCents',
      sorter: true,
      align: 'right',
      width: 130,
      render: money,
    },
    { title: t('contracts.template'), dataIndex: 'templateName', width: 160, ellipsis: true },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      sorter: true,
      width: 100,
      render: (value: ContractStatus) => <ContractStatusTag status={value} />,
    },
    {
      title: t('contracts.signedOn'),
      dataIndex: 'signedOn',
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
    { title: t('common.actions'), key: 'actions', width: 170, fixed: 'right', render: (_, c) => actions(c) },
  ];

  const phoneColumns: ColumnsType<Contract> = [
    {
      title: t('contracts.number'),
      key: 'contract',
      render: (_, contract) => (
        <div className="sales-phone-cell">
          <span className="sales-phone-line">
            <Typography.Text strong>{contract.number}</Typography.Text>
            <ContractStatusTag status={contract.status} />
          </span>
          <span>{contract.customer}</span>
          <span className="sales-phone-line">
            {money(contract.totalCents)}
            {orderLink(contract)}
          </span>
          {actions(contract)}
        </div>
      ),
    },
  ];

  const exportColumns: ReadonlyArray<ExportColumn<Contract>> = [
    [t('contracts.number'), (c) => c.number],
    [t('fields.number'), (c) => c.orderNumber],
    [t('fields.customer'), (c) => c.customer],
    [t('contracts.amount'), (c) => (c.totalCents / 100).toFixed(2)],
    [t('contracts.template'), (c) => c.templateName],
    [t('fields.status'), (c) => CONTRACT_STATUS_LABELS[c.status][lang]],
    [t('contracts.signedOn'), (c) => c.signedOn ?? ''],
    [t('fields.createdAt'), (c) => formatMinute(c.createdAt)],
  ];

  const filtered = keyword !== '' || status !== undefined;

  return (
    <Card variant="borderless" data-testid="sales-contracts" className="sales-card">
      <PageHeader
        title={t('contracts.title')}
        hint={t('contracts.hint')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            data-testid="contract-new"
          >
            {t('contracts.new')}
          </Button>
        }
      />
      <div className="sales-toolbar">
        <Input.Search
          allowClear
          className="sales-search"
          placeholder={t('contracts.search')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="contract-search"
        />
        <Select<ContractStatus>
          allowClear
          className="sales-status-filter"
          placeholder={t('orders.allStatuses')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            reset();
          }}
          options={CONTRACT_STATUSES.map((s) => ({ value: s, label: CONTRACT_STATUS_LABELS[s][lang] }))}
          data-testid="contract-status-filter"
        />
        <ExportButton<Contract>
          load={() => allPages<Contract>('/sales/contract/list', contractParams({ keyword, status }))}
          columns={exportColumns}
          fileName={t('contracts.exportFile')}
          testId="contract-export"
        />
      </div>
      {contracts.isError ? <LoadFailed onRetry={() => void contracts.refetch()} /> : null}
      <Table<Contract>
        onChange={onSort}
        rowKey="id"
        columns={wide ? columns : phoneColumns}
        dataSource={contracts.data?.list ?? []}
        loading={contracts.isFetching}
        pagination={pagination(contracts.data)}
        scroll={wide ? { x: 1240 } : undefined}
        data-testid="contract-table"
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? t('orders.noMatch') : t('contracts.empty')}
            />
          ),
        }}
      />
      <NewContractModal
        open={creating || forOrder != null}
        orderId={forOrder}
        onClose={() => {
          setCreating(false);
          setParam('order', null);
        }}
        onMade={async (contract) => {
          setCreating(false);
          setParams({ contract: String(contract.id) }, { replace: true });
          await refresh();
        }}
      />
      <ContractDrawer
        id={viewing}
        onClose={() => setParam('contract', null)}
        onSign={sign}
        onDelete={remove}
      />
    </Card>
  );
}
