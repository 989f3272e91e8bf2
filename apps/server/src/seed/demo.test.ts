import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import {
  DEMO_ADMIN_PHONE,
  DEMO_LIMITED_PHONE,
  DEMO_PASSWORD,
  isEmpty,
  seedDemo,
  seedFirstAdmin,
} from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function codesOf(phone: string, password: string): Promise<string[]> {
  const token = await login(t.app, phone, password);
  const res = await t.app.inject({ method: 'GET', url: '/general/user/getUser', headers: bearer(token) });
  return res.json().data.menuCode;
}

describe('demo seed', () => {
  it('creates an administrator with every code and a limited user', async () => {
    expect(await isEmpty(t.db)).toBe(true);
    const logins = await seedDemo(t.db);
    expect(logins.map((l) => l.phone)).toEqual([DEMO_ADMIN_PHONE, DEMO_LIMITED_PHONE]);
    expect(await isEmpty(t.db)).toBe(false);
    const admin = await codesOf(DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    expect(admin).toContain('um_user');
    expect(admin).toContain('system_company');
    expect(admin.length).toBeGreaterThan(80);
    expect(await codesOf(DEMO_LIMITED_PHONE, DEMO_PASSWORD)).toEqual([
      'pc_my_assignment',
      'pc_my_order',
      'sd_capsule',
      'smart_data',
    ]);
  });

  it('production: the first administrator takes the password given', async () => {
    await seedFirstAdmin(t.db, '13700000000', 'prod-secret-42');
    expect(await codesOf('13700000000', 'prod-secret-42')).toContain('system_user');
  });
});
