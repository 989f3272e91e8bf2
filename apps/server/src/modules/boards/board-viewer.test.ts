/**
 * A board viewer (sd_board without sd_capsule) follows the values of the boards they may
 * open: live records of the items a readable board shows and the charts it draws, still under
 * the items' data permission and company; nothing else.
 */
import { type BoardBody, ERROR_CODES, emptyBoard } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { makeChart } from '../charts/route-cases';
import { makeMember, makeRole } from '../users/test-support';
import { makeBoard } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let viewer: TestUser;
let nobody: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off' });
  a = await makeCompany(t, 'Viewer A');
  b = await makeCompany(t, 'Viewer B');
  viewer = await makeMember(t, a, [await makeRole(t, a.id, ['smart_data', 'sd_board'])], 'board-viewer');
  nobody = await makeMember(t, a, [await makeRole(t, a.id, ['smart_data'])], 'no-codes');
});

afterAll(async () => {
  await t?.close();
});

function body(items: Array<{ itemId: number; chartId?: number }>): BoardBody {
  return {
    ...emptyBoard('grid'),
    widgets: items.map(({ itemId, chartId }, i) =>
      chartId
        ? {
            id: `c${i}`,
            type: 'chart' as const,
            x: 0,
            y: i * 8,
            w: 12,
            h: 8,
            z: i,
            locked: false,
            hidden: false,
            config: { chartId, itemId },
          }
        : {
            id: `n${i}`,
            type: 'number' as const,
            x: 0,
            y: i * 4,
            w: 6,
            h: 4,
            z: i,
            locked: false,
            hidden: false,
            config: { title: '', itemId, field: 'f1', staleMinutes: 10, fontSize: 32 },
          },
    ),
  };
}

interface Message {
  type: string;
  itemId?: number;
  itemIds?: number[];
  refused?: number[];
  records?: Array<{ id: number; values: Record<string, unknown> }>;
}

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

const get = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url: `/general/smartdata/${url}`, headers: bearer(token) });

describe('board viewers (sd_board only)', () => {
  it('hear live records of the items a readable board shows, and only those', async () => {
    const shown = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const notShown = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const closed = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const onHiddenBoard = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const foreign = await makeItem(t, b.id, { fields: SAMPLE_FIELDS });
    // the item's own permission still applies: the viewer may not read `closed`
    await setPermissions(t, closed.nodeId, [{ scope: 'user', subjectId: a.admin.id, level: 3 }]);
    await makeBoard(t, a.id, {
      body: body([shown, closed, foreign].map((i) => ({ itemId: i.itemId }))),
    });
    // a board the viewer cannot open does not grant its items
    const hidden = await makeBoard(t, a.id, { body: body([{ itemId: onHiddenBoard.itemId }]) });
    await setPermissions(t, hidden.nodeId, [{ scope: 'user', subjectId: a.admin.id, level: 3 }]);

    const live = await connect(viewer.token);
    try {
      const ids = [shown, notShown, closed, onHiddenBoard, foreign].map((i) => i.itemId);
      live.send({ subscribe: ids });
      expect(await live.next()).toEqual({
        type: 'subscribed',
        itemIds: [shown.itemId],
        refused: ids.slice(1),
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/smartdata/record/add',
        headers: bearer(a.admin.token),
        payload: { itemId: shown.itemId, values: { f1: 12.5 } },
      });
      expect(res.json().code, res.body).toBe(0);
      const message = await live.next();
      expect(message).toMatchObject({ type: 'records', itemId: shown.itemId });
      expect(message.records?.[0]?.values.f1).toBe(12.5);
    } finally {
      live.socket.terminate();
    }
  });

  it('a user with neither sd_capsule nor sd_board cannot open the socket', async () => {
    await expect(t.app.injectWS(`/general/smartdata/live?token=${nobody.token}`)).rejects.toThrow(
      /Unexpected server response/,
    );
  });

  it('draw a chart a readable board draws; any other chart answers as absent', async () => {
    const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const onBoard = await makeChart(t, a.id, item.itemId, 'on board');
    const offBoard = await makeChart(t, a.id, item.itemId, 'off board');
    const closed = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const closedChart = await makeChart(t, a.id, closed.itemId, 'closed');
    await setPermissions(t, closed.nodeId, [{ scope: 'user', subjectId: a.admin.id, level: 3 }]);
    await makeBoard(t, a.id, {
      body: body([
        { itemId: item.itemId, chartId: onBoard },
        { itemId: closed.itemId, chartId: closedChart },
      ]),
    });
    const data = (itemId: number, id: number) =>
      get(viewer.token, `chart/data?itemId=${itemId}&id=${id}&width=200`);
    expect((await data(item.itemId, onBoard)).json().code).toBe(0);
    expect((await get(viewer.token, `chart/get?itemId=${item.itemId}&id=${onBoard}`)).json().code).toBe(0);
    expect((await data(item.itemId, offBoard)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    // on a board, but the item is closed to the viewer
    expect((await data(closed.itemId, closedChart)).json().code).not.toBe(0);
    // changing charts still needs the cabin's code
    const save = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/chart/save',
      headers: bearer(viewer.token),
      payload: { itemId: item.itemId, id: onBoard, name: 'x', config: {} },
    });
    expect(save.json().code).toBe(ERROR_CODES.FORBIDDEN);
    // the list of one item's charts too
    expect((await get(viewer.token, `chart/list?itemId=${item.itemId}`)).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
  });

  it('pick among the items and charts they can read', async () => {
    const open = await makeItem(t, a.id, { name: 'open item', fields: SAMPLE_FIELDS });
    const closed = await makeItem(t, a.id, { name: 'closed item', fields: SAMPLE_FIELDS });
    await setPermissions(t, closed.nodeId, [{ scope: 'user', subjectId: a.admin.id, level: 3 }]);
    const openChart = await makeChart(t, a.id, open.itemId, 'open chart');
    const closedChart = await makeChart(t, a.id, closed.itemId, 'closed chart');
    const items = (await get(viewer.token, 'board/items')).json();
    expect(items.code).toBe(0);
    const itemIds = items.data.map((i: { id: number }) => i.id);
    expect(itemIds).toContain(open.itemId);
    expect(itemIds).not.toContain(closed.itemId);
    expect(items.data.find((i: { id: number }) => i.id === open.itemId).fields[0]).toMatchObject({
      key: 'f1',
    });
    const list = (await get(viewer.token, 'board/charts')).json();
    expect(list.code).toBe(0);
    expect(list.data).toContainEqual({
      id: openChart,
      name: 'open chart',
      type: 'line',
      itemId: open.itemId,
      itemName: 'open item',
    });
    expect(list.data.map((c: { id: number }) => c.id)).not.toContain(closedChart);
    expect((await get(nobody.token, 'board/charts')).json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(
      (await t.app.inject({ method: 'GET', url: '/general/smartdata/board/charts' })).json().code,
    ).not.toBe(0);
  });
});
