/**
 * Electricity meters for the demo company (docs/energy.md): the switch room's incoming meter as
 * a standard meter behind CT 30/5 (the children behind 75/5 and 100/5), the lighting circuit and the compressor as its child
 * meters, a virtual "other loads" meter (parent minus children) and a time-of-use tariff with
 * prices, so the meter pages and reports have numbers on first start.
 *
 * The three IoT items the demo gateways fill (seed/demo-gateways.ts) get hourly readings for
 * the last DEMO_METER_DAYS days, computed by the very simulator the demo gateways run
 * (`valueAt` of the slave wired to that port and address): once `npm start` runs the fleet, the
 * live readings carry on from the history without a jump or a decrease.
 */
import { DEFAULT_TIME_ZONE } from '@platform/domain';
import { SerialBus } from '@platform/gateway-sim';
import { and, eq, inArray } from 'drizzle-orm';
import type { DemoLang } from '../config';
import { createNode } from '../modules/cabin/service';
import { dataItems } from '../modules/dataitems/tables';
import { insertRecords, type NewRecord } from '../modules/ingest/store';
import { createMeter, type MeterPoint } from '../modules/meters/service';
import { saveTou } from '../modules/meters/tou';
import type { Db } from '../platform/db';
import { DEMO_FLEET } from './demo-gateways';

/** Days of hourly readings written for the metered items: last month whole, and this one. */
export const DEMO_METER_DAYS = 62;
const HOUR = 3_600_000;
const BATCH = 2_000;

const TEXT = {
  zh: { dir: '电表', main: '配电室总表', light: '照明回路电表', air: '空压机电表', other: '其他负荷' },
  en: {
    dir: 'Meters',
    main: 'Switch room incomer',
    light: 'Lighting circuit meter',
    air: 'Compressor meter',
    other: 'Other loads',
  },
} as const;

/** The metered feeds: gateway, port, slave address, and which simulator point fills which meter point. */
const METERED = [
  { sn: 'SDG4024000103', port: 1, address: 1 },
  { sn: 'SDG4024000103', port: 2, address: 3 },
  { sn: 'SDG2024000102', port: 1, address: 1 },
] as const;

const POINT_OF: Record<string, MeterPoint> = {
  energyTotal: 'energy',
  powerTotal: 'power',
  power: 'power',
  voltageL1: 'voltageA',
  voltage: 'voltageA',
  currentL1: 'currentA',
  current: 'currentA',
  powerFactor: 'powerFactor',
};

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

interface Metered {
  itemId: number;
  points: Partial<Record<MeterPoint, string>>;
}

/** Hourly readings of each metered feed's item, from the simulator, and the meter points of its fields. */
async function historyOf(
  db: Db,
  opts: { companyId: number; adminId: number; lang: DemoLang; now: Date },
): Promise<Metered[]> {
  const feeds = METERED.map((m) => {
    const entry = DEMO_FLEET.find((g) => g.sn === m.sn)!;
    const feed = entry.feeds!.find((f) => f.port === m.port && f.address === m.address)!;
    const port = entry.ports.find((p) => p.port === m.port)!;
    const slave = new SerialBus(port, entry.sn).slave(m.address)!;
    return { feed, slave, name: feed.item[opts.lang] };
  });
  const items = await db
    .select({ id: dataItems.id, name: dataItems.name })
    .from(dataItems)
    .where(
      and(
        eq(dataItems.companyId, opts.companyId),
        inArray(
          dataItems.name,
          feeds.map((f) => f.name),
        ),
      ),
    );
  const out: Metered[] = [];
  const last = Math.floor(opts.now.getTime() / HOUR) * HOUR;
  const first = last - DEMO_METER_DAYS * 24 * HOUR;
  let batch: NewRecord[] = [];
  for (const { feed, slave, name } of feeds) {
    const itemId = items.find((i) => i.name === name)?.id;
    if (itemId == null) continue;
    // the item's fields are f1… in the order of the feed's points (demo-gateways feedFields)
    const keys = feed.points.map((_, i) => `f${i + 1}`);
    const points: Partial<Record<MeterPoint, string>> = {};
    feed.points.forEach((p, i) => {
      const point = POINT_OF[p.point];
      if (point && !points[point]) points[point] = keys[i]!;
    });
    out.push({ itemId, points });
    for (let t = first; t <= last; t += HOUR) {
      const values: Record<string, number> = {};
      feed.points.forEach((p, i) => {
        values[keys[i]!] = round(slave.valueAt(p.point, t), p.decimals);
      });
      batch.push({
        companyId: opts.companyId,
        itemId,
        ts: new Date(t),
        values,
        source: 'mqtt',
        createdBy: null,
      });
      if (batch.length >= BATCH) {
        await insertRecords(db, batch, DEFAULT_TIME_ZONE);
        batch = [];
      }
    }
  }
  if (batch.length > 0) await insertRecords(db, batch, DEFAULT_TIME_ZONE);
  return out;
}

export async function seedDemoMeters(
  db: Db,
  opts: { companyId: number; adminId: number; lang: DemoLang; now?: Date },
): Promise<{ main: number; light: number; air: number; other: number } | null> {
  const text = TEXT[opts.lang];
  const caller = { companyId: opts.companyId, userId: opts.adminId };
  const metered = await historyOf(db, { ...opts, now: opts.now ?? new Date() });
  const [mainItem, lightItem, airItem] = metered;
  if (!mainItem || !lightItem || !airItem) return null;
  const dir = await createNode(db, caller, { parentId: null, type: 'directory', name: text.dir, kind: null });
  const base = { type: 101 as const, parentId: dir.id, registerDigits: 6, samplingId: 4 };
  const main = await createMeter(db, caller, {
    ...base,
    name: text.main,
    code: 'MAIN',
    itemId: mainItem.itemId,
    points: mainItem.points,
    ctPrimary: 30,
    ctSecondary: 5,
  });
  const light = await createMeter(db, caller, {
    ...base,
    name: text.light,
    code: 'LIGHT',
    itemId: lightItem.itemId,
    points: lightItem.points,
    ctPrimary: 75,
    ctSecondary: 5,
    parentMeterId: main.id,
  });
  const air = await createMeter(db, caller, {
    ...base,
    name: text.air,
    code: 'AIR',
    itemId: airItem.itemId,
    points: airItem.points,
    ctPrimary: 100,
    ctSecondary: 5,
    parentMeterId: main.id,
  });
  const other = await createMeter(db, caller, {
    type: 100,
    parentId: dir.id,
    name: text.other,
    code: 'OTHER',
    preset: { kind: 'remainder', meterId: main.id },
  });
  // a common industrial tariff: prices in cents per kWh, peak 4 × valley
  await saveTou(
    db,
    { ...caller, lang: opts.lang },
    {
      schedule: {
        valley: [{ from: 23, to: 7 }],
        flat: [
          { from: 7, to: 10 },
          { from: 15, to: 18 },
          { from: 21, to: 23 },
        ],
        peak: [
          { from: 10, to: 12 },
          { from: 18, to: 21 },
        ],
        sharp: [{ from: 12, to: 15 }],
      },
      prices: { sharp: 142, peak: 118, flat: 70, valley: 29 },
    },
  );
  return { main: main.id, light: light.id, air: air.id, other: other.id };
}
