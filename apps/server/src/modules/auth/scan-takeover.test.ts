/**
 * Finding 3 as an attacker tries it: taking over an account through the scan-code login with
 * what other people can see (the victim's nickname, the QR code on the victim's screen), with a
 * request that lacks the victim's browser, or on a production server where the stand-in
 * should not exist.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../platform/db';
import { sha256 } from '../../platform/tokens';
import { buildTestApp, nextPhone, type TestApp } from '../../test/helper';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { scanSessions, tokens } from './tables';
import { newScene, pollScan, postJson, requestCode, rowCount, StandInPhone } from './test-support';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

/** The victim binds their phone's stand-in identity to their account, named after their nickname. */
async function victimWithScanLogin(nickname: string) {
  const victimPhone = new StandInPhone(t);
  const scene = await newScene(t);
  await victimPhone.confirm(scene.scanUrl, nickname);
  const phone = nextPhone();
  const bound = await postJson(t, '/user/WXScanPhoneRegister', {
    sceneId: scene.sceneId,
    phone,
    smsCode: await requestCode(t, phone),
  });
  expect(bound.json().code).toBe(0);
  const [user] = await t.db.select().from(users).where(eq(users.phone, phone));
  return { user: user!, victimPhone };
}

describe('taking over an account through the scan-code login', () => {
  it("knowing the victim's nickname gives no token: the attacker's browser is another person", async () => {
    const { user } = await victimWithScanLogin('王经理');
    expect(user.userName).toBe('王经理'); // visible to every member of the victim's companies
    const tokensBefore = await rowCount(t, tokens);

    const attacker = new StandInPhone(t);
    const scene = await newScene(t);
    const page = await attacker.confirm(scene.scanUrl, '王经理');
    expect(page.statusCode).toBe(200);
    const polled = await pollScan(t, scene.sceneId);
    expect(polled.data).toEqual({ status: 'needPhone', nickname: '王经理' });
    expect(polled.data.token).toBeUndefined();
    expect(await rowCount(t, tokens)).toBe(tokensBefore);
    const [session] = await t.db.select().from(scanSessions).where(eq(scanSessions.id, scene.sceneId));
    expect(session!.userId).toBeNull();
    expect(session!.openId).not.toBe(user.wxOpenId);
    // nor can the attacker finish by claiming the victim's phone: that needs the victim's SMS code
    const claim = await postJson(t, '/user/WXScanPhoneRegister', {
      sceneId: scene.sceneId,
      phone: user.phone,
      smsCode: '123456',
    });
    expect(claim.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    expect(await rowCount(t, tokens)).toBe(tokensBefore);
  });

  it("the identity is not derived from anything visible: the victim's own nickname, id or phone", async () => {
    const { user } = await victimWithScanLogin('李工');
    for (const visible of ['李工', String(user.id), user.phone]) {
      expect(user.wxOpenId).not.toContain(sha256(`wx:${visible}`).slice(0, 32));
      expect(user.wxOpenId).not.toContain(sha256(`standin:${visible}`).slice(0, 48));
    }
  });

  it("a confirmation without the browser's identity (a cross-site form, a script) is refused and changes nothing", async () => {
    await victimWithScanLogin('赵主管');
    const scene = await newScene(t);
    // straight to the form, no page opened: no cookie
    const forged = await t.app.inject({
      method: 'POST',
      url: new URL(scene.scanUrl).pathname,
      payload: 'nickname=%E8%B5%B5%E4%B8%BB%E7%AE%A1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('This browser has no scan identity yet');
    expect(forged.headers['set-cookie']).toBeUndefined();
    // a made-up identity cookie is not an identity either
    const madeUp = await t.app.inject({
      method: 'POST',
      url: new URL(scene.scanUrl).pathname,
      payload: 'nickname=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'scan_standin_id=%E8%B5%B5' },
    });
    expect(madeUp.statusCode).toBe(400);
    expect((await pollScan(t, scene.sceneId)).data).toEqual({ status: 'waiting' });
  });

  it('seeing the QR code on the victim screen gives no way to poll for the token', async () => {
    const { victimPhone } = await victimWithScanLogin('孙会计');
    const scene = await newScene(t);
    const state = new URL(scene.scanUrl).pathname.split('/').pop()!;
    expect(scene.scanUrl).not.toContain(scene.sceneId);
    // the onlooker polls with what the QR code shows while the victim confirms
    await victimPhone.confirm(scene.scanUrl, '孙会计');
    expect((await pollScan(t, state)).data).toEqual({ status: 'expired' });
    // only the victim's browser, which knows the scene id, gets the token
    expect((await pollScan(t, scene.sceneId)).data.status).toBe('success');
  });

  it('an account bound the old way (identity = hash of the nickname) cannot be reached by typing the nickname', async () => {
    const phone = nextPhone();
    await createUser(t.db, {
      phone,
      userName: '周老板',
      wxOpenId: sha256('wx:周老板').slice(0, 32),
    });
    const tokensBefore = await rowCount(t, tokens);
    const scene = await newScene(t);
    await new StandInPhone(t).confirm(scene.scanUrl, '周老板');
    expect((await pollScan(t, scene.sceneId)).data.status).toBe('needPhone');
    expect(await rowCount(t, tokens)).toBe(tokensBefore);
  });
});

describe('the stand-in in production mode', () => {
  it('is refused with DATABASE_URL set, unless SCAN_STANDIN enables it', async () => {
    const production = await buildTestApp({ DATABASE_URL: 'postgres://db.invalid/platform' });
    try {
      const qr = await production.app.inject({
        method: 'GET',
        url: '/general/user/access/getWXScanQrCode',
        headers: { 'accept-language': 'en' },
      });
      expect(qr.statusCode).toBe(404);
      expect(qr.json()).toEqual({
        code: ERROR_CODES.NOT_FOUND,
        message: 'Scan-code login is not configured on this platform',
        data: null,
      });
      const page = await production.app.inject({ method: 'GET', url: '/general/user/wxScan/anything' });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Scan-code login is not configured on this platform');
      expect(page.headers['set-cookie']).toBeUndefined();
      const confirm = await production.app.inject({
        method: 'POST',
        url: '/general/user/wxScan/anything',
        payload: 'nickname=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(confirm.statusCode).toBe(404);
      expect(await rowCount(production, scanSessions)).toBe(0);
    } finally {
      await production.close();
    }

    const enabled = await buildTestApp({
      DATABASE_URL: 'postgres://db.invalid/platform',
      SCAN_STANDIN: 'on',
    });
    try {
      const scene = await newScene(enabled);
      expect((await new StandInPhone(enabled).open(scene.scanUrl)).statusCode).toBe(200);
    } finally {
      await enabled.close();
    }
  }, 180_000);

  it('can be switched off in the embedded default too', async () => {
    const off = await buildTestApp({ SCAN_STANDIN: 'off' });
    try {
      const qr = await off.app.inject({ method: 'GET', url: '/general/user/access/getWXScanQrCode' });
      expect(qr.json().code).toBe(ERROR_CODES.NOT_FOUND);
    } finally {
      await off.close();
    }
  }, 120_000);
});

describe('the migration of old scan bindings', () => {
  it('clears identities derived from nicknames, and keeps the accounts', async () => {
    // a database as it was before: every migration but the last
    const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'));
    const last = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith('scan_identity_throttle'));
    expect(last).toBeGreaterThan(0);
    const older = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    await cp(MIGRATIONS_DIR, older, { recursive: true });
    await writeFile(
      path.join(older, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, last) }),
    );
    const client = new PGlite();
    try {
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: older });
      const legacy = sha256('wx:周老板').slice(0, 32);
      await client.query(
        `INSERT INTO users (phone, user_name, wx_open_id) VALUES ('13911110000', '周老板', $1), ('13911110001', '别人', NULL)`,
        [legacy],
      );
      await client.query(
        `INSERT INTO scan_sessions (id, status, expires_at) VALUES ('old-scene', 'waiting', now() + interval '1 minute')`,
      );
      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      const { rows } = await client.query<{ phone: string; wx_open_id: string | null }>(
        'SELECT phone, wx_open_id FROM users ORDER BY phone',
      );
      expect(rows).toEqual([
        { phone: '13911110000', wx_open_id: null },
        { phone: '13911110001', wx_open_id: null },
      ]);
      const sessions = await client.query('SELECT id FROM scan_sessions');
      expect(sessions.rows).toEqual([]);
    } finally {
      await client.close();
      await rm(older, { recursive: true, force: true });
    }
  }, 120_000);
});
