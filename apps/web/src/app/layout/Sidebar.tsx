import { Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useBuiltRoutes } from '../router/context';
import { companyLogo } from '../store/loader';
import { useSession } from '../store/session';
import { buildMenuItems, openKeysFor } from './menu-items';

export const DEFAULT_LOGO = '/favicon.svg';

function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { company } = useSession();
  const logo = companyLogo(company) ?? DEFAULT_LOGO;
  const name = company?.displayName || t('menu.productTitle', '智慧数据平台');
  return (
    <div className={`sidebar-logo${collapsed ? ' collapsed' : ''}`} data-testid="sidebar-logo">
      <img src={logo} alt="" onError={(e) => ((e.target as HTMLImageElement).src = DEFAULT_LOGO)} />
      {collapsed ? null : <span title={name}>{name}</span>}
    </div>
  );
}

export function Sidebar({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t, i18n } = useTranslation();
  const { tree, find } = useBuiltRoutes();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: titles follow the language
  const items = useMemo(() => buildMenuItems(tree, t), [tree, t, i18n.language]);

  const match = find(pathname);
  const selected = match?.entry.meta?.activeMenu ?? match?.fullPath ?? pathname;
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(selected));
  useEffect(() => {
    setOpenKeys((keys) => [...new Set([...keys, ...openKeysFor(selected)])]);
  }, [selected]);

  return (
    <div className="sidebar" data-testid="sidebar">
      <SidebarLogo collapsed={collapsed} />
      <Menu
        mode="inline"
        theme="dark"
        inlineCollapsed={collapsed}
        items={items}
        selectedKeys={[selected]}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => {
          if (key !== pathname) navigate(key);
          onNavigate?.();
        }}
      />
    </div>
  );
}
