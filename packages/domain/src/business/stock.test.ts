import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedActions,
  countByStockStatus,
  NEW_UNIT,
  type Order,
  type OrderOp,
  orderTransition,
  PRODUCTION_STATUSES,
  type ProductionStatus,
  quantityShortfalls,
  type StockStatusId,
  stockStatusOf,
  type Unit,
  type UnitEvent,
  unitTransition,
  withRegistry,
} from './stock';

const ORDER = 7;
const OTHER = 8;
/** a unit in `status`; in order ORDER when the status is one of being in an order */
const unitIn = (status: ProductionStatus, disabled = false): Unit => ({
  status,
  disabled,
  orderId: status === 'inEntryOrder' || status === 'inExitOrder' ? ORDER : null,
});

const EVENTS: UnitEvent[] = [
  { type: 'finish' },
  { type: 'chooseEntry', orderId: OTHER },
  { type: 'chooseExit', orderId: OTHER },
  { type: 'release', orderId: ORDER },
  { type: 'stock', orderId: ORDER },
  { type: 'ship', orderId: ORDER },
  { type: 'register' },
  { type: 'bind' },
  { type: 'unbind' },
  { type: 'disable' },
  { type: 'enable' },
];

/**
 * Every allowed move of an enabled unit (seed point 3's production statuses): status → action →
 * next status. Anything not listed is refused.
 */
const ALLOWED: Record<ProductionStatus, Partial<Record<UnitEvent['type'], ProductionStatus>>> = {
  inProduction: { finish: 'finished' },
  finished: { chooseEntry: 'inEntryOrder' },
  inEntryOrder: { release: 'finished', stock: 'stocked' },
  stocked: { chooseExit: 'inExitOrder' },
  inExitOrder: { release: 'stocked', ship: 'out' },
  out: { register: 'registered', bind: 'bound' },
  registered: { bind: 'bound' },
  bound: { unbind: 'registered' },
};

describe('a unit’s moves', () => {
  const cases = PRODUCTION_STATUSES.flatMap((status) => EVENTS.map((event) => [status, event] as const));

  it.each(cases)('%s, %o', (status, event) => {
    const unit = unitIn(status);
    const result = unitTransition(unit, event);
    const inOrder = unit.orderId !== null;
    if (event.type === 'disable') {
      // disabling keeps the status underneath; a unit in an open order must leave it first
      if (inOrder)
        expect(result).toEqual({ ok: false, refusal: { key: 'stockUnitInOrder', orderId: ORDER } });
      else expect(result).toEqual({ ok: true, unit: { ...unit, disabled: true } });
      return;
    }
    const next = ALLOWED[status][event.type];
    if (next) {
      const orderId = next === 'inEntryOrder' || next === 'inExitOrder' ? OTHER : null;
      expect(result).toEqual({ ok: true, unit: { status: next, disabled: false, orderId } });
      return;
    }
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // the refusal says why: already in an order, not in this one, or not from this status
    if ((event.type === 'chooseEntry' || event.type === 'chooseExit') && inOrder)
      expect(result.refusal).toEqual({ key: 'stockUnitInOrder', orderId: ORDER });
    else if (['release', 'stock', 'ship'].includes(event.type) && !inOrder)
      expect(result.refusal).toEqual({ key: 'stockUnitNotInOrder' });
    else expect(result.refusal).toEqual({ key: 'stockTransitionRefused', status, action: event.type });
  });

  it.each(PRODUCTION_STATUSES)(
    'a disabled unit (%s) refuses everything but enable, which gives its status back',
    (status) => {
      const unit: Unit = { status, disabled: true, orderId: null };
      for (const event of EVENTS) {
        const result = unitTransition(unit, event);
        if (event.type === 'enable')
          expect(result).toEqual({ ok: true, unit: { status, disabled: false, orderId: null } });
        else expect(result).toEqual({ ok: false, refusal: { key: 'stockUnitDisabled' } });
      }
      expect(stockStatusOf(unit)).toBe(9);
      expect(unitTransition(unitIn(status), { type: 'enable' }).ok).toBe(false);
    },
  );

  it('an order’s own confirmation is refused for a unit of another order', () => {
    const unit = { ...unitIn('inEntryOrder'), orderId: OTHER };
    expect(unitTransition(unit, { type: 'stock', orderId: ORDER })).toEqual({
      ok: false,
      refusal: { key: 'stockUnitNotInOrder' },
    });
  });

  it('stock status ids follow seed point 3', () => {
    const shown = Object.fromEntries(PRODUCTION_STATUSES.map((s) => [s, stockStatusOf(unitIn(s))]));
    expect(shown).toEqual({
      inProduction: 0,
      finished: 0,
      inEntryOrder: 0,
      stocked: 1,
      inExitOrder: 2,
      out: 3,
      registered: 3,
      bound: 4,
    });
  });

  it('offers the actions it would accept', () => {
    expect(allowedActions(unitIn('stocked'))).toEqual(['chooseExit', 'disable']);
    expect(allowedActions(unitIn('out'))).toEqual(['register', 'bind', 'disable']);
    expect(allowedActions(unitIn('inExitOrder'))).toEqual([]);
  });
});

describe('orders, all or nothing', () => {
  const entry = (units: string[] = []): Order => ({ id: 1, kind: 'entry', state: 'open', units });

  it('fills an entry order, confirms it: every unit stocked', () => {
    const units = { A: unitIn('finished'), B: unitIn('finished') };
    const added = orderTransition(entry(), units, { type: 'add', sns: ['A', 'B', 'A'] });
    if (!added.ok) throw new Error(JSON.stringify(added.refusals));
    expect(added.order.units).toEqual(['A', 'B']);
    expect(added.units.A).toEqual({ status: 'inEntryOrder', disabled: false, orderId: 1 });
    const confirmed = orderTransition(added.order, { ...units, ...added.units }, { type: 'confirm' });
    if (!confirmed.ok) throw new Error(JSON.stringify(confirmed.refusals));
    expect(confirmed.order.state).toBe('confirmed');
    expect(Object.values(confirmed.units).map(stockStatusOf)).toEqual([1, 1]);
  });

  it('one refused serial number refuses the whole add, naming it', () => {
    const units = {
      A: unitIn('finished'),
      B: unitIn('inProduction'),
      C: { ...unitIn('finished'), orderId: 9 },
    };
    const result = orderTransition(entry(), units, { type: 'add', sns: ['A', 'B', 'C'] });
    expect(result).toEqual({
      ok: false,
      refusals: [
        { key: 'stockTransitionRefused', status: 'inProduction', action: 'chooseEntry', sn: 'B' },
        { key: 'stockUnitInOrder', orderId: 9, sn: 'C' },
      ],
    });
  });

  it('a closed order changes no more; an empty one is not confirmed', () => {
    const closed: Order = { ...entry(['A']), state: 'confirmed' };
    expect(orderTransition(closed, { A: unitIn('stocked') }, { type: 'cancel' })).toEqual({
      ok: false,
      refusals: [{ key: 'stockOrderClosed', state: 'confirmed' }],
    });
    expect(orderTransition(entry(), {}, { type: 'confirm' })).toEqual({
      ok: false,
      refusals: [{ key: 'stockOrderEmpty' }],
    });
  });

  it('cancelling an exit order puts its units back in stock', () => {
    const order: Order = { id: ORDER, kind: 'exit', state: 'open', units: ['A'] };
    const result = orderTransition(order, { A: unitIn('inExitOrder') }, { type: 'cancel' });
    expect(result).toEqual({
      ok: true,
      order: { ...order, state: 'cancelled' },
      units: { A: { status: 'stocked', disabled: false, orderId: null } },
    });
  });
});

describe('random sequences of operations (property)', () => {
  const SNS = ['S1', 'S2'];
  const ORDER_IDS = [1, 2, 3, 4];
  const sn = fc.constantFrom(...SNS);
  // order operations weigh more than a unit's own events, adds most: a run must get units into
  // orders (and try them in a second one) often enough to find a unit in two
  const step = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('order' as const),
        orderId: fc.constantFrom(...ORDER_IDS),
        op: fc.oneof(
          {
            weight: 3,
            arbitrary: fc.record({ type: fc.constant('add' as const), sns: fc.array(sn, { maxLength: 3 }) }),
          },
          {
            weight: 1,
            arbitrary: fc.record({
              type: fc.constant('remove' as const),
              sns: fc.array(sn, { maxLength: 2 }),
            }),
          },
          { weight: 2, arbitrary: fc.constant({ type: 'confirm' as const }) },
          { weight: 1, arbitrary: fc.constant({ type: 'cancel' as const }) },
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('unit' as const),
        sn,
        event: fc.constantFrom<UnitEvent>(
          { type: 'finish' },
          { type: 'finish' },
          { type: 'register' },
          { type: 'bind' },
          { type: 'unbind' },
          { type: 'disable' },
          { type: 'enable' },
        ),
      }),
    },
  );

  /**
   * Runs the steps on two units and four order slots (1 and 3 entry orders, 2 and 4 exit
   * orders); a slot whose order closed gets a new open order of its kind with a new id, so a run
   * keeps moving units through production, stock and delivery. Calls `check` after every step.
   */
  function simulate(
    steps: Array<typeof step extends fc.Arbitrary<infer T> ? T : never>,
    check: (state: {
      units: Record<string, Unit>;
      orders: Order[];
      refused: boolean;
      before: string;
    }) => void,
  ) {
    const units: Record<string, Unit> = Object.fromEntries(SNS.map((s) => [s, NEW_UNIT]));
    let nextId = 1;
    const slots = new Map<number, Order>(
      ORDER_IDS.map((slot) => [
        slot,
        { id: nextId++, kind: slot % 2 ? 'entry' : 'exit', state: 'open', units: [] },
      ]),
    );
    const closed: Order[] = [];
    for (const s of steps) {
      const before = JSON.stringify([units, [...slots.values()], closed]);
      let refused = false;
      if (s.kind === 'unit') {
        const result = unitTransition(units[s.sn]!, s.event);
        if (result.ok) units[s.sn] = result.unit;
        else refused = true;
      } else {
        const result = orderTransition(slots.get(s.orderId)!, units, s.op as OrderOp);
        if (result.ok) {
          Object.assign(units, result.units);
          if (result.order.state === 'open') slots.set(s.orderId, result.order);
          else {
            closed.push(result.order);
            slots.set(s.orderId, { id: nextId++, kind: result.order.kind, state: 'open', units: [] });
          }
        } else refused = true;
      }
      check({ units, orders: [...slots.values(), ...closed], refused, before });
    }
  }

  it('never leave a unit in two open orders, nor a count that disagrees with the units', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 100 }), (steps) => {
        // counts kept as a store would keep them: moved by each change, never recounted
        const counts = countByStockStatus(SNS.map(() => NEW_UNIT));
        let previous: Record<string, Unit> = Object.fromEntries(SNS.map((s) => [s, NEW_UNIT]));
        // plain checks (an expect per step per unit is slow over thousands of steps)
        const violations: string[] = [];
        simulate(steps, ({ units, orders, refused, before }) => {
          const open = orders.filter((o) => o.state === 'open');
          const after = JSON.stringify([units, open, orders.filter((o) => o.state !== 'open')]);
          if (refused && after !== before) violations.push('a refused operation changed something');
          for (const key of SNS) {
            counts[stockStatusOf(previous[key]!)] -= 1;
            counts[stockStatusOf(units[key]!)] += 1;
            const holding = open.filter((o) => o.units.includes(key));
            const unit = units[key]!;
            if (holding.length > 1) violations.push(`${key} is in ${holding.length} open orders`);
            if (unit.orderId !== (holding[0]?.id ?? null))
              violations.push(`${key} names order ${unit.orderId}`);
            if ((unit.orderId !== null) !== (unit.status === 'inEntryOrder' || unit.status === 'inExitOrder'))
              violations.push(`${key} is ${unit.status} with order ${unit.orderId}`);
          }
          previous = { ...units };
          const recount = countByStockStatus(Object.values(units));
          if (JSON.stringify(counts) !== JSON.stringify(recount))
            violations.push(`counts ${JSON.stringify(counts)} against ${JSON.stringify(recount)}`);
        });
        expect(violations).toEqual([]);
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('the runs reach every stock status (the generator is not stuck at the start)', () => {
    const seen = new Set<StockStatusId>();
    fc.assert(
      fc.property(fc.array(step, { minLength: 60, maxLength: 120 }), (steps) => {
        simulate(steps, ({ units }) => {
          for (const unit of Object.values(units)) seen.add(stockStatusOf(unit));
        });
        return true;
      }),
      { numRuns: 300, seed: 42 },
    );
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 9]);
  });
});

describe('withRegistry', () => {
  const out = unitIn('out');
  it('shows a shipped unit registered once its serial number is in the factory list, bound while a customer holds it', () => {
    expect(withRegistry(out, { registered: false, bound: false }).status).toBe('out');
    expect(withRegistry(out, { registered: true, bound: false }).status).toBe('registered');
    expect(withRegistry(out, { registered: true, bound: true }).status).toBe('bound');
    expect(stockStatusOf(withRegistry(out, { registered: true, bound: true }))).toBe(4);
  });

  it('changes nothing of a unit still in the factory: the registry cannot move what is not shipped', () => {
    for (const status of ['inProduction', 'finished', 'inEntryOrder', 'stocked', 'inExitOrder'] as const) {
      const unit = unitIn(status);
      expect(withRegistry(unit, { registered: true, bound: true })).toEqual(unit);
    }
  });

  it('keeps a disabled unit disabled', () => {
    const unit = unitIn('out', true);
    expect(stockStatusOf(withRegistry(unit, { registered: true, bound: true }))).toBe(9);
  });
});

describe('quantityShortfalls', () => {
  it('sums the lines of one key before comparing with the stock', () => {
    const available = { 'cable@A': 10, 'antenna@A': 3 };
    expect(
      quantityShortfalls(available, [
        { key: 'cable@A', quantity: 6 },
        { key: 'cable@A', quantity: 4 },
        { key: 'antenna@A', quantity: 3 },
      ]),
    ).toEqual([]);
    expect(
      quantityShortfalls(available, [
        { key: 'cable@A', quantity: 6 },
        { key: 'cable@A', quantity: 5 },
        { key: 'box@B', quantity: 1 },
      ]),
    ).toEqual([
      { key: 'cable@A', available: 10, wanted: 11 },
      { key: 'box@B', available: 0, wanted: 1 },
    ]);
  });
});
