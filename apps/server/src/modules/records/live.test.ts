/**
 * The live records socket: a subscriber gets the records committed to its items, only items
 * of its company it can read are accepted, the token rides in the query of the upgrade only.
 */
import { ERROR_CODES } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Live A');
  b = await makeCompany(t, 'Live B');
});

afterAll(async () => {
  await t.close();
});

interface Message {
  type: string;
  itemId?: number;
  itemIds?: number[];
  refused?: number[];
  records?: Array<{ id: number; values: Record<string, unknown>; source: string }>;
}

/** A socket with every message it received kept in order, and a way to await the next one. */
async function connect(token: string) {
  const received: Message[] = [];
  const waiting: Array<(m: Message) => void> = [];
  const socket = await t.app.injectWS(`/general/smartdata/live?token=${encodeURIComponent(token)}`);
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
  return { socket, next, send: (m: unknown) => socket.send(JSON.stringify(m)) };
}

async function addRecord(token: string, itemId: number, values: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/general/smartdata/record/add',
    headers: bearer(token),
    payload: { itemId, values },
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.id as number;
}

describe('live records socket', () => {
  it('delivers the records committed to a subscribed item', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const live = await connect(a.admin.token);
    try {
      live.send({ subscribe: [itemId] });
      expect(await live.next()).toEqual({ type: 'subscribed', itemIds: [itemId], refused: [] });
      const id = await addRecord(a.admin.token, itemId, { f1: 21.5, f3: 'live' });
      const message = await live.next();
      expect(message).toMatchObject({ type: 'records', itemId });
      expect(message.records?.map((r) => [r.id, r.values.f1, r.values.f3])).toEqual([[id, 21.5, 'live']]);
    } finally {
      live.socket.terminate();
    }
  });

  it("refuses another company's item and an item the caller cannot read, and sends nothing of them", async () => {
    const theirs = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const hidden = await makeItem(t, b.id, { fields: SAMPLE_FIELDS });
    await setPermissions(t, hidden.nodeId, [{ scope: 'user', subjectId: b.limited.id, level: 0 }]);
    const own = await makeItem(t, b.id, { fields: SAMPLE_FIELDS });
    const live = await connect(b.limited.token);
    try {
      live.send({ subscribe: [theirs.itemId, hidden.itemId, own.itemId] });
      expect(await live.next()).toEqual({
        type: 'subscribed',
        itemIds: [own.itemId],
        refused: [theirs.itemId, hidden.itemId],
      });
      await addRecord(a.admin.token, theirs.itemId, { f3: 'secret' });
      await addRecord(b.admin.token, hidden.itemId, { f3: 'hidden' });
      await addRecord(b.admin.token, own.itemId, { f3: 'mine' });
      // delivery is in commit order: the first message is the own item's record
      const message = await live.next();
      expect(message).toMatchObject({ type: 'records', itemId: own.itemId });
      expect(message.records?.map((r) => r.values.f3)).toEqual(['mine']);
    } finally {
      live.socket.terminate();
    }
  });

  it('a new subscribe replaces the previous one', async () => {
    const first = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const second = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const live = await connect(a.admin.token);
    try {
      live.send({ subscribe: [first.itemId] });
      await live.next();
      live.send({ subscribe: [second.itemId] });
      expect(await live.next()).toMatchObject({ itemIds: [second.itemId] });
      await addRecord(a.admin.token, first.itemId, { f3: 'old' });
      await addRecord(a.admin.token, second.itemId, { f3: 'new' });
      const message = await live.next();
      expect(message).toMatchObject({ type: 'records', itemId: second.itemId });
    } finally {
      live.socket.terminate();
    }
  });

  it('refuses an upgrade without a valid token, and a plain GET', async () => {
    await expect(t.app.injectWS('/general/smartdata/live')).rejects.toThrow(/Unexpected server response/);
    await expect(t.app.injectWS('/general/smartdata/live?token=nonsense')).rejects.toThrow(
      /Unexpected server response/,
    );
    // the query token is for upgrades only: a plain request with it is not authenticated
    const plain = await t.app.inject({
      method: 'GET',
      url: `/general/smartdata/live?token=${a.admin.token}`,
    });
    expect(plain.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    const withHeader = await t.app.inject({
      method: 'GET',
      url: '/general/smartdata/live',
      headers: bearer(a.admin.token),
    });
    expect(withHeader.json().code).toBe(ERROR_CODES.VALIDATION);
  });
});
