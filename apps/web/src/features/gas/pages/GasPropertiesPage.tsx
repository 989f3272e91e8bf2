import { useQueryClient } from '@tanstack/react-query';
import { App, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type GasComponent, gasApi, gasKeys, useComponents } from '../api';
import { ComponentModal } from '../components/ComponentModal';
import { Formula } from '../components/Formula';
import { GasListCard } from '../components/GasListCard';
import { componentColumns } from '../exports';
import { formatMolarMass } from '../model';
import '../gas.css';

/** /setgas/gaspropertieslist (gm_gas_info): the company's components and their molar masses. */
export default function GasPropertiesPage() {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const components = useComponents();
  const [keyword, setKeyword] = useState('');

  // a company has a few dozen components at most: filtered here, as a person types
  const shown = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    const all = components.data ?? [];
    return k
      ? all.filter((c) => c.formula.toLowerCase().includes(k) || c.name.toLowerCase().includes(k))
      : all;
  }, [components.data, keyword]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: gasKeys.all });

  const remove = async (row: GasComponent) => {
    try {
      const envelope = await gasApi.deleteComponent(row.id);
      message.success(envelope.message);
      refresh();
    } catch {
      // the http client showed the error
    }
  };

  const columns: ColumnsType<GasComponent> = [
    {
      title: t('fields.formula', '化学式'),
      dataIndex: 'formula',
      width: 120,
      render: (formula: string) => <Formula value={formula} />,
    },
    { title: t('fields.componentName', '名称'), dataIndex: 'name', ellipsis: true },
    {
      title: t('fields.molarMassUnit', '摩尔质量 (g/mol)'),
      dataIndex: 'molarMass',
      width: 150,
      align: 'right',
      render: (m: number) => <span className="gas-number">{formatMolarMass(m)}</span>,
    },
    {
      title: t('fields.source', '来源'),
      dataIndex: 'builtIn',
      width: 100,
      render: (builtIn: boolean) =>
        builtIn ? (
          <Tag color="blue">{t('properties.builtIn', '内置')}</Tag>
        ) : (
          <Tag>{t('properties.custom', '自定义')}</Tag>
        ),
    },
    {
      title: t('fields.usedBy', '引用数'),
      dataIndex: 'usedBy',
      width: 90,
      align: 'right',
      render: (n: number) => (n ? n : <span className="gas-muted">0</span>),
    },
  ];

  // a phone gets the component (formula, name, source) in one column, its molar mass, and icons
  const phoneColumns: ColumnsType<GasComponent> = [
    {
      title: t('fields.component', '组分'),
      key: 'component',
      render: (_, row) => (
        <div className="gas-phone-cell">
          <span>
            <Formula value={row.formula} /> <span className="gas-muted">{row.name}</span>
          </span>
          {row.builtIn ? null : <Tag className="gas-tag">{t('properties.custom', '自定义')}</Tag>}
        </div>
      ),
    },
    {
      title: 'g/mol',
      dataIndex: 'molarMass',
      width: 84,
      align: 'right',
      render: (m: number) => <span className="gas-number">{formatMolarMass(m)}</span>,
    },
  ];

  return (
    <GasListCard<GasComponent>
      testId="gas-properties"
      testPrefix="gas-component"
      title={t('menu.gasProperties')}
      hint={t('properties.hint', '组分的摩尔质量用于组分计算和定值；纯气和产品按化学式引用组分。')}
      addLabel={t('properties.add', '新增组分')}
      searchPlaceholder={t('properties.search', '搜索化学式或名称')}
      onSearchChange={setKeyword}
      onSearch={setKeyword}
      query={components}
      rows={shown}
      pagination={false}
      columns={columns}
      phoneColumns={phoneColumns}
      scrollX={760}
      actions={{
        width: 160,
        testKey: (row) => row.formula,
        deleteBlocked: (row) =>
          row.usedBy > 0
            ? t('properties.inUse', '正被 {{count}} 个纯气或产品使用，不能删除', { count: row.usedBy })
            : undefined,
        deleteConfirm: (row) =>
          t('properties.deleteConfirm', '确定删除组分 {{formula}} 吗？', { formula: row.formula }),
        onDelete: remove,
      }}
      emptyText={
        keyword.trim()
          ? t('properties.noMatch', '没有符合“{{keyword}}”的组分', { keyword: keyword.trim() })
          : t('properties.empty', '还没有组分')
      }
      modal={(modal) => <ComponentModal {...modal} onDone={refresh} />}
      exportList={{
        load: async () => shown,
        columns: componentColumns(t),
        fileName: t('menu.gasProperties'),
      }}
    />
  );
}
