import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../modules/companies/tables';
import { dataItems } from '../modules/dataitems/tables';
import { dataRecords } from '../modules/records/tables';
import { buildTestApp, type TestApp } from '../test/helper';
import { seedDemo } from './demo';
import { startDemoPublisher } from './demo-publisher';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  await seedDemo(t.db);
});
afterAll(() => t.close());

async function boiler() {
  const [company] = await t.db.select().from(companies).where(eq(companies.name, '演示公司'));
  const [item] = await t.db
    .select()
    .from(dataItems)
    .where(and(eq(dataItems.companyId, company!.id), eq(dataItems.name, '锅炉蒸汽')));
  return item!;
}

async function mqttRecords(itemId: number): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(dataRecords)
    .where(and(eq(dataRecords.itemId, itemId), eq(dataRecords.source, 'mqtt')));
  return Number(row!.n);
}

describe('demo boiler publisher', () => {
  it('feeds the boiler item through the embedded broker with a checked reading', async () => {
    const item = await boiler();
    const before = await mqttRecords(item.id);
    const publisher = await startDemoPublisher({
      db: t.db,
      brokerUrl: `mqtt://127.0.0.1:${t.app.mqtt!.port}`,
      log: t.app.log,
      intervalMs: 50,
    });
    expect(publisher).not.toBeNull();
    try {
      await expect
        .poll(() => mqttRecords(item.id), { timeout: 20_000, interval: 100 })
        .toBeGreaterThan(before + 2);
    } finally {
      await publisher!.stop();
    }
    const [latest] = await t.db
      .select()
      .from(dataRecords)
      .where(and(eq(dataRecords.itemId, item.id), eq(dataRecords.source, 'mqtt')))
      .orderBy(desc(dataRecords.id))
      .limit(1);
    // every field of the boiler holds a number the reading produced
    for (const field of item.fields) expect(typeof latest!.values[field.key]).toBe('number');
  });
});
