/**
 * A live records stream ends, or loses an item, as soon as the access it was opened with ends:
 * logout, removal from the company, a disabled account, a role without the data cabin's code,
 * a data permission lowered to none, a token that expires. Each test opens a stream, takes the
 * access away the way an administrator or the user would, and checks that the stream says so
 * and that records written afterwards never reach it.
 */
import { ERROR_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  login,
  makeCompany,
  nextPhone,
  type TestApp,
  type TestCompany,
} from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { addActiveMember } from '../companies/service';
import { roles } from '../roles/tables';
import { createUser } from '../users/service';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED } from './live-routes';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
  a = await makeCompany(t, 'Revoke A');
});

afterAll(async () => {
  await t.close();
});

interface Message {
  type: string;
  code?: number;
  itemId?: number;
  itemIds?: number[];
  records?: Array<{ values: Record<string, unknown> }>;
}

/** A stream with its messages in order, the next one awaited, and its close code. */
async function stream(app: TestApp['app'], token: string) {
  const received: Message[] = [];
  const waiting: Array<(m: Message) => void> = [];
  const socket = await app.injectWS(`/general/smartdata/live?token=${encodeURIComponent(token)}`);
  const closed = new Promise<number>((resolve) => socket.on('close', (code: number) => resolve(code)));
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    const next = waiting.shift();
    if (next) next(message);
    else received.push(message);
  });
  const next = () =>
    new Promise<Message>((resolve) => {
      const queued = received.shift();
      if (queued) resolve(queued);
      else waiting.push(resolve);
    });
  return {
    socket,
    next,
    closed,
    received,
    subscribe: async (itemIds: number[]) => {
      socket.send(JSON.stringify({ subscribe: itemIds }));
      expect(await next()).toMatchObject({ type: 'subscribed', itemIds });
    },
  };
}

/** A member of company A with the ordinary role, freshly logged in. */
async function member(): Promise<{ id: number; token: string }> {
  const user = await createUser(t.db, { phone: nextPhone(), userName: 'member', password: 'secret123' });
  await addActiveMember(t.db, a.id, user.id, [a.ordinaryRoleId]);
  return { id: user.id, token: await login(t.app, user.phone) };
}

async function post(token: string, url: string, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  expect(res.json().code, res.body).toBe(0);
  return res.json();
}

async function addRecord(itemId: number, text: string) {
  await post(a.admin.token, '/general/smartdata/record/add', { itemId, values: { f3: text } });
}

/** After the stream ended: a record written now is never delivered. */
async function nothingMoreArrives(live: Awaited<ReturnType<typeof stream>>, itemId: number) {
  await addRecord(itemId, 'after the end');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(live.received.filter((m) => m.type === 'records')).toEqual([]);
}

describe('a live records stream outlives no access', () => {
  it('ends when its user logs out', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const user = await member();
    const live = await stream(t.app, user.token);
    await live.subscribe([itemId]);
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/user/access/logout',
      headers: bearer(user.token),
    });
    expect(res.json().code).toBe(0);
    expect(await live.next()).toMatchObject({ type: 'ended', code: ERROR_CODES.TOKEN_INVALID });
    expect(await live.closed).toBe(CLOSE_UNAUTHORISED);
    await nothingMoreArrives(live, itemId);
  });

  it('ends when an administrator removes the user from the company', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const user = await member();
    const live = await stream(t.app, user.token);
    await live.subscribe([itemId]);
    await post(a.admin.token, '/general/user/removeSysUser', { userId: user.id });
    expect(await live.next()).toMatchObject({ type: 'ended', code: ERROR_CODES.FORBIDDEN });
    expect(await live.closed).toBe(CLOSE_FORBIDDEN);
    await nothingMoreArrives(live, itemId);
  });

  it('ends when an administrator disables the account', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const user = await member();
    const live = await stream(t.app, user.token);
    await live.subscribe([itemId]);
    await post(a.admin.token, '/general/user/updateSysUser', { userId: user.id, status: 0 });
    expect(await live.next()).toMatchObject({ type: 'ended', code: ERROR_CODES.TOKEN_INVALID });
    expect(await live.closed).toBe(CLOSE_UNAUTHORISED);
    await nothingMoreArrives(live, itemId);
  });

  it("ends when the user's roles no longer carry the data cabin's code", async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const user = await member();
    const [noCabin] = await t.db
      .insert(roles)
      .values({ companyId: a.id, name: 'orders only', roleType: 2, menuCodes: ['pc_my_order'] })
      .returning({ id: roles.id });
    const live = await stream(t.app, user.token);
    await live.subscribe([itemId]);
    await post(a.admin.token, '/general/user/updateSysUser', { userId: user.id, roleIds: [noCabin!.id] });
    expect(await live.next()).toMatchObject({ type: 'ended', code: ERROR_CODES.FORBIDDEN });
    expect(await live.closed).toBe(CLOSE_FORBIDDEN);
    await nothingMoreArrives(live, itemId);
  });

  it('drops an item whose data permission is lowered to none, and keeps the others', async () => {
    const hidden = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const kept = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const user = await member();
    const live = await stream(t.app, user.token);
    await live.subscribe([hidden.itemId, kept.itemId]);
    await post(a.admin.token, '/general/smartdata/cabin/permission', {
      nodeId: hidden.nodeId,
      mode: 'custom',
      entries: [{ scope: 'user', subjectId: user.id, level: 0 }],
    });
    expect(await live.next()).toEqual({ type: 'revoked', itemIds: [hidden.itemId] });
    await addRecord(hidden.itemId, 'hidden now');
    await addRecord(kept.itemId, 'still mine');
    const message = await live.next();
    expect(message).toMatchObject({ type: 'records', itemId: kept.itemId });
    expect(message.records?.map((r) => r.values.f3)).toEqual(['still mine']);
    live.socket.terminate();
  });

  it('ends when the company is deleted', async () => {
    const other = await makeCompany(t, 'Revoke gone');
    const { itemId } = await makeItem(t, other.id, { fields: SAMPLE_FIELDS });
    const live = await stream(t.app, other.limited.token);
    await live.subscribe([itemId]);
    await post(other.admin.token, '/general/company/deleteCompany', {
      id: other.id,
      confirmName: 'Revoke gone',
    });
    expect(await live.next()).toMatchObject({ type: 'ended' });
    expect([CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED]).toContain(await live.closed);
  });

  it('does not end when access changes for someone else', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const watcher = await member();
    const bystander = await member();
    const live = await stream(t.app, watcher.token);
    await live.subscribe([itemId]);
    await post(a.admin.token, '/general/user/removeSysUser', { userId: bystander.id });
    // the re-check that the removal set off has run once the next poll is done
    await t.app.accessWatch.poll();
    await addRecord(itemId, 'still live');
    const message = await live.next();
    expect(message).toMatchObject({ type: 'records', itemId });
    live.socket.terminate();
  });
});

describe('a live records stream and the end of its token', () => {
  it('ends when the token expires, with nothing revoked', async () => {
    // tokens of this app live about a second
    const shortLived = await buildTestApp({ TOKEN_TTL_HOURS: String(1.5 / 3600) });
    try {
      const company = await makeCompany(shortLived, 'Expiring');
      const { itemId } = await makeItem(shortLived, company.id, { fields: SAMPLE_FIELDS });
      const live = await stream(shortLived.app, await login(shortLived.app, company.limited.phone));
      live.socket.send(JSON.stringify({ subscribe: [itemId] }));
      const first = await live.next();
      // on a slow machine the token may already have run out before the subscribe was read
      if (first.type === 'subscribed') {
        expect(await live.next()).toMatchObject({ type: 'ended', code: ERROR_CODES.TOKEN_EXPIRED });
      } else {
        expect(first).toMatchObject({ type: 'ended', code: ERROR_CODES.TOKEN_EXPIRED });
      }
      expect(await live.closed).toBe(CLOSE_UNAUTHORISED);
    } finally {
      await shortLived.close();
    }
  });

  it('an expired token cannot open a stream at all', async () => {
    const user = await member();
    const { tokens } = await import('../auth/tables');
    const { sha256 } = await import('../../platform/tokens');
    await t.db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(tokens.userId, user.id), eq(tokens.tokenHash, sha256(user.token))));
    await expect(t.app.injectWS(`/general/smartdata/live?token=${user.token}`)).rejects.toThrow(
      /Unexpected server response/,
    );
  });
});
