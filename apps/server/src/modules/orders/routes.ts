import { Type } from 'typebox';
import { callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { Envelope, Page, Paging, paging } from '../../platform/schemas';
import { listCompanyOrders } from './service';

const OrderRow = Type.Object({
  id: Type.Integer(),
  orderNo: Type.String(),
  productName: Type.String(),
  swProductId: Type.Integer(),
  subTypeId: Type.Integer(),
  amountCents: Type.Integer(),
  status: Type.String({ description: 'paid | cancelled | refunded' }),
  startsAt: Type.String({ format: 'date-time' }),
  endsAt: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export default async function ordersRoutes(app: App): Promise<void> {
  app.get(
    '/order/getMyOrders',
    {
      config: { permission: 'pc_my_order' },
      schema: {
        tags: ['orders'],
        summary: "The current company's service orders, newest first",
        querystring: Type.Object({ ...Paging }),
        response: { 200: Envelope(Page(OrderRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listCompanyOrders(app.db, callerCompany(request), page);
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );
}
