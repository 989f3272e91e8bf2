/**
 * Demo contents of the data engine for the demo company: a production directory with three
 * weeks of hourly output per line, an energy directory with an IoT boiler item fed by a demo device (the
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
import type { DemoLang } from '../config';
import { computeValues } from '../modules/analysis/scheduler';
import type { JobRow } from '../modules/analysis/service';
import { analysisJobs, analysisRuns } from '../modules/analysis/tables';
import { cabinNodes } from '../modules/cabin/tables';
import { dataItems } from '../modules/dataitems/tables';
import { newKey } from '../modules/ingest/keys';
import { insertRecords, type NewRecord } from '../modules/ingest/store';
import { submissionKeys } from '../modules/ingest/tables';
import type { Db } from '../platform/db';
import { sha256 } from '../platform/tokens';

export const DEMO_DEVICE_ID = 'DEMO-BOILER-01';
/** the demo device key's name in either language (the publisher finds the key by it) */
export const DEMO_KEY_NAMES: Record<DemoLang, string> = { zh: '演示锅炉采集器', en: 'Demo boiler gateway' };
export const DEMO_KEY_NAME = DEMO_KEY_NAMES.zh;
/** the daily steam job fires at 23:55 company time */
export const DEMO_STEAM_CRON = '0 55 23 * * ?';
/** days of history written at seed time (records, and the daily job's past runs) */
export const DEMO_HISTORY_DAYS = 21;
/** records generated and inserted at a time: the seed never holds the whole history at once */
export const DEMO_BATCH = 1_000;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Every name the demo data carries, in the language it is seeded in. */
export interface DemoText {
  company: string;
  admin: string;
  limited: string;
  product: string;
  productionDir: string;
  productionItem: string;
  productionDescription: string;
  productionFields: [string, string, string];
  lines: [string, string];
  pieces: string;
  energyDir: string;
  steamItem: string;
  steamDevice: string;
  steamDescription: string;
  steamFields: [string, string, string];
  reportItem: string;
  reportDescription: string;
  reportFields: [string, string, string];
  steamJob: string;
  keyName: string;
}

export const DEMO_TEXT: Record<DemoLang, DemoText> = {
  zh: {
    company: '演示公司',
    admin: '演示管理员',
    limited: '演示操作员',
    product: '智慧数据平台 标准版（年付）',
    productionDir: '生产数据',
    productionItem: '产线小时产量',
    productionDescription: '各产线每小时的产量与合格率',
    productionFields: ['产线', '产量', '合格率'],
    lines: ['A线', 'B线'],
    pieces: '件',
    energyDir: '能源',
    steamItem: '锅炉蒸汽',
    steamDevice: '1号燃气锅炉',
    steamDescription: '1号燃气锅炉出口蒸汽，每5秒一条',
    steamFields: ['温度', '压力', '流量'],
    reportItem: '蒸汽日报',
    reportDescription: '由智能分析每日23:55写入',
    reportFields: ['蒸汽总量', '平均压力', '最高温度'],
    steamJob: '今日蒸汽总量',
    keyName: DEMO_KEY_NAMES.zh,
  },
  en: {
    company: 'Demo Company',
    admin: 'Demo Administrator',
    limited: 'Demo Operator',
    product: 'Smart Data Platform Standard (yearly)',
    productionDir: 'Production',
    productionItem: 'Hourly line output',
    productionDescription: 'Output and pass rate of each line, hour by hour',
    productionFields: ['Line', 'Output', 'Pass rate'],
    lines: ['Line A', 'Line B'],
    pieces: 'pcs',
    energyDir: 'Energy',
    steamItem: 'Boiler steam',
    steamDevice: 'Gas boiler no. 1',
    steamDescription: 'Steam at the outlet of gas boiler no. 1, a reading every 5 s',
    steamFields: ['Temperature', 'Pressure', 'Flow'],
    reportItem: 'Daily steam report',
    reportDescription: 'Written by an analysis job every day at 23:55',
    reportFields: ['Steam total', 'Average pressure', 'Peak temperature'],
    steamJob: 'Daily steam total',
    keyName: DEMO_KEY_NAMES.en,
  },
};

export const DEMO_STEAM_JOB = DEMO_TEXT.zh.steamJob;

export function productionFields(text: DemoText): FieldDef[] {
  const [line, output, rate] = text.productionFields;
  return [
    { key: 'f1', name: line, type: 5, required: true },
    { key: 'f2', name: output, unit: text.pieces, type: 10 },
    { key: 'f3', name: rate, unit: '%', type: 1, decimals: 2 },
  ];
}
export function steamFields(text: DemoText): FieldDef[] {
  const [temperature, pressure, flow] = text.steamFields;
  return [
    { key: 'f1', name: temperature, unit: '℃', type: 1, decimals: 1 },
    { key: 'f2', name: pressure, unit: 'MPa', type: 1, decimals: 3 },
    { key: 'f3', name: flow, unit: 't/h', type: 1, decimals: 2 },
  ];
}
export function steamReportFields(text: DemoText): FieldDef[] {
  const [total, pressure, peak] = text.reportFields;
  return [
    { key: 'f1', name: total, unit: 't', type: 1, decimals: 2 },
    { key: 'f2', name: pressure, unit: 'MPa', type: 1, decimals: 3 },
    { key: 'f3', name: peak, unit: '℃', type: 1, decimals: 1 },
  ];
}
export const PRODUCTION_FIELDS: FieldDef[] = productionFields(DEMO_TEXT.zh);
export const STEAM_FIELDS: FieldDef[] = steamFields(DEMO_TEXT.zh);
export const STEAM_REPORT_FIELDS: FieldDef[] = steamReportFields(DEMO_TEXT.zh);

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

/**
 * One boiler reading around a daily load curve (more steam by day), by field key:
 * f1 temperature, f2 pressure, f3 flow.
 */
export function steamReading(at: Date, random: () => number): { f1: number; f2: number; f3: number } {
  const hourOfDay = (at.getUTCHours() + 8) % 24;
  const load = 0.75 + 0.25 * Math.sin(((hourOfDay - 6) / 24) * 2 * Math.PI);
  return {
    f1: round(180 + 12 * load + (random() - 0.5) * 3, 1),
    f2: round(0.9 + 0.2 * load + (random() - 0.5) * 0.02, 3),
    f3: round(8 + 6 * load + (random() - 0.5) * 0.8, 2),
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

/** Inserts the generated rows a batch at a time (rollups kept with them). */
async function insertInBatches(db: Db, rows: Iterable<NewRecord>): Promise<void> {
  let batch: NewRecord[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= DEMO_BATCH) {
      await insertRecords(db, batch, DEFAULT_TIME_ZONE);
      batch = [];
    }
  }
  if (batch.length > 0) await insertRecords(db, batch, DEFAULT_TIME_ZONE);
}

/**
 * Seeds the demo company's cabin in `lang`, with DEMO_HISTORY_DAYS of history ending at `now`
 * (default: the current time), and runs the daily steam job for each past day, as its
 * schedule would have, so the report has rows from the start.
 */
export async function seedDemoData(
  db: Db,
  opts: { companyId: number; adminId: number; now?: Date; lang?: DemoLang },
): Promise<DemoDataIds> {
  const { companyId, adminId } = opts;
  const text = DEMO_TEXT[opts.lang ?? 'zh'];
  const now = opts.now ?? new Date();
  const random = seededRandom(20261123);

  const production = await node(db, companyId, adminId, null, 'directory', text.productionDir, 1);
  const productionItemId = await item(
    db,
    companyId,
    adminId,
    production,
    {
      name: text.productionItem,
      kind: 10,
      fields: productionFields(text),
      description: text.productionDescription,
    },
    1,
  );
  const energy = await node(db, companyId, adminId, null, 'directory', text.energyDir, 2);
  const steamItemId = await item(
    db,
    companyId,
    adminId,
    energy,
    {
      name: text.steamItem,
      kind: 13,
      fields: steamFields(text),
      sources: [{ deviceId: DEMO_DEVICE_ID, deviceName: text.steamDevice }],
      description: text.steamDescription,
    },
    1,
  );
  const steamReportItemId = await item(
    db,
    companyId,
    adminId,
    energy,
    {
      name: text.reportItem,
      kind: 10,
      fields: steamReportFields(text),
      description: text.reportDescription,
    },
    2,
  );

  // hourly production for two lines over the history, ending at the last whole hour
  const lastHour = Math.floor(now.getTime() / HOUR) * HOUR;
  const hours = DEMO_HISTORY_DAYS * 24;
  await insertInBatches(
    db,
    (function* () {
      for (let h = hours - 1; h >= 0; h -= 1) {
        const ts = new Date(lastHour - h * HOUR);
        const localHour = (ts.getUTCHours() + 8) % 24;
        const shift = localHour >= 8 && localHour < 20 ? 1 : 0.6;
        for (const [line, base] of [
          [text.lines[0], 120],
          [text.lines[1], 95],
        ] as const) {
          yield {
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
          };
        }
      }
    })(),
  );
  // boiler readings every 5 minutes over the history (the live publisher adds every 5 s from now on)
  const step = 5 * 60_000;
  const lastStep = Math.floor(now.getTime() / step) * step;
  await insertInBatches(
    db,
    (function* () {
      for (let t = lastStep - DEMO_HISTORY_DAYS * DAY; t <= lastStep; t += step) {
        yield {
          companyId,
          itemId: steamItemId,
          ts: new Date(t),
          source: 'mqtt',
          createdBy: null,
          values: steamReading(new Date(t), random),
        };
      }
    })(),
  );

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
      name: text.steamJob,
      enabled: true,
      cron: DEMO_STEAM_CRON,
      type: 'record',
      assignments,
      nextRunAt: new Date(nextFires(DEMO_STEAM_CRON, now.getTime(), 1, DEFAULT_TIME_ZONE)[0]!),
    })
    .returning();
  await backfillJob(db, job!, now);

  // the demo device's key: only a hash of a key nobody holds; the publisher replaces it with
  // a fresh one at each start (rotateDemoDeviceKey) and keeps the plain key in memory only
  const unknownKey = newKey();
  const [key] = await db
    .insert(submissionKeys)
    .values({
      companyId,
      userId: adminId,
      kind: 'device',
      name: text.keyName,
      deviceId: DEMO_DEVICE_ID,
      prefix: unknownKey.slice(0, 12),
      keyHash: sha256(unknownKey),
    })
    .returning({ id: submissionKeys.id });

  return { productionItemId, steamItemId, steamReportItemId, steamJobId: job!.id, deviceKeyId: key!.id };
}

/**
 * The job's fires over the history that ended before `now`, each run as the scheduler would
 * have run it at the time: its record (at the fire time) and its run log entry.
 */
async function backfillJob(db: Db, job: JobRow, now: Date): Promise<void> {
  // from the first whole day of the history: each run sums a full day of readings
  const from = now.getTime() - (DEMO_HISTORY_DAYS - 1) * DAY;
  const fires = nextFires(job.cron!, from, DEMO_HISTORY_DAYS, DEFAULT_TIME_ZONE).filter(
    (fire) => fire < now.getTime(),
  );
  for (const fire of fires) {
    const fireTime = new Date(fire);
    const values = await computeValues(db, job, fireTime, DEFAULT_TIME_ZONE);
    const [recordId] = await insertRecords(
      db,
      [{ companyId: job.companyId, itemId: job.itemId, ts: fireTime, source: 'analysis', values }],
      DEFAULT_TIME_ZONE,
    );
    await db.insert(analysisRuns).values({
      jobId: job.id,
      fireTime,
      startedAt: fireTime,
      finishedAt: fireTime,
      status: 'ok',
      recordId: recordId ?? null,
    });
  }
  const last = fires.at(-1);
  if (last !== undefined) {
    await db
      .update(analysisJobs)
      .set({ lastRunAt: new Date(last) })
      .where(eq(analysisJobs.id, job.id));
  }
}
