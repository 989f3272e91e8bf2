/**
 * The login page's tab strip: antd's Tabs as they look (antd's own tab styles and class names,
 * the ink bar under the active tab), without what three short tabs never use. antd's Tabs
 * bring a scrolling tab list with an overflow menu (rc-menu, rc-dropdown, rc-overflow: ~19 kB
 * gzip), which the login page would load before it is usable. Below 375 px, where antd hid the
 * third tab behind its overflow menu, the tabs drop their icons instead (auth.css), so every
 * way to log in stays in sight.
 *
 * Behaviour kept from antd's Tabs: a tab's panel is rendered when first opened and kept (hidden)
 * afterwards, so a half-filled form survives a tab switch; role tablist/tab/tabpanel with
 * aria-selected and aria-controls; arrow keys move between tabs, Home and End go to the ends,
 * Enter or Space opens the focused tab.
 */
import { ConfigContext } from 'antd/es/config-provider';
import useCSSVarCls from 'antd/es/config-provider/hooks/useCSSVarCls';
import useTabsStyle from 'antd/es/tabs/style';
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

export interface AuthTab<K extends string> {
  key: K;
  icon: ReactNode;
  label: ReactNode;
  children: ReactNode;
}

interface Ink {
  left: number;
  width: number;
}

const cls = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** Where the ink bar sits under the active tab: its centre and width, as antd places it. */
function useInk(list: RefObject<HTMLDivElement | null>, activeKey: string): Ink | undefined {
  const [ink, setInk] = useState<Ink>();
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    const measure = () => {
      const tab = element.querySelector<HTMLElement>(`[data-node-key="${CSS.escape(activeKey)}"]`);
      if (!tab) return;
      const listBox = element.getBoundingClientRect();
      const tabBox = tab.getBoundingClientRect();
      const next = { left: tabBox.left - listBox.left + tabBox.width / 2, width: tabBox.width };
      // sub-pixel jitter is no move (antd rounds the same way before it moves the bar)
      setInk((current) =>
        current &&
        Math.round(current.left) === Math.round(next.left) &&
        Math.round(current.width) === Math.round(next.width)
          ? current
          : next,
      );
    };
    measure();
    // a language switch or a narrower window changes the tabs' widths
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const tab of element.children) observer.observe(tab);
    return () => observer.disconnect();
  }, [list, activeKey]);
  return ink;
}

export function AuthTabs<K extends string>({
  items,
  activeKey,
  onChange,
  className,
}: {
  items: AuthTab<K>[];
  activeKey: K;
  onChange: (key: K) => void;
  className?: string;
}) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('tabs');
  const rootCls = useCSSVarCls(prefixCls);
  const [hashId, cssVarCls] = useTabsStyle(prefixCls, rootCls);
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const ink = useInk(list, activeKey);

  // panels opened once stay rendered
  const [opened, setOpened] = useState<ReadonlySet<K>>(() => new Set([activeKey]));
  useEffect(() => {
    setOpened((current) => (current.has(activeKey) ? current : new Set([...current, activeKey])));
  }, [activeKey]);

  // the tab that has keyboard focus (antd outlines it); a mouse press focuses without it
  const [focusKey, setFocusKey] = useState<K>();
  const mouseDown = useRef(false);
  const buttons = useRef(new Map<K, HTMLDivElement>());
  const focusTab = (key: K | undefined) => {
    if (key === undefined) return;
    setFocusKey(key);
    buttons.current.get(key)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const keys = items.map((item) => item.key);
    const current = keys.indexOf(focusKey ?? activeKey);
    const step = (offset: number) => keys[(current + offset + keys.length) % keys.length];
    switch (event.code) {
      case 'ArrowLeft':
        focusTab(step(-1));
        break;
      case 'ArrowRight':
        focusTab(step(1));
        break;
      case 'Home':
        event.preventDefault();
        focusTab(keys[0]);
        break;
      case 'End':
        event.preventDefault();
        focusTab(keys[keys.length - 1]);
        break;
      case 'Enter':
      case 'Space':
        event.preventDefault();
        onChange(focusKey ?? activeKey);
        break;
    }
  };

  const tabId = (key: K) => `${id}-tab-${key}`;
  const panelId = (key: K) => `${id}-panel-${key}`;

  return (
    <div className={cls(prefixCls, `${prefixCls}-top`, className, hashId, cssVarCls, rootCls)}>
      <div role="tablist" aria-orientation="horizontal" className={`${prefixCls}-nav`}>
        <div className={`${prefixCls}-nav-wrap`}>
          <div className={`${prefixCls}-nav-list`} ref={list}>
            {items.map((item) => {
              const active = item.key === activeKey;
              return (
                // the whole tab takes a click, as antd's does (its padding too); the keyboard is
                // the role="tab" element's inside
                // biome-ignore lint/a11y/noStaticElementInteractions: see above
                // biome-ignore lint/a11y/useKeyWithClickEvents: see above
                <div
                  key={item.key}
                  data-node-key={item.key}
                  className={cls(
                    `${prefixCls}-tab`,
                    active && `${prefixCls}-tab-active`,
                    focusKey === item.key && `${prefixCls}-tab-focus`,
                  )}
                  onClick={() => onChange(item.key)}
                >
                  <div
                    ref={(node) => {
                      if (node) buttons.current.set(item.key, node);
                      else buttons.current.delete(item.key);
                    }}
                    role="tab"
                    aria-selected={active}
                    id={tabId(item.key)}
                    className={`${prefixCls}-tab-btn`}
                    aria-controls={panelId(item.key)}
                    tabIndex={active ? 0 : -1}
                    onKeyDown={onKeyDown}
                    onMouseDown={() => {
                      mouseDown.current = true;
                    }}
                    onMouseUp={() => {
                      mouseDown.current = false;
                    }}
                    onFocus={() => {
                      if (!mouseDown.current) setFocusKey(item.key);
                    }}
                    onBlur={() => setFocusKey(undefined)}
                  >
                    <span className={`${prefixCls}-tab-icon`}>{item.icon}</span>
                    {item.label}
                  </div>
                </div>
              );
            })}
            <div
              className={`${prefixCls}-ink-bar ${prefixCls}-ink-bar-animated`}
              style={ink ? { width: ink.width, left: ink.left, transform: 'translateX(-50%)' } : undefined}
            />
          </div>
        </div>
      </div>
      <div className={`${prefixCls}-body-holder`}>
        <div className={`${prefixCls}-body ${prefixCls}-body-top`}>
          {items
            .filter((item) => opened.has(item.key) || item.key === activeKey)
            .map((item) => {
              const active = item.key === activeKey;
              return (
                <div
                  key={item.key}
                  id={panelId(item.key)}
                  role="tabpanel"
                  tabIndex={active ? 0 : -1}
                  aria-labelledby={tabId(item.key)}
                  aria-hidden={!active}
                  className={cls(
                    `${prefixCls}-content`,
                    active ? `${prefixCls}-content-active` : `${prefixCls}-content-hidden`,
                  )}
                >
                  {item.children}
                </div>
              );
            })}
        </div>
      </div>
    </div>
  );
}
