/**
 * The SMS outbox of the embedded default: a person running the platform reads the stand-in's
 * codes on the console or on a page, and nobody else can.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogSmsProvider } from '../../platform/sms';
import { buildTestApp, nextPhone, type TestApp } from '../../test/helper';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});

afterAll(async () => {
  await t.close();
});

async function requestCode(app: TestApp['app'], phone: string): Promise<void> {
  const res = await app.inject({ method: 'GET', url: `/general/user/access/getSmsCode?phone=${phone}` });
  expect(res.json().code, res.body).toBe(0);
}

describe('the stand-in SMS gateway', () => {
  it('prints each code on the console, whatever the log level', async () => {
    const lines: string[] = [];
    const silentLog = t.app.log.child({}, { level: 'silent' });
    const sms = new LogSmsProvider(silentLog, (line) => lines.push(line));
    await sms.sendCode('13800000000', '123456');
    expect(lines).toEqual(['  SMS code for 13800000000: 123456  (短信验证码, valid 5 minutes)']);
  });

  it('shows the codes on the outbox page to a browser on this machine', async () => {
    const phone = nextPhone();
    await requestCode(t.app, phone);
    const code = t.sms.lastCode(phone)!;
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/dev/smsOutbox',
      remoteAddress: '127.0.0.1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(phone);
    expect(res.body).toContain(code);
  });

  it('answers "no such interface" to another machine, even one that claims to be this one', async () => {
    const phone = nextPhone();
    await requestCode(t.app, phone);
    const code = t.sms.lastCode(phone)!;
    for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }, { host: '127.0.0.1' }]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/general/dev/smsOutbox',
        remoteAddress: '192.168.1.20',
        headers,
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(code);
    }
  });

  it('does not exist in production mode (DATABASE_URL set)', async () => {
    const production = await buildTestApp({ DATABASE_URL: 'postgres://unused', LOGIN_RATE_LIMIT: '1000' });
    try {
      const phone = nextPhone();
      await requestCode(production.app, phone);
      const res = await production.app.inject({
        method: 'GET',
        url: '/general/dev/smsOutbox',
        remoteAddress: '127.0.0.1',
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(production.sms.lastCode(phone)!);
    } finally {
      await production.close();
    }
    // it builds an app of its own, which takes a while on a busy machine
  }, 90_000);
});
