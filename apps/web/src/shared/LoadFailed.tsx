import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import './page.css';

/** Something that did not load (a list, above its empty table): says so, with a retry. */
export function LoadFailed({ onRetry, title }: { onRetry: () => void; title?: string }) {
  const { t } = useTranslation('shared');
  return (
    <Alert
      type="error"
      showIcon
      className="page-alert"
      title={title ?? t('loadFailed', '加载失败')}
      action={
        <Button size="small" onClick={onRetry}>
          {t('retry', '重试')}
        </Button>
      }
    />
  );
}
