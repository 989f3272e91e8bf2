/**
 * Layout state: sidebar open/closed (remembered in the 'sidebarStatus' cookie, spec point 4)
 * and the device mode (mobile below MOBILE_BREAKPOINT_PX, where the sidebar is a drawer).
 */
import { MOBILE_BREAKPOINT_PX } from '@platform/domain';
import Cookies from 'js-cookie';
import { useSyncExternalStore } from 'react';

export const SIDEBAR_COOKIE = 'sidebarStatus';

export interface LayoutState {
  /** desktop: sidebar expanded; mobile: drawer open */
  opened: boolean;
  mobile: boolean;
}

function isMobile(): boolean {
  return window.innerWidth < MOBILE_BREAKPOINT_PX;
}

let state: LayoutState = {
  opened: Cookies.get(SIDEBAR_COOKIE) !== '0',
  mobile: isMobile(),
};
if (state.mobile) state = { ...state, opened: false };

const listeners = new Set<() => void>();
function set(next: Partial<LayoutState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export const layoutState = {
  get: (): LayoutState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  toggle(): void {
    const opened = !state.opened;
    // the drawer's state on a phone is momentary; the cookie remembers the desktop choice
    if (!state.mobile) Cookies.set(SIDEBAR_COOKIE, opened ? '1' : '0', { expires: 365, sameSite: 'lax' });
    set({ opened });
  },
  close(): void {
    if (state.opened) set({ opened: false });
  },
};

window.addEventListener('resize', () => {
  const mobile = isMobile();
  if (mobile === state.mobile) return;
  set({ mobile, opened: mobile ? false : Cookies.get(SIDEBAR_COOKIE) !== '0' });
});

export function useLayoutState(): LayoutState {
  return useSyncExternalStore(layoutState.subscribe, layoutState.get, layoutState.get);
}
