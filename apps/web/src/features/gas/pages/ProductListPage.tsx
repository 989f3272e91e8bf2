import { CalculatorOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Grid, Input, Popconfirm, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../app/store/session';
import { usePaging } from '../../../shared/paging';
import { gasApi, gasKeys, type Product, useProducts } from '../api';
import { Composition } from '../components/Composition';
import { LoadFailed } from '../components/LoadFailed';
import { ProductModal } from '../components/ProductModal';
import { gasPaths } from '../model';
import '../gas.css';

const dash = <span className="gas-muted">—</span>;

/** /setgas/productlist (gm_product): mixture recipes, each opening its component calculation. */
export default function ProductListPage() {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [keyword, setKeyword] = useState('');
  const products = useProducts({ ...paging, keyword });
  const [modal, setModal] = useState<{ editing: Product | null } | null>(null);
  const wide = Grid.useBreakpoint().md === true;
  // the calculation is a page of its own (gm_component_cal): offered to those who may open it
  const canCalculate = useSession().user?.menuCode.includes('gm_component_cal') ?? false;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: gasKeys.all });

  const remove = async (row: Product) => {
    try {
      const envelope = await gasApi.deleteProduct(row.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
      stepBackIfEmpty(queryClient.getQueryData(gasKeys.products({ ...paging, keyword })));
    } catch {
      // the http client showed the error
    }
  };

  const number = (value: number) => <span className="gas-number">{value}</span>;

  /** Calculate, edit and delete; on a phone as icons, named for screen readers. */
  const actions = (row: Product, labelled: boolean) => {
    const calculate = t('product.calculate', '计算');
    const edit = t('common.edit', '编辑');
    const del = t('common.delete', '删除');
    return (
      <Space size={0} wrap={!labelled}>
        {canCalculate ? (
          <Button
            type="link"
            size="small"
            icon={<CalculatorOutlined />}
            aria-label={calculate}
            onClick={() => navigate(gasPaths.calculation(row.id))}
            data-testid={`gas-product-calc-${row.id}`}
          >
            {labelled ? calculate : null}
          </Button>
        ) : null}
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          aria-label={edit}
          onClick={() => setModal({ editing: row })}
          data-testid={`gas-product-edit-${row.id}`}
        >
          {labelled ? edit : null}
        </Button>
        <Popconfirm
          title={t('product.deleteConfirm', '确定删除产品“{{name}}”吗？', { name: row.name })}
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
            data-testid={`gas-product-delete-${row.id}`}
          >
            {labelled ? del : null}
          </Button>
        </Popconfirm>
      </Space>
    );
  };

  const columns: ColumnsType<Product> = [
    {
      title: t('fields.name', '名称'),
      dataIndex: 'name',
      width: 140,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    { title: t('fields.code', '编号'), dataIndex: 'code', width: 90, render: (v: string) => v || dash },
    {
      title: t('fields.composition', '组成'),
      key: 'composition',
      width: 230,
      render: (_, row) => <Composition components={row.components} balance={row.balance} />,
    },
    {
      title: t('fields.volumeShort', '容积 (L)'),
      dataIndex: 'volumeL',
      width: 80,
      align: 'right',
      render: number,
    },
    {
      title: t('fields.pressureUnit', '压力 (MPa)'),
      dataIndex: 'pressureMPa',
      width: 90,
      align: 'right',
      render: number,
    },
    {
      title: t('fields.temperatureUnit', '温度 (°C)'),
      dataIndex: 'temperatureC',
      width: 110,
      align: 'right',
      render: number,
    },
    { title: 'Z', dataIndex: 'z', width: 70, align: 'right', render: number },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 230,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => actions(row, true),
    },
  ];

  // a phone gets the recipe with its cylinder in one column, and icons
  const phoneColumns: ColumnsType<Product> = [
    {
      title: t('fields.name', '名称'),
      key: 'product',
      render: (_, row) => (
        <div className="gas-phone-cell">
          <span>
            <Typography.Text strong>{row.name}</Typography.Text>
            {row.code ? <span className="gas-muted"> {row.code}</span> : null}
          </span>
          <Composition components={row.components} balance={row.balance} />
          <span className="gas-muted gas-number">
            {`${row.volumeL} L · ${row.pressureMPa} MPa · ${row.temperatureC} °C · Z ${row.z}`}
          </span>
        </div>
      ),
    },
    { title: '', key: 'actions', width: 76, render: (_, row) => actions(row, false) },
  ];

  return (
    <Card variant="borderless" data-testid="gas-products">
      <div className="gas-header">
        <div>
          <Typography.Title level={4} className="gas-title">
            {t('menu.gasProductList')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t(
              'product.hint',
              '混合气配方：各组分的摩尔分数、平衡气和充装条件。点击“计算”得到各组分的目标质量。',
            )}
          </Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setModal({ editing: null })}
          data-testid="gas-product-add"
        >
          {t('product.add', '新增产品')}
        </Button>
      </div>
      <div className="gas-toolbar">
        <Input.Search
          className="gas-search"
          allowClear
          placeholder={t('product.search', '搜索名称、编号或平衡气')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="gas-product-search"
        />
      </div>
      {products.isError ? <LoadFailed onRetry={() => void products.refetch()} /> : null}
      <Table<Product>
        rowKey="id"
        size="middle"
        columns={wide ? columns : phoneColumns}
        dataSource={products.data?.list ?? []}
        loading={products.isFetching}
        pagination={pagination(products.data)}
        scroll={wide ? { x: 1040 } : undefined}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keyword
                  ? t('product.noMatch', '没有符合“{{keyword}}”的产品', { keyword })
                  : t('product.empty', '还没有产品。新增一个混合气配方后即可计算目标质量。')
              }
            />
          ),
        }}
        data-testid="gas-product-table"
      />
      <ProductModal
        open={modal !== null}
        editing={modal?.editing ?? null}
        onClose={() => setModal(null)}
        onDone={refresh}
      />
    </Card>
  );
}
