import { lazy } from 'react';
import type { PageMap } from '../../app/router/registry';

/**
 * Boards (sd_board) and carousels (sd_board_play), docs/boards.md. The designer (with
 * react-grid-layout and react-rnd) loads only with its pages, never with the login page.
 */
const BoardList = lazy(() => import('./pages/BoardListPage'));
const BoardEdit = lazy(() => import('./pages/BoardEditPage'));
const BoardShow = lazy(() => import('./pages/BoardShowPage'));
const PlayList = lazy(() => import('./pages/PlayListPage'));
const PlayConfig = lazy(() => import('./pages/PlayConfigPage'));
const Play = lazy(() => import('./pages/PlayPage'));

export const pages: PageMap = {
  dashboard: BoardList,
  editBoard: BoardEdit,
  editBlankBoard: BoardEdit,
  boardConfig: BoardEdit,
  currentShowDashboard: BoardShow,
  showDashboard: BoardShow,
  dashboardDisplay: PlayList,
  configBoardPlay: PlayConfig,
  dashboardMarquee: Play,
  bigScreen: Play,
  testBoardDisplay: PlayList,
  testBoardDisplayConfig: PlayConfig,
};
