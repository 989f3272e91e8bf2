/**
 * Demo data for the embedded default, written once on first start: a demo company run by an
 * administrator holding every code (the platform company, so the system area shows too) and
 * a limited user who sees only the data cabin and the personal center, and a few gateways
 * (seed/demo-gateways.ts).
 */
import { count } from 'drizzle-orm';
import type { DemoLang } from '../config';
import { addActiveMember, createCompany } from '../modules/companies/service';
import { orders } from '../modules/orders/tables';
import { createUser } from '../modules/users/service';
import { users } from '../modules/users/tables';
import type { Db } from '../platform/db';
import { DEMO_TEXT, seedDemoData } from './demo-data';
import { seedDemoEnergy } from './demo-energy';
import { seedDemoFlowcharts } from './demo-flowcharts';
import { seedDemoGas } from './demo-gas';
import { seedDemoGateways } from './demo-gateways';
import { seedDemoInventory } from './demo-inventory';
import { seedDemoMeters } from './demo-meters';
import { seedDemoScreens } from './demo-screens';
import { seedDemoSims } from './demo-sims';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_ADMIN_PHONE = '13800000000';
export const DEMO_LIMITED_PHONE = '13800000001';

export interface DemoLogin {
  role: string;
  phone: string;
  password: string;
}

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return Number(row?.n ?? 0) === 0;
}

/**
 * The demo company, its users and data, named in `lang` (DEMO_LANG; built-in role names are
 * labels the web translates, so they stay as stored). `now` fixes the end of the history.
 */
export async function seedDemo(
  db: Db,
  opts: {
    lang?: DemoLang;
    now?: Date;
    dataDir?: string;
    /** seconds between reads of the demo gateways' meters and sensors (tests go faster) */
    demoPollS?: number;
  } = {},
): Promise<DemoLogin[]> {
  const lang = opts.lang ?? 'zh';
  const text = DEMO_TEXT[lang];
  const admin = await createUser(db, {
    phone: DEMO_ADMIN_PHONE,
    userName: text.admin,
    password: DEMO_PASSWORD,
  });
  const limited = await createUser(db, {
    phone: DEMO_LIMITED_PHONE,
    userName: text.limited,
    password: DEMO_PASSWORD,
  });
  const endsAt = new Date((opts.now?.getTime() ?? Date.now()) + 20 * 86_400_000);
  const { company, ordinaryRoleId } = await createCompany(db, {
    name: text.company,
    ownerId: admin.id,
    isPlatform: true,
    serviceExpiresAt: endsAt,
  });
  await addActiveMember(db, company.id, limited.id, [ordinaryRoleId]);
  await db.insert(orders).values({
    companyId: company.id,
    userId: admin.id,
    orderNo: `DEMO-${company.id}-0001`,
    swProductId: 13,
    subTypeId: 1,
    productName: text.product,
    amountCents: 980000,
    startsAt: new Date(endsAt.getTime() - 365 * 86_400_000),
    endsAt,
  });
  await seedDemoData(db, { companyId: company.id, adminId: admin.id, lang, now: opts.now });
  await seedDemoGateways(db, {
    companyId: company.id,
    adminId: admin.id,
    lang,
    now: opts.now,
    dataDir: opts.dataDir,
    ...(opts.demoPollS ? { pollS: opts.demoPollS } : {}),
  });
  await seedDemoSims(db, { companyId: company.id, lang, now: opts.now });
  await seedDemoGas(db, { companyId: company.id, lang });
  await seedDemoInventory(db, { companyId: company.id, adminId: admin.id, lang });
  await seedDemoEnergy(db, { companyId: company.id, adminId: admin.id, lang, now: opts.now });
  await seedDemoMeters(db, { companyId: company.id, adminId: admin.id, lang, now: opts.now });
  await seedDemoScreens(db, { companyId: company.id, adminId: admin.id, lang });
  await seedDemoFlowcharts(db, { companyId: company.id, adminId: admin.id, lang });
  return [
    { role: 'administrator (every code)', phone: DEMO_ADMIN_PHONE, password: DEMO_PASSWORD },
    {
      role: 'limited user (data cabin + personal center)',
      phone: DEMO_LIMITED_PHONE,
      password: DEMO_PASSWORD,
    },
  ];
}

/** Production: the first administrator from ADMIN_PHONE / ADMIN_PASSWORD, on an empty database. */
export async function seedFirstAdmin(db: Db, phone: string, password: string): Promise<void> {
  const admin = await createUser(db, { phone, userName: 'Administrator', password });
  await createCompany(db, { name: 'Platform', ownerId: admin.id, isPlatform: true });
}
