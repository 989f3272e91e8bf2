import { DATA_PERMISSION, ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { setPermissions } from '../cabin/test-support';
import { alertDelegations } from '../delegations/tables';
import { groupMembers, userGroups } from '../groups/tables';
import { IngestPipeline } from '../ingest/pipeline';
import type { LogMessageProvider } from './notify';
import { AlarmService } from './service';
import { alarmRuleStates, alarmRules, alarms } from './tables';
import { alarmsOf, ruleFixture, submit } from './test-support';

let t: TestApp;
let a: TestCompany;

const RULE = '/general/cloudSurveillance/rule';
const LOG = '/general/cloudSurveillance/alarm';

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Alarm Co');
});

afterAll(async () => {
  await t.close();
});

function post(url: string, payload: unknown, token = a.admin.token) {
  return t.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });
}
function get(url: string, token = a.admin.token) {
  return t.app.inject({ method: 'GET', url, headers: bearer(token) });
}

describe('alarm rules', () => {
  it('makes a rule in the API, lists and reads it back', async () => {
    const { itemId } = await ruleFixture(t, a.id, a.admin.id);
    const res = await post(`${RULE}/add`, {
      name: 'Pressure high',
      itemId,
      fieldKey: 'f2',
      condition: 'outside',
      levels: [
        { level: 1, threshold: 2, high: 8 },
        { level: 2, threshold: 1, high: 9 },
      ],
      durationS: 30,
      clear: { threshold: 3, high: 7 },
      recipients: { userIds: [a.limited.id], groupIds: [] },
      channels: ['app', 'sms'],
    });
    expect(res.json()).toMatchObject({ code: 0 });
    const id = res.json().data.id as number;
    const got = (await get(`${RULE}/get?id=${id}`)).json();
    expect(got.data).toMatchObject({
      name: 'Pressure high',
      fieldName: 'count',
      condition: 'outside',
      durationS: 30,
      clear: { threshold: 3, high: 7 },
      channels: ['app', 'sms'],
    });
    const list = (await get(`${RULE}/list?name=Pressure`)).json();
    expect(list.data.list.map((r: { id: number }) => r.id)).toEqual([id]);
  });

  it('refuses a bad rule naming the field, and writes nothing', async () => {
    const { itemId } = await ruleFixture(t, a.id, a.admin.id);
    const before = await t.db.select().from(alarmRules);
    const base = {
      name: 'bad',
      itemId,
      fieldKey: 'f1',
      condition: 'above',
      levels: [{ level: 1, threshold: 10 }],
      durationS: 0,
      recipients: { userIds: [], groupIds: [] },
      channels: ['app'],
    };
    const cases: Array<[object, string]> = [
      [{ fieldKey: 'f3' }, 'fieldKey'], // a text field
      [{ fieldKey: 'f9' }, 'fieldKey'],
      [
        {
          levels: [
            { level: 1, threshold: 10 },
            { level: 2, threshold: 5 },
          ],
        },
        'levels',
      ],
      [{ clear: { threshold: 11 } }, 'clear.threshold'],
      [{ recipients: { userIds: [999_999], groupIds: [] } }, 'recipients.userIds'],
      [{ recipients: { userIds: [], groupIds: [999_999] } }, 'recipients.groupIds'],
      [{ durationS: 86_401 }, 'durationS'],
      [{ channels: ['fax'] }, 'channels'],
    ];
    for (const [change, field] of cases) {
      const res = await post(`${RULE}/add`, { ...base, ...change });
      expect(res.json().code, JSON.stringify(change)).toBe(ERROR_CODES.VALIDATION);
      expect(JSON.stringify(res.json()), JSON.stringify(change)).toContain(field);
    }
    expect(await t.db.select().from(alarmRules)).toEqual(before);
  });

  it('a user who cannot read the item neither sees its rules nor its alarms', async () => {
    const { itemId, nodeId, ruleId } = await ruleFixture(t, a.id, a.admin.id);
    await submit(t, a.id, itemId, [99]);
    await setPermissions(t, nodeId, [{ scope: 'company', subjectId: null, level: DATA_PERMISSION.none }]);
    // the limited user gets the alarm codes through a role of their own
    const { roles, memberRoles } = await import('../roles/tables');
    const [role] = await t.db
      .insert(roles)
      .values({
        companyId: a.id,
        name: 'alarm viewer',
        menuCodes: ['cs_info', 'cs_rules', 'cloud_surveillance'],
      })
      .returning();
    await t.db.insert(memberRoles).values({ companyId: a.id, userId: a.limited.id, roleId: role!.id });
    const rules = (await get(`${RULE}/list?pageSize=100`, a.limited.token)).json();
    expect(rules.data.list.map((r: { id: number }) => r.id)).not.toContain(ruleId);
    expect((await get(`${RULE}/get?id=${ruleId}`, a.limited.token)).json().code).toBe(ERROR_CODES.NOT_FOUND);
    const log = (await get(`${LOG}/list?itemId=${itemId}`, a.limited.token)).json();
    expect(log.data.total).toBe(0);
    const [alarm] = await alarmsOf(t, ruleId);
    expect((await post(`${LOG}/clear`, { id: alarm!.id }, a.limited.token)).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect((await alarmsOf(t, ruleId))[0]!.status).toBe('active');
  });
});

describe('rules fire on ingest', () => {
  it('fires, raises, lowers and clears one alarm as the value moves', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id);
    await submit(t, a.id, itemId, [50, 85]);
    let rows = await alarmsOf(t, ruleId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ level: 1, value: 85, status: 'active', clearedAt: null });
    await submit(t, a.id, itemId, [101, 97, 84], Date.now() + 10_000);
    rows = await alarmsOf(t, ruleId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ level: 1, peakLevel: 3, value: 84 });
    // hovering between clear (75) and threshold (80) does not clear it
    await submit(t, a.id, itemId, [78, 79, 76], Date.now() + 20_000);
    expect((await alarmsOf(t, ruleId))[0]!.status).toBe('active');
    await submit(t, a.id, itemId, [74], Date.now() + 30_000);
    rows = await alarmsOf(t, ruleId);
    expect(rows[0]).toMatchObject({ status: 'cleared', clearValue: 74, clearedBy: null });
    // the next breach is a new alarm
    await submit(t, a.id, itemId, [92], Date.now() + 40_000);
    rows = await alarmsOf(t, ruleId);
    expect(rows.map((r) => [r.status, r.level])).toEqual([
      ['cleared', 1],
      ['active', 2],
    ]);
  });

  it('a disabled rule does not fire, and disabling clears its open alarm', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id);
    await submit(t, a.id, itemId, [95]);
    expect((await post(`${RULE}/enable`, { id: ruleId, enabled: false })).json().code).toBe(0);
    expect((await alarmsOf(t, ruleId)).map((r) => r.status)).toEqual(['cleared']);
    await submit(t, a.id, itemId, [99], Date.now() + 5000);
    expect(await alarmsOf(t, ruleId)).toHaveLength(1);
  });

  it('waits for the duration on the records’ own times', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id, { durationS: 120 });
    const start = Date.now() - 600_000;
    await t.app.ingest.write({
      companyId: a.id,
      userId: null,
      source: 'http',
      records: [0, 60_000, 110_000].map((d) => ({ itemId, ts: new Date(start + d), values: { f1: 85 } })),
    });
    expect(await alarmsOf(t, ruleId)).toHaveLength(0);
    await submit(t, a.id, itemId, [85], start + 120_000);
    expect(await alarmsOf(t, ruleId)).toHaveLength(1);
  });
});

describe('normal values write nothing', () => {
  it('a commit of normal values leaves the rule state untouched, and the next breach still fires', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id, { durationS: 60 });
    const start = Date.now() - 600_000;
    // a first breach starts the duration: the state is written
    await submit(t, a.id, itemId, [85], start);
    const [pending] = await t.db.select().from(alarmRuleStates).where(eq(alarmRuleStates.ruleId, ruleId));
    expect(pending!.state).toMatchObject({ status: 'pending', level: 1 });
    // a normal value ends the wait (a change: written), then normal values change nothing
    await submit(t, a.id, itemId, [50], start + 10_000);
    const [normal] = await t.db.select().from(alarmRuleStates).where(eq(alarmRuleStates.ruleId, ruleId));
    expect(normal!.state).toMatchObject({ status: 'normal', level: 0 });
    await submit(t, a.id, itemId, [51, 52, 53], start + 20_000);
    const [after] = await t.db.select().from(alarmRuleStates).where(eq(alarmRuleStates.ruleId, ruleId));
    expect(after!.updatedAt).toEqual(normal!.updatedAt);
    expect(after!.state).toEqual(normal!.state);
    // an older breach than the normal values seen is ignored, though they were not written
    await submit(t, a.id, itemId, [99, 99], start + 12_000);
    await submit(t, a.id, itemId, [99], start + 200_000);
    expect(await alarmsOf(t, ruleId)).toHaveLength(0);
    // a breach held for the duration fires
    await submit(t, a.id, itemId, [99], start + 260_000);
    expect((await alarmsOf(t, ruleId)).map((r) => [r.status, r.level])).toEqual([['active', 2]]);
  });
});

describe('one open alarm per rule and item', () => {
  it('concurrent breaching submissions through two pipelines (two nodes) make one alarm', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id);
    // a second "node": its own pipeline and alarm service on the same database
    const other = new IngestPipeline(t.db, t.app.log);
    const otherAlarms = new AlarmService(t.db, t.app.log);
    otherAlarms.attach(other);
    const now = Date.now();
    const writes = Array.from({ length: 40 }, (_, i) =>
      (i % 2 === 0 ? t.app.ingest : other).write({
        companyId: a.id,
        userId: null,
        source: 'mqtt',
        records: [{ itemId, ts: new Date(now + (i % 3)), values: { f1: 85 + (i % 20) } }],
      }),
    );
    await Promise.all(writes);
    await other.idle();
    other.close();
    const open = (await alarmsOf(t, ruleId)).filter((r) => r.clearedAt === null);
    expect(open).toHaveLength(1);
    expect(await alarmsOf(t, ruleId)).toHaveLength(1);
  });

  it('the database refuses a second open alarm of one key', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id);
    await submit(t, a.id, itemId, [95]);
    const [row] = await alarmsOf(t, ruleId);
    const { id: _id, ...copy } = row!;
    await expect(t.db.insert(alarms).values(copy)).rejects.toThrow();
  });

  it('raise from another module is idempotent while open, and resolve closes it', async () => {
    const key = { companyId: a.id, origin: 'noData' as const, originId: 7, itemId: null, deviceId: null };
    const input = {
      ...key,
      name: 'silent meter',
      level: 2 as const,
      value: null,
      at: new Date(),
      recipients: { userIds: [a.admin.id], groupIds: [] },
      channels: ['app' as const],
    };
    // the sockets hear of the opening once, not of each repeat; then of each level change
    const heard: string[] = [];
    const stop = t.app.alarms.changes.subscribe(a.id, (c) => {
      if (c.name === 'silent meter') heard.push(`${c.change}:${c.level}`);
    });
    const results = await Promise.all([
      t.app.alarms.raise(input),
      t.app.alarms.raise(input),
      t.app.alarms.raise(input),
    ]);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    await t.app.alarms.raise(input);
    await t.app.alarms.raise({ ...input, value: 5 });
    await t.app.alarms.raise({ ...input, level: 3 });
    await t.app.alarms.raise({ ...input, level: 3 });
    await t.app.alarms.raise({ ...input, level: 1 });
    stop();
    expect(heard).toEqual(['fired:2', 'raised:3', 'lowered:1']);
    const [row] = await t.db.select().from(alarms).where(eq(alarms.id, results[0]!.id));
    expect(row).toMatchObject({ level: 1, peakLevel: 3, status: 'active' });
    const id = await t.app.alarms.resolve({ ...key, value: null, at: new Date() });
    expect(id).toBe(results[0]!.id);
    expect(await t.app.alarms.resolve({ ...key, value: null, at: new Date() })).toBeNull();
    const again = await t.app.alarms.raise(input);
    expect(again.created).toBe(true);
  });
});

describe('the alarm log', () => {
  it('acknowledges with a comment, then clears; a repeat is refused', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id);
    await submit(t, a.id, itemId, [95]);
    const [alarm] = await alarmsOf(t, ruleId);
    expect((await post(`${LOG}/acknowledge`, { id: alarm!.id, comment: '  ' })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'comment' },
    });
    expect((await post(`${LOG}/acknowledge`, { id: alarm!.id, comment: 'valve opened' })).json().code).toBe(
      0,
    );
    expect((await post(`${LOG}/acknowledge`, { id: alarm!.id, comment: 'again' })).json().code).toBe(
      ERROR_CODES.CONFLICT,
    );
    const list = (await get(`${LOG}/list?itemId=${itemId}`)).json();
    expect(list.data.list[0]).toMatchObject({
      status: 'acknowledged',
      ackComment: 'valve opened',
      acknowledgedBy: 'Alarm Co admin',
      level: 2,
      value: 95,
    });
    expect((await post(`${LOG}/clear`, { id: alarm!.id })).json().code).toBe(0);
    expect((await post(`${LOG}/clear`, { id: alarm!.id })).json().code).toBe(ERROR_CODES.CONFLICT);
    const [cleared] = await alarmsOf(t, ruleId);
    expect(cleared).toMatchObject({ status: 'cleared', clearedBy: a.admin.id });
    // the rule's state went back to normal with it: the next breach fires a new alarm
    await submit(t, a.id, itemId, [96], Date.now() + 5000);
    expect((await alarmsOf(t, ruleId)).map((r) => r.status)).toEqual(['cleared', 'active']);
  });

  it('filters by level, state and time, and exports CSV and XLSX', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id, { name: 'Export me' });
    await submit(t, a.id, itemId, [101]);
    const level3 = (await get(`${LOG}/list?itemId=${itemId}&level=3&status=open`)).json();
    expect(level3.data.total).toBe(1);
    expect((await get(`${LOG}/list?itemId=${itemId}&level=1`)).json().data.total).toBe(0);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(`${LOG}/list?itemId=${itemId}&from=${future}`)).json().data.total).toBe(0);
    for (const from of ['yesterday', '0000-01-01']) {
      expect((await get(`${LOG}/list?from=${from}`)).json(), from).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'from' },
      });
    }
    const csv = await get(`${LOG}/export?format=csv&itemId=${itemId}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('等级');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Export me');
    expect(lines[1]).toContain('101');
    const xlsx = await get(`${LOG}/export?format=xlsx&itemId=${itemId}`);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const counts = (await get(`${LOG}/counts`)).json();
    expect(counts.data['3']).toBeGreaterThanOrEqual(1);
    expect(ruleId).toBeGreaterThan(0);
  });

  it('tells the recipients, their groups and delegates; e-mail and SMS go to the stand-ins', async () => {
    const b = await makeCompany(t, 'Notify Co');
    const [group] = await t.db
      .insert(userGroups)
      .values({ companyId: b.id, name: 'night shift' })
      .returning();
    await t.db.insert(groupMembers).values({ groupId: group!.id, userId: b.limited.id });
    // the limited user delegates their alarms to the administrator (also, not instead)
    await t.db
      .insert(alertDelegations)
      .values({ companyId: b.id, delegatorId: b.limited.id, delegateId: b.admin.id });
    const { itemId, ruleId } = await ruleFixture(t, b.id, b.admin.id, {
      recipients: { userIds: [], groupIds: [group!.id] },
      channels: ['app', 'sms', 'email'],
    });
    const socket = await t.app.injectWS(`${LOG}/live?token=${b.admin.token}`);
    const heard: Array<Record<string, unknown>> = [];
    socket.on('message', (data) => heard.push(JSON.parse(String(data))));
    socket.send('ping');
    while (!heard.some((m) => m.type === 'ready')) await new Promise((r) => setTimeout(r, 10));
    await submit(t, b.id, itemId, [88]);
    const [alarm] = await alarmsOf(t, ruleId);
    expect(alarm!.notified).toEqual([b.admin.id, b.limited.id].sort((x, y) => x - y));
    const sms = t.app.alarms.sms as LogMessageProvider;
    expect(
      sms.outbox
        .filter((m) => m.subject.includes('SECRET-RULE'))
        .map((m) => m.userId)
        .sort(),
    ).toEqual([b.admin.id, b.limited.id].sort());
    while (!heard.some((m) => m.type === 'alarm')) await new Promise((r) => setTimeout(r, 10));
    socket.terminate();
    expect(heard.find((m) => m.type === 'alarm')).toMatchObject({
      alarmId: alarm!.id,
      change: 'fired',
      level: 1,
      mine: true,
    });
    const mine = (await get(`${LOG}/list?mine=true&status=open`, b.admin.token)).json();
    expect(mine.data.list.map((r: { id: number }) => r.id)).toContain(alarm!.id);
    // the home card's counts: the caller's open alarms by level
    expect((await get(`${LOG}/counts?mine=true`, b.admin.token)).json().data).toEqual({ 1: 1, 2: 0, 3: 0 });
    // a second rule telling nobody: in the company's counts, not in anyone's own
    const quiet = await ruleFixture(t, b.id, b.admin.id, {
      name: 'quiet',
      recipients: { userIds: [], groupIds: [] },
    });
    await submit(t, b.id, quiet.itemId, [120]);
    expect((await get(`${LOG}/counts`, b.admin.token)).json().data).toEqual({ 1: 1, 2: 0, 3: 1 });
    expect((await get(`${LOG}/counts?mine=true`, b.admin.token)).json().data).toEqual({ 1: 1, 2: 0, 3: 0 });
    expect((await get(`${LOG}/counts?mine=yes`, b.admin.token)).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'mine' },
    });
  });

  it('deleting a rule clears its open alarm and keeps the log', async () => {
    const { itemId, ruleId } = await ruleFixture(t, a.id, a.admin.id);
    await submit(t, a.id, itemId, [95]);
    expect((await post(`${RULE}/delete`, { id: ruleId })).json().code).toBe(0);
    const rows = await t.db.select().from(alarms).where(eq(alarms.originId, ruleId));
    expect(rows.map((r) => [r.status, r.ruleId])).toEqual([['cleared', null]]);
  });
});
