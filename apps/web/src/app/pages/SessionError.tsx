import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { session } from '../store/session';

/** The user record could not be loaded: retry, or drop the token and log in again. */
export function SessionError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('app');
  return (
    <Result
      status="warning"
      title={t('session.loadFailed', '无法加载用户信息')}
      extra={[
        <Button key="retry" type="primary" onClick={onRetry}>
          {t('session.retry', '重试')}
        </Button>,
        <Button key="logout" onClick={() => session.clear()}>
          {t('session.toLogin', '重新登录')}
        </Button>,
      ]}
    />
  );
}
