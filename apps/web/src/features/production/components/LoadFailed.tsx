import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** Something that did not load: says so, with a retry. */
export function LoadFailed({ onRetry, title }: { onRetry: () => void; title?: string }) {
  const { t } = useTranslation('production');
  return (
    <Alert
      type="error"
      showIcon
      className="production-alert"
      title={title ?? t('common.loadFailed')}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
