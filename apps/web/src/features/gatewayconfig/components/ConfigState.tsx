import { Card, Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';

/** Loading, or a device that is gone or not readable. */
export function ConfigState({ kind }: { kind: 'loading' | 'notFound' }) {
  const { t } = useTranslation('gatewayconfig');
  if (kind === 'loading') {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  return (
    <Card variant="borderless" data-testid="gc-not-found">
      <Empty description={t('notFound')} />
    </Card>
  );
}
