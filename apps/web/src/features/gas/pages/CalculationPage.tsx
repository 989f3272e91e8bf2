import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, Card, Descriptions, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useProduct } from '../api';
import { CertifySection } from '../components/CertifySection';
import { Composition } from '../components/Composition';
import { FillSection } from '../components/FillSection';
import { gasPaths } from '../model';
import '../gas.css';

/**
 * /setgas/calculation/:selectProduct (gm_component_cal): one recipe's component calculation,
 * forward (the masses to weigh in) and inverse (the certified composition from what was weighed).
 */
export default function CalculationPage() {
  const { t } = useTranslation('gas');
  const { selectProduct } = useParams();
  const id = Number(selectProduct);
  const product = useProduct(id);

  const back = (
    <Link to={gasPaths.products} data-testid="gas-calc-back">
      <ArrowLeftOutlined /> {t('calc.back', '返回产品列表')}
    </Link>
  );

  if (!(Number.isInteger(id) && id > 0) || product.isError) {
    return (
      <Card variant="borderless" data-testid="gas-calc">
        {back}
        <Alert
          type="error"
          showIcon
          className="gas-alert gas-alert-top"
          title={t('calc.loadFailed', '无法加载这个产品')}
          description={t('calc.loadFailedHint', '产品可能已被删除。请回到产品列表重新选择。')}
        />
      </Card>
    );
  }
  if (!product.data) {
    return (
      <Card variant="borderless" data-testid="gas-calc">
        <Skeleton active />
      </Card>
    );
  }
  const p = product.data;

  return (
    <div className="gas-calc" data-testid="gas-calc">
      <Card variant="borderless">
        <div className="gas-calc-top">{back}</div>
        <Typography.Title level={4} className="gas-title" data-testid="gas-calc-title">
          {t('menu.gasCalculation')} · {p.name}
        </Typography.Title>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 3 }}
          className="gas-facts"
          items={[
            { key: 'code', label: t('fields.code', '编号'), children: p.code || '—' },
            {
              key: 'composition',
              label: t('fields.composition', '组成'),
              children: <Composition components={p.components} balance={p.balance} />,
            },
            ...(p.notes ? [{ key: 'notes', label: t('fields.notes', '备注'), children: p.notes }] : []),
          ]}
        />
      </Card>
      {/* keyed by the recipe: its own conditions when another product is opened in this view */}
      <FillSection key={`fill-${p.id}-${p.updatedAt}`} product={p} />
      <CertifySection key={`certify-${p.id}`} productId={p.id} />
    </div>
  );
}
