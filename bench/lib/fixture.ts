/**
 * A fresh PostgreSQL database per run (`bench_<timestamp>`, dropped afterwards) and the rows a
 * benchmark needs: a company, its administrator, data items with three numeric fields and a
 * submission key, made through the server's own services (no route, no permission check).
 */
import { PGlite } from '@electric-sql/pglite';
import type { FieldDef } from '@platform/domain';
import { keyMqttUsername } from '@platform/domain';
import { eq, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { cabinNodes } from '../../apps/server/src/modules/cabin/tables';
import { createCompany } from '../../apps/server/src/modules/companies/service';
import { dataItems } from '../../apps/server/src/modules/dataitems/tables';
import { createKey } from '../../apps/server/src/modules/ingest/keys';
import { createUser } from '../../apps/server/src/modules/users/service';
import { type Database, openDatabase } from '../../apps/server/src/platform/db';

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** three numeric fields: the "3-value" record of the MQTT goal */
export const BENCH_FIELDS: FieldDef[] = [
  { key: 'f1', name: 'temperature', type: 1, decimals: 2 },
  { key: 'f2', name: 'pressure', type: 1, decimals: 2 },
  { key: 'f3', name: 'count', type: 10 },
];

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates `bench_<timestamp>` on the server of `adminUrl`; drop() removes it. */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `bench_${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return {
    name,
    url: target.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface Fixture {
  companyId: number;
  userId: number;
  /** a user key of the company administrator */
  key: string;
  keyId: number;
  /** the key's MQTT username (its password is the key) */
  mqttUsername: string;
  itemIds: number[];
}

export async function openPostgres(url: string): Promise<Database> {
  return openDatabase({ url });
}

export async function openPglite(): Promise<Database> {
  return openDatabase({ pglite: new PGlite() });
}

/** A company with its administrator, `items` data items of BENCH_FIELDS and one user key. */
export async function makeFixture(database: Database, items: number): Promise<Fixture> {
  const { db } = database;
  const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const user = await createUser(db, { phone, userName: 'bench', password: 'bench1234' });
  const { company } = await createCompany(db, { name: 'Bench company', ownerId: user.id });
  const itemIds: number[] = [];
  for (let i = 0; i < items; i++) {
    const name = `bench item ${i + 1}`;
    const itemId = await db.transaction(async (tx) => {
      const [node] = await tx
        .insert(cabinNodes)
        .values({ companyId: company.id, parentId: null, type: 'dataItem', name, createdBy: user.id })
        .returning({ id: cabinNodes.id });
      const [item] = await tx
        .insert(dataItems)
        .values({
          companyId: company.id,
          nodeId: node!.id,
          name,
          kind: 10,
          fields: BENCH_FIELDS,
          nextFieldNo: BENCH_FIELDS.length + 1,
        })
        .returning({ id: dataItems.id });
      await tx.update(cabinNodes).set({ refId: item!.id }).where(eq(cabinNodes.id, node!.id));
      return item!.id;
    });
    itemIds.push(itemId);
  }
  const { id: keyId, key } = await createKey(db, {
    companyId: company.id,
    userId: user.id,
    name: 'bench',
    kind: 'user',
  });
  return {
    companyId: company.id,
    userId: user.id,
    key,
    keyId,
    mqttUsername: keyMqttUsername(keyId),
    itemIds,
  };
}

/** One 3-value submission record, as a device sends it. */
export function sampleRecord(itemId: number, i: number): Record<string, number> {
  return { itemId, f1: 20 + (i % 100) / 10, f2: 101.25 + (i % 7), f3: i % 1000 };
}

/** The rows of a raw query, typed (drizzle's execute answers differ between pg and PGlite). */
export async function rowsOf<T>(db: Database['db'], query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
