import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** A list that did not load: says so, with a retry, above the (empty) table. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('gas');
  return (
    <Alert
      type="error"
      showIcon
      className="gas-alert"
      title={t('common.loadFailed', '加载失败')}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry', '重试')}
        </Button>
      }
    />
  );
}
