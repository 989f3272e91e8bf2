import { Flex } from 'antd';
import { TouSettingsCard } from '../../meters/components/TouSettingsCard';
import { useCompany } from '../api';
import { AlertDelegationCard } from '../components/AlertDelegationCard';
import { CompanyInfoCard } from '../components/CompanyInfoCard';
import { DangerZoneCard } from '../components/DangerZoneCard';
import '../sysSetting.css';

/** Company settings: logo and names, alert delegation, the time-of-use tariff, and deleting the company. */
export default function CompanyManagementPage() {
  const company = useCompany();
  return (
    <Flex vertical gap={16} data-testid="company-management-page">
      <CompanyInfoCard
        company={company.data}
        loading={company.isLoading}
        onChanged={() => company.refetch()}
      />
      <AlertDelegationCard />
      <TouSettingsCard />
      {company.data ? <DangerZoneCard company={company.data} /> : null}
    </Flex>
  );
}
