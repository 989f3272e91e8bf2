import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dayOf,
  productionReport,
  SCHEDULE_STATUSES,
  type ScheduleStatus,
  scheduleTransition,
} from './production';

const at = (iso: string) => Date.parse(iso);

describe('production output by day, line and product', () => {
  const units = [
    { finishedAt: at('2026-11-27T15:59:59Z'), line: 'L1', product: 'GW-4G' }, // 23:59:59 in Shanghai
    { finishedAt: at('2026-11-27T16:00:00Z'), line: 'L1', product: 'GW-4G' }, // 28 Nov, 00:00
    { finishedAt: at('2026-11-28T02:00:00Z'), line: 'L2', product: 'EM-3P' },
    { finishedAt: at('2026-11-28T03:00:00Z'), line: 'L1', product: 'GW-4G' },
    { finishedAt: null, line: 'L1', product: 'GW-4G' }, // still in production
    { finishedAt: at('2026-12-01T00:00:00Z'), line: 'L2', product: 'EM-3P' }, // after the period
  ];

  it('counts by the company’s calendar day, not UTC’s', () => {
    const report = productionReport(
      units,
      at('2026-11-01T00:00:00Z'),
      at('2026-12-01T00:00:00Z'),
      'Asia/Shanghai',
    );
    expect(report.rows).toEqual([
      { day: '2026-11-27', line: 'L1', product: 'GW-4G', count: 1 },
      { day: '2026-11-28', line: 'L1', product: 'GW-4G', count: 2 },
      { day: '2026-11-28', line: 'L2', product: 'EM-3P', count: 1 },
    ]);
    expect(report.byDay).toEqual({ '2026-11-27': 1, '2026-11-28': 3 });
    expect(report.byLine).toEqual({ L1: 3, L2: 1 });
    expect(report.byProduct).toEqual({ 'GW-4G': 3, 'EM-3P': 1 });
    expect(report.total).toBe(4);
  });

  it('in UTC the first two fall on one day', () => {
    const report = productionReport(units, at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z'), 'UTC');
    expect(report.byDay).toEqual({ '2026-11-27': 2, '2026-11-28': 2 });
  });

  it('the period is half open: from included, to excluded', () => {
    const edge = [{ finishedAt: at('2026-11-28T02:00:00Z'), line: 'L', product: 'P' }];
    expect(productionReport(edge, at('2026-11-28T02:00:00Z'), at('2026-11-29T00:00:00Z')).total).toBe(1);
    expect(productionReport(edge, at('2026-11-27T00:00:00Z'), at('2026-11-28T02:00:00Z')).total).toBe(0);
  });

  it('every way of summing agrees with the rows (property)', () => {
    const unit = fc.record({
      finishedAt: fc.option(fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2027-01-01T00:00:00Z') })),
      line: fc.constantFrom('L1', 'L2', 'L3'),
      product: fc.constantFrom('A', 'B'),
    });
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (list) => {
        const from = at('2026-03-01T00:00:00Z');
        const to = at('2026-10-01T00:00:00Z');
        const report = productionReport(list, from, to, 'Asia/Shanghai');
        const inside = list.filter((u) => u.finishedAt !== null && u.finishedAt >= from && u.finishedAt < to);
        const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
        expect(report.total).toBe(inside.length);
        expect(sum(report.rows.map((r) => r.count))).toBe(inside.length);
        expect(sum(Object.values(report.byDay))).toBe(inside.length);
        expect(sum(Object.values(report.byLine))).toBe(inside.length);
        for (const row of report.rows) {
          const same = inside.filter(
            (u) =>
              dayOf(u.finishedAt!, 'Asia/Shanghai') === row.day &&
              u.line === row.line &&
              u.product === row.product,
          );
          expect(row.count).toBe(same.length);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('production plans', () => {
  const none = { quantity: 3, recorded: 0, inProduction: 0 };
  const events = [
    { type: 'start' },
    { type: 'finish' },
    { type: 'cancel' },
    { type: 'record', count: 1 },
    { type: 'edit', quantity: 3 },
  ] as const;
  // what each status allows with nothing recorded: the whole table, allowed and refused
  const allowed: Record<ScheduleStatus, Record<(typeof events)[number]['type'], ScheduleStatus | null>> = {
    planned: { start: 'inProduction', finish: null, cancel: 'cancelled', record: null, edit: 'planned' },
    inProduction: {
      start: null,
      finish: 'finished',
      cancel: 'cancelled',
      record: 'inProduction',
      edit: 'inProduction',
    },
    finished: { start: null, finish: null, cancel: null, record: null, edit: null },
    cancelled: { start: null, finish: null, cancel: null, record: null, edit: null },
  };

  it('allows and refuses every event in every status as the table says', () => {
    for (const status of SCHEDULE_STATUSES)
      for (const event of events) {
        const result = scheduleTransition(status, none, event);
        const expected = allowed[status][event.type];
        if (expected) expect(result, `${status} ${event.type}`).toEqual({ ok: true, status: expected });
        else
          expect(result, `${status} ${event.type}`).toEqual({
            ok: false,
            refusal: { key: 'productionScheduleState', status, action: event.type },
          });
      }
  });

  it('records units up to the quantity, finishes only when none is still in production', () => {
    const counts = { quantity: 3, recorded: 2, inProduction: 1 };
    expect(scheduleTransition('inProduction', counts, { type: 'record', count: 1 }).ok).toBe(true);
    expect(scheduleTransition('inProduction', counts, { type: 'record', count: 2 })).toEqual({
      ok: false,
      refusal: { key: 'productionQuantityExceeded', quantity: 3, count: 4 },
    });
    expect(scheduleTransition('inProduction', counts, { type: 'finish' })).toEqual({
      ok: false,
      refusal: { key: 'productionUnitsUnfinished', count: 1 },
    });
    expect(scheduleTransition('inProduction', { ...counts, inProduction: 0 }, { type: 'finish' }).ok).toBe(
      true,
    );
    expect(scheduleTransition('inProduction', counts, { type: 'cancel' })).toEqual({
      ok: false,
      refusal: { key: 'productionScheduleInUse', count: 2 },
    });
    expect(scheduleTransition('inProduction', counts, { type: 'edit', quantity: 1 })).toEqual({
      ok: false,
      refusal: { key: 'productionQuantityBelow', count: 2 },
    });
  });

  it('never lets random operations record more than the quantity or finish with units in production', () => {
    const op = fc.oneof(
      fc.constant({ type: 'start' as const }),
      fc.constant({ type: 'finish' as const }),
      fc.constant({ type: 'cancel' as const }),
      fc.record({ type: fc.constant('record' as const), count: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ type: fc.constant('edit' as const), quantity: fc.integer({ min: 1, max: 8 }) }),
      fc.constant({ type: 'finishUnit' as const }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 30 }), (quantity, ops) => {
        let status: ScheduleStatus = 'planned';
        const counts = { quantity, recorded: 0, inProduction: 0 };
        for (const o of ops) {
          if (o.type === 'finishUnit') {
            if (counts.inProduction > 0) counts.inProduction -= 1;
            continue;
          }
          const result = scheduleTransition(status, counts, o);
          if (!result.ok) continue;
          if (o.type === 'finish') expect(counts.inProduction).toBe(0);
          status = result.status;
          if (o.type === 'record') {
            counts.recorded += o.count;
            counts.inProduction += o.count;
          }
          if (o.type === 'edit') counts.quantity = o.quantity;
          expect(counts.recorded).toBeLessThanOrEqual(counts.quantity);
        }
      }),
    );
  });
});
