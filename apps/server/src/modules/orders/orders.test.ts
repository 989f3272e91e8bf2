import { ERROR_CODES } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { DAY, getAs, insertOrder, makeMember } from '../users/test-support';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Orders Co');
});
afterAll(() => t.close());

describe('GET /order/getMyOrders', () => {
  it("pages the current company's orders, newest first, with every field", async () => {
    const now = Date.now();
    const old = await insertOrder(t, a.id, {
      orderNo: 'ORD-1',
      status: 'refunded',
      createdAt: new Date(now - 3 * DAY),
    });
    const mid = await insertOrder(t, a.id, { orderNo: 'ORD-2', createdAt: new Date(now - 2 * DAY) });
    const recent = await insertOrder(t, a.id, {
      orderNo: 'ORD-3',
      productName: '智慧数据平台 标准版',
      amountCents: 120000,
      swProductId: 13,
      subTypeId: 2,
      createdAt: new Date(now - DAY),
    });
    const first = await getAs(t, a.limited.token, '/order/getMyOrders', { pageSize: '2' });
    expect(first.json()).toMatchObject({ code: 0, data: { total: 3, pageNum: 1, pageSize: 2 } });
    expect(first.json().data.list.map((o: { id: number }) => o.id)).toEqual([recent.id, mid.id]);
    expect(first.json().data.list[0]).toEqual({
      id: recent.id,
      orderNo: 'ORD-3',
      productName: '智慧数据平台 标准版',
      swProductId: 13,
      subTypeId: 2,
      amountCents: 120000,
      status: 'paid',
      startsAt: recent.startsAt.toISOString(),
      endsAt: recent.endsAt.toISOString(),
      createdAt: recent.createdAt.toISOString(),
    });
    const second = await getAs(t, a.limited.token, '/order/getMyOrders', { pageNum: '2', pageSize: '2' });
    expect(second.json().data.list.map((o: { id: number; status: string }) => [o.id, o.status])).toEqual([
      [old.id, 'refunded'],
    ]);
  });

  it('names a bad paging field', async () => {
    const res = await getAs(t, a.limited.token, '/order/getMyOrders', { pageNum: '0' });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'pageNum' } });
  });

  it('needs pc_my_order', async () => {
    const nobody = await makeMember(t, a, []);
    expect((await getAs(t, nobody.token, '/order/getMyOrders')).json().code).toBe(ERROR_CODES.FORBIDDEN);
  });
});
