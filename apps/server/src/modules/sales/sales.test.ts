import { ERROR_CODES, formatInstant } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, buildTestApp, makeCompany, ok, type TestApp, type TestCompany } from '../../test/helper';
import { companies } from '../companies/tables';
import { salesOrders } from './tables';

let t: TestApp;
let platform: TestCompany;
let customer: TestCompany;
let gateway: number;

const call = apiCaller(
  () => t,
  '',
  () => platform.admin.token,
);

const dayIn = (date: Date | string, tz = 'Asia/Shanghai') =>
  formatInstant(new Date(date).getTime(), 'yyyy-MM-dd', tz);

beforeAll(async () => {
  t = await buildTestApp();
  platform = await makeCompany(t, 'Seller', { isPlatform: true });
  customer = await makeCompany(t, 'Customer Water Works');
  gateway = ok(
    await call('POST', '/inventory/category/save', { name: 'DTU gateway', kind: 'own', model: 'GW-4G' }),
  ).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('an order of products and a service, paid', () => {
  it("extends the customer company's service end, which its users see in my orders and the top bar", async () => {
    const catalogue = ok(await call('GET', '/sales/catalogue'));
    expect(catalogue.customers.map((c: { id: number }) => c.id)).toEqual(
      expect.arrayContaining([platform.id, customer.id]),
    );
    expect(catalogue.plans[0]).toEqual({ index: 0, name: 'Smart Data Platform Standard' });

    // the customer's service ends on a day; a year of service paid today goes on from there
    const end = new Date(Date.now() + 10 * 86_400_000);
    await t.db.update(companies).set({ serviceExpiresAt: end }).where(eq(companies.id, customer.id));
    const { id, number } = ok(
      await call('POST', '/sales/order/submit', {
        customerCompanyId: customer.id,
        contact: 'Ms Li',
        lines: [
          { kind: 'product', categoryId: gateway, quantity: 3, unitPriceCents: 128_050 },
          { kind: 'service', plan: 0, months: 12, quantity: 1, unitPriceCents: 980_000 },
        ],
      }),
    );
    expect(number).toMatch(/^SO-\d{8}-\d{5}$/);
    const submitted = ok(await call('GET', `/sales/order/get?id=${id}`));
    expect(submitted).toMatchObject({
      status: 'submitted',
      customer: 'Customer Water Works',
      totalCents: 1_364_150,
    });
    expect(
      submitted.lines.map((l: { name: string; amountCents: number }) => [l.name, l.amountCents]),
    ).toEqual([
      ['DTU gateway GW-4G', 384_150],
      ['Smart Data Platform Standard', 980_000],
    ]);
    // nothing reaches the customer before it is paid
    expect(ok(await call('GET', '/order/getMyOrders', undefined, customer.admin.token)).total).toBe(0);

    const paid = ok(await call('POST', '/sales/order/pay', { id }));
    const expected = (() => {
      const [y, m, d] = dayIn(end).split('-').map(Number) as [number, number, number];
      return `${y + 1}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    })();
    expect(paid.serviceEndsOn).toBe(expected);
    const mine = ok(await call('GET', '/order/getMyOrders', undefined, customer.admin.token));
    expect(mine.list).toHaveLength(1);
    expect(mine.list[0]).toMatchObject({
      orderNo: `${number}-1`,
      productName: 'Smart Data Platform Standard',
      amountCents: 980_000,
      status: 'paid',
      swProductId: 13,
      subTypeId: 1,
    });
    expect(dayIn(mine.list[0].startsAt)).toBe(dayIn(end));
    expect(dayIn(mine.list[0].endsAt)).toBe(expected);
    // the customer's users read the new end (the top bar's expiry notice)
    const user = ok(await call('GET', '/user/getUser', undefined, customer.limited.token));
    expect(dayIn(user.serviceExpiresAt)).toBe(expected);
    // the year bought starts where the current service ends: it is not yet the running order
    expect(user.orderInfo).toBeNull();

    // a paid order is closed
    expect(await call('POST', '/sales/order/pay', { id }, platform.admin.token, 'zh')).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: '该订单当前为“已付款”，不能付款',
    });
    expect((await call('POST', '/sales/order/cancel', { id })).code).toBe(ERROR_CODES.BUSINESS);
  });

  it('starts a lapsed service on the payment day, not backwards', async () => {
    const lapsed = await makeCompany(t, 'Lapsed Co');
    await t.db
      .update(companies)
      .set({ serviceExpiresAt: new Date('2026-01-31T00:00:00+08:00') })
      .where(eq(companies.id, lapsed.id));
    const { id } = ok(
      await call('POST', '/sales/order/submit', {
        customerCompanyId: lapsed.id,
        lines: [{ kind: 'service', plan: 1, months: 1, quantity: 2, unitPriceCents: 1000 }],
      }),
    );
    expect(ok(await call('POST', '/sales/order/pay', { id, paidOn: '2026-11-30' })).serviceEndsOn).toBe(
      '2027-01-30',
    );
  });
});

describe('refused orders write nothing', () => {
  it('names the field', async () => {
    const before = (await t.db.select().from(salesOrders)).length;
    const cases: Array<[object, string]> = [
      [{ lines: [] }, 'lines'],
      [
        { customer: ' ', lines: [{ kind: 'product', categoryId: gateway, quantity: 1, unitPriceCents: 1 }] },
        'customer',
      ],
      [
        { customer: 'X', lines: [{ kind: 'product', categoryId: 999_999, quantity: 1, unitPriceCents: 1 }] },
        'lines[0].categoryId',
      ],
      [
        { customer: 'X', lines: [{ kind: 'service', plan: 0, months: 12, quantity: 1, unitPriceCents: 1 }] },
        'customerCompanyId',
      ],
      [
        {
          customerCompanyId: customer.id,
          lines: [{ kind: 'service', plan: 0, quantity: 1, unitPriceCents: 1 }],
        },
        'lines[0].months',
      ],
      [
        {
          customerCompanyId: 999_999,
          lines: [{ kind: 'service', plan: 0, months: 1, quantity: 1, unitPriceCents: 1 }],
        },
        'customerCompanyId',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/sales/order/submit', body);
      expect(res.code, JSON.stringify(body)).not.toBe(0);
      expect(res.data?.field, JSON.stringify(body)).toBe(field);
    }
    expect(await t.db.select().from(salesOrders)).toHaveLength(before);
  });

  it('lets a company that does not run the platform sell services only to itself', async () => {
    const res = await call(
      'POST',
      '/sales/order/submit',
      {
        customerCompanyId: platform.id,
        lines: [{ kind: 'service', plan: 0, months: 1, quantity: 1, unitPriceCents: 1 }],
      },
      customer.admin.token,
    );
    expect(res).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'customerCompanyId' } });
    // to itself: its own my orders show it once paid
    const { id } = ok(
      await call(
        'POST',
        '/sales/order/submit',
        {
          customerCompanyId: customer.id,
          lines: [{ kind: 'service', plan: 0, months: 1, quantity: 1, unitPriceCents: 1 }],
        },
        customer.admin.token,
      ),
    );
    ok(await call('POST', '/sales/order/pay', { id }, customer.admin.token));
    expect(ok(await call('GET', '/order/getMyOrders', undefined, customer.limited.token)).total).toBe(2);
  });

  it('cancels a submitted order, after which it is neither paid nor cancelled again', async () => {
    const { id } = ok(
      await call('POST', '/sales/order/submit', {
        customer: 'Walk-in buyer',
        lines: [{ kind: 'product', categoryId: gateway, quantity: 1, unitPriceCents: 100 }],
      }),
    );
    ok(await call('POST', '/sales/order/cancel', { id }));
    expect((await call('POST', '/sales/order/pay', { id })).message).toBe(
      'This order is cancelled: it cannot be paid',
    );
    const list = ok(await call('GET', '/sales/order/list?status=cancelled&keyword=Walk-in'));
    expect(list.list.map((o: { id: number }) => o.id)).toEqual([id]);
  });
});
