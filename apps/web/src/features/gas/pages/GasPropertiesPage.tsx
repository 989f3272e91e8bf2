import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Grid,
  Input,
  Popconfirm,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type GasComponent, gasApi, gasKeys, useComponents } from '../api';
import { ComponentModal } from '../components/ComponentModal';
import { Formula } from '../components/Formula';
import { LoadFailed } from '../components/LoadFailed';
import { formatMolarMass } from '../model';
import '../gas.css';

/** /setgas/gaspropertieslist (gm_gas_info): the company's components and their molar masses. */
export default function GasPropertiesPage() {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const components = useComponents();
  const [keyword, setKeyword] = useState('');
  const [modal, setModal] = useState<{ editing: GasComponent | null } | null>(null);
  const wide = Grid.useBreakpoint().md === true;

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

  /** Edit and delete; on a phone as icons, named for screen readers. */
  const actions = (row: GasComponent, labelled: boolean) => {
    const edit = t('common.edit', '编辑');
    const del = t('common.delete', '删除');
    return (
      <Space size={0}>
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          aria-label={edit}
          onClick={() => setModal({ editing: row })}
          data-testid={`gas-component-edit-${row.formula}`}
        >
          {labelled ? edit : null}
        </Button>
        {row.usedBy > 0 ? (
          <Tooltip
            title={t('properties.inUse', '正被 {{count}} 个纯气或产品使用，不能删除', { count: row.usedBy })}
          >
            <Button type="link" size="small" danger disabled icon={<DeleteOutlined />} aria-label={del}>
              {labelled ? del : null}
            </Button>
          </Tooltip>
        ) : (
          <Popconfirm
            title={t('properties.deleteConfirm', '确定删除组分 {{formula}} 吗？', { formula: row.formula })}
            okText={del}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel', '取消')}
            onConfirm={() => remove(row)}
          >
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={del}
              data-testid={`gas-component-delete-${row.formula}`}
            >
              {labelled ? del : null}
            </Button>
          </Popconfirm>
        )}
      </Space>
    );
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
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 160,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => actions(row, true),
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
    { title: '', key: 'actions', width: 76, render: (_, row) => actions(row, false) },
  ];

  return (
    <Card variant="borderless" data-testid="gas-properties">
      <div className="gas-header">
        <div>
          <Typography.Title level={4} className="gas-title">
            {t('menu.gasProperties')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('properties.hint', '组分的摩尔质量用于组分计算和定值；纯气和产品按化学式引用组分。')}
          </Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setModal({ editing: null })}
          data-testid="gas-component-add"
        >
          {t('properties.add', '新增组分')}
        </Button>
      </div>
      <div className="gas-toolbar">
        <Input.Search
          className="gas-search"
          allowClear
          placeholder={t('properties.search', '搜索化学式或名称')}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={setKeyword}
          data-testid="gas-component-search"
        />
      </div>
      {components.isError ? <LoadFailed onRetry={() => void components.refetch()} /> : null}
      <Table<GasComponent>
        rowKey="id"
        size="middle"
        columns={wide ? columns : phoneColumns}
        dataSource={shown}
        loading={components.isFetching}
        pagination={false}
        scroll={wide ? { x: 760 } : undefined}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword.trim()
                  ? t('properties.noMatch', '没有符合“{{keyword}}”的组分', { keyword: keyword.trim() })
                  : t('properties.empty', '还没有组分')
              }
            />
          ),
        }}
        data-testid="gas-component-table"
      />
      <ComponentModal
        open={modal !== null}
        editing={modal?.editing ?? null}
        onClose={() => setModal(null)}
        onDone={refresh}
      />
    </Card>
  );
}
