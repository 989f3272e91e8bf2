/**
 * The energy data platform for the demo company: a boiler house, a plant and a workshop, and
 * two years of monthly records up to last month (coal and gas burnt in the boiler house, the
 * steam it produced, the steam the plant and the workshop consumed), higher in winter and a
 * few percent lower this year than last, so the pages have months, totals and changes to show.
 */
import type { DemoLang } from '../config';
import { energyRecords, energySites } from '../modules/energydata/tables';
import type { Db } from '../platform/db';

const TEXT = {
  zh: { boiler: '一号锅炉房', plant: '总装厂', workshop: '涂装车间', monthly: '月度抄表' },
  en: {
    boiler: 'Boiler house 1',
    plant: 'Assembly plant',
    workshop: 'Paint workshop',
    monthly: 'Monthly reading',
  },
} as const;

/** Months of history seeded, ending with last month. */
export const DEMO_ENERGY_MONTHS = 24;

export async function seedDemoEnergy(
  db: Db,
  opts: { companyId: number; adminId: number; lang: DemoLang; now?: Date },
): Promise<void> {
  const text = TEXT[opts.lang];
  const { companyId } = opts;
  const sites = await db
    .insert(energySites)
    .values([
      { companyId, name: text.boiler, type: 'boilerHouse', remark: '2 × 10 t/h' },
      { companyId, name: text.plant, type: 'plant' },
      { companyId, name: text.workshop, type: 'workshop' },
    ])
    .returning({ id: energySites.id });
  const [boiler, plant, workshop] = sites.map((s) => s.id) as [number, number, number];
  const now = opts.now ?? new Date();
  // the first day of last month, in UTC calendar terms (a month either way of a zone is fine here)
  const rows: (typeof energyRecords.$inferInsert)[] = [];
  for (let back = DEMO_ENERGY_MONTHS; back >= 1; back -= 1) {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const periodOn = first.toISOString().slice(0, 10);
    const month = first.getUTCMonth();
    // winter needs more heat; this year a few percent less than last
    const season = 1 + 0.35 * Math.cos((2 * Math.PI * month) / 12);
    const year = back <= 12 ? 0.96 : 1;
    const wobble = 1 + 0.03 * Math.sin(back * 1.7);
    const q = (base: number) => Math.round(base * season * year * wobble * 10) / 10;
    const record = (siteId: number, kind: string, quantity: number) =>
      rows.push({
        companyId,
        siteId,
        kind,
        periodType: 'month',
        periodOn,
        quantity,
        remark: text.monthly,
        createdBy: opts.adminId,
      });
    record(boiler, 'coal', q(1150));
    record(boiler, 'gas', q(86_000));
    record(workshop, 'gas', q(12_500));
    record(boiler, 'steamOutput', q(7600));
    record(plant, 'steamConsume', q(4900));
    record(workshop, 'steamConsume', q(2300));
  }
  await db.insert(energyRecords).values(rows);
}
