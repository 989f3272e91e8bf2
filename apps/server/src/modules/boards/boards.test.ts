import { ERROR_CODES } from '@platform/domain';
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
import { makeRecords } from '../records/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { boardRow, makeBoard, makePlay, playRow, sampleBody } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** sd_board and sd_board_play, read only on the boards set so below */
let viewer: TestUser;
/** sd_capsule only (the company's ordinary role): no board code */
let noCode: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off' });
  a = await makeCompany(t, 'Boards A');
  b = await makeCompany(t, 'Boards B');
  const role = await makeRole(t, a.id, ['smart_data', 'sd_board', 'sd_board_play']);
  viewer = await makeMember(t, a, [role], 'viewer');
  noCode = a.limited;
});

afterAll(async () => {
  await t?.close();
});

const get = (token: string, path: string) =>
  t.app.inject({ method: 'GET', url: `/general/smartdata/${path}`, headers: bearer(token) });
const post = (token: string, path: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/general/smartdata/${path}`, payload, headers: bearer(token) });
const readOnlyFor = (nodeId: number, user: TestUser) =>
  setPermissions(t, nodeId, [
    { scope: 'user', subjectId: user.id, level: 1 },
    { scope: 'company', subjectId: null, level: 2 },
  ]);

describe('boards', () => {
  it('creates a board from a built-in template and lists it; a bad name or template writes nothing', async () => {
    const res = await post(a.admin.token, 'board/create', { name: '监控大屏', template: 'screen-monitor' });
    expect(res.json().code).toBe(0);
    const board = res.json().data;
    expect(board).toMatchObject({
      name: '监控大屏',
      type: 'dashboard',
      mode: 'canvas',
      version: 1,
      level: 3,
    });
    expect(board.body.width).toBe(1920);
    expect(board.body.widgets.length).toBeGreaterThan(3);
    const list = (await get(a.admin.token, 'board/list')).json().data as Array<{ id: number }>;
    expect(list.map((r) => r.id)).toContain(board.id);

    const before = list.length;
    expect((await post(a.admin.token, 'board/create', { name: '' })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: '请输入名称',
    });
    expect((await post(a.admin.token, 'board/create', { name: 'x'.repeat(26) })).json().code).toBe(
      ERROR_CODES.VALIDATION,
    );
    expect(
      (await post(a.admin.token, 'board/create', { name: 'nope', template: 'no-such' })).json(),
    ).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'template' },
    });
    expect((await get(a.admin.token, 'board/list')).json().data).toHaveLength(before);
  });

  it('saves with optimistic concurrency: the second save based on the same version is refused and writes nothing', async () => {
    const { nodeId } = await makeBoard(t, a.id, { body: sampleBody('first') });
    const mine = await post(a.admin.token, 'board/save', {
      id: nodeId,
      version: 1,
      body: sampleBody('mine'),
    });
    expect(mine.json()).toMatchObject({ code: 0, data: { version: 2 } });
    const theirs = await post(viewer.token, 'board/save', {
      id: nodeId,
      version: 1,
      body: sampleBody('theirs'),
    });
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json()).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      data: { field: 'version', version: 2 },
    });
    expect(theirs.json().message).toContain('版本 2');
    const row = await boardRow(t, nodeId);
    expect(row.version).toBe(2);
    expect(JSON.stringify(row.body)).toContain('mine');
    expect(JSON.stringify(row.body)).not.toContain('theirs');
  });

  it('of two saves racing on one version exactly one wins', async () => {
    const { nodeId } = await makeBoard(t, a.id, { body: sampleBody('start') });
    const results = await Promise.all(
      ['one', 'two', 'three', 'four'].map((text) =>
        post(a.admin.token, 'board/save', { id: nodeId, version: 1, body: sampleBody(text) }),
      ),
    );
    const codes = results.map((r) => r.json().code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c === ERROR_CODES.CONFLICT)).toHaveLength(3);
    const winner = results.find((r) => r.json().code === 0)!.json().data.body.widgets[0].config.text;
    const row = await boardRow(t, nodeId);
    expect(row.version).toBe(2);
    expect((row.body as { widgets: Array<{ config: { text: string } }> }).widgets[0]!.config.text).toBe(
      winner,
    );
  });

  it('refuses a broken body naming the field, and writes nothing', async () => {
    const { nodeId } = await makeBoard(t, a.id, { body: sampleBody('kept') });
    const body = sampleBody('broken');
    body.widgets[1]!.w = 30;
    const res = await post(a.admin.token, 'board/save', { id: nodeId, version: 1, body });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'body.widgets[1].w' } });
    expect(res.json().message).toContain('widgets[1].w');
    const en = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/board/save',
      payload: { id: nodeId, version: 1, body: { ...sampleBody('x'), mode: 'free' } },
      headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
    });
    expect(en.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'body.mode' } });
    expect(en.json().message).toMatch(/^Invalid value for body.mode/);
    expect((await boardRow(t, nodeId)).version).toBe(1);
  });

  it('a read-only user views a board but cannot save it; a user without the code is refused', async () => {
    const { nodeId } = await makeBoard(t, a.id, { body: sampleBody('read me') });
    await readOnlyFor(nodeId, viewer);
    const view = await get(viewer.token, `board/get?id=${nodeId}`);
    expect(view.json()).toMatchObject({ code: 0, data: { level: 1 } });
    const save = await post(viewer.token, 'board/save', {
      id: nodeId,
      version: 1,
      body: sampleBody('changed'),
    });
    expect(save.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(JSON.stringify((await boardRow(t, nodeId)).body)).toContain('read me');
    // select and open are read actions: allowed
    expect((await post(viewer.token, 'board/select', { id: nodeId, widgetId: 'num' })).json().code).toBe(0);

    const hidden = await makeBoard(t, a.id, { body: sampleBody('hidden text') });
    await setPermissions(t, hidden.nodeId, [{ scope: 'user', subjectId: viewer.id, level: 0 }]);
    const none = await get(viewer.token, `board/get?id=${hidden.nodeId}`);
    expect(none.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    expect(
      (await get(viewer.token, 'board/list')).json().data.map((r: { id: number }) => r.id),
    ).not.toContain(hidden.nodeId);

    for (const res of [
      await get(noCode.token, 'board/list'),
      await get(noCode.token, `board/get?id=${nodeId}`),
      await post(noCode.token, 'board/save', { id: nodeId, version: 1, body: sampleBody('no code') }),
      await get(noCode.token, 'boardplay/list'),
    ]) {
      expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    }
  });

  it('remembers the selected widget per user and board', async () => {
    const { nodeId } = await makeBoard(t, a.id, { body: sampleBody('sel') });
    expect((await post(a.admin.token, 'board/select', { id: nodeId, widgetId: 'num' })).json().code).toBe(0);
    expect((await post(viewer.token, 'board/select', { id: nodeId, widgetId: 'txt' })).json().code).toBe(0);
    expect((await get(a.admin.token, `board/get?id=${nodeId}`)).json().data.selectedWidget).toBe('num');
    expect((await get(viewer.token, `board/get?id=${nodeId}`)).json().data.selectedWidget).toBe('txt');
    expect(
      (await post(a.admin.token, 'board/select', { id: nodeId, widgetId: 'gone' })).json(),
    ).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'widgetId' },
    });
    // a widget removed by a later save is no longer answered as selected
    const body = sampleBody('sel');
    body.widgets = body.widgets.filter((w) => w.id !== 'num');
    await post(a.admin.token, 'board/save', { id: nodeId, version: 1, body });
    expect((await get(a.admin.token, `board/get?id=${nodeId}`)).json().data.selectedWidget).toBeNull();
  });

  it('opening a board answers its items’ newest records and lists it among the boards opened last', async () => {
    const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await makeRecords(t, a.id, item.itemId, [
      { ts: '2026-01-01T00:00:00Z', values: { f1: 1.5 } },
      { ts: '2026-01-02T00:00:00Z', values: { f1: 21.75 } },
    ]);
    const first = await makeBoard(t, a.id, { name: 'first', body: sampleBody('x', item.itemId) });
    const second = await makeBoard(t, a.id, { name: 'second' });
    const opened = await post(viewer.token, 'board/open', { id: first.nodeId });
    expect(opened.json().code).toBe(0);
    const data = opened.json().data.data;
    expect(data.items).toHaveLength(1);
    expect(data.items[0]).toMatchObject({ itemId: item.itemId, records: [{ values: { f1: 21.75 } }] });
    expect(data.items[0].fields.map((f: { key: string }) => f.key)).toEqual(['f1', 'f2', 'f3']);
    await post(viewer.token, 'board/open', { id: second.nodeId });
    const recent = (await get(viewer.token, 'board/recent')).json().data as Array<{ id: number }>;
    expect(recent.slice(0, 2).map((r) => r.id)).toEqual([second.nodeId, first.nodeId]);
    // the admin opened nothing: their list does not hold the viewer's
    expect(
      (await get(a.admin.token, 'board/recent')).json().data.map((r: { id: number }) => r.id),
    ).not.toContain(first.nodeId);
    // a board the viewer can no longer read leaves their list
    await setPermissions(t, second.nodeId, [{ scope: 'user', subjectId: viewer.id, level: 0 }]);
    expect(
      (await get(viewer.token, 'board/recent')).json().data.map((r: { id: number }) => r.id),
    ).not.toContain(second.nodeId);
  });

  it('an item the caller cannot read is never shown on a board they can read', async () => {
    const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await makeRecords(t, a.id, item.itemId, [{ values: { f1: 99.5, f3: 'hidden value' } }]);
    await setPermissions(t, item.nodeId, [{ scope: 'user', subjectId: viewer.id, level: 0 }]);
    const board = await makeBoard(t, a.id, { body: sampleBody('x', item.itemId) });
    const res = await get(viewer.token, `board/data?id=${board.nodeId}`);
    expect(res.json().data).toMatchObject({ items: [], missingItemIds: [item.itemId] });
    expect(res.body).not.toContain('hidden value');
  });

  it('a dashboard node made through the cabin reads as an empty board and saves from version 0 once', async () => {
    const made = await post(a.admin.token, 'cabin/create', { type: 'dashboard', name: 'from cabin' });
    const id = made.json().data.id;
    expect((await get(a.admin.token, `board/get?id=${id}`)).json().data).toMatchObject({
      version: 0,
      body: { widgets: [] },
    });
    expect(
      (await post(a.admin.token, 'board/save', { id, version: 0, body: sampleBody('v1') })).json().data
        .version,
    ).toBe(1);
    expect(
      (await post(a.admin.token, 'board/save', { id, version: 0, body: sampleBody('again') })).json().code,
    ).toBe(ERROR_CODES.CONFLICT);
    const item = await makeItem(t, a.id);
    expect((await get(a.admin.token, `board/get?id=${item.nodeId}`)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
  });
});

describe('carousels', () => {
  it('saves an ordered list of boards with their seconds and plays readable boards of it only', async () => {
    const one = await makeBoard(t, a.id, { name: 'one', body: sampleBody('one') });
    const two = await makeBoard(t, a.id, { name: 'two', body: sampleBody('two') });
    const res = await post(viewer.token, 'boardplay/save', {
      name: 'lobby',
      entries: [
        { boardId: two.nodeId, seconds: 15 },
        { boardId: one.nodeId, seconds: 30 },
      ],
    });
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        name: 'lobby',
        entries: [
          { boardId: two.nodeId, seconds: 15, name: 'two' },
          { boardId: one.nodeId, seconds: 30, name: 'one' },
        ],
      },
    });
    const id = res.json().data.id;
    const played = await get(viewer.token, `boardplay/board?id=${id}&boardId=${one.nodeId}`);
    expect(played.json()).toMatchObject({ code: 0, data: { board: { name: 'one' } } });
    const other = await makeBoard(t, a.id, { body: sampleBody('not in it') });
    expect(
      (await get(viewer.token, `boardplay/board?id=${id}&boardId=${other.nodeId}`)).json(),
    ).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'boardId' },
    });
    // a board the viewer loses sight of is named null in the list and refused to the player
    await setPermissions(t, one.nodeId, [{ scope: 'user', subjectId: viewer.id, level: 0 }]);
    expect((await get(viewer.token, `boardplay/get?id=${id}`)).json().data.entries[1]).toMatchObject({
      name: null,
    });
    const refused = await get(viewer.token, `boardplay/board?id=${id}&boardId=${one.nodeId}`);
    expect(refused.json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(refused.body).not.toContain('one');
  });

  it('refuses bad entries naming the field and writes nothing', async () => {
    const board = await makeBoard(t, a.id);
    const play = await makePlay(t, a.id, [{ boardId: board.nodeId, seconds: 10 }], 'kept');
    const cases: Array<[object, string]> = [
      [{ id: play, name: 'x', entries: [] }, 'entries'],
      [{ id: play, name: 'x', entries: [{ boardId: board.nodeId, seconds: 2 }] }, 'entries[0].seconds'],
      [
        {
          id: play,
          name: 'x',
          entries: [
            { boardId: board.nodeId, seconds: 10 },
            { boardId: 'a', seconds: 10 },
          ],
        },
        'entries[1].boardId',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await post(a.admin.token, 'boardplay/save', payload);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field } });
    }
    const item = await makeItem(t, a.id);
    expect(
      (
        await post(a.admin.token, 'boardplay/save', {
          id: play,
          name: 'x',
          entries: [{ boardId: item.nodeId, seconds: 10 }],
        })
      ).json(),
    ).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'entries[0].boardId' } });
    expect(
      (await post(a.admin.token, 'boardplay/save', { id: play, name: '', entries: [] })).json().message,
    ).toBe('请输入名称');
    expect((await playRow(t, play))?.name).toBe('kept');
  });

  it('deletes a carousel, and its boards stay', async () => {
    const board = await makeBoard(t, a.id);
    const play = await makePlay(t, a.id, [{ boardId: board.nodeId, seconds: 10 }]);
    expect((await post(a.admin.token, 'boardplay/delete', { id: play })).json().code).toBe(0);
    expect(await playRow(t, play)).toBeUndefined();
    expect(await boardRow(t, board.nodeId)).toBeDefined();
    expect((await get(b.admin.token, 'boardplay/list')).json().data).toEqual([]);
  });
});
