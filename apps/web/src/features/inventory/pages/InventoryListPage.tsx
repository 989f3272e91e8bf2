import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/PageHeader';
import { useStock } from '../api';
import { ProductionLog } from '../components/ProductionLog';
import { StockSummary } from '../components/StockSummary';
import { UnitList } from '../components/UnitList';
import { useHasCode } from '../model';
import '../inventory.css';

/**
 * /inventoryManagement/inventoryList (im_inventory): the stock per category and warehouse, the
 * units by serial number, and (im_production_log) the production log.
 */
export default function InventoryListPage() {
  const { t } = useTranslation('inventory');
  const has = useHasCode();
  const [tab, setTab] = useState('stock');
  const stock = useStock();
  const warehouses = [...new Set((stock.data ?? []).map((s) => s.warehouse).filter(Boolean))].sort();

  const items = [
    {
      key: 'stock',
      label: <span data-testid="inv-tab-stock">{t('tabs.stock')}</span>,
      children: <StockSummary />,
    },
    {
      key: 'units',
      label: <span data-testid="inv-tab-units">{t('tabs.units')}</span>,
      children: <UnitList warehouses={warehouses} />,
    },
    ...(has('im_production_log')
      ? [
          {
            key: 'log',
            label: <span data-testid="inv-tab-log">{t('tabs.log')}</span>,
            children: <ProductionLog />,
          },
        ]
      : []),
  ];

  return (
    <Card variant="borderless" data-testid="inv-inventory">
      <PageHeader className="inv-page-header" title={t('menu.inventoryList')} hint={t('inventory.hint')} />
      <Tabs activeKey={tab} onChange={setTab} items={items} />
    </Card>
  );
}
