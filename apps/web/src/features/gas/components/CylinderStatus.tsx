import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CylinderStatus as Status } from '../api';
import { cylinderStatusText } from '../exports';

const COLORS: Record<Status, string> = {
  weighed: 'default',
  passed: 'green',
  failed: 'red',
  certified: 'blue',
};

/** A cylinder's place in the flow: weighed → analysed (passed or failed) → certified. */
export function CylinderStatus({ status }: { status: Status }) {
  const { t } = useTranslation('gas');
  return (
    <Tag color={COLORS[status]} data-testid="gas-cylinder-status">
      {cylinderStatusText(t, status)}
    </Tag>
  );
}

export function useStatusOptions() {
  const { t } = useTranslation('gas');
  return [
    { value: 'weighed', label: t('cylinder.weighed', '待分析') },
    { value: 'passed', label: t('cylinder.passed', '验证通过') },
    { value: 'failed', label: t('cylinder.failed', '验证未通过') },
    { value: 'certified', label: t('cylinder.certified', '已出证书') },
  ] as const;
}
