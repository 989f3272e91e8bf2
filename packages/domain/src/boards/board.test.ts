import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BoardBody,
  boardChartRefs,
  boardItemIds,
  checkBoardBody,
  emptyBoard,
  GRID_COLUMNS,
  isStale,
  WIDGET_TYPES,
} from './board';
import {
  addWidget,
  byLayer,
  clampRect,
  copyWidget,
  displayScale,
  historyOf,
  moveLayer,
  placeWidget,
  record,
  redo,
  setConfig,
  setFlag,
  undo,
} from './edit';
import { checkPlayEntries, countdown, nextPlayIndex, PLAY_RETRY_MS } from './play';
import { BUILT_IN_TEMPLATES } from './templates';

const ok = (raw: unknown): BoardBody => {
  const r = checkBoardBody(raw);
  if (!r.ok) throw new Error(`${r.field}: ${r.reason}`);
  return r.body;
};
const broken = (raw: unknown) => {
  const r = checkBoardBody(raw);
  return r.ok ? null : r.field;
};

describe('checkBoardBody', () => {
  it('fills defaults and drops unknown keys', () => {
    const body = ok({
      widgets: [{ id: 'a', type: 'text', x: 0, y: 0, w: 4, h: 2, extra: 1, config: { text: 'hi' } }],
    });
    expect(body.mode).toBe('grid');
    expect(body.width).toBe(1920);
    expect(body.widgets[0]).toEqual({
      id: 'a',
      type: 'text',
      x: 0,
      y: 0,
      w: 4,
      h: 2,
      z: 0,
      locked: false,
      hidden: false,
      config: { text: 'hi', fontSize: 18, color: '', align: 'left' },
    });
  });

  it('names the broken field', () => {
    const widget = { id: 'a', type: 'number', x: 0, y: 0, w: 4, h: 2 };
    expect(broken(null)).toBe('body');
    expect(broken({ mode: 'free' })).toBe('body.mode');
    expect(broken({ width: 100 })).toBe('body.width');
    expect(broken({ widgets: {} })).toBe('widgets');
    expect(broken({ widgets: [{ ...widget, type: 'video' }] })).toBe('widgets[0].type');
    expect(broken({ widgets: [{ ...widget, w: 25 }] })).toBe('widgets[0].w');
    // the grid has 24 columns: x + w may not pass them
    expect(broken({ widgets: [{ ...widget, x: 21 }] })).toBe('widgets[0].x');
    expect(broken({ widgets: [widget, { ...widget }] })).toBe('widgets[1].id');
    expect(broken({ widgets: [{ ...widget, config: { itemId: 'x' } }] })).toBe('widgets[0].config.itemId');
    expect(broken({ widgets: [{ ...widget, config: { field: 'name' } }] })).toBe('widgets[0].config.field');
    expect(broken({ widgets: [{ ...widget, id: 'a b' }] })).toBe('widgets[0].id');
    expect(broken({ widgets: [{ ...widget, type: 'image', config: { url: 'javascript:alert(1)' } }] })).toBe(
      'widgets[0].config.url',
    );
    expect(
      broken({ widgets: [{ ...widget, type: 'text', config: { color: 'red;background:url(x)' } }] }),
    ).toBe('widgets[0].config.color');
    // a canvas widget must stay on the canvas
    expect(
      broken({
        mode: 'canvas',
        width: 1920,
        height: 1080,
        widgets: [{ ...widget, x: 1900, w: 100, h: 100 }],
      }),
    ).toBe('widgets[0].x');
    expect(broken({ widgets: Array.from({ length: 201 }, (_, i) => ({ ...widget, id: `w${i}` })) })).toBe(
      'widgets',
    );
  });

  it('checks the chart and alarm-list widgets', () => {
    const widget = { id: 'a', x: 0, y: 0, w: 8, h: 8 };
    // a chart is stored with its item (the chart engine and the permissions need both)
    expect(broken({ widgets: [{ ...widget, type: 'chart', config: { chartId: 4 } }] })).toBe(
      'widgets[0].config.itemId',
    );
    expect(
      ok({ widgets: [{ ...widget, type: 'chart', config: { chartId: 4, itemId: 9 } }] }).widgets[0]!.config,
    ).toEqual({ chartId: 4, itemId: 9 });
    // no chart chosen: the item is dropped with it
    expect(ok({ widgets: [{ ...widget, type: 'chart', config: { itemId: 9 } }] }).widgets[0]!.config).toEqual(
      {
        chartId: null,
        itemId: null,
      },
    );
    const alarm = (config: unknown) => ({ widgets: [{ ...widget, type: 'alarmList', config }] });
    expect(ok(alarm(undefined)).widgets[0]!.config).toEqual({ title: '', itemIds: [], levels: [], rows: 10 });
    expect(ok(alarm({ itemIds: [5, 3, 5], levels: [3, 1, 1], rows: 4 })).widgets[0]!.config).toEqual({
      title: '',
      itemIds: [5, 3],
      levels: [1, 3],
      rows: 4,
    });
    expect(broken(alarm({ levels: [4] }))).toBe('widgets[0].config.levels[0]');
    expect(broken(alarm({ levels: 1 }))).toBe('widgets[0].config.levels');
    expect(broken(alarm({ itemIds: [1, 'x'] }))).toBe('widgets[0].config.itemIds[1]');
    expect(broken(alarm({ itemIds: Array.from({ length: 21 }, (_, i) => i + 1) }))).toBe(
      'widgets[0].config.itemIds',
    );
    expect(broken(alarm({ rows: 51 }))).toBe('widgets[0].config.rows');
  });

  it('accepts every built-in template', () => {
    for (const t of BUILT_IN_TEMPLATES) expect(checkBoardBody(t.body)).toEqual({ ok: true, body: t.body });
  });
});

const rect = fc.record({
  x: fc.integer({ min: -3000, max: 9000 }),
  y: fc.integer({ min: -3000, max: 9000 }),
  w: fc.integer({ min: -10, max: 9000 }),
  h: fc.integer({ min: -10, max: 9000 }),
});
const boardShape = fc.record({
  mode: fc.constantFrom('grid' as const, 'canvas' as const),
  width: fc.integer({ min: 320, max: 7680 }),
  height: fc.integer({ min: 320, max: 4320 }),
});

describe('designer edits', () => {
  it('every edit keeps a body the check accepts (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), type: fc.constantFrom(...WIDGET_TYPES) }),
      fc.record({ kind: fc.constant('place' as const), at: fc.nat(), rect }),
      fc.record({ kind: fc.constant('copy' as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant('layer' as const),
        at: fc.nat(),
        move: fc.constantFrom('forward' as const, 'backward' as const, 'front' as const, 'back' as const),
      }),
      fc.record({ kind: fc.constant('lock' as const), at: fc.nat(), value: fc.boolean() }),
    );
    fc.assert(
      fc.property(
        boardShape,
        fc.array(op, { maxLength: 30 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (shape, ops, seed) => {
          let body = { ...emptyBoard(shape.mode, shape.width, shape.height) };
          let n = seed;
          const random = () => {
            n = (n * 9301 + 0.49297) % 1;
            return n;
          };
          for (const o of ops) {
            const target = body.widgets.length
              ? body.widgets[((o as { at?: number }).at ?? 0) % body.widgets.length]!.id
              : 'none';
            if (o.kind === 'add') body = addWidget(body, o.type, random).body;
            else if (o.kind === 'place') body = placeWidget(body, target, o.rect);
            else if (o.kind === 'copy') body = copyWidget(body, target, random).body;
            else if (o.kind === 'layer') body = moveLayer(body, target, o.move);
            else body = setFlag(body, target, 'locked', o.value);
            expect(checkBoardBody(body)).toEqual({ ok: true, body });
          }
        },
      ),
    );
  });

  it('clamps a grid rectangle into the 24 columns', () => {
    const grid = emptyBoard('grid');
    expect(clampRect(grid, { x: 20, y: -2, w: 8, h: 0 })).toEqual({ x: GRID_COLUMNS - 8, y: 0, w: 8, h: 1 });
    const canvas = emptyBoard('canvas', 1920, 1080);
    expect(clampRect(canvas, { x: 1800, y: 1000, w: 300.4, h: 200.6 })).toEqual({
      x: 1620,
      y: 879,
      w: 300,
      h: 201,
    });
  });

  it('leaves a locked widget where it is', () => {
    const { body, id } = addWidget(emptyBoard('canvas'), 'text');
    const locked = setFlag(body, id, 'locked', true);
    expect(placeWidget(locked, id, { x: 500, y: 500, w: 100, h: 100 })).toEqual(locked);
    const moved = placeWidget(body, id, { x: 500, y: 500, w: 100, h: 100 });
    expect(moved.widgets[0]).toMatchObject({ x: 500, y: 500, w: 100, h: 100 });
  });

  it('layer moves renumber z as a permutation and move the widget as asked', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        fc.constantFrom('forward' as const, 'backward' as const, 'front' as const, 'back' as const),
        (n, pick, move) => {
          let body = emptyBoard('canvas');
          for (let i = 0; i < n; i++) body = addWidget(body, 'text').body;
          const before = byLayer(body.widgets).map((w) => w.id);
          const id = before[pick % n]!;
          const after = byLayer(moveLayer(body, id, move).widgets).map((w) => w.id);
          expect([...after].sort()).toEqual([...before].sort());
          expect(
            moveLayer(body, id, move)
              .widgets.map((w) => w.z)
              .sort((a, b) => a - b),
          ).toEqual(Array.from({ length: n }, (_, i) => i + 1));
          const from = before.indexOf(id);
          const expected = {
            front: n - 1,
            back: 0,
            forward: Math.min(from + 1, n - 1),
            backward: Math.max(from - 1, 0),
          }[move];
          expect(after.indexOf(id)).toBe(expected);
        },
      ),
    );
  });

  it('a copy is offset, on top and unlocked', () => {
    let { body, id } = addWidget(emptyBoard('canvas'), 'text');
    body = setFlag(setConfig(body, id, { text: 'hello' }), id, 'locked', true);
    const copied = copyWidget(body, id);
    const copy = copied.body.widgets.find((w) => w.id === copied.id)!;
    expect(copy).toMatchObject({ x: 60, y: 60, locked: false, z: 2, config: { text: 'hello' } });
  });

  it('undo and redo walk the history; a new edit drops the redo list', () => {
    let h = historyOf(0);
    h = record(h, 1);
    h = record(h, 2);
    h = undo(h);
    expect(h.present).toBe(1);
    h = redo(h);
    expect(h.present).toBe(2);
    h = undo(undo(h));
    expect(h.present).toBe(0);
    expect(undo(h)).toBe(h);
    h = record(h, 5);
    expect(h).toEqual({ past: [0], present: 5, future: [] });
    expect(redo(h)).toBe(h);
  });

  it('counts each data item once however many widgets show it', () => {
    let body = emptyBoard('grid');
    for (const itemId of [7, 3, 7, 7]) {
      const added = addWidget(body, 'number');
      body = setConfig(added.body, added.id, { itemId });
    }
    const table = addWidget(body, 'table');
    body = setConfig(table.body, table.id, { itemId: 9 });
    const hidden = addWidget(body, 'number');
    body = setFlag(setConfig(hidden.body, hidden.id, { itemId: 11 }), hidden.id, 'hidden', true);
    expect(boardItemIds(body)).toEqual([3, 7, 9]);
    // a chart reads its item too; an alarm list reads no records
    const chart = addWidget(body, 'chart');
    body = setConfig(chart.body, chart.id, { chartId: 40, itemId: 12 });
    const alarms = addWidget(body, 'alarmList');
    body = setConfig(alarms.body, alarms.id, { itemIds: [13] });
    expect(boardItemIds(body)).toEqual([3, 7, 9, 12]);
    expect(boardChartRefs(body)).toEqual([{ chartId: 40, itemId: 12 }]);
  });
});

describe('display', () => {
  it('fit keeps proportions and shows the whole canvas; fill covers the screen; scroll is 1:1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 320, max: 7680 }),
        fc.integer({ min: 320, max: 4320 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        (bw, bh, vw, vh) => {
          const fit = displayScale({ width: bw, height: bh }, { width: vw, height: vh }, 'fit');
          expect(fit.sx).toBe(fit.sy);
          expect(bw * fit.sx).toBeLessThanOrEqual(vw + 1e-6);
          expect(bh * fit.sy).toBeLessThanOrEqual(vh + 1e-6);
          // and it touches one side of the screen
          expect(Math.max(bw * fit.sx - vw, bh * fit.sy - vh)).toBeCloseTo(0, 6);
          const fill = displayScale({ width: bw, height: bh }, { width: vw, height: vh }, 'fill');
          expect(bw * fill.sx).toBeCloseTo(vw, 6);
          expect(bh * fill.sy).toBeCloseTo(vh, 6);
        },
      ),
    );
    expect(displayScale({ width: 1920, height: 1080 }, { width: 1440, height: 900 }, 'scroll')).toEqual({
      sx: 1,
      sy: 1,
    });
    expect(displayScale({ width: 1920, height: 1080 }, { width: 960, height: 900 }, 'fit')).toEqual({
      sx: 0.5,
      sy: 0.5,
    });
  });

  it('greys a value older than its stale minutes, and one never received', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(isStale(now - 10 * 60_000, now, 10)).toBe(false);
    expect(isStale(now - 10 * 60_000 - 1, now, 10)).toBe(true);
    expect(isStale(null, now, 10)).toBe(true);
  });
});

describe('carousel', () => {
  const entries = [
    { boardId: 1, seconds: 10 },
    { boardId: 2, seconds: 20 },
    { boardId: 3, seconds: 30 },
  ];

  it('checks the entries, naming the broken one', () => {
    expect(checkPlayEntries(entries)).toEqual({ ok: true, entries });
    expect(checkPlayEntries([])).toMatchObject({ ok: false, field: 'entries' });
    expect(checkPlayEntries([{ boardId: 1, seconds: 4 }])).toMatchObject({
      ok: false,
      field: 'entries[0].seconds',
    });
    expect(checkPlayEntries([...entries, { boardId: 0, seconds: 10 }])).toMatchObject({
      ok: false,
      field: 'entries[3].boardId',
    });
  });

  it('goes round in order, skipping a board that failed recently and trying it again later', () => {
    const now = 1_000_000;
    expect(nextPlayIndex(entries, 0, new Map(), now)).toBe(1);
    expect(nextPlayIndex(entries, 2, new Map(), now)).toBe(0);
    expect(nextPlayIndex(entries, 0, new Map([[2, now - 1000]]), now)).toBe(2);
    expect(nextPlayIndex(entries, 0, new Map([[2, now - PLAY_RETRY_MS]]), now)).toBe(1);
    // all failed: keep going round, never stop
    const allFailed = new Map(entries.map((e) => [e.boardId, now]));
    expect(nextPlayIndex(entries, 1, allFailed, now)).toBe(2);
  });

  it('matches a reference rotation on random failures (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.nat(),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (n, cur, failed) => {
          const list = Array.from({ length: n }, (_, i) => ({ boardId: i + 1, seconds: 10 }));
          const current = cur % n;
          const map = new Map(list.filter((_, i) => failed[i]).map((e) => [e.boardId, 0]));
          const got = nextPlayIndex(list, current, map, 1000);
          const order = Array.from({ length: n }, (_, s) => (current + s + 1) % n);
          const expected = order.find((i) => !failed[i]) ?? (current + 1) % n;
          expect(got).toBe(expected);
        },
      ),
    );
  });

  it('counts down to zero and not below', () => {
    expect(countdown(0, 10, 0)).toBe(10);
    expect(countdown(0, 10, 9_001)).toBe(1);
    expect(countdown(0, 10, 20_000)).toBe(0);
  });
});
