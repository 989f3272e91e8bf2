import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../router/build';

/** A permitted route whose module is not built yet: says so plainly, never pretends to work. */
export function NotAvailablePage({ title }: { title?: string }) {
  const { t } = useTranslation('app');
  return (
    <div data-testid="not-available">
      <Result
        status="info"
        title={t('notAvailable.title', '此模块尚未上线')}
        subTitle={
          <>
            {title ? (
              <div style={{ fontWeight: 500, marginBottom: 4 }}>{t(title, { ns: 'translation' })}</div>
            ) : null}
            <div>{t('notAvailable.text', '该功能正在建设中，上线后将出现在这里。')}</div>
          </>
        }
        extra={
          <Link to={HOME_PATH}>
            <Button type="primary">{t('notAvailable.home', '返回首页')}</Button>
          </Link>
        }
      />
    </div>
  );
}
