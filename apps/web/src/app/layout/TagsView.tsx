import { CloseOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { HOME_PATH, REDIRECT_PREFIX } from '../router/build';
import { useBuiltRoutes } from '../router/context';
import { objectName, tags, useVisitedViews, type VisitedView } from './tags';

/** Tab strip of visited views with a right-click menu: refresh, close, close others, close all. */
export function TagsView() {
  const { t } = useTranslation('app');
  const { t: tm } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { info, find } = useBuiltRoutes();
  const views = useVisitedViews();
  const activeRef = useRef<HTMLDivElement | null>(null);
  const [menu, setMenu] = useState<{ view: VisitedView; x: number; y: number } | null>(null);

  // home and affix routes are always there
  const pinned = useMemo(() => {
    const out: VisitedView[] = [];
    for (const route of info.values()) {
      const meta = route.entry.meta;
      const isHome = route.fullPath === HOME_PATH;
      if (!route.inLayout || !(meta?.affix || isHome) || route.fullPath.includes(':')) continue;
      if (out.some((v) => v.path === route.fullPath)) continue;
      out.push({
        path: route.fullPath,
        fullPath: route.fullPath,
        title: meta?.title ?? route.entry.name,
        affix: true,
        noCache: Boolean(meta?.noCache),
      });
    }
    // home first
    return out.sort((a, b) => Number(b.path === HOME_PATH) - Number(a.path === HOME_PATH));
  }, [info]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-pin when the views were reset
  useEffect(() => tags.pin(pinned), [pinned, views]);

  useEffect(() => {
    if (pathname.startsWith(`${REDIRECT_PREFIX}/`)) return;
    const match = find(pathname);
    if (!match?.inLayout || !match.entry.meta?.title) return;
    tags.add({
      path: pathname,
      fullPath: `${pathname}${search}`,
      title: match.entry.meta.title,
      name: objectName(match.params),
      affix: Boolean(match.entry.meta.affix) || pathname === HOME_PATH,
      noCache: Boolean(match.entry.meta.noCache),
    });
  }, [pathname, search, find]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll the new active tab into view
  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);

  const goLast = (left: readonly VisitedView[]) => {
    const last = left[left.length - 1];
    navigate(last ? last.fullPath : '/', { replace: false });
  };

  const close = (view: VisitedView) => {
    if (view.affix) return;
    const left = tags.close(view.path);
    if (view.path === pathname) goLast(left);
  };

  // re-mount through /redirect (spec: /redirect/:path), which lands back on the view
  const refresh = (view: VisitedView) => navigate(`${REDIRECT_PREFIX}${view.fullPath}`, { replace: true });

  const closeOthers = (view: VisitedView) => {
    tags.closeOthers(view.path);
    if (view.path !== pathname) navigate(view.fullPath);
  };

  const closeAll = () => {
    const left = tags.closeAll();
    if (!left.some((v) => v.path === pathname)) goLast(left);
  };

  const runMenu = (key: string) => {
    const view = menu?.view;
    setMenu(null);
    if (!view) return;
    if (key === 'refresh') refresh(view);
    if (key === 'close') close(view);
    if (key === 'others') closeOthers(view);
    if (key === 'all') closeAll();
  };

  return (
    <div className="tags-view" data-testid="tags-view">
      <div className="tags-view-scroll">
        {views.map((view) => {
          const active = view.path === pathname;
          return (
            <div
              key={view.path}
              ref={active ? activeRef : undefined}
              className={`tags-view-item${active ? ' active' : ''}`}
              data-testid="tag"
              data-path={view.path}
              role="tab"
              aria-selected={active}
              tabIndex={0}
              onClick={() => !active && navigate(view.fullPath)}
              onKeyDown={(e) => e.key === 'Enter' && !active && navigate(view.fullPath)}
              onMouseUp={(e) => e.button === 1 && close(view)}
              onContextMenu={(e) => {
                e.preventDefault();
                setMenu({ view, x: e.clientX, y: e.clientY });
              }}
            >
              <span title={view.name ? `${view.name} · ${tm(view.title)}` : undefined}>
                {view.name ? `${view.name} · ${tm(view.title)}` : tm(view.title)}
              </span>
              {view.affix ? null : (
                <CloseOutlined
                  className="tags-view-close"
                  data-testid="tag-close"
                  onClick={(e) => {
                    e.stopPropagation();
                    close(view);
                  }}
                />
              )}
            </div>
          );
        })}
      </div>
      {/* one menu for the strip, opened at the pointer of the right-clicked tab */}
      <Dropdown
        open={menu != null}
        onOpenChange={(open) => !open && setMenu(null)}
        trigger={['contextMenu']}
        menu={{
          items: [
            { key: 'refresh', label: t('tags.refresh', '刷新') },
            { key: 'close', label: t('tags.close', '关闭'), disabled: menu?.view.affix },
            { key: 'others', label: t('tags.closeOthers', '关闭其他') },
            { key: 'all', label: t('tags.closeAll', '关闭所有') },
          ],
          onClick: ({ key }) => runMenu(key),
        }}
      >
        <span
          className="tags-view-menu-anchor"
          style={{ left: menu?.x ?? 0, top: menu?.y ?? 0 }}
          aria-hidden="true"
        />
      </Dropdown>
    </div>
  );
}
