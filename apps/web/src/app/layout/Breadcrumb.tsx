import { Breadcrumb as AntBreadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { HOME_PATH } from '../router/build';
import { useBuiltRoutes } from '../router/context';

/** Home, then the matched route's ancestors; ancestors link to their own path (groups redirect). */
export function Breadcrumb() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { find } = useBuiltRoutes();
  const match = find(pathname);
  const chain = (match?.chain ?? []).filter((c) => c.entry.meta?.title && c.fullPath !== HOME_PATH);
  const items = [
    {
      key: HOME_PATH,
      title: chain.length ? <Link to={HOME_PATH}>{t('menu.home')}</Link> : t('menu.home'),
    },
    ...chain.map((c, i) => {
      const label = t(c.entry.meta!.title);
      const last = i === chain.length - 1;
      const linkable = !last && !c.fullPath.includes(':');
      return { key: c.fullPath, title: linkable ? <Link to={c.fullPath}>{label}</Link> : label };
    }),
  ];
  return <AntBreadcrumb className="app-breadcrumb" items={items} data-testid="breadcrumb" />;
}
