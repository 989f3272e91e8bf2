import { MenuFoldOutlined, MenuUnfoldOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { REDIRECT_PREFIX } from '../router/build';
import { layoutState, useLayoutState } from './app-state';
import { Breadcrumb } from './Breadcrumb';
import { CompanySwitcher } from './CompanySwitcher';
import { LangSwitch } from './LangSwitch';
import { UserMenu } from './UserMenu';
import { ViewSwitcher } from './ViewSwitcher';

export function Navbar() {
  const { t } = useTranslation('app');
  const { opened, mobile } = useLayoutState();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  return (
    <div className="navbar">
      <Button
        type="text"
        className="navbar-toggle"
        data-testid="sidebar-toggle"
        aria-label={t('navbar.toggleSidebar', '展开/收起菜单')}
        aria-expanded={opened}
        icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={() => layoutState.toggle()}
      />
      <Tooltip title={t('navbar.refresh', '刷新')}>
        <Button
          type="text"
          data-testid="refresh-view"
          aria-label={t('navbar.refresh', '刷新')}
          icon={<ReloadOutlined />}
          onClick={() => navigate(`${REDIRECT_PREFIX}${pathname}${search}`, { replace: true })}
        />
      </Tooltip>
      {mobile ? <ViewSwitcher /> : <Breadcrumb />}
      <div className="navbar-right">
        <CompanySwitcher />
        <LangSwitch />
        <UserMenu />
      </div>
    </div>
  );
}
