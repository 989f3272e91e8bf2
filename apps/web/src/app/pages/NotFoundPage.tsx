import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../router/build';

export function NotFoundPage() {
  const { t } = useTranslation('app');
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status="404"
        title="404"
        subTitle={t('notFound.text', '抱歉，您访问的页面不存在或您没有权限访问。')}
        extra={
          <Link to={HOME_PATH} data-testid="not-found-home">
            <Button type="primary">{t('notFound.home', '返回首页')}</Button>
          </Link>
        }
      />
    </div>
  );
}
