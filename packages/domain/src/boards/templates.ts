/**
 * Board templates a new board starts from (route boardconfig/{boardId}/{templateCode}). Built-in
 * ones are here; a company's own templates are boards saved as cabin nodes of type
 * `dashboardTemplate` and addressed by their node id.
 */
import { type BoardBody, DEFAULT_CONFIGS, type Widget } from './board';

export interface BuiltInTemplate {
  code: string;
  name: { zh: string; en: string };
  body: BoardBody;
}

function w<T extends Widget['type']>(
  id: string,
  type: T,
  rect: [number, number, number, number],
  config: Partial<Extract<Widget, { type: T }>['config']> = {},
  z = 1,
): Widget {
  const [x, y, wd, h] = rect;
  return {
    id,
    type,
    x,
    y,
    w: wd,
    h,
    z,
    locked: false,
    hidden: false,
    config: { ...DEFAULT_CONFIGS[type], ...config },
  } as Widget;
}

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  {
    code: 'blank-grid',
    name: { zh: '空白办公看板', en: 'Blank office board' },
    body: { mode: 'grid', width: 1920, height: 1080, scale: 'fit', background: '', widgets: [] },
  },
  {
    code: 'blank-screen',
    name: { zh: '空白大屏 1920×1080', en: 'Blank big screen 1920×1080' },
    body: { mode: 'canvas', width: 1920, height: 1080, scale: 'fit', background: '#0b1733', widgets: [] },
  },
  {
    code: 'office-overview',
    name: { zh: '办公概览', en: 'Office overview' },
    body: {
      mode: 'grid',
      width: 1920,
      height: 1080,
      scale: 'fit',
      background: '',
      widgets: [
        w('title', 'text', [0, 0, 18, 2], { text: 'Overview', fontSize: 24 }),
        w('clock', 'clock', [18, 0, 6, 2], { format: 'datetime', fontSize: 20 }),
        w('n1', 'number', [0, 2, 6, 4]),
        w('n2', 'number', [6, 2, 6, 4]),
        w('n3', 'number', [12, 2, 6, 4]),
        w('dev', 'deviceStatus', [18, 2, 6, 4]),
        w('tbl', 'table', [0, 6, 24, 8]),
      ],
    },
  },
  {
    code: 'screen-monitor',
    name: { zh: '监控大屏', en: 'Monitoring big screen' },
    body: {
      mode: 'canvas',
      width: 1920,
      height: 1080,
      scale: 'fit',
      background: '#0b1733',
      widgets: [
        w('title', 'text', [560, 20, 800, 80], {
          text: 'Monitoring',
          fontSize: 44,
          color: '#e6f4ff',
          align: 'center',
        }),
        w('clock', 'clock', [1480, 30, 400, 60], { fontSize: 28 }),
        w('n1', 'number', [40, 140, 420, 200]),
        w('n2', 'number', [500, 140, 420, 200]),
        w('n3', 'number', [960, 140, 420, 200]),
        w('dev', 'deviceStatus', [1420, 140, 460, 420]),
        w('tbl', 'table', [40, 380, 1340, 560]),
        w('news', 'marquee', [40, 980, 1840, 60], { text: '', color: '#e6f4ff' }),
      ],
    },
  },
];

export function builtInTemplate(code: string): BuiltInTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((t) => t.code === code);
}
