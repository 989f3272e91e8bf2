/**
 * Demo contents of the data engine for the demo company: a production directory with a week of
 * hourly output per line, an energy directory with an IoT boiler item fed by a demo device (the
 * demo publisher sends a reading every 5 s) and a daily steam report filled by an analysis job.
 * Written straight into the tables; records go through the ingest store so rollups are right.
 * Values come from a fixed-seed generator, so every fresh demo looks the same.
 */
import {
  type AnalysisAssignment,
  type DataSource,
  DEFAULT_TIME_ZONE,
  type FieldDef,
  type ItemKind,
  nextFires,
} from '@platform/domain';
import { eq } from 'drizzle-orm';
import { analysisJobs } from '../modules/analysis/tables';
import { cabinNodes } from '../modules/cabin/tables';
import { dataItems } from '../modules/dataitems/tables';
import { newKey } from '../modules/ingest/keys';
import { insertRecords, type NewRecord } from '../modules/ingest/store';
import { submissionKeys } from '../modules/ingest/tables';
import type { Db } from '../platform/db';
import { sha256 } from '../platform/tokens';

export const DEMO_DEVICE_ID = 'DEMO-BOILER-01';
export const DEMO_KEY_NAME = '演示锅炉采集器';
export const DEMO_STEAM_JOB = '今日蒸汽总量';
/** the daily steam job fires at 23:55 company time */
export const DEMO_STEAM_CRON = '0 55 23 * * ?';

const HOUR = 3_600_000;

export const PRODUCTION_FIELDS: FieldDef[] = [
  { key: 'f1', name: '产线', type: 5, required: true },
  { key: 'f2', name: '产量', unit: '件', type: 10 },
  { key: 'f3', name: '合格率', unit: '%', type: 1, decimals: 2 },
];
export const STEAM_FIELDS: FieldDef[] = [
  { key: 'f1', name: '温度', unit: '℃', type: 1, decimals: 1 },
  { key: 'f2', name: '压力', unit: 'MPa', type: 1, decimals: 3 },
  { key: 'f3', name: '流量', unit: 't/h', type: 1, decimals: 2 },
];
export const STEAM_REPORT_FIELDS: FieldDef[] = [
  { key: 'f1', name: '蒸汽总量', unit: 't', type: 1, decimals: 2 },
  { key: 'f2', name: '平均压力', unit: 'MPa', type: 1, decimals: 3 },
  { key: 'f3', name: '最高温度', unit: '℃', type: 1, decimals: 1 },
];

/** Mulberry32: a small fixed-seed generator, so the demo is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

/** One boiler reading around a daily load curve (more steam by day). */
export function steamReading(at: Date, random: () => number): { 温度: number; 压力: number; 流量: number } {
  const hourOfDay = (at.getUTCHours() + 8) % 24;
  const load = 0.75 + 0.25 * Math.sin(((hourOfDay - 6) / 24) * 2 * Math.PI);
  return {
    温度: round(180 + 12 * load + (random() - 0.5) * 3, 1),
    压力: round(0.9 + 0.2 * load + (random() - 0.5) * 0.02, 3),
    流量: round(8 + 6 * load + (random() - 0.5) * 0.8, 2),
  };
}

async function node(
  db: Db,
  companyId: number,
  createdBy: number,
  parentId: number | null,
  type: 'directory' | 'dataItem',
  name: string,
  sortOrder: number,
): Promise<number> {
  const [row] = await db
    .insert(cabinNodes)
    .values({ companyId, parentId, type, name, createdBy, sortOrder })
    .returning({ id: cabinNodes.id });
  return row!.id;
}

async function item(
  db: Db,
  companyId: number,
  createdBy: number,
  parentId: number,
  def: { name: string; kind: ItemKind; fields: FieldDef[]; sources?: DataSource[]; description?: string },
  sortOrder: number,
): Promise<number> {
  const nodeId = await node(db, companyId, createdBy, parentId, 'dataItem', def.name, sortOrder);
  const [row] = await db
    .insert(dataItems)
    .values({
      companyId,
      nodeId,
      name: def.name,
      kind: def.kind,
      fields: def.fields,
      nextFieldNo: def.fields.length + 1,
      sources: def.sources ?? [],
      description: def.description ?? null,
    })
    .returning({ id: dataItems.id });
  await db.update(cabinNodes).set({ refId: row!.id }).where(eq(cabinNodes.id, nodeId));
  return row!.id;
}

export interface DemoDataIds {
  productionItemId: number;
  steamItemId: number;
  steamReportItemId: number;
  steamJobId: number;
  deviceKeyId: number;
}

/** Seeds the demo company's cabin; `now` fixes the end of the generated history. */
export async function seedDemoData(
  db: Db,
  opts: { companyId: number; adminId: number; now?: Date },
): Promise<DemoDataIds> {
  const { companyId, adminId } = opts;
  const now = opts.now ?? new Date();
  const random = seededRandom(20261123);

  const production = await node(db, companyId, adminId, null, 'directory', '生产数据', 1);
  const productionItemId = await item(
    db,
    companyId,
    adminId,
    production,
    { name: '产线小时产量', kind: 10, fields: PRODUCTION_FIELDS, description: '各产线每小时的产量与合格率' },
    1,
  );
  const energy = await node(db, companyId, adminId, null, 'directory', '能源', 2);
  const steamItemId = await item(
    db,
    companyId,
    adminId,
    energy,
    {
      name: '锅炉蒸汽',
      kind: 13,
      fields: STEAM_FIELDS,
      sources: [{ deviceId: DEMO_DEVICE_ID, deviceName: '1号燃气锅炉' }],
      description: '1号燃气锅炉出口蒸汽，每5秒一条',
    },
    1,
  );
  const steamReportItemId = await item(
    db,
    companyId,
    adminId,
    energy,
    { name: '蒸汽日报', kind: 10, fields: STEAM_REPORT_FIELDS, description: '由智能分析每日23:55写入' },
    2,
  );

  // a week of hourly production for two lines, ending at the last whole hour
  const lastHour = Math.floor(now.getTime() / HOUR) * HOUR;
  const rows: NewRecord[] = [];
  for (let h = 7 * 24 - 1; h >= 0; h -= 1) {
    const ts = new Date(lastHour - h * HOUR);
    const localHour = (ts.getUTCHours() + 8) % 24;
    const shift = localHour >= 8 && localHour < 20 ? 1 : 0.6;
    for (const [line, base] of [
      ['A线', 120],
      ['B线', 95],
    ] as const) {
      rows.push({
        companyId,
        itemId: productionItemId,
        ts,
        source: 'import',
        createdBy: adminId,
        values: {
          f1: line,
          f2: Math.round(base * shift + (random() - 0.5) * 20),
          f3: round(96 + random() * 3.5, 2),
        },
      });
    }
  }
  // two days of boiler readings every 5 minutes (the live publisher adds every 5 s from now on)
  const step = 5 * 60_000;
  const lastStep = Math.floor(now.getTime() / step) * step;
  for (let t = lastStep - 2 * 24 * HOUR; t <= lastStep; t += step) {
    const reading = steamReading(new Date(t), random);
    rows.push({
      companyId,
      itemId: steamItemId,
      ts: new Date(t),
      source: 'mqtt',
      createdBy: null,
      values: { f1: reading.温度, f2: reading.压力, f3: reading.流量 },
    });
  }
  await insertRecords(db, rows, DEFAULT_TIME_ZONE);

  const assignments: AnalysisAssignment[] = [
    { field: 'f1', mode: 'ref', sources: [{ itemId: steamItemId, field: 'f3' }], method: 'totalToday' },
    {
      field: 'f2',
      mode: 'ref',
      sources: [{ itemId: steamItemId, field: 'f2' }],
      method: 'rangeAvg',
      range: 'today',
    },
    {
      field: 'f3',
      mode: 'ref',
      sources: [{ itemId: steamItemId, field: 'f1' }],
      method: 'rangeMax',
      range: 'today',
    },
  ];
  const [job] = await db
    .insert(analysisJobs)
    .values({
      companyId,
      itemId: steamReportItemId,
      name: DEMO_STEAM_JOB,
      enabled: true,
      cron: DEMO_STEAM_CRON,
      type: 'record',
      assignments,
      nextRunAt: new Date(nextFires(DEMO_STEAM_CRON, now.getTime(), 1, DEFAULT_TIME_ZONE)[0]!),
    })
    .returning({ id: analysisJobs.id });

  // the demo device's key: only a hash of a key nobody holds; the publisher replaces it with
  // a fresh one at each start (rotateDemoDeviceKey) and keeps the plain key in memory only
  const unknownKey = newKey();
  const [key] = await db
    .insert(submissionKeys)
    .values({
      companyId,
      userId: adminId,
      kind: 'device',
      name: DEMO_KEY_NAME,
      deviceId: DEMO_DEVICE_ID,
      prefix: unknownKey.slice(0, 12),
      keyHash: sha256(unknownKey),
    })
    .returning({ id: submissionKeys.id });

  return { productionItemId, steamItemId, steamReportItemId, steamJobId: job!.id, deviceKeyId: key!.id };
}
