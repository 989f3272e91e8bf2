/**
 * The layout of spec point 2: a fixed 240 px sidebar (a drawer below 992 px), a fixed header
 * with the top bar, the expiry notice and the tab strip, and the keep-alive view area.
 */
import { SIDEBAR_WIDTH_PX } from '@platform/domain';
import { Drawer } from 'antd';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { AppMain } from './AppMain';
import { layoutState, useLayoutState } from './app-state';
import { ExpiryNotice } from './ExpiryNotice';
import { Navbar } from './Navbar';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import { TermsDialog } from './TermsDialog';
import './layout.css';

export const SIDEBAR_COLLAPSED_PX = 64;

export function AppLayout() {
  const { opened, mobile } = useLayoutState();
  const { pathname } = useLocation();

  // the drawer closes after navigation on a phone
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation
  useEffect(() => {
    if (layoutState.get().mobile) layoutState.close();
  }, [pathname]);

  const width = mobile ? 0 : opened ? SIDEBAR_WIDTH_PX : SIDEBAR_COLLAPSED_PX;
  return (
    <div
      className={`app-wrapper${mobile ? ' mobile' : ''}${opened ? ' opened' : ' collapsed'}`}
      data-testid="app-layout"
      data-sidebar={opened ? 'opened' : 'closed'}
      data-device={mobile ? 'mobile' : 'desktop'}
    >
      {mobile ? (
        <Drawer
          placement="left"
          open={opened}
          onClose={() => layoutState.close()}
          size={SIDEBAR_WIDTH_PX}
          closable={false}
          styles={{ body: { padding: 0, background: '#001529' } }}
          rootClassName="sidebar-drawer"
        >
          <Sidebar collapsed={false} onNavigate={() => layoutState.close()} />
        </Drawer>
      ) : (
        <aside className="sidebar-container" style={{ width }}>
          <Sidebar collapsed={!opened} />
        </aside>
      )}
      <div className="main-container" style={{ marginLeft: width }}>
        <header className="fixed-header">
          <Navbar />
          <ExpiryNotice />
          <TagsView />
        </header>
        <main className="app-main">
          <AppMain />
        </main>
      </div>
      <TermsDialog />
    </div>
  );
}
