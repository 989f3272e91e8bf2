import { type Lang, STOCK_STATUS_IDS } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type Actor, caller, callerActor, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import {
  EmptyEnvelope,
  Envelope,
  Id,
  INT32_MAX,
  Literals,
  Page,
  Paging,
  paging,
} from '../../platform/schemas';
import { Sorting } from '../../platform/sorting';
import { companyLetterhead } from '../companies/letterhead';
import { companyTimeZone } from '../companies/service';
import { attachment } from '../records/spreadsheet';
import { orderNotePdf } from './note-pdf';
import {
  addUnits,
  cancelOrder,
  confirmOrder,
  createOrder,
  deleteCategory,
  getCategory,
  getOrder,
  listCategories,
  listLog,
  listOrders,
  listUnits,
  MAX_SERIALS,
  type OrderKind,
  orderRow,
  produceUnits,
  removeUnits,
  saveCategory,
  setQuantities,
  stockRows,
  unitAction,
  updateOrder,
} from './service';
import { CATEGORY_KINDS, ORDER_KINDS, ORDER_STATES } from './tables';

const Kind = Literals(CATEGORY_KINDS, { description: 'own products, SIM cards, other goods' });
const OrderKindSchema = Literals(ORDER_KINDS);
const OrderState = Literals(ORDER_STATES);
const Keyword = Type.Optional(Type.String({ maxLength: 50 }));
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
/** Scanned or pasted serial numbers (each checked by the service); production's routes take them too. */
export const Serials = Type.Array(Type.String({ maxLength: 60 }), { maxItems: MAX_SERIALS });
const Counts = Type.Record(Type.String(), Type.Integer(), { description: 'units by stock status id' });
const StockStatus = Type.Union(STOCK_STATUS_IDS.map((id) => Type.Literal(id)));

const CategoryRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: Kind,
  serialized: Type.Boolean(),
  model: Type.String(),
  unit: Type.String(),
  notes: Type.String(),
  updatedAt: Type.String(),
});
const StockRow = Type.Object({
  categoryId: Type.Integer(),
  warehouse: Type.String(),
  counts: Type.Union([Counts, Type.Null()]),
  quantity: Type.Union([Type.Integer(), Type.Null()]),
});
const UnitRow = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  categoryId: Type.Integer(),
  categoryName: Type.String(),
  kind: Kind,
  model: Type.String(),
  status: Type.String({
    description: 'production status, registered and bound read from the gateway registry',
  }),
  stockStatus: Type.Integer(),
  disabled: Type.Boolean(),
  warehouse: Type.String(),
  orderId: Type.Union([Type.Integer(), Type.Null()]),
  orderNumber: Type.Union([Type.String(), Type.Null()]),
  orderKind: Type.Union([OrderKindSchema, Type.Null()]),
  updatedAt: Type.String(),
});
const OrderFields = {
  warehouse: Type.String({ maxLength: 50 }),
  customer: Text(100),
  contact: Text(50),
  phone: Text(30),
  address: Text(200),
  notes: Text(500),
  salesOrderId: Type.Optional(
    Type.Union([Id, Type.Null()], {
      description: 'an exit order: the sales order it delivers; null unlinks',
    }),
  ),
};
const OrderBase = {
  id: Type.Integer(),
  kind: OrderKindSchema,
  source: Type.Union([Kind, Type.Null()]),
  number: Type.String(),
  state: OrderState,
  warehouse: Type.String(),
  customer: Type.String(),
  contact: Type.String(),
  phone: Type.String(),
  address: Type.String(),
  notes: Type.String(),
  salesOrderId: Type.Union([Type.Integer(), Type.Null()]),
  salesOrderNumber: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  closedAt: Type.Union([Type.String(), Type.Null()]),
};
const OrderListRow = Type.Object({ ...OrderBase, units: Type.Integer(), quantity: Type.Integer() });
const OrderLine = Type.Object({
  id: Type.Integer(),
  categoryId: Type.Integer(),
  categoryName: Type.String(),
  model: Type.String(),
  unit: Type.String(),
  sn: Type.Union([Type.String(), Type.Null()]),
  quantity: Type.Integer(),
  status: Type.Union([Type.String(), Type.Null()]),
  stockStatus: Type.Union([Type.Integer(), Type.Null()]),
});
const OrderDetail = Type.Object({ ...OrderBase, lines: Type.Array(OrderLine) });

const ORDER_CODES = { entry: 'im_entry', exit: 'im_exit' } as const;
const ORDER_ANY = ['im_entry', 'im_exit'] as const;

/** An order route holds for entries with im_entry and for exits with im_exit, never across. */
function assertOrderCode(request: FastifyRequest, kind: OrderKind): void {
  if (!caller(request).menuCodes.has(ORDER_CODES[kind])) throw new AppError('forbidden');
}

/**
 * Inventory (/inventoryManagement) under /general/inventory: categories, the stock, units by
 * serial number, the production log, entry and exit orders and their printed notes. Every write
 * runs in one transaction with the order and its units locked, so a refusal writes nothing and
 * two people cannot move one unit past each other.
 */
export default async function inventoryRoutes(app: App): Promise<void> {
  /** an order's write: the order's kind checked against the caller's codes, all in one transaction */
  const orderWrite = <T>(
    request: FastifyRequest,
    id: number,
    write: (tx: App['db'], actor: Actor) => Promise<T>,
  ) =>
    app.db.transaction(async (tx) => {
      const actor = callerActor(request);
      assertOrderCode(request, (await orderRow(tx, actor.companyId, id)).kind);
      return write(tx, actor);
    });

  // categories (im_category)
  app.get(
    '/inventory/category/list',
    {
      // the production and sales forms pick products from it
      config: {
        permission: [
          'im_category',
          'im_inventory',
          'im_entry',
          'im_exit',
          'im_production_log',
          'pm_scheduling',
          'pm_process',
        ],
      },
      schema: {
        tags: ['inventory'],
        summary: 'Categories of goods with what each holds: units by stock status, or the quantity on hand',
        querystring: Type.Object({
          ...Paging,
          ...Sorting(['name', 'model', 'kind', 'createdAt']),
          keyword: Keyword,
          kind: Type.Optional(Kind),
        }),
        response: {
          200: Envelope(
            Page(
              Type.Object({
                ...CategoryRow.properties,
                counts: Type.Union([Counts, Type.Null()]),
                quantity: Type.Union([Type.Integer(), Type.Null()]),
              }),
            ),
          ),
        },
      },
    },
    async (request) => {
      const page = paging(request.query);
      return ok({
        ...(await listCategories(app.db, callerCompany(request), { ...request.query, ...page })),
        ...page,
      });
    },
  );

  app.get(
    '/inventory/category/get',
    {
      config: { permission: 'im_category' },
      schema: {
        tags: ['inventory'],
        summary: 'One category and its stock per warehouse',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(Type.Object({ ...CategoryRow.properties, stock: Type.Array(StockRow) })) },
      },
    },
    async (request) => ok(await getCategory(app.db, callerCompany(request), request.query.id)),
  );

  app.post(
    '/inventory/category/save',
    {
      config: { permission: 'im_category' },
      schema: {
        tags: ['inventory'],
        summary: 'Add a category or edit one (its kind is fixed once it holds goods)',
        body: Type.Object({
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 50 }),
          kind: Kind,
          serialized: Type.Optional(Type.Boolean({ description: 'other goods only: kept by serial number' })),
          model: Text(50),
          unit: Text(10),
          notes: Text(200),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => saveCategory(tx, callerCompany(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/inventory/category/delete',
    {
      config: { permission: 'im_category' },
      schema: {
        tags: ['inventory'],
        summary: 'Delete a category that holds no goods and no order lines',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteCategory(app.db, callerCompany(request), request.body.id);
      return ok(null, 'operation', request.lang);
    },
  );

  // the stock (im_inventory)
  app.get(
    '/inventory/stock',
    {
      config: { permission: 'im_inventory' },
      schema: {
        tags: ['inventory'],
        summary: 'The inventory per category and warehouse',
        response: { 200: Envelope(Type.Array(StockRow)) },
      },
    },
    async (request) => ok(await stockRows(app.db, callerCompany(request))),
  );

  app.get(
    '/inventory/unit/list',
    {
      config: { permission: ['im_inventory', 'im_category', 'im_production_log', 'im_entry', 'im_exit'] },
      schema: {
        tags: ['inventory'],
        summary: 'Serial-numbered units, by serial number, category, stock status and warehouse',
        querystring: Type.Object({
          ...Paging,
          ...Sorting(['sn', 'category', 'warehouse', 'status', 'updatedAt']),
          keyword: Keyword,
          categoryId: Type.Optional(Id),
          stockStatus: Type.Optional(StockStatus),
          warehouse: Text(50),
        }),
        response: { 200: Envelope(Page(UnitRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      return ok({
        ...(await listUnits(app.db, callerCompany(request), { ...request.query, ...page })),
        ...page,
      });
    },
  );

  app.post(
    '/inventory/unit/state',
    {
      config: { permission: 'im_inventory' },
      schema: {
        tags: ['inventory'],
        summary: 'Disable or enable units (a unit in an open order leaves it first)',
        body: Type.Object({ sns: Serials, action: Literals(['disable', 'enable'] as const) }),
        response: { 200: Envelope(Type.Object({ changed: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => unitAction(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  // production log (im_production_log)
  app.post(
    '/inventory/unit/produce',
    {
      config: { permission: 'im_production_log' },
      schema: {
        tags: ['inventory'],
        summary: 'Record produced units of an own-product category by serial number',
        body: Type.Object({ categoryId: Id, sns: Serials, finished: Type.Optional(Type.Boolean()) }),
        response: { 200: Envelope(Type.Object({ created: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => produceUnits(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/inventory/unit/finish',
    {
      config: { permission: 'im_production_log' },
      schema: {
        tags: ['inventory'],
        summary: 'Mark units in production as finished',
        body: Type.Object({ sns: Serials }),
        response: { 200: Envelope(Type.Object({ changed: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) =>
          unitAction(tx, callerActor(request), { sns: request.body.sns, action: 'finish' }),
        ),
        'operation',
        request.lang,
      ),
  );

  app.get(
    '/inventory/log/list',
    {
      config: { permission: 'im_production_log' },
      schema: {
        tags: ['inventory'],
        summary: 'The production log: every move of every unit, newest first',
        querystring: Type.Object({
          ...Paging,
          ...Sorting(['sn', 'action', 'at']),
          keyword: Keyword,
          action: Text(20),
        }),
        response: {
          200: Envelope(
            Page(
              Type.Object({
                id: Type.Integer(),
                sn: Type.String(),
                action: Type.String(),
                fromStatus: Type.Union([Type.String(), Type.Null()]),
                toStatus: Type.String(),
                disabled: Type.Boolean(),
                orderNumber: Type.Union([Type.String(), Type.Null()]),
                userId: Type.Union([Type.Integer(), Type.Null()]),
                at: Type.String(),
              }),
            ),
          ),
        },
      },
    },
    async (request) => {
      const page = paging(request.query);
      return ok({
        ...(await listLog(app.db, callerCompany(request), { ...request.query, ...page })),
        ...page,
      });
    },
  );

  // entry and exit orders (im_entry, im_exit)
  app.get(
    '/inventory/order/list',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary:
          'Entry or exit orders, newest first, by number, customer, warehouse or a serial number in them',
        querystring: Type.Object({
          ...Paging,
          ...Sorting(['number', 'state', 'warehouse', 'customer', 'createdAt', 'closedAt']),
          kind: OrderKindSchema,
          state: Type.Optional(OrderState),
          source: Type.Optional(Kind),
          keyword: Keyword,
        }),
        response: { 200: Envelope(Page(OrderListRow)) },
      },
    },
    async (request) => {
      assertOrderCode(request, request.query.kind);
      const page = paging(request.query);
      return ok({
        ...(await listOrders(app.db, callerCompany(request), { ...request.query, ...page })),
        ...page,
      });
    },
  );

  app.get(
    '/inventory/order/get',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'One order with its lines and each unit’s status now',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(OrderDetail) },
      },
    },
    async (request) => {
      const order = await getOrder(app.db, callerCompany(request), request.query.id);
      assertOrderCode(request, order.kind);
      return ok(order);
    },
  );

  app.post(
    '/inventory/order/create',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary:
          'Open an entry order (of own products, SIM cards or other goods) or an exit order to a customer',
        body: Type.Object({ kind: OrderKindSchema, source: Type.Optional(Kind), ...OrderFields }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), number: Type.String() })) },
      },
    },
    async (request) => {
      assertOrderCode(request, request.body.kind);
      const actor = callerActor(request);
      return ok(
        await app.db.transaction((tx) => createOrder(tx, actor, request.body)),
        'operation',
        request.lang,
      );
    },
  );

  app.post(
    '/inventory/order/update',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'Change an open order’s warehouse, customer and notes',
        body: Type.Object({ id: Id, ...OrderFields }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await orderWrite(request, request.body.id, (tx, actor) => updateOrder(tx, actor, request.body));
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/inventory/order/add',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'Add scanned or pasted serial numbers to an open order, all or none',
        body: Type.Object({
          id: Id,
          sns: Serials,
          categoryId: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: INT32_MAX,
              description: 'an entry of SIM cards or other goods: the category of serial numbers new here',
            }),
          ),
        }),
        response: { 200: Envelope(Type.Object({ added: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await orderWrite(request, request.body.id, (tx, actor) => addUnits(tx, actor, request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/inventory/order/remove',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'Take serial numbers out of an open order (each back where it was)',
        body: Type.Object({ id: Id, sns: Serials }),
        response: { 200: Envelope(Type.Object({ removed: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await orderWrite(request, request.body.id, (tx, actor) => removeUnits(tx, actor, request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/inventory/order/quantities',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'Set an open order’s counted lines (categories without serial numbers)',
        body: Type.Object({
          id: Id,
          lines: Type.Array(
            Type.Object({ categoryId: Id, quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }),
            { maxItems: 100 },
          ),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await orderWrite(request, request.body.id, (tx, actor) => setQuantities(tx, actor, request.body));
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/inventory/order/confirm',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'Confirm an order: an entry stocks every unit, an exit ships every unit and counted line',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await orderWrite(request, request.body.id, (tx, actor) => confirmOrder(tx, actor, request.body.id));
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/inventory/order/cancel',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'Cancel an open order: every unit goes back where it was',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await orderWrite(request, request.body.id, (tx, actor) => cancelOrder(tx, actor, request.body.id));
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/inventory/order/note',
    {
      config: { permission: ORDER_ANY },
      schema: {
        tags: ['inventory'],
        summary: 'The order printed: a delivery note (exit) or a warehouse entry note (entry), PDF',
        querystring: Type.Object({ id: Id, lang: Type.Optional(Literals(['zh', 'en'] as const)) }),
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the PDF' }),
        },
      },
    },
    async (request, reply) => {
      const companyId = callerCompany(request);
      const lang: Lang = request.query.lang ?? request.lang;
      const order = await getOrder(app.db, companyId, request.query.id);
      assertOrderCode(request, order.kind);
      const pdf = await orderNotePdf(
        order,
        await companyLetterhead(app, companyId),
        lang,
        await companyTimeZone(app.db, companyId),
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(`${order.number}-${lang}.pdf`))
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
}
