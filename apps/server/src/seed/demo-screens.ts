/**
 * A configuration screen for the demo's boiler room gateway (docs/configuration-screens.md), so
 * the show page has something live on first start: the feedwater line (pump, pipe and flow,
 * pressure gauge, water temperature that turns red and blinks above 90 °C) and the room's
 * climate (humidity as a tank, temperature), every element bound to a point the gateway feeds.
 * Written straight to the table, checked by the domain's checkScreenBody like any save.
 */
import {
  checkScreenBody,
  DEFAULT_SCREEN_STYLE,
  type ElementStyle,
  type FieldDef,
  type PointBinding,
  type ScreenBody,
  type ScreenConfigs,
  type ScreenElement,
  type ScreenElementType,
  type ThresholdRule,
} from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import type { DemoLang } from '../config';
import { dataItems } from '../modules/dataitems/tables';
import { gateways } from '../modules/gateways/tables';
import { configScreens } from '../modules/screens/tables';
import type { Db } from '../platform/db';
import { DEMO_FLEET } from './demo-gateways';

/** the gateway whose screen the demo has */
export const DEMO_SCREEN_SN = 'SDG2024000101';

const TEXT = {
  zh: {
    title: '锅炉房给水系统',
    flow: '给水流量',
    pressure: '给水压力',
    temperature: '水温',
    room: '锅炉房',
    roomTemperature: '室温',
    humidity: '湿度',
    running: '给水泵运行',
  },
  en: {
    title: 'Boiler feedwater',
    flow: 'Feed flow',
    pressure: 'Feed pressure',
    temperature: 'Water',
    room: 'Boiler room',
    roomTemperature: 'Room',
    humidity: 'Humidity',
    running: 'Feed pump running',
  },
} as const;

type Placed<T extends ScreenElementType> = {
  type: T;
  rect: [x: number, y: number, w: number, h: number];
  config: ScreenConfigs[T];
  binding?: PointBinding | null;
  rules?: ThresholdRule[];
  style?: Partial<ElementStyle>;
};

function element<T extends ScreenElementType>(id: string, z: number, placed: Placed<T>): ScreenElement {
  const [x, y, w, h] = placed.rect;
  return {
    id,
    type: placed.type,
    x,
    y,
    w,
    h,
    z,
    locked: false,
    hidden: false,
    style: { ...DEFAULT_SCREEN_STYLE, ...placed.style },
    binding: placed.binding ?? null,
    rules: placed.rules ?? [],
    config: placed.config,
  } as ScreenElement;
}

/** The field key of the point named `name` (in the seed's language) of an item. */
function fieldOf(fields: FieldDef[], name: string): string {
  const field = fields.find((f) => f.name === name);
  if (!field) throw new Error(`demo screen: no field ${name}`);
  return field.key;
}

export async function seedDemoScreens(
  db: Db,
  opts: { companyId: number; adminId: number; lang: DemoLang },
): Promise<void> {
  const text = TEXT[opts.lang];
  const entry = DEMO_FLEET.find((g) => g.sn === DEMO_SCREEN_SN);
  if (!entry) throw new Error('demo screen: the boiler room gateway is not in the fleet');
  const [gateway] = await db
    .select({ id: gateways.id })
    .from(gateways)
    .where(eq(gateways.serialNumber, DEMO_SCREEN_SN));
  if (!gateway) return;
  type Feed = {
    item: Record<DemoLang, string>;
    points: ReadonlyArray<{ point: string; name: Record<DemoLang, string> }>;
  };
  const itemOf = async (feed: Feed) => {
    const [item] = await db
      .select({ id: dataItems.id, fields: dataItems.fields })
      .from(dataItems)
      .where(and(eq(dataItems.companyId, opts.companyId), eq(dataItems.name, feed.item[opts.lang])));
    if (!item) throw new Error(`demo screen: no item ${feed.item[opts.lang]}`);
    return (point: string): PointBinding => {
      const named = feed.points.find((p) => p.point === point);
      if (!named) throw new Error(`demo screen: no point ${point}`);
      return { itemId: item.id, field: fieldOf(item.fields, named.name[opts.lang]) };
    };
  };
  const [water, climate] = entry.feeds ?? [];
  if (!water || !climate) throw new Error('demo screen: the boiler room gateway feeds two items');
  const feed = await itemOf(water);
  const room = await itemOf(climate);

  const label = (x: number, y: number, w: number, words: string, size = 20): Placed<'text'> => ({
    type: 'text',
    rect: [x, y, w, 32],
    config: { text: words, unit: '', decimals: 0, align: 'left' },
    style: { color: '#cfe3ff', fontSize: size },
  });
  const value = (
    x: number,
    y: number,
    words: string,
    binding: PointBinding,
    unit: string,
    decimals: number,
    rules: ThresholdRule[] = [],
  ): Placed<'text'> => ({
    type: 'text',
    rect: [x, y, 240, 36],
    config: { text: `${words} `, unit, decimals, align: 'left' },
    binding,
    rules,
    style: { color: '#ffffff', fontSize: 22 },
  });
  const placed: Placed<ScreenElementType>[] = [
    label(40, 24, 600, text.title, 30),
    {
      type: 'tank',
      rect: [60, 120, 140, 260],
      config: { min: 0, max: 100, showValue: true },
      binding: room('humidity'),
      style: { fill: '#1677ff', stroke: '#8fb8ff' },
    },
    label(60, 390, 200, `${text.room} · ${text.humidity} %`, 16),
    {
      type: 'line',
      rect: [200, 300, 220, 40],
      config: {
        points: [
          { x: 0, y: 20 },
          { x: 220, y: 20 },
        ],
        pipe: true,
        width: 14,
        flow: 'value',
      },
      binding: feed('flow'),
      style: { stroke: '#5b8def' },
    },
    {
      type: 'pump',
      rect: [420, 270, 100, 100],
      config: { shape: 'pump' },
      binding: feed('flow'),
      style: { fill: '#2f4f7f', stroke: '#cfe3ff' },
    },
    {
      type: 'line',
      rect: [520, 300, 300, 40],
      config: {
        points: [
          { x: 0, y: 20 },
          { x: 300, y: 20 },
        ],
        pipe: true,
        width: 14,
        flow: 'value',
      },
      binding: feed('flow'),
      style: { stroke: '#5b8def' },
    },
    {
      type: 'gauge',
      rect: [860, 110, 220, 220],
      config: { min: 0, max: 1.6, unit: 'MPa', decimals: 3 },
      binding: feed('pressure'),
      style: { stroke: '#cfe3ff', color: '#ffffff' },
    },
    label(880, 340, 200, text.pressure, 16),
    value(420, 400, text.flow, feed('flow'), 'm³/h', 2),
    value(420, 450, text.temperature, feed('temperature'), '°C', 1, [
      { op: '>', value: 90, effects: { color: '#ff4d4f', blink: true } },
    ]),
    {
      type: 'light',
      rect: [860, 420, 40, 40],
      config: { onColor: '#52c41a', offColor: '#595959' },
      binding: feed('flow'),
    },
    label(910, 424, 260, text.running, 18),
    value(60, 450, text.roomTemperature, room('temperature'), '°C', 1),
  ];
  const body: ScreenBody = {
    width: 1280,
    height: 560,
    background: '#0b1a2e',
    staleSeconds: 120,
    elements: placed.map((p, i) => element(`demo${i + 1}`, i + 1, p)),
  };
  const checked = checkScreenBody(body);
  if (!checked.ok) throw new Error(`demo screen: ${checked.field} ${checked.reason}`);
  await db.insert(configScreens).values({
    companyId: opts.companyId,
    gatewayId: gateway.id,
    body: checked.body,
    elementCount: checked.body.elements.length,
    updatedBy: opts.adminId,
  });
}
