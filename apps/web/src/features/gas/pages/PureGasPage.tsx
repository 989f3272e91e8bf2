import { useQueryClient } from '@tanstack/react-query';
import { App, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { gasApi, gasKeys, type PureGas, usePureGases } from '../api';
import { Formula } from '../components/Formula';
import { GasListCard } from '../components/GasListCard';
import { PureGasModal } from '../components/PureGasModal';
import { allRows, pureGasColumns } from '../exports';
import { formatImpurity, formatPurity } from '../model';
import '../gas.css';

const dash = <span className="gas-muted">—</span>;

/** /setgas/puregas (gm_pure_gas): the parent gases a mixture is weighed from, with their purity tables. */
export default function PureGasPage() {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const gases = usePureGases({ ...paging, keyword });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: gasKeys.all });

  /** a new search starts at page 1 */
  const search = (value: string) => {
    setKeyword(value.trim());
    reset();
  };

  const remove = async (row: PureGas) => {
    try {
      const envelope = await gasApi.deletePureGas(row.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
      stepBackIfEmpty(queryClient.getQueryData(gasKeys.pure({ ...paging, keyword })));
    } catch {
      // the http client showed the error
    }
  };

  const impurityTags = (impurities: PureGas['impurities']) =>
    impurities.length ? (
      <div className="gas-tags">
        {impurities.map((i) => (
          <Tag key={i.component} className="gas-tag">
            {formatImpurity(i)}
          </Tag>
        ))}
      </div>
    ) : (
      dash
    );

  const columns: ColumnsType<PureGas> = [
    {
      title: t('fields.name', '名称'),
      dataIndex: 'name',
      sorter: true,
      width: 170,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      title: t('fields.main', '主组分'),
      dataIndex: 'main',
      sorter: true,
      width: 110,
      render: (main: string) => <Formula value={main} />,
    },
    {
      title: t('fields.purity', '纯度'),
      dataIndex: 'purity',
      width: 110,
      align: 'right',
      render: (purity: number) => <span className="gas-number">{formatPurity(purity)}</span>,
    },
    {
      title: t('pure.impurities', '杂质'),
      dataIndex: 'impurities',
      width: 200,
      render: impurityTags,
    },
    {
      title: t('fields.supplier', '供应商'),
      dataIndex: 'supplier',
      sorter: true,
      width: 120,
      ellipsis: true,
      render: (v: string) => v || dash,
    },
    {
      title: t('fields.lot', '批号'),
      dataIndex: 'lot',
      sorter: true,
      width: 100,
      render: (v: string) => v || dash,
    },
    {
      title: t('fields.cylinder', '钢瓶号'),
      dataIndex: 'cylinder',
      width: 100,
      render: (v: string) => v || dash,
    },
  ];

  // a phone gets the gas with its purity table in one column, and icons
  const phoneColumns: ColumnsType<PureGas> = [
    {
      title: t('fields.name', '名称'),
      key: 'gas',
      render: (_, row) => (
        <div className="gas-phone-cell">
          <Typography.Text strong>{row.name}</Typography.Text>
          <span>
            <Formula value={row.main} /> <span className="gas-number">{formatPurity(row.purity)}</span>
          </span>
          {impurityTags(row.impurities)}
          {[row.supplier, row.lot, row.cylinder].some(Boolean) ? (
            <span className="gas-muted">
              {[row.supplier, row.lot, row.cylinder].filter(Boolean).join(' · ')}
            </span>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <GasListCard<PureGas>
      testId="gas-pure"
      testPrefix="gas-pure"
      title={t('menu.pureGas')}
      hint={t('pure.hint', '配制混合气所用的原料气。杂质按 µmol/mol 列出，主组分为其余部分。')}
      addLabel={t('pure.add', '新增纯气')}
      searchPlaceholder={t('pure.search', '搜索名称、组分、供应商、批号或钢瓶号')}
      onSearch={search}
      query={gases}
      rows={gases.data?.list ?? []}
      pagination={pagination(gases.data)}
      onSort={onSort}
      columns={columns}
      phoneColumns={phoneColumns}
      scrollX={1050}
      actions={{
        width: 140,
        deleteConfirm: (row) => t('pure.deleteConfirm', '确定删除纯气“{{name}}”吗？', { name: row.name }),
        onDelete: remove,
      }}
      emptyText={
        keyword
          ? t('pure.noMatch', '没有符合“{{keyword}}”的纯气', { keyword })
          : t('pure.empty', '还没有纯气。添加原料气及其杂质，以便根据称量结果定值。')
      }
      modal={(modal) => <PureGasModal {...modal} onDone={refresh} />}
      exportList={{
        load: () => allRows<PureGas>('/gas/pure/list', { keyword }),
        columns: pureGasColumns(t),
        fileName: t('menu.pureGas'),
      }}
    />
  );
}
