/**
 * `npx tsx bench/alarms.ts` — ingest throughput with 1,000 alarm rules active against none,
 * in the same run (issue 11: the drop must be ≤ 10 %).
 *
 * In one process, on a fresh database (PGlite, and PostgreSQL when reachable): the app's own
 * ingest pipeline with the alarm service attached to its commit hook, as the server wires them.
 * `--writers` submitters in a closed loop each write one 3-value record per call (the MQTT
 * shape) round-robin over `--items` items, for `--seconds` per phase. The phases alternate:
 * no rules enabled, 1,000 rules enabled (5 per item, on f1 and f2: above, below, outside a
 * range, some with a duration), no rules, … (`--rounds` pairs), so both see the same machine;
 * the figure is the median of each kind and the ratio of the medians. The values stay inside
 * the rules' limits (a plant running normally): every sample is judged, none fires.
 *
 * Flags: --engines pglite,postgres  --items 200  --rules 1000  --writers 50  --seconds 8
 *        --rounds 3  --pg URL (default $BENCH_PG_URL or the local PostgreSQL)  --json
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { AlarmService } from '../apps/server/src/modules/alarms/service';
import { alarmRules, alarms } from '../apps/server/src/modules/alarms/tables';
import { IngestPipeline } from '../apps/server/src/modules/ingest/pipeline';
import type { Database } from '../apps/server/src/platform/db';
import { LiveBus } from '../apps/server/src/platform/live';
import {
  createBenchDatabase,
  DEFAULT_PG_URL,
  type Fixture,
  makeFixture,
  openPglite,
  openPostgres,
} from './lib/fixture';
import { median } from './lib/stats';

const { values: flags } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    items: { type: 'string', default: '200' },
    rules: { type: 'string', default: '1000' },
    writers: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
    json: { type: 'boolean', default: false },
  },
});
const num = (name: keyof typeof flags) => Number(flags[name]);

export interface AlarmBenchFigures {
  engine: string;
  items: number;
  rules: number;
  writers: number;
  secondsPerPhase: number;
  /** records per second of each phase, in run order */
  none: number[];
  withRules: number[];
  medianNone: number;
  medianRules: number;
  /** medianRules / medianNone */
  ratio: number;
  dropPercent: number;
  /** rule checks that ran (groups of commits of ruled items) and alarms opened (expected 0) */
  checks: number;
  /** of the rules phases' wall time, the share spent judging (submitters wait for it), % */
  checkSharePercent: number;
  /** checks that wrote nothing / that took the rules' locks */
  quiet: number;
  locked: number;
  alarms: number;
}

/** `count` rules over the fixture's items, none of which the bench's values breach. */
function ruleRows(fx: Fixture, count: number) {
  const shapes = [
    {
      condition: 'above',
      levels: [
        { level: 1, threshold: 80 },
        { level: 2, threshold: 90 },
      ],
      durationS: 0,
    },
    { condition: 'below', levels: [{ level: 1, threshold: -10 }], durationS: 30 },
    { condition: 'outside', levels: [{ level: 2, threshold: 0, high: 500 }], durationS: 0 },
    { condition: 'above', levels: [{ level: 3, threshold: 1000 }], durationS: 60 },
    { condition: 'below', levels: [{ level: 1, threshold: 50 }], durationS: 0 },
  ] as const;
  return Array.from({ length: count }, (_, i) => {
    const shape = shapes[i % shapes.length]!;
    return {
      companyId: fx.companyId,
      name: `bench rule ${i + 1}`,
      enabled: false,
      itemId: fx.itemIds[Math.floor(i / shapes.length) % fx.itemIds.length]!,
      // f1 runs 20..30, f2 101..108: the 'below 50' shape watches f2
      fieldKey: i % shapes.length === 4 ? 'f2' : 'f1',
      condition: shape.condition,
      levels: shape.levels.map((l) => ({ ...l })),
      durationS: shape.durationS,
      clear: null,
      recipients: { userIds: [fx.userId], groupIds: [] },
      channels: ['app' as const],
    };
  });
}

async function benchEngine(engine: string, database: Database): Promise<AlarmBenchFigures> {
  const { db } = database;
  const items = num('items');
  const ruleCount = num('rules');
  const writers = num('writers');
  const seconds = num('seconds');
  const rounds = num('rounds');
  const log = pino({ level: 'silent' });
  const fx = await makeFixture(database, items);
  const live = new LiveBus();
  const pipeline = new IngestPipeline(db, log, live);
  const service = new AlarmService(db, log, live);
  service.attach(pipeline);
  // time spent judging (the submitters wait for it)
  const judged = { ms: 0, calls: 0 };
  const check = service.check.bind(service);
  service.check = async (companyId, rows) => {
    const t0 = performance.now();
    try {
      return await check(companyId, rows);
    } finally {
      judged.ms += performance.now() - t0;
      judged.calls++;
    }
  };
  const rows = ruleRows(fx, ruleCount);
  for (let i = 0; i < rows.length; i += 200) await db.insert(alarmRules).values(rows.slice(i, i + 200));

  const setRules = async (enabled: boolean) => {
    await db
      .update(alarmRules)
      .set({ enabled, updatedAt: new Date() })
      .where(eq(alarmRules.companyId, fx.companyId));
    service.rules.invalidate();
    // load the index before the clock starts
    await service.rules.hasAny([]);
    if (service.rules.size !== (enabled ? ruleCount : 0))
      throw new Error(`rule index holds ${service.rules.size}`);
  };

  let seq = 0;
  /** closed loop: `writers` submitters, one record per call, for `ms`; records per second */
  const load = async (ms: number): Promise<number> => {
    const stop = Date.now() + ms;
    let written = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (Date.now() < stop) {
          const i = seq++;
          const itemId = fx.itemIds[i % fx.itemIds.length]!;
          await pipeline.write({
            companyId: fx.companyId,
            userId: fx.userId,
            source: 'mqtt',
            records: [{ itemId, values: { f1: 20 + (i % 100) / 10, f2: 101.25 + (i % 7), f3: i % 1000 } }],
          });
          written++;
        }
      }),
    );
    return written / ((performance.now() - started) / 1000);
  };

  const none: number[] = [];
  const withRules: number[] = [];
  await setRules(true);
  await load(2_000); // warm-up: caches, JIT, the rules' state rows
  const checksBefore = service.stats.evaluations;
  const countsBefore = { ...service.rules.counts };
  let judgedMs = 0;
  let rulesMs = 0;
  for (let r = 0; r < rounds; r++) {
    await setRules(false);
    none.push(await load(seconds * 1000));
    await setRules(true);
    const before = judged.ms;
    const t0 = performance.now();
    withRules.push(await load(seconds * 1000));
    rulesMs += performance.now() - t0;
    judgedMs += judged.ms - before;
    process.stderr.write(
      `${engine} round ${r + 1}: none ${none.at(-1)!.toFixed(0)}/s, rules ${withRules.at(-1)!.toFixed(0)}/s, checks ${JSON.stringify(service.rules.counts)} ${judged.calls} took ${judged.ms.toFixed(0)} ms\n`,
    );
  }
  const checks = service.stats.evaluations - checksBefore;
  const opened = await db.select({ id: alarms.id }).from(alarms).where(eq(alarms.companyId, fx.companyId));
  await pipeline.idle();
  pipeline.close();
  const medianNone = median(none);
  const medianRules = median(withRules);
  return {
    engine,
    items,
    rules: ruleCount,
    writers,
    secondsPerPhase: seconds,
    none: none.map(Math.round),
    withRules: withRules.map(Math.round),
    medianNone: Math.round(medianNone),
    medianRules: Math.round(medianRules),
    ratio: Number((medianRules / medianNone).toFixed(3)),
    dropPercent: Number(((1 - medianRules / medianNone) * 100).toFixed(1)),
    checks,
    checkSharePercent: Number(((judgedMs / rulesMs) * 100).toFixed(1)),
    quiet: service.rules.counts.quiet - countsBefore.quiet,
    locked: service.rules.counts.locked - countsBefore.locked,
    alarms: opened.length,
  };
}

async function main() {
  const engines = flags.engines!.split(',').map((e) => e.trim());
  const results: AlarmBenchFigures[] = [];
  if (engines.includes('pglite')) {
    const lite = await openPglite();
    try {
      results.push(await benchEngine('PGlite', lite));
    } finally {
      await lite.close();
    }
  }
  if (engines.includes('postgres')) {
    const bench = await createBenchDatabase(flags.pg!);
    try {
      const database = await openPostgres(bench.url);
      try {
        results.push(await benchEngine('PostgreSQL', database));
      } finally {
        await database.close();
      }
    } finally {
      await bench.drop();
    }
  }
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
  if (flags.json) {
    console.log(JSON.stringify({ at: new Date().toISOString(), machine, results }, null, 2));
    return;
  }
  console.log(`${new Date().toISOString()} — ${machine}`);
  console.log(
    '| engine | no rules (rec/s, median) | 1,000 rules (rec/s, median) | ratio | drop | runs none / rules |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.engine} | ${r.medianNone} | ${r.medianRules} | ${r.ratio} | ${r.dropPercent} % | ${r.none.join(', ')} / ${r.withRules.join(', ')} |`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
