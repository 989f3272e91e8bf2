import { ERROR_CODES } from '@platform/domain';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { makeChart } from '../charts/route-cases';
import { makeRecords } from '../records/test-support';
import { boardRow, makeBoard, makePlay, playRow, sampleBody } from './test-support';

const SECRET = 'secret board text of A';

export const boardsRouteCases: RouteCases = {
  'GET /general/smartdata/board/list': {
    attack: async ({ t, a, b }) => {
      const victim = await makeBoard(t, a.id, { name: 'A secret board', body: sampleBody(SECRET) });
      return {
        request: { method: 'GET', url: '/general/smartdata/board/list', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.map((r: { id: number }) => r.id)).not.toContain(victim.nodeId);
          expect(res.body).not.toContain('A secret board');
        },
      };
    },
  },
  'GET /general/smartdata/board/templates': {
    ownScope: 'built-in templates of the product, no company data',
  },
  'POST /general/smartdata/board/create': {
    attack: async ({ t, a, b }) => {
      // B copies A's board into a new board of its own: A's board is absent for B
      const victim = await makeBoard(t, a.id, { body: sampleBody(SECRET) });
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/board/create',
          payload: { name: 'stolen', fromId: victim.nodeId },
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'fromId' } });
          expect(res.body).not.toContain(SECRET);
        },
      };
    },
  },
  'GET /general/smartdata/board/get': {
    attack: async ({ t, a, b }) => {
      const victim = await makeBoard(t, a.id, { body: sampleBody(SECRET) });
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/board/get?id=${victim.nodeId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain(SECRET);
        },
      };
    },
  },
  'POST /general/smartdata/board/open': {
    attack: async ({ t, a, b }) => {
      const victim = await makeBoard(t, a.id, { body: sampleBody(SECRET) });
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/board/open',
          payload: { id: victim.nodeId },
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain(SECRET);
        },
      };
    },
  },
  'GET /general/smartdata/board/data': {
    attack: async ({ t, a, b }) => {
      // B's own board naming A's item: the item's records never come back
      const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      await makeRecords(t, a.id, item.itemId, [{ values: { f1: 42.5, f3: SECRET } }]);
      const own = await makeBoard(t, b.id, { body: sampleBody('mine', item.itemId) });
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/board/data?id=${own.nodeId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.items).toEqual([]);
          expect(res.json().data.missingItemIds).toEqual([item.itemId]);
          expect(res.body).not.toContain(SECRET);
        },
      };
    },
  },
  'GET /general/smartdata/board/items': {
    attack: async ({ t, a, b }) => {
      // B lists the items it may read: A's item (and its field names) never appear
      const item = await makeItem(t, a.id, { name: 'SECRET-A item', fields: SAMPLE_FIELDS });
      return {
        request: { method: 'GET', url: '/general/smartdata/board/items', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.map((r: { id: number }) => r.id)).not.toContain(item.itemId);
          expect(res.body).not.toContain('SECRET-A');
        },
      };
    },
  },
  'GET /general/smartdata/board/charts': {
    attack: async ({ t, a, b }) => {
      const item = await makeItem(t, a.id, { name: 'SECRET-A item', fields: SAMPLE_FIELDS });
      const chartId = await makeChart(t, a.id, item.itemId);
      return {
        request: { method: 'GET', url: '/general/smartdata/board/charts', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.map((r: { id: number }) => r.id)).not.toContain(chartId);
          expect(res.body).not.toContain('SECRET-A');
        },
      };
    },
  },
  'POST /general/smartdata/board/save': {
    attack: async ({ t, a, b }) => {
      const victim = await makeBoard(t, a.id, { body: sampleBody(SECRET) });
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/board/save',
          payload: { id: victim.nodeId, version: 1, body: sampleBody('overwritten') },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          const row = await boardRow(t, victim.nodeId);
          expect(row.version).toBe(1);
          expect(JSON.stringify(row.body)).toContain(SECRET);
        },
      };
    },
  },
  'POST /general/smartdata/board/select': {
    attack: async ({ t, a, b }) => {
      const victim = await makeBoard(t, a.id, { body: sampleBody(SECRET) });
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/board/select',
          payload: { id: victim.nodeId, widgetId: 'txt' },
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
        },
      };
    },
  },
  'GET /general/smartdata/board/recent': {
    ownScope: "the caller's own openings, of boards still readable in the caller's company",
  },
  'GET /general/smartdata/boardplay/list': {
    attack: async ({ t, a, b }) => {
      const board = await makeBoard(t, a.id);
      await makePlay(t, a.id, [{ boardId: board.nodeId, seconds: 10 }], 'A secret play');
      return {
        request: { method: 'GET', url: '/general/smartdata/boardplay/list', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('A secret play');
        },
      };
    },
  },
  'GET /general/smartdata/boardplay/get': {
    attack: async ({ t, a, b }) => {
      const board = await makeBoard(t, a.id);
      const play = await makePlay(t, a.id, [{ boardId: board.nodeId, seconds: 10 }], 'A secret play');
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/boardplay/get?id=${play}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain('A secret play');
        },
      };
    },
  },
  'POST /general/smartdata/boardplay/save': {
    attack: async ({ t, a, b }) => {
      // B overwrites A's carousel; and B's new carousel naming A's board
      const board = await makeBoard(t, a.id, { name: 'A board' });
      const play = await makePlay(t, a.id, [{ boardId: board.nodeId, seconds: 10 }], 'A play');
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/boardplay/save',
          payload: { id: play, name: 'hijacked', entries: [{ boardId: board.nodeId, seconds: 5 }] },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect((await playRow(t, play))?.name).toBe('A play');
          const created = await t.app.inject({
            method: 'POST',
            url: '/general/smartdata/boardplay/save',
            payload: { name: 'mine', entries: [{ boardId: board.nodeId, seconds: 5 }] },
            headers: bearer(b.admin.token),
          });
          expect(created.json()).toMatchObject({
            code: ERROR_CODES.NOT_FOUND,
            data: { field: 'entries[0].boardId' },
          });
        },
      };
    },
  },
  'POST /general/smartdata/boardplay/delete': {
    attack: async ({ t, a, b }) => {
      const board = await makeBoard(t, a.id);
      const play = await makePlay(t, a.id, [{ boardId: board.nodeId, seconds: 10 }]);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/boardplay/delete',
          payload: { id: play },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(await playRow(t, play)).toBeDefined();
        },
      };
    },
  },
  'GET /general/smartdata/boardplay/board': {
    attack: async ({ t, a, b }) => {
      // B's own carousel cannot name A's board; A's carousel is absent for B
      const board = await makeBoard(t, a.id, { body: sampleBody(SECRET) });
      const play = await makePlay(t, a.id, [{ boardId: board.nodeId, seconds: 10 }]);
      const own = await makePlay(t, b.id, [{ boardId: board.nodeId, seconds: 10 }]);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/boardplay/board?id=${play}&boardId=${board.nodeId}`,
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain(SECRET);
          const viaOwn = await t.app.inject({
            method: 'GET',
            url: `/general/smartdata/boardplay/board?id=${own}&boardId=${board.nodeId}`,
            headers: bearer(b.admin.token),
          });
          expect(viaOwn.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'boardId' } });
          expect(viaOwn.body).not.toContain(SECRET);
        },
      };
    },
  },
};
