import type { RouteEntry } from '@platform/domain';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { RouteIcon } from '../../../app/layout/icons';
import { hasBuiltPage } from '../../../app/router/availability';
import { toRouterPath } from '../../../app/router/build';

/**
 * One permitted top-level module: icon, title, its first few menu entries; opens the module.
 * A module with no page built yet is no link: it is greyed and says "not available yet".
 */
export function ModuleCard({ entry }: { entry: RouteEntry }) {
  const { t } = useTranslation('home');
  const children = (entry.children ?? []).filter((child) => !child.hidden);
  const names = children
    .slice(0, 3)
    .map((child) => (child.meta?.title ? t(child.meta.title, { ns: 'translation' }) : child.name));
  const more = children.length - names.length;
  const title = entry.meta?.title ? t(entry.meta.title, { ns: 'translation' }) : entry.name;
  const content = (available: boolean) => (
    <>
      <span className="home-module-icon">
        <RouteIcon name={entry.meta?.icon} />
      </span>
      <span className="home-module-body">
        <span className="home-module-head">
          <Typography.Text strong className="home-module-title" ellipsis={{ tooltip: title }}>
            {title}
          </Typography.Text>
          {available ? null : (
            <Tag className="home-module-badge" data-testid="home-module-unavailable">
              {t('modules.unavailable', '尚未上线')}
            </Tag>
          )}
        </span>
        <Typography.Text type="secondary" className="home-module-items" ellipsis={{ tooltip: true }}>
          {names.join(' · ')}
          {more > 0 ? ` ${t('modules.more', '等 {{count}} 项', { count: children.length })}` : ''}
        </Typography.Text>
      </span>
    </>
  );
  if (!hasBuiltPage(entry)) {
    return (
      <Tooltip title={t('modules.unavailableHint', '该模块正在建设中，上线后可从这里进入。')}>
        <div
          className="home-module home-module-unavailable"
          data-testid="home-module"
          data-available="false"
          aria-disabled="true"
        >
          {content(false)}
        </div>
      </Tooltip>
    );
  }
  return (
    <Link
      to={toRouterPath(entry.path)}
      className="home-module"
      data-testid="home-module"
      data-available="true"
    >
      {content(true)}
    </Link>
  );
}
