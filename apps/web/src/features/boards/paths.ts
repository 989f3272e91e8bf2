/** Addresses of the board pages (route table: packages/domain/src/routes/smartdata.ts). */
export const BOARDS_PATH = '/smartdata/dashboard3';
export const PLAYS_PATH = '/smartdata/dashboarddisplay';
export const editBoardPath = (id: number, name: string) =>
  `/smartdata/dashboard3/EditBoard/${id}/${encodeURIComponent(name)}/${id}`;
export const showBoardPath = (id: number) => `/showdashboard/${id}`;
export const currentShowPath = (id: number) => `/smartdata/currentshowdashboard/${id}`;
export const configPlayPath = (id: number | 'new') => `/smartdata/configboardplay/${id}`;
export const playPath = (id: number) => `/dashboardmarquee/${id}`;
export const bigScreenPath = (id: number) => `/big_screen/${id}`;
