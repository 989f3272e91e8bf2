import { MAX_SUBSCRIPTION_MONTHS, SALES_STATUSES, SERVICE_PLANS } from '@platform/domain';
import { Type } from 'typebox';
import { callerActor, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { Sorting } from '../../platform/sorting';
import { cancelOrder, catalogue, getOrder, listOrders, payOrder, submitOrder } from './service';

const Status = Literals(SALES_STATUSES);
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const Cents = Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'cents' });

const OrderBase = {
  id: Type.Integer(),
  number: Type.String(),
  customerCompanyId: Type.Union([Type.Integer(), Type.Null()]),
  customer: Type.String(),
  contact: Type.String(),
  phone: Type.String(),
  address: Type.String(),
  status: Status,
  totalCents: Type.Integer(),
  paidOn: Type.Union([Type.String(), Type.Null()]),
  notes: Type.String(),
  createdAt: Type.String(),
};
const Line = Type.Object({
  id: Type.Integer(),
  kind: Literals(['product', 'service'] as const),
  categoryId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  quantity: Type.Integer(),
  months: Type.Union([Type.Integer(), Type.Null()]),
  unitPriceCents: Type.Integer(),
  amountCents: Type.Integer(),
});

/**
 * Sales (/smartSale) under /general/sales: the submit form's catalogue and submitting
 * (ss_submit_order), order management: the list, one order, paying and cancelling
 * (ss_order_management). Writes run in one transaction with the order (and, when paying for a
 * service, the customer company) locked.
 */
/** the columns the order list sorts by */
const ORDER_SORT = ['number', 'customer', 'totalCents', 'status', 'paidOn', 'createdAt'] as const;

export default async function salesRoutes(app: App): Promise<void> {
  app.get(
    '/sales/catalogue',
    {
      config: { permission: 'ss_submit_order' },
      schema: {
        tags: ['sales'],
        summary:
          'What an order may hold: the inventory categories, the service plans, the customer companies',
        response: {
          200: Envelope(
            Type.Object({
              products: Type.Array(
                Type.Object({
                  id: Type.Integer(),
                  name: Type.String(),
                  model: Type.String(),
                  kind: Type.String(),
                }),
              ),
              plans: Type.Array(Type.Object({ index: Type.Integer(), name: Type.String() })),
              customers: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
            }),
          ),
        },
      },
    },
    async (request) => ok(await catalogue(app.db, callerActor(request))),
  );

  app.post(
    '/sales/order/submit',
    {
      config: { permission: 'ss_submit_order' },
      schema: {
        tags: ['sales'],
        summary: 'Submit an order of products and service subscriptions',
        body: Type.Object({
          customerCompanyId: Type.Optional(Id),
          customer: Text(100),
          contact: Text(50),
          phone: Text(30),
          address: Text(200),
          notes: Text(500),
          lines: Type.Array(
            Type.Object({
              kind: Literals(['product', 'service'] as const),
              categoryId: Type.Optional(Id),
              plan: Type.Optional(Type.Integer({ minimum: 0, maximum: SERVICE_PLANS.length - 1 })),
              name: Text(100),
              quantity: Type.Integer({ minimum: 1, maximum: 100_000 }),
              months: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SUBSCRIPTION_MONTHS })),
              unitPriceCents: Cents,
            }),
            { maxItems: 100 },
          ),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), number: Type.String() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => submitOrder(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.get(
    '/sales/order/list',
    {
      config: { permission: ['ss_order_management', 'ss_submit_order'] },
      schema: {
        tags: ['sales'],
        summary: 'Sales orders, newest first, by number or customer and by status',
        querystring: Type.Object({
          ...Paging,
          ...Sorting(ORDER_SORT),
          keyword: Text(50),
          status: Type.Optional(Status),
        }),
        response: { 200: Envelope(Page(Type.Object(OrderBase))) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      return ok({
        ...(await listOrders(app.db, callerCompany(request), { ...request.query, ...page })),
        ...page,
      });
    },
  );

  app.get(
    '/sales/order/get',
    {
      config: { permission: ['ss_order_management', 'ss_submit_order'] },
      schema: {
        tags: ['sales'],
        summary: 'One sales order with its lines and the exit orders that deliver it',
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              ...OrderBase,
              lines: Type.Array(Line),
              deliveries: Type.Array(
                Type.Object({ id: Type.Integer(), number: Type.String(), state: Type.String() }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => ok(await getOrder(app.db, callerCompany(request), request.query.id)),
  );

  app.post(
    '/sales/order/pay',
    {
      config: { permission: 'ss_order_management' },
      schema: {
        tags: ['sales'],
        summary: "Record an order paid; its services extend the customer company's service end",
        body: Type.Object({
          id: Id,
          paidOn: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD' })),
        }),
        response: {
          200: Envelope(
            Type.Object({
              serviceEndsOn: Type.Union([Type.String(), Type.Null()], {
                description: 'the new service end day',
              }),
            }),
          ),
        },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => payOrder(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/sales/order/cancel',
    {
      config: { permission: 'ss_order_management' },
      schema: {
        tags: ['sales'],
        summary: 'Cancel a submitted order',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => cancelOrder(tx, callerActor(request), request.body.id));
      return ok(null, 'operation', request.lang);
    },
  );
}
