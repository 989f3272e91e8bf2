/**
 * Sidebar items from the permitted, non-hidden routes (vue-element-admin's rule): a group
 * with exactly one visible child shows that child as a plain item unless `alwaysShow`; a
 * group with none shows itself; otherwise a submenu. Keys are full paths.
 */
import { joinPath, type RouteEntry } from '@platform/domain';
import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { toRouterPath } from '../router/build';
import { RouteIcon } from './icons';

type Item = Required<MenuProps>['items'][number];

/** A menu label: the sidebar's fixed width cuts a long one with an ellipsis, so it carries its full text as a tooltip. */
function MenuLabel({ text }: { text: string }) {
  return (
    <span className="menu-label" title={text}>
      {text}
    </span>
  );
}

function visibleChildren(entry: RouteEntry): RouteEntry[] {
  return (entry.children ?? []).filter((child) => !child.hidden);
}

export function buildMenuItems(routes: readonly RouteEntry[], t: TFunction, parent = ''): Item[] {
  const items: Item[] = [];
  for (const entry of routes) {
    if (entry.hidden) continue;
    const fullPath = toRouterPath(parent ? joinPath(parent, entry.path) : entry.path);
    const children = visibleChildren(entry);
    const title = entry.meta?.title ? t(entry.meta.title) : entry.name;
    if (children.length === 1 && !entry.alwaysShow && !children[0]!.children?.some((c) => !c.hidden)) {
      const only = children[0]!;
      const onlyPath = toRouterPath(joinPath(fullPath, only.path));
      items.push({
        key: onlyPath,
        icon: <RouteIcon name={only.meta?.icon ?? entry.meta?.icon} />,
        label: <MenuLabel text={only.meta?.title ? t(only.meta.title) : only.name} />,
      });
      continue;
    }
    if (children.length === 0) {
      items.push({
        key: fullPath,
        icon: <RouteIcon name={entry.meta?.icon} />,
        label: <MenuLabel text={title} />,
      });
      continue;
    }
    items.push({
      key: fullPath,
      icon: <RouteIcon name={entry.meta?.icon} />,
      label: <MenuLabel text={title} />,
      children: buildMenuItems(children, t, fullPath),
    });
  }
  return items;
}

/** Keys of the submenus that lead to a menu key (every path prefix). */
export function openKeysFor(key: string): string[] {
  const parts = key.split('/').filter(Boolean);
  const keys: string[] = [];
  for (let i = 1; i < parts.length; i++) keys.push(`/${parts.slice(0, i).join('/')}`);
  return keys;
}
