/**
 * Serial-numbered goods through production, stock and delivery (seed point 3: production
 * statuses and stock status ids; issue "Business", point 1). A gateway produced here is the same
 * serial number that is stocked, shipped, and later bound by a customer (the devices module).
 *
 * Every move of a unit is decided here and nowhere else: (unit, event) → the next unit, or a
 * refusal naming why. Orders (entry and exit) are decided here too, all or nothing: confirming an
 * order moves every unit in it or none. The server persists what these return.
 *
 *   inProduction ─finish→ finished ─chooseEntry→ inEntryOrder ─stock→ stocked ─chooseExit→
 *   inExitOrder ─ship→ out ─register→ registered ─bind→ bound ─unbind→ registered
 *   (release: out of an open order, back where the unit was; out ─bind→ bound as well)
 *
 * A unit is in at most one open order: it carries that order's id while it is in one. Disabling
 * (stock status 9) keeps the production status underneath, so enabling gives it back.
 */
import type { ErrorKey, Lang } from '../errors';

export const PRODUCTION_STATUSES = [
  'inProduction',
  'finished',
  'inEntryOrder',
  'stocked',
  'inExitOrder',
  'out',
  'registered',
  'bound',
] as const;
export type ProductionStatus = (typeof PRODUCTION_STATUSES)[number];

/** seed point 3's words for each production status */
export const PRODUCTION_STATUS_LABELS: Record<ProductionStatus, Record<Lang, string>> = {
  inProduction: { zh: '生产中', en: 'in production' },
  finished: { zh: '已完成', en: 'finished' },
  inEntryOrder: { zh: '已选入入库单', en: 'chosen into entry order' },
  stocked: { zh: '已入库', en: 'stocked' },
  inExitOrder: { zh: '已选入出库单', en: 'chosen into exit order' },
  out: { zh: '已出库', en: 'out of stock' },
  registered: { zh: '已注册', en: 'registered' },
  bound: { zh: '已绑定', en: 'bound' },
};

/** Stock status ids (seed point 3): 0 created not stocked, 1 stocked, 2 in exit order, 3 out, 4 bound, 9 disabled. */
export const STOCK_STATUS = {
  created: 0,
  stocked: 1,
  inExitOrder: 2,
  out: 3,
  bound: 4,
  disabled: 9,
} as const;
export type StockStatusId = (typeof STOCK_STATUS)[keyof typeof STOCK_STATUS];
export const STOCK_STATUS_IDS: readonly StockStatusId[] = [0, 1, 2, 3, 4, 9];

export const STOCK_STATUS_LABELS: Record<StockStatusId, Record<Lang, string>> = {
  0: { zh: '已创建未入库', en: 'created, not stocked' },
  1: { zh: '已入库', en: 'stocked' },
  2: { zh: '已选入出库单', en: 'in an exit order' },
  3: { zh: '已出库', en: 'out' },
  4: { zh: '已绑定', en: 'bound' },
  9: { zh: '已停用', en: 'disabled' },
};

export interface Unit {
  status: ProductionStatus;
  disabled: boolean;
  /** the open order the unit is in, or null */
  orderId: number | null;
}

/** A unit just produced: in production, in no order. */
export const NEW_UNIT: Unit = { status: 'inProduction', disabled: false, orderId: null };

/** The stock status a unit shows in the inventory (derived, never stored apart from it). */
export function stockStatusOf(unit: Unit): StockStatusId {
  if (unit.disabled) return STOCK_STATUS.disabled;
  switch (unit.status) {
    case 'inProduction':
    case 'finished':
    case 'inEntryOrder':
      return STOCK_STATUS.created;
    case 'stocked':
      return STOCK_STATUS.stocked;
    case 'inExitOrder':
      return STOCK_STATUS.inExitOrder;
    case 'out':
    case 'registered':
      return STOCK_STATUS.out;
    case 'bound':
      return STOCK_STATUS.bound;
  }
}

export type UnitEvent =
  | { type: 'finish' }
  | { type: 'chooseEntry'; orderId: number }
  | { type: 'chooseExit'; orderId: number }
  /** taken out of its open order (removed from it, or the order cancelled) */
  | { type: 'release'; orderId: number }
  /** its entry order confirmed */
  | { type: 'stock'; orderId: number }
  /** its exit order confirmed */
  | { type: 'ship'; orderId: number }
  /** its serial number registered in the factory list (system maintenance, gateways) */
  | { type: 'register' }
  /** a customer bound it (the devices module), or unbound it */
  | { type: 'bind' }
  | { type: 'unbind' }
  | { type: 'disable' }
  | { type: 'enable' };

export type UnitAction = UnitEvent['type'];

/** The words for each action, to fill the refusal's message. */
export const UNIT_ACTION_LABELS: Record<UnitAction, Record<Lang, string>> = {
  finish: { zh: '完成生产', en: 'finished' },
  chooseEntry: { zh: '选入入库单', en: 'chosen into an entry order' },
  chooseExit: { zh: '选入出库单', en: 'chosen into an exit order' },
  release: { zh: '移出单据', en: 'taken out of the order' },
  stock: { zh: '入库', en: 'stocked' },
  ship: { zh: '出库', en: 'shipped' },
  register: { zh: '注册', en: 'registered' },
  bind: { zh: '绑定', en: 'bound' },
  unbind: { zh: '解绑', en: 'unbound' },
  disable: { zh: '停用', en: 'disabled' },
  enable: { zh: '启用', en: 'enabled' },
};

export type UnitRefusal =
  | { key: 'stockUnitInOrder' & ErrorKey; orderId: number }
  | { key: 'stockUnitNotInOrder' & ErrorKey }
  | { key: 'stockUnitDisabled' & ErrorKey }
  | { key: 'stockTransitionRefused' & ErrorKey; status: ProductionStatus; action: UnitAction };

export type UnitResult = { ok: true; unit: Unit } | { ok: false; refusal: UnitRefusal };

/** Which status each plain move goes from and to (the moves without an order). */
const MOVES: Partial<Record<UnitAction, Array<[ProductionStatus, ProductionStatus]>>> = {
  finish: [['inProduction', 'finished']],
  register: [['out', 'registered']],
  bind: [
    ['out', 'bound'],
    ['registered', 'bound'],
  ],
  unbind: [['bound', 'registered']],
};

/** The next unit, or why not. Nothing else decides a unit's status. */
export function unitTransition(unit: Unit, event: UnitEvent): UnitResult {
  const refused = (): UnitResult => ({
    ok: false,
    refusal: { key: 'stockTransitionRefused', status: unit.status, action: event.type },
  });
  const to = (status: ProductionStatus, orderId: number | null = null): UnitResult => ({
    ok: true,
    unit: { ...unit, status, orderId },
  });
  if (event.type === 'enable')
    return unit.disabled ? { ok: true, unit: { ...unit, disabled: false } } : refused();
  if (unit.disabled) return { ok: false, refusal: { key: 'stockUnitDisabled' } };
  switch (event.type) {
    case 'disable':
      if (unit.orderId !== null)
        return { ok: false, refusal: { key: 'stockUnitInOrder', orderId: unit.orderId } };
      return { ok: true, unit: { ...unit, disabled: true } };
    case 'chooseEntry':
    case 'chooseExit': {
      if (unit.orderId !== null)
        return { ok: false, refusal: { key: 'stockUnitInOrder', orderId: unit.orderId } };
      if (event.type === 'chooseEntry')
        return unit.status === 'finished' ? to('inEntryOrder', event.orderId) : refused();
      return unit.status === 'stocked' ? to('inExitOrder', event.orderId) : refused();
    }
    case 'release':
    case 'stock':
    case 'ship': {
      if (unit.orderId !== event.orderId) return { ok: false, refusal: { key: 'stockUnitNotInOrder' } };
      if (event.type === 'release') return to(unit.status === 'inEntryOrder' ? 'finished' : 'stocked');
      if (event.type === 'stock') return unit.status === 'inEntryOrder' ? to('stocked') : refused();
      return unit.status === 'inExitOrder' ? to('out') : refused();
    }
    default: {
      const move = MOVES[event.type]?.find(([from]) => from === unit.status);
      return move ? to(move[1]) : refused();
    }
  }
}

/** Which actions a unit allows now (for the buttons a page offers). */
export function allowedActions(unit: Unit, orderId = 0): UnitAction[] {
  const probe: UnitEvent[] = [
    { type: 'finish' },
    { type: 'chooseEntry', orderId },
    { type: 'chooseExit', orderId },
    { type: 'register' },
    { type: 'bind' },
    { type: 'unbind' },
    { type: 'disable' },
    { type: 'enable' },
  ];
  return probe.filter((event) => unitTransition(unit, event).ok).map((event) => event.type);
}

// ---- orders ------------------------------------------------------------------------------------

export type OrderKind = 'entry' | 'exit';
export type OrderState = 'open' | 'confirmed' | 'cancelled';

export interface Order {
  id: number;
  kind: OrderKind;
  state: OrderState;
  /** the serial numbers in it */
  units: string[];
}

export type OrderRefusal =
  | { key: 'stockOrderClosed' & ErrorKey; state: Exclude<OrderState, 'open'> }
  | { key: 'stockOrderEmpty' & ErrorKey }
  | (UnitRefusal & { sn: string });

export type OrderOp =
  | { type: 'add'; sns: string[] }
  | { type: 'remove'; sns: string[] }
  | { type: 'confirm' }
  | { type: 'cancel' };

export type OrderResult =
  | { ok: true; order: Order; units: Record<string, Unit> }
  | { ok: false; refusals: OrderRefusal[] };

/**
 * An operation on an open order, all or nothing: the order and every unit it changed, or every
 * refusal (each naming its serial number) and nothing changed. `units` holds the units the
 * operation names or the order holds; a serial number missing from it is unknown to the caller,
 * who refuses it before (it is not a status question).
 */
export function orderTransition(
  order: Order,
  units: Readonly<Record<string, Unit>>,
  op: OrderOp,
): OrderResult {
  if (order.state !== 'open')
    return { ok: false, refusals: [{ key: 'stockOrderClosed', state: order.state }] };
  const changed: Record<string, Unit> = {};
  const refusals: OrderRefusal[] = [];
  const apply = (sn: string, event: UnitEvent) => {
    const unit = changed[sn] ?? units[sn];
    if (!unit) throw new Error(`unit ${sn} was not given`);
    const result = unitTransition(unit, event);
    if (result.ok) changed[sn] = result.unit;
    else refusals.push({ ...result.refusal, sn });
  };
  let next: string[] = order.units;
  switch (op.type) {
    case 'add': {
      const fresh = [...new Set(op.sns)].filter((sn) => !order.units.includes(sn));
      const choose = order.kind === 'entry' ? 'chooseEntry' : 'chooseExit';
      for (const sn of fresh) apply(sn, { type: choose, orderId: order.id });
      next = [...order.units, ...fresh];
      break;
    }
    case 'remove': {
      const leaving = new Set(op.sns);
      for (const sn of leaving) apply(sn, { type: 'release', orderId: order.id });
      next = order.units.filter((sn) => !leaving.has(sn));
      break;
    }
    case 'confirm': {
      if (order.units.length === 0) return { ok: false, refusals: [{ key: 'stockOrderEmpty' }] };
      for (const sn of order.units)
        apply(sn, { type: order.kind === 'entry' ? 'stock' : 'ship', orderId: order.id });
      break;
    }
    case 'cancel': {
      for (const sn of order.units) apply(sn, { type: 'release', orderId: order.id });
      break;
    }
  }
  if (refusals.length) return { ok: false, refusals };
  const state: OrderState = op.type === 'confirm' ? 'confirmed' : op.type === 'cancel' ? 'cancelled' : 'open';
  return { ok: true, order: { ...order, state, units: next }, units: changed };
}

/** How many units show each stock status (the inventory's counts, from the units themselves). */
export function countByStockStatus(units: Iterable<Unit>): Record<StockStatusId, number> {
  const counts = { 0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 9: 0 } as Record<StockStatusId, number>;
  for (const unit of units) counts[stockStatusOf(unit)] += 1;
  return counts;
}

// ---- what the gateway registry says -----------------------------------------------------------

/** A shipped unit's serial number in the gateway registry: listed in the factory list, bound by a customer. */
export interface RegistryState {
  registered: boolean;
  bound: boolean;
}

/**
 * The unit as the inventory shows it once the gateway registry is heard: a shipped unit whose
 * serial number is in the factory list is registered, and bound while a customer holds it (the
 * devices module binds and unbinds; the inventory never stores those two steps, so they cannot
 * disagree with the registry). The moves are the state machine's own.
 */
export function withRegistry(unit: Unit, registry: RegistryState): Unit {
  let next = unit;
  const step = (type: 'register' | 'bind') => {
    const result = unitTransition(next, { type });
    if (result.ok) next = result.unit;
  };
  if (registry.registered || registry.bound) step('register');
  if (registry.bound) step('bind');
  return next;
}

// ---- goods counted, not serial-numbered --------------------------------------------------------

export interface QuantityLine {
  /** what is counted: a category, in a warehouse */
  key: string;
  quantity: number;
}

/**
 * What an exit order would take that is not there: each key whose wanted quantity (summed over
 * the lines) exceeds what is in stock, with both figures. Empty when the exit can go.
 */
export function quantityShortfalls(
  available: Readonly<Record<string, number>>,
  lines: readonly QuantityLine[],
): Array<{ key: string; available: number; wanted: number }> {
  const wanted = new Map<string, number>();
  for (const line of lines) wanted.set(line.key, (wanted.get(line.key) ?? 0) + line.quantity);
  return [...wanted]
    .filter(([key, n]) => n > (available[key] ?? 0))
    .map(([key, n]) => ({ key, available: available[key] ?? 0, wanted: n }));
}
