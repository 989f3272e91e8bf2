import { DownOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useVisitedViews, type VisitedView } from './tags';

/**
 * The tab strip condensed for a phone (below 992 px): the open view's title in the top bar, and
 * the other open views in its menu. The strip itself keeps recording views, hidden.
 */
export function ViewSwitcher() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const views = useVisitedViews();
  const label = (view: VisitedView) => (view.name ? `${view.name} · ${t(view.title)}` : t(view.title));
  const active = views.find((view) => view.path === pathname);
  const title = active ? label(active) : '';
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: active ? [active.path] : [],
        items: views.map((view) => ({
          key: view.path,
          label: <span data-testid="view-switcher-item">{label(view)}</span>,
        })),
        onClick: ({ key }) => {
          const view = views.find((v) => v.path === key);
          if (view && view.path !== pathname) navigate(view.fullPath);
        },
      }}
    >
      <button type="button" className="view-switcher" data-testid="view-switcher" title={title}>
        <span className="view-switcher-title">{title}</span>
        {views.length > 1 ? <DownOutlined className="view-switcher-arrow" /> : null}
      </button>
    </Dropdown>
  );
}
