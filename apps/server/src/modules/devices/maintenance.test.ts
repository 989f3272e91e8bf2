/**
 * Device maintenance through the real app: records with their checks, plans that come due,
 * overdue first, done moving the next due date on, and the device permission on all of it.
 */
import { addCalendarDays, ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { setPermissions } from '../cabin/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { companyToday } from './maintenance';
import { maintenancePlans } from './tables';
import { makeDevice, type TestGateway } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let tech: TestUser;
let device: TestGateway & { nodeId: number };
let other: TestGateway & { nodeId: number };
let today: string;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  tech = await makeMember(t, a, [await makeRole(t, a.id, ['dm_maintenance'])], 'technician');
  device = await makeDevice(t, a.id, { name: 'Compressor DTU' });
  other = await makeDevice(t, a.id, { name: 'Pump DTU' });
  today = await companyToday(t.app, a.id);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', path: string, token: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/general/devicemanagement/maintenance${path}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });

describe('maintenance records', () => {
  it('records work done with its cost, lists it newest first, edits and deletes it', async () => {
    const made = await call('POST', '/records/create', tech.token, {
      deviceId: device.id,
      date: '2026-03-01',
      kind: 'repair',
      description: ' Replaced the RS-485 terminal ',
      performedBy: 'Li Wei',
      cost: 120.5,
    });
    expect(made.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const id = made.json().data.id;
    await call('POST', '/records/create', tech.token, {
      deviceId: device.id,
      date: '2026-04-01',
      kind: 'inspection',
      description: 'Checked',
    });
    await call('POST', '/records/create', tech.token, {
      deviceId: other.id,
      date: '2026-02-01',
      kind: 'cleaning',
      description: 'Dust',
    });
    const list = (await call('GET', `/records?deviceId=${device.id}`, tech.token)).json().data;
    expect(list.total).toBe(2);
    expect(list.list[1]).toMatchObject({
      id,
      deviceId: device.id,
      serialNumber: device.sn,
      deviceName: 'Compressor DTU',
      date: '2026-03-01',
      kind: 'repair',
      description: 'Replaced the RS-485 terminal',
      performedBy: 'Li Wei',
      cost: 120.5,
      planId: null,
      createdBy: { id: tech.id, name: 'technician' },
    });
    expect(
      (await call('GET', '/records?kind=cleaning', tech.token))
        .json()
        .data.list.map((r: { deviceId: number }) => r.deviceId),
    ).toEqual([other.id]);
    expect((await call('GET', '/records?from=2026-03-15&to=2026-12-31', tech.token)).json().data.total).toBe(
      1,
    );
    expect((await call('GET', '/records?keyword=rs-485', tech.token)).json().data.total).toBe(1);
    expect(
      (
        await call('POST', '/records/update', tech.token, {
          id,
          cost: null,
          description: 'Terminal replaced',
        })
      ).json().code,
    ).toBe(0);
    const updated = (await call('GET', `/records?deviceId=${device.id}&kind=repair`, tech.token)).json().data
      .list[0];
    expect(updated).toMatchObject({ cost: null, description: 'Terminal replaced', performedBy: 'Li Wei' });
    expect((await call('POST', '/records/delete', tech.token, { id })).json()).toMatchObject({
      code: 0,
      message: 'Delete successfully',
    });
    expect((await call('GET', `/records?deviceId=${device.id}`, tech.token)).json().data.total).toBe(1);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const base = { deviceId: device.id, date: '2026-03-01', kind: 'repair', description: 'x' };
    const cases: Array<[object, string]> = [
      [{ ...base, date: '2026-02-30' }, 'date'],
      [{ ...base, date: undefined }, 'date'],
      [{ ...base, kind: 'explosion' }, 'kind'],
      [{ ...base, description: '  ' }, 'description'],
      [{ ...base, description: 'x'.repeat(501) }, 'description'],
      [{ ...base, performedBy: 'x'.repeat(51) }, 'performedBy'],
      [{ ...base, cost: 1.005 }, 'cost'],
      [{ ...base, cost: -1 }, 'cost'],
      [{ ...base, cost: 1e12 }, 'cost'],
      [{ ...base, cost: '12' }, 'cost'],
    ];
    const before = (await call('GET', '/records', a.admin.token)).json().data.total;
    for (const [body, field] of cases) {
      const res = await call('POST', '/records/create', a.admin.token, body);
      expect(res.json().code, JSON.stringify(body)).toBe(ERROR_CODES.VALIDATION);
      expect(res.json().data.field).toBe(field);
    }
    expect((await call('GET', '/records', a.admin.token)).json().data.total).toBe(before);
  });
});

describe('maintenance plans', () => {
  it('lists overdue plans first, then by next due date; done records the work and moves the date on', async () => {
    const c = await makeCompany(t, 'Planner');
    const d = await makeDevice(t, c.id, { name: 'Boiler DTU' });
    const person = await makeMember(t, c, [c.ordinaryRoleId], 'Zhang San');
    const create = (title: string, nextDue: string, extra: object = {}) =>
      call('POST', '/plans/create', c.admin.token, {
        deviceId: d.id,
        title,
        intervalDays: 30,
        nextDue,
        ...extra,
      }).then((r) => r.json());
    const todayC = await companyToday(t.app, c.id);
    const late = await create('Filter', addCalendarDays(todayC, -3), {
      assigneeId: person.id,
      note: 'bring spares',
    });
    const soon = await create('Calibrate', addCalendarDays(todayC, 2));
    const later = await create('Inspect', addCalendarDays(todayC, 40));
    const dueToday = await create('Today', todayC);
    for (const r of [late, soon, later, dueToday]) expect(r.code).toBe(0);
    const plans = (await call('GET', '/plans', c.admin.token)).json().data;
    expect(plans.list.map((p: { title: string }) => p.title)).toEqual([
      'Filter',
      'Today',
      'Calibrate',
      'Inspect',
    ]);
    expect(plans.list[0]).toMatchObject({
      overdue: true,
      daysLeft: -3,
      assignee: { id: person.id, name: 'Zhang San' },
      note: 'bring spares',
      serialNumber: d.sn,
    });
    expect(plans.list[1]).toMatchObject({ overdue: false, daysLeft: 0 });
    expect(
      (await call('GET', '/plans?overdue=true', c.admin.token))
        .json()
        .data.list.map((p: { id: number }) => p.id),
    ).toEqual([late.data.id]);
    expect((await call('GET', `/plans?assigneeId=${person.id}`, c.admin.token)).json().data.total).toBe(1);

    const done = await call('POST', '/plans/done', c.admin.token, {
      id: late.data.id,
      doneOn: todayC,
      performedBy: 'Zhang San',
      cost: 30,
    });
    expect(done.json()).toMatchObject({ code: 0, data: { nextDue: addCalendarDays(todayC, 30) } });
    const [plan] = await t.db.select().from(maintenancePlans).where(eq(maintenancePlans.id, late.data.id));
    expect(plan).toMatchObject({ lastDoneOn: todayC, nextDue: addCalendarDays(todayC, 30) });
    const records = (await call('GET', `/records?deviceId=${d.id}`, c.admin.token)).json().data.list;
    expect(records).toMatchObject([
      {
        id: done.json().data.recordId,
        planId: late.data.id,
        description: 'Filter',
        performedBy: 'Zhang San',
        cost: 30,
        date: todayC,
      },
    ]);
    expect((await call('GET', '/plans?overdue=true', c.admin.token)).json().data.total).toBe(0);

    expect(
      (
        await call('POST', '/plans/update', c.admin.token, {
          id: soon.data.id,
          intervalDays: 7,
          assigneeId: null,
        })
      ).json().code,
    ).toBe(0);
    expect((await call('POST', '/plans/delete', c.admin.token, { id: later.data.id })).json().code).toBe(0);
    expect((await call('GET', '/plans', c.admin.token)).json().data.total).toBe(3);
  });

  it('refuses an assignee from outside the company and bad intervals or dates', async () => {
    const base = { deviceId: device.id, title: 'x', intervalDays: 30, nextDue: today };
    const cases: Array<[object, string, string?]> = [
      [
        { ...base, assigneeId: b.admin.id },
        'assigneeId',
        'The person in charge must be a member of the company',
      ],
      [{ ...base, intervalDays: 0 }, 'intervalDays'],
      [{ ...base, intervalDays: 3651 }, 'intervalDays'],
      [{ ...base, intervalDays: 1.5 }, 'intervalDays'],
      [{ ...base, nextDue: '2026-13-01' }, 'nextDue'],
      [{ ...base, title: '' }, 'title'],
    ];
    for (const [body, field, message] of cases) {
      const res = await call('POST', '/plans/create', a.admin.token, body);
      expect(res.json().data, JSON.stringify(body)).toMatchObject({ field });
      if (message) expect(res.json().message).toBe(message);
    }
    expect((await call('GET', `/plans?deviceId=${device.id}`, a.admin.token)).json().data.total).toBe(0);
  });

  it('follows the device permission: unreadable devices are left out, read-only ones cannot be changed', async () => {
    const c = await makeCompany(t, 'Guarded');
    const seen = await makeDevice(t, c.id, { name: 'Seen' });
    const unseen = await makeDevice(t, c.id, { name: 'Unseen' });
    const user = await makeMember(t, c, [await makeRole(t, c.id, ['dm_maintenance'])]);
    const plan = (
      await call('POST', '/plans/create', c.admin.token, {
        deviceId: unseen.id,
        title: 'secret plan',
        intervalDays: 7,
        nextDue: '2026-01-01',
      })
    ).json().data;
    await call('POST', '/records/create', c.admin.token, {
      deviceId: unseen.id,
      date: '2026-01-01',
      kind: 'repair',
      description: 'secret record',
    });
    await setPermissions(t, unseen.nodeId, [{ scope: 'user', subjectId: user.id, level: 0 }]);
    await setPermissions(t, seen.nodeId, [{ scope: 'user', subjectId: user.id, level: 1 }]);
    const body = [
      (await call('GET', '/devices', user.token)).body,
      (await call('GET', '/records', user.token)).body,
      (await call('GET', '/plans', user.token)).body,
    ].join('');
    expect(body).not.toContain('secret');
    expect(body).not.toContain('Unseen');
    expect((await call('GET', '/devices', user.token)).json().data).toEqual([
      { id: seen.id, serialNumber: seen.sn, name: 'Seen' },
    ]);
    expect((await call('POST', '/plans/done', user.token, { id: plan.id })).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect(
      (
        await call('POST', '/records/create', user.token, {
          deviceId: seen.id,
          date: '2026-01-01',
          kind: 'repair',
          description: 'x',
        })
      ).json().code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    // a member without the maintenance code gets nothing
    expect((await call('GET', '/records', c.limited.token)).json().code).toBe(ERROR_CODES.FORBIDDEN);
  });
});
