import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoLang } from '../config';
import { analysisJobs } from '../modules/analysis/tables';
import { cabinNodes } from '../modules/cabin/tables';
import { companies } from '../modules/companies/tables';
import { dataItems } from '../modules/dataitems/tables';
import { devices } from '../modules/devices/tables';
import { submissionKeys } from '../modules/ingest/tables';
import { users } from '../modules/users/tables';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import { DEMO_ADMIN_PHONE, DEMO_PASSWORD, seedDemo } from './demo';
import { DEMO_DEVICE_ID } from './demo-data';
import { rotateDemoDeviceKey } from './demo-publisher';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.db, { lang: 'en' });
});
afterAll(() => t.close());

describe('DEMO_LANG', () => {
  it('reads zh by default and en when asked; anything else is refused naming the variable', () => {
    expect(demoLang(undefined)).toBe('zh');
    expect(demoLang('')).toBe('zh');
    expect(demoLang('EN')).toBe('en');
    expect(() => demoLang('fr')).toThrow(/DEMO_LANG/);
  });

  it('en: the company, users, items, fields, job and key carry English names', async () => {
    const hasChinese = (value: string) => /[\u4e00-\u9fff]/.test(value);
    const [company] = await t.db.select().from(companies);
    expect(company!.name).toBe('Demo Company');
    const people = await t.db.select({ name: users.userName }).from(users);
    expect(people.map((p) => p.name).sort()).toEqual(['Demo Administrator', 'Demo Operator']);
    const nodes = await t.db.select({ name: cabinNodes.name }).from(cabinNodes);
    expect(nodes.map((n) => n.name).sort()).toEqual([
      'Boiler feedwater',
      'Boiler room climate',
      'Boiler room gateway',
      'Boiler steam',
      'Compressed air',
      'Compressor meter',
      'Compressor power',
      'Compressor room gateway',
      'Daily steam report',
      'Devices',
      'Energy',
      'Hourly line output',
      'Lighting circuit',
      'Lighting circuit meter',
      'Meters',
      'Other loads',
      'Production',
      'Rooftop PV inverter',
      'Switch room gateway',
      'Switch room incomer',
      'Switch room power',
    ]);
    for (const device of await t.db.select().from(devices))
      expect(hasChinese(`${device.name} ${device.address}`)).toBe(false);
    const items = await t.db.select().from(dataItems);
    for (const item of items) {
      expect(hasChinese(item.name)).toBe(false);
      expect(hasChinese(item.description ?? '')).toBe(false);
      for (const field of item.fields) expect(hasChinese(`${field.name} ${field.unit ?? ''}`)).toBe(false);
    }
    const steam = items.find((i) => i.name === 'Boiler steam')!;
    expect(steam.fields.map((f) => f.name)).toEqual(['Temperature', 'Pressure', 'Flow']);
    const [job] = await t.db.select().from(analysisJobs);
    expect(job!.name).toBe('Daily steam total');
    const [key] = await t.db.select().from(submissionKeys).where(eq(submissionKeys.deviceId, DEMO_DEVICE_ID));
    expect(key!.name).toBe('Demo boiler gateway');

    // the greeting reads the English name
    const token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    const me = await t.app.inject({ method: 'GET', url: '/general/user/getUser', headers: bearer(token) });
    expect(JSON.stringify(me.json().data)).toContain('Demo Administrator');
  });

  it('en: the demo boiler key is found and submits by the English field names', async () => {
    const rotated = await rotateDemoDeviceKey(t.db);
    expect(rotated).not.toBeNull();
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/submit',
      headers: { authorization: rotated!.key },
      payload: { itemId: rotated!.itemId, Temperature: 185.2, Pressure: 1.02, Flow: 12.5 },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { count: 1 } });
  });
});
