import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LOGIN_PATH } from '../router/build';
import { logout } from '../store/logout';
import { useSession } from '../store/session';

export const PERSONAL_CENTER_PATH = '/user/userinfo';

/** Avatar (or the default one) and name; personal center and logout. */
export function UserMenu() {
  const { t } = useTranslation('app');
  const { user } = useSession();
  const navigate = useNavigate();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          {
            key: 'center',
            icon: <UserOutlined />,
            label: <span data-testid="menu-personal-center">{t('navbar.personalCenter', '个人中心')}</span>,
          },
          { type: 'divider' },
          {
            key: 'logout',
            icon: <LogoutOutlined />,
            label: <span data-testid="menu-logout">{t('navbar.logout', '退出登录')}</span>,
          },
        ],
        onClick: async ({ key }) => {
          if (key === 'center') navigate(PERSONAL_CENTER_PATH);
          if (key === 'logout') {
            await logout();
            navigate(LOGIN_PATH, { replace: true });
          }
        },
      }}
    >
      <button type="button" className="navbar-user" data-testid="user-menu">
        {user?.headImgUrl ? (
          <Avatar size={30} src={user.headImgUrl} alt="" />
        ) : (
          <Avatar size={30} icon={<UserOutlined />} style={{ background: '#1668dc' }} />
        )}
        <span className="navbar-label">{user?.userName}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}
