/**
 * Device maintenance (/devicemanagement/maintenance, dm_maintenance): records of work done
 * and plans that come due every N days; an overdue plan stands out, and "done" on a plan
 * records the work and moves its next due date.
 */
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { PlansTab, RecordsTab } from '../components/MaintenanceTabs';
import '../devices.css';

export default function MaintenancePage() {
  const { t } = useTranslation('devices');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'plans' ? 'plans' : 'records';
  return (
    <Card variant="borderless" title={t('mnt.pageTitle', '设备维护')} data-testid="maintenance-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'plans' ? { tab: 'plans' } : {}, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'records', label: t('mnt.records', '维护记录'), children: <RecordsTab /> },
          { key: 'plans', label: t('mnt.plans', '维护计划'), children: <PlansTab /> },
        ]}
      />
    </Card>
  );
}
