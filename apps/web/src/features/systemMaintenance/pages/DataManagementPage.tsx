/**
 * System maintenance's hub (/systemMaintenance/datamanagement): a card for each of the
 * platform operator's pages the person's codes open (companies, users, gateways, SIM cards…),
 * which the menu does not list. A page not built yet is greyed and says so.
 */
import { RightOutlined } from '@ant-design/icons';
import { Card, Empty, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useBuiltRoutes } from '../../../app/router/context';
import { pageFor } from '../../../app/router/registry';
import '../systemMaintenance.css';

const HUB_PATH = '/systemMaintenance/datamanagement';

export default function DataManagementPage() {
  const { t } = useTranslation('systemMaintenance');
  const { t: tr } = useTranslation();
  const { info } = useBuiltRoutes();
  const pages = useMemo(
    () =>
      [...info.values()]
        .filter((route) => route.entry.meta?.activeMenu === HUB_PATH && !route.fullPath.includes(':'))
        // the working pages first, in the table's order
        .sort((a, b) => Number(Boolean(pageFor(b.entry.name))) - Number(Boolean(pageFor(a.entry.name)))),
    [info],
  );

  return (
    <Card variant="borderless" title={t('hub.title', '系统维护')} data-testid="hub-page">
      <Typography.Paragraph type="secondary">
        {t('hub.intro', '平台运营方的管理页面：所有公司、用户、网关登记、SIM 卡等。')}
      </Typography.Paragraph>
      {pages.length === 0 ? (
        <Empty description={t('hub.empty', '您没有系统维护页面的权限')} />
      ) : (
        <div className="sm-hub">
          {pages.map((route) => {
            const title = route.entry.meta?.title ? tr(route.entry.meta.title) : route.entry.name;
            const built = Boolean(pageFor(route.entry.name));
            const body = (
              <>
                <Typography.Text strong>{title}</Typography.Text>
                {built ? (
                  <RightOutlined className="sm-hub-arrow" />
                ) : (
                  <Tag className="sm-hub-badge">{t('hub.unavailable', '尚未上线')}</Tag>
                )}
              </>
            );
            return built ? (
              <Link
                key={route.id}
                to={route.fullPath}
                className="sm-hub-card"
                data-testid={`hub-${route.entry.name}`}
              >
                {body}
              </Link>
            ) : (
              <div
                key={route.id}
                className="sm-hub-card sm-hub-off"
                aria-disabled="true"
                data-testid={`hub-${route.entry.name}`}
              >
                {body}
              </div>
            );
          })}
        </div>
      )}
    </Card>
  );
}
