/**
 * The device-family templates the platform starts with (issue 13 point 7): a PV inverter, a
 * boiler feedwater line (its switch starts and stops the feed pump), a meter cabinet and a
 * gas-blending skid (its switch opens and closes the outlet valve). Their role names are the field
 * names devices of the family usually carry (the demo's gateways among them), so `autoMapRoles`
 * places them on such a device without a person choosing points. System maintenance
 * (systemnss3dfw) edits or copies them like any template.
 */
import type { FamilyLang, FamilyRole } from './family';
import { roleBinding } from './family';
import {
  DEFAULT_SCREEN_STYLE,
  type ElementStyle,
  type ScreenBody,
  type ScreenConfigs,
  type ScreenElement,
  type ScreenElementType,
  type ThresholdRule,
} from './screen';

export interface FamilyTemplateSeed {
  code: string;
  name: Record<FamilyLang, string>;
  roles: FamilyRole[];
  body: ScreenBody;
}

type Placed<T extends ScreenElementType> = {
  type: T;
  rect: [x: number, y: number, w: number, h: number];
  config: ScreenConfigs[T];
  role?: string;
  rules?: ThresholdRule[];
  style?: Partial<ElementStyle>;
};

const role = (key: string, zh: string, en: string, unit = ''): FamilyRole => ({
  key,
  name: { zh, en },
  unit,
});

function template(
  code: string,
  name: Record<FamilyLang, string>,
  roles: FamilyRole[],
  size: [width: number, height: number],
  placed: Placed<ScreenElementType>[],
): FamilyTemplateSeed {
  const index = (key: string) => {
    const i = roles.findIndex((r) => r.key === key);
    if (i < 0) throw new Error(`template ${code}: no role ${key}`);
    return i;
  };
  const elements = placed.map((p, z): ScreenElement => {
    const [x, y, w, h] = p.rect;
    return {
      id: `${code}-${z + 1}`,
      type: p.type,
      x,
      y,
      w,
      h,
      z: z + 1,
      locked: false,
      hidden: false,
      style: { ...DEFAULT_SCREEN_STYLE, ...p.style },
      binding: p.role ? roleBinding(index(p.role)) : null,
      rules: p.rules ?? [],
      config: p.config,
    } as ScreenElement;
  });
  return {
    code,
    name,
    roles,
    body: { width: size[0], height: size[1], background: '#0b1a2e', staleSeconds: 60, elements },
  };
}

const title = (): Placed<'text'> => ({
  type: 'text',
  rect: [40, 24, 760, 44],
  config: { text: '{template}', unit: '', decimals: 0, align: 'left' },
  style: { color: '#cfe3ff', fontSize: 30 },
});

/** `{role} value unit` at x, y, bound to the role */
const reading = (
  x: number,
  y: number,
  key: string,
  unit: string,
  decimals: number,
  rules: ThresholdRule[] = [],
): Placed<'text'> => ({
  type: 'text',
  rect: [x, y, 320, 36],
  config: { text: '{role} ', unit, decimals, align: 'left' },
  role: key,
  rules,
  style: { color: '#ffffff', fontSize: 22 },
});

const pipe = (x: number, y: number, length: number, key?: string, vertical = false): Placed<'line'> => ({
  type: 'line',
  rect: vertical ? [x, y, 40, length] : [x, y, length, 40],
  config: {
    points: vertical
      ? [
          { x: 20, y: 0 },
          { x: 20, y: length },
        ]
      : [
          { x: 0, y: 20 },
          { x: length, y: 20 },
        ],
    pipe: true,
    width: 14,
    flow: key ? 'value' : 'off',
  },
  ...(key ? { role: key } : {}),
  style: { stroke: '#5b8def' },
});

const gauge = (
  x: number,
  y: number,
  key: string,
  max: number,
  unit: string,
  decimals: number,
): Placed<'gauge'> => ({
  type: 'gauge',
  rect: [x, y, 200, 200],
  config: { min: 0, max, unit, decimals },
  role: key,
  style: { stroke: '#cfe3ff', color: '#ffffff' },
});

const caption = (x: number, y: number, words: string, w = 220): Placed<'text'> => ({
  type: 'text',
  rect: [x, y, w, 30],
  config: { text: words, unit: '', decimals: 0, align: 'center' },
  style: { color: '#8fb8ff', fontSize: 16 },
});

const box = (x: number, y: number, w: number, h: number, fill = '#1c3557'): Placed<'rect'> => ({
  type: 'rect',
  rect: [x, y, w, h],
  config: { radius: 8 },
  style: { fill, stroke: '#5b8def' },
});

const inverter = template(
  'pv-inverter',
  { zh: '光伏逆变器', en: 'PV inverter' },
  [
    role('acPower', '交流功率', 'AC power', 'kW'),
    role('dcPower', '直流功率', 'DC power', 'kW'),
    role('dailyYield', '日发电量', 'Daily yield', 'kWh'),
    role('totalYield', '累计发电量', 'Total yield', 'kWh'),
    role('status', '运行状态', 'Status'),
    role('temperature', '机内温度', 'Internal temperature', '°C'),
    role('dcVoltage', '直流电压', 'DC voltage', 'V'),
  ],
  [1280, 600],
  [
    title(),
    box(60, 150, 180, 120, '#12355e'),
    caption(60, 280, 'PV', 180),
    pipe(240, 190, 200, 'dcPower'),
    box(440, 130, 200, 160),
    caption(440, 300, '{template}', 200),
    {
      type: 'light',
      rect: [520, 180, 40, 40],
      config: { onColor: '#52c41a', offColor: '#595959' },
      role: 'status',
      rules: [{ op: '==', value: 2, effects: { fill: '#ff4d4f', blink: true } }],
    },
    pipe(640, 190, 200, 'acPower'),
    box(840, 150, 140, 120, '#2b2b45'),
    caption(840, 280, 'AC', 140),
    gauge(1020, 110, 'acPower', 25, 'kW', 2),
    reading(60, 380, 'dcVoltage', 'V', 1),
    reading(60, 430, 'dcPower', 'kW', 2),
    reading(440, 380, 'acPower', 'kW', 2),
    reading(440, 430, 'temperature', '°C', 1, [
      { op: '>', value: 75, effects: { color: '#ff4d4f', blink: true } },
    ]),
    reading(820, 380, 'dailyYield', 'kWh', 1),
    reading(820, 430, 'totalYield', 'kWh', 1),
  ],
);

const boiler = template(
  'boiler-feedwater',
  { zh: '锅炉给水系统', en: 'Boiler feedwater' },
  [
    role('flow', '流量', 'Flow', 'm³/h'),
    role('pressure', '压力', 'Pressure', 'MPa'),
    role('waterTemperature', '水温', 'Water temperature', '°C'),
    role('totalVolume', '累计流量', 'Total volume', 'm³'),
    role('roomTemperature', '温度', 'Temperature', '°C'),
    role('humidity', '湿度', 'Humidity', '%'),
  ],
  [1280, 560],
  [
    title(),
    {
      type: 'tank',
      rect: [60, 120, 140, 260],
      config: { min: 0, max: 100, showValue: true },
      role: 'humidity',
      style: { fill: '#1677ff', stroke: '#8fb8ff' },
    },
    reading(40, 390, 'humidity', '%', 1),
    pipe(200, 300, 220, 'flow'),
    {
      type: 'pump',
      rect: [420, 270, 100, 100],
      config: { shape: 'pump' },
      role: 'flow',
      style: { fill: '#2f4f7f', stroke: '#cfe3ff' },
    },
    pipe(520, 300, 300, 'flow'),
    // starts and stops the feed pump (on while water flows); the device maps the commands
    {
      type: 'switch',
      rect: [560, 160, 220, 52],
      config: { label: '{template}', onCommand: 'pumpStart', offCommand: 'pumpStop', confirm: '' },
      role: 'flow',
      // no fill of its own: the switch shows on (green) and off by its value
      style: { color: '#ffffff' },
    },
    gauge(860, 110, 'pressure', 1.6, 'MPa', 3),
    reading(860, 320, 'pressure', 'MPa', 3),
    reading(420, 400, 'flow', 'm³/h', 2),
    reading(420, 450, 'waterTemperature', '°C', 1, [
      { op: '>', value: 90, effects: { color: '#ff4d4f', blink: true } },
    ]),
    reading(860, 400, 'totalVolume', 'm³', 1),
    reading(60, 450, 'roomTemperature', '°C', 1),
  ],
);

const cabinet = template(
  'meter-cabinet',
  { zh: '计量柜', en: 'Meter cabinet' },
  [
    role('voltage', '电压', 'Voltage', 'V'),
    role('current', '电流', 'Current', 'A'),
    role('power', '有功功率', 'Active power', 'kW'),
    role('powerFactor', '功率因数', 'Power factor'),
    role('energy', '电能', 'Energy', 'kWh'),
  ],
  [1280, 560],
  [
    title(),
    box(40, 100, 1200, 420, '#102642'),
    gauge(80, 140, 'voltage', 450, 'V', 1),
    caption(70, 350, '{template} · V'),
    gauge(340, 140, 'current', 100, 'A', 2),
    gauge(600, 140, 'power', 60, 'kW', 2),
    {
      type: 'light',
      rect: [900, 160, 40, 40],
      config: { onColor: '#52c41a', offColor: '#595959' },
      role: 'power',
    },
    reading(880, 220, 'power', 'kW', 2),
    reading(880, 270, 'powerFactor', '', 3, [{ op: '<', value: 0.85, effects: { color: '#faad14' } }]),
    reading(880, 320, 'energy', 'kWh', 1),
    reading(80, 420, 'voltage', 'V', 1),
    reading(340, 420, 'current', 'A', 2),
  ],
);

const gasSkid = template(
  'gas-blending-skid',
  { zh: '配气撬', en: 'Gas-blending skid' },
  [
    role('inletPressureA', '组分A进气压力', 'Component A inlet pressure', 'MPa'),
    role('inletPressureB', '组分B进气压力', 'Component B inlet pressure', 'MPa'),
    role('flowA', '组分A流量', 'Component A flow', 'L/min'),
    role('flowB', '组分B流量', 'Component B flow', 'L/min'),
    role('outletPressure', '出口压力', 'Outlet pressure', 'MPa'),
    role('concentration', '混合浓度', 'Blend concentration', '%'),
    role('valveOpen', '出口阀', 'Outlet valve'),
  ],
  [1280, 600],
  [
    title(),
    {
      type: 'tank',
      rect: [60, 110, 120, 200],
      config: { min: 0, max: 15, showValue: true },
      role: 'inletPressureA',
      style: { fill: '#13c2c2' },
    },
    {
      type: 'tank',
      rect: [60, 350, 120, 200],
      config: { min: 0, max: 15, showValue: true },
      role: 'inletPressureB',
      style: { fill: '#722ed1' },
    },
    pipe(180, 190, 320, 'flowA'),
    pipe(180, 430, 320, 'flowB'),
    pipe(500, 190, 280, 'flowA', true),
    box(540, 270, 200, 120),
    caption(540, 400, '{template}', 200),
    pipe(740, 310, 160, 'flowA'),
    { type: 'valve', rect: [900, 300, 80, 60], config: { orientation: 'horizontal' }, role: 'valveOpen' },
    {
      type: 'switch',
      rect: [860, 400, 180, 52],
      config: { label: '{role}', onCommand: 'valveOpen', offCommand: 'valveClose', confirm: '' },
      role: 'valveOpen',
      style: { color: '#ffffff' },
    },
    pipe(980, 310, 200, 'flowA'),
    gauge(1020, 80, 'outletPressure', 1, 'MPa', 3),
    reading(200, 120, 'flowA', 'L/min', 2),
    reading(200, 500, 'flowB', 'L/min', 2),
    reading(760, 420, 'concentration', '%', 3),
    reading(760, 470, 'outletPressure', 'MPa', 3),
  ],
);

export const BUILTIN_FAMILY_TEMPLATES: readonly FamilyTemplateSeed[] = [inverter, boiler, cabinet, gasSkid];

/** the built-in family whose roles the inverter dashboard (/inverterDashboard) reads */
export const INVERTER_FAMILY = 'pv-inverter';
/** inverter status codes: 0 standby, 1 generating, 2 fault, 3 shut down */
export const INVERTER_STATUSES = ['standby', 'generating', 'fault', 'shutDown'] as const;
