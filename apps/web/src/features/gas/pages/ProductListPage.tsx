import { CalculatorOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../app/store/session';
import { usePaging } from '../../../shared/paging';
import { gasApi, gasKeys, type Product, useProducts } from '../api';
import { Composition } from '../components/Composition';
import { GasListCard } from '../components/GasListCard';
import { ProductModal } from '../components/ProductModal';
import { RowButton } from '../components/RowActions';
import { allRows, productColumns } from '../exports';
import { gasPaths } from '../model';
import '../gas.css';

const dash = <span className="gas-muted">—</span>;

/** /setgas/productlist (gm_product): mixture recipes, each opening its component calculation. */
export default function ProductListPage() {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const products = useProducts({ ...paging, keyword });
  // the calculation is a page of its own (gm_component_cal): offered to those who may open it
  const canCalculate = useSession().user?.menuCode.includes('gm_component_cal') ?? false;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: gasKeys.all });

  /** a new search starts at page 1 */
  const search = (value: string) => {
    setKeyword(value.trim());
    reset();
  };

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

  const columns: ColumnsType<Product> = [
    {
      title: t('fields.name', '名称'),
      dataIndex: 'name',
      sorter: true,
      width: 140,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      title: t('fields.code', '编号'),
      dataIndex: 'code',
      sorter: true,
      width: 90,
      render: (v: string) => v || dash,
    },
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
  ];

  return (
    <GasListCard<Product>
      testId="gas-products"
      testPrefix="gas-product"
      title={t('menu.gasProductList')}
      hint={t(
        'product.hint',
        '混合气配方：各组分的摩尔分数、平衡气和充装条件。点击“计算”得到各组分的目标质量。',
      )}
      addLabel={t('product.add', '新增产品')}
      searchPlaceholder={t('product.search', '搜索名称、编号或平衡气')}
      onSearch={search}
      query={products}
      rows={products.data?.list ?? []}
      pagination={pagination(products.data)}
      onSort={onSort}
      columns={columns}
      phoneColumns={phoneColumns}
      scrollX={1040}
      actions={{
        width: 230,
        leading: (row, labelled) =>
          canCalculate ? (
            <RowButton
              label={t('product.calculate', '计算')}
              labelled={labelled}
              icon={<CalculatorOutlined />}
              onClick={() => navigate(gasPaths.calculation(row.id))}
              data-testid={`gas-product-calc-${row.id}`}
            />
          ) : null,
        wrapOnPhone: true,
        deleteConfirm: (row) => t('product.deleteConfirm', '确定删除产品“{{name}}”吗？', { name: row.name }),
        onDelete: remove,
      }}
      emptyText={
        keyword
          ? t('product.noMatch', '没有符合“{{keyword}}”的产品', { keyword })
          : t('product.empty', '还没有产品。新增一个混合气配方后即可计算目标质量。')
      }
      modal={(modal) => <ProductModal {...modal} onDone={refresh} />}
      exportList={{
        load: () => allRows<Product>('/gas/product/list', { keyword }),
        columns: productColumns(t),
        fileName: t('menu.gasProductList'),
      }}
    />
  );
}
