import type { RouteEntry } from '@platform/domain';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { RouteIcon } from '../../../app/layout/icons';
import { toRouterPath } from '../../../app/router/build';

/** One permitted top-level module: icon, title, its first few menu entries; opens the module. */
export function ModuleCard({ entry }: { entry: RouteEntry }) {
  const { t } = useTranslation('home');
  const children = (entry.children ?? []).filter((child) => !child.hidden);
  const names = children
    .slice(0, 3)
    .map((child) => (child.meta?.title ? t(child.meta.title, { ns: 'translation' }) : child.name));
  const more = children.length - names.length;
  return (
    <Link to={toRouterPath(entry.path)} className="home-module" data-testid="home-module">
      <span className="home-module-icon">
        <RouteIcon name={entry.meta?.icon} />
      </span>
      <span className="home-module-body">
        <Typography.Text strong className="home-module-title">
          {entry.meta?.title ? t(entry.meta.title, { ns: 'translation' }) : entry.name}
        </Typography.Text>
        <Typography.Text type="secondary" className="home-module-items" ellipsis={{ tooltip: true }}>
          {names.join(' · ')}
          {more > 0 ? ` ${t('modules.more', '等 {{count}} 项', { count: children.length })}` : ''}
        </Typography.Text>
      </span>
    </Link>
  );
}
