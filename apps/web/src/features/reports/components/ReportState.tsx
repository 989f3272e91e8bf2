import { Card, Empty, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';

/** Bad link, loading, or a report that is gone or not readable. */
export function ReportState({ kind }: { kind: 'badLink' | 'loading' | 'notFound' }) {
  const { t } = useTranslation('reports');
  if (kind === 'badLink') return <Result status="404" title={t('badLink', '链接无效')} />;
  if (kind === 'loading') {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  return (
    <Card variant="borderless" data-testid="report-not-found">
      <Empty description={t('notFound', '报表不存在或您没有权限查看')} />
    </Card>
  );
}
