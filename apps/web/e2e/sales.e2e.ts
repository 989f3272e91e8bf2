/**
 * Sales (/smartSale) as a person uses it, on the demo company: an order of a product and a
 * year of service submitted to the demo company itself through the form, marked paid in order
 * management, after which the top bar's expiry notice follows the moved service end at once and
 * its subscription is in "my orders"; a service line without a customer
 * company refused with the server's words under that field and nothing written; an order
 * cancelled through the list's confirmation; the submit page in English on a phone.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { allowPageErrors, refused, shot } from './harness';
import { demoAdminRun, noSideways, numberInput, pickOption, success } from './support';

const { api, postJson, openAs, go } = demoAdminRun();

interface Catalogue {
  products: Array<{ id: number; name: string; model: string }>;
  plans: Array<{ index: number; name: string }>;
  customers: Array<{ id: number; name: string }>;
}
interface Order {
  id: number;
  number: string;
  status: string;
}

let catalogue: Catalogue;
let demo: { id: number; name: string };

beforeAll(async () => {
  const answer = await api<Catalogue>('/sales/catalogue', { headers: { 'Accept-Language': 'zh' } });
  expect(answer.code, answer.message).toBe(0);
  catalogue = answer.data;
  const company = await api<{ id: number }>('/company/getCompany');
  demo = catalogue.customers.find((c) => c.id === company.data.id)!;
  expect(demo).toBeTruthy();
  expect(catalogue.products.length).toBeGreaterThan(0);
});

async function orders(query = ''): Promise<{ list: Order[]; total: number }> {
  const page = await api<{ list: Order[]; total: number }>(
    `/sales/order/list?pageNum=1&pageSize=100${query}`,
  );
  expect(page.code, page.message).toBe(0);
  return page.data;
}

const line = (page: Page, index: number) => page.getByTestId('sales-line').nth(index);

/** The form item around a control with this test id: its error text. */
const fieldError = (page: Page, testId: string) =>
  page.locator('.ant-form-item', { has: page.getByTestId(testId) }).locator('.ant-form-item-explain-error');

const row = (page: Page, number: string) =>
  page.getByTestId('sales-order-table').locator('tr.ant-table-row', { hasText: number });

describe('sales orders', () => {
  test('an order of a product and a year of service, submitted, paid, and in my orders', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/smartSale/submitorder', 'sales-submit');
      const product = catalogue.products[0]!;
      await pickOption(page, page.getByTestId('sales-company'), demo.name);
      await page.getByTestId('sales-contact').fill('李女士');
      await page.getByTestId('sales-phone').fill('13900000000');
      await pickOption(page, line(page, 0).getByTestId('sales-line-category'), product.name);
      await numberInput(line(page, 0), 'sales-line-quantity').fill('2');
      await numberInput(line(page, 0), 'sales-line-price').fill('1280.5');
      await page.getByTestId('sales-add-service').click();
      await pickOption(page, line(page, 1).getByTestId('sales-line-plan'), catalogue.plans[0]!.name);
      expect(await numberInput(line(page, 1), 'sales-line-months').inputValue()).toBe('12');
      await numberInput(line(page, 1), 'sales-line-price').fill('9800');
      // the amounts follow what is typed: 2 × 1 280.50 + 9 800 = 12 361.00
      await expect.poll(() => page.getByTestId('sales-total').innerText()).toContain('12,361.00');
      expect(await line(page, 0).getByTestId('sales-line-amount').innerText()).toContain('2,561.00');
      await shot(page, 'sales-submit-zh-1440');

      await page.getByTestId('sales-submit-button').click();
      await page.getByTestId('sales-submit-done').waitFor();
      const number = /SO-\d{8}-\d{5}/.exec(await page.getByTestId('sales-submit-number').innerText())?.[0];
      expect(number).toBeTruthy();
      await shot(page, 'sales-submit-done-zh-1440');

      await page.getByTestId('sales-to-orders').click();
      await page.getByTestId('sales-orders').waitFor();
      await expect.poll(() => row(page, number!).innerText()).toContain('已提交');
      expect(await row(page, number!).innerText()).toContain('12,361.00');

      await page.getByTestId(`sales-detail-${number}`).click();
      const drawer = page.getByTestId('sales-order-detail');
      await expect.poll(() => drawer.getByTestId('sales-drawer-total').innerText()).toContain('12,361.00');
      expect(await drawer.innerText()).toContain('李女士');
      await shot(page, 'sales-order-drawer-zh-1440');
      await page.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });

      // the demo company's service ends within the notice's days: the top bar says when
      const notice = page.getByTestId('expiry-notice');
      await notice.waitFor();
      const oldEnd = /\d{4}-\d{2}-\d{2}/.exec(await notice.innerText())?.[0];
      expect(oldEnd).toBeTruthy();

      await page.getByTestId(`sales-pay-${number}`).click();
      await page.getByTestId('sales-pay-date').waitFor();
      await shot(page, 'sales-pay-zh-1440');
      await page.getByTestId('sales-pay-ok').click();
      const ends = page.locator('.ant-modal-confirm', { hasText: '服务期限延长至' });
      await ends.waitFor();
      const newEnd = /\d{4}-\d{2}-\d{2}/.exec(await ends.innerText())?.[0];
      expect(newEnd).toBeTruthy();
      await page.getByTestId('sales-paid-ok').click();
      await expect.poll(() => row(page, number!).innerText()).toContain('已付款');
      // the order paid a year for the seller's own company: its service end moved past the
      // notice's days, and the top bar follows at once, without a reload or a new login
      expect(newEnd! > oldEnd!).toBe(true);
      await notice.waitFor({ state: 'detached' });
      const user = await api<{ serviceExpiresAt: string }>('/user/getUser');
      expect(Date.parse(user.data.serviceExpiresAt)).toBeGreaterThan(Date.parse(oldEnd!) + 300 * 86_400_000);

      await go(page, '/user/myorder', 'myorder-page');
      const mine = page.getByTestId('myorder-page').locator('tr.ant-table-row', { hasText: `${number}-1` });
      await expect.poll(() => mine.count()).toBe(1);
      expect(await mine.innerText()).toContain(catalogue.plans[0]!.name);
      await shot(page, 'sales-my-orders-zh-1440');
    } finally {
      await context.close();
    }
  });

  test('a service line without a customer company: the server says so on that field, nothing written', async () => {
    const before = (await orders()).total;
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/smartSale/submitorder', 'sales-submit');
      await page.getByTestId('sales-customer').fill('散客王先生');
      await line(page, 0).getByTestId('sales-line-remove').click();
      await page.getByTestId('sales-add-service').click();
      await pickOption(page, line(page, 0).getByTestId('sales-line-plan'), catalogue.plans[1]!.name);
      await numberInput(line(page, 0), 'sales-line-price').fill('100');
      // the form hints it before the server refuses it
      await page.getByTestId('sales-company-hint').waitFor();
      // the server refuses the order on purpose: a service needs a customer company
      allowPageErrors(refused(400, '/general/sales/order/submit'));
      await page.getByTestId('sales-submit-button').click();
      await expect
        .poll(() => fieldError(page, 'sales-company').allInnerTexts())
        .toContain('服务订阅只能销售给平台上的企业：请选择客户企业');
      await shot(page, 'sales-submit-refused-zh-1440');
      expect(await page.getByTestId('sales-submit-done').count()).toBe(0);
      expect((await orders()).total).toBe(before);
    } finally {
      await context.close();
    }
  });

  test('a submitted order cancelled through the list, after its confirmation', async () => {
    const submitted = await postJson<{ id: number; number: string }>('/sales/order/submit', {
      customer: '取消测试客户',
      lines: [{ kind: 'product', categoryId: catalogue.products[0]!.id, quantity: 1, unitPriceCents: 5000 }],
    });
    expect(submitted.code, submitted.message).toBe(0);
    const { number, id } = submitted.data;
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/smartSale/ordermanagement', 'sales-orders');
      await page.getByTestId('sales-search').locator('input').fill('取消测试');
      await page.getByTestId('sales-search').locator('input').press('Enter');
      await expect
        .poll(() => page.getByTestId('sales-order-table').locator('tr.ant-table-row').count())
        .toBe(1);
      await page.getByTestId(`sales-cancel-${number}`).click();
      await page.getByTestId('sales-cancel-ok').waitFor();
      await shot(page, 'sales-cancel-confirm-zh-1440');
      await page.getByTestId('sales-cancel-ok').click();
      await success(page);
      await expect.poll(() => row(page, number).innerText()).toContain('已取消');
      expect(await page.getByTestId(`sales-pay-${number}`).count()).toBe(0);
      const order = await api<Order>(`/sales/order/get?id=${id}`);
      expect(order.data.status).toBe('cancelled');
      // the status filter finds it among the cancelled
      await page.getByTestId('sales-search').locator('input').fill('');
      await page.getByTestId('sales-search').locator('input').press('Enter');
      await pickOption(page, page.getByTestId('sales-status-filter'), '已取消');
      await expect
        .poll(() => page.getByTestId('sales-order-table').locator('tr.ant-table-row').count())
        .toBe(1);
    } finally {
      await context.close();
    }
  });

  test('in English on a phone: the submit page and the order list', async () => {
    const { context, page } = await openAs('en', 390);
    try {
      await go(page, '/smartSale/submitorder', 'sales-submit');
      expect(await page.getByTestId('sales-submit').innerText()).toContain('Submit Order');
      await page.getByTestId('sales-add-service').click();
      await page.getByTestId('sales-company-hint').waitFor();
      expect(await page.getByTestId('sales-company-hint').innerText()).toContain(
        'choose the customer company',
      );
      await noSideways(page);
      await page.getByTestId('sales-company').scrollIntoViewIfNeeded();
      await shot(page, 'sales-submit-en-390');
      await go(page, '/smartSale/ordermanagement', 'sales-orders');
      await expect
        .poll(() => page.getByTestId('sales-order-table').locator('tr.ant-table-row').count())
        .toBeGreaterThan(0);
      expect(await page.getByTestId('sales-orders').innerText()).toContain('Order Management');
      await noSideways(page);
      await shot(page, 'sales-orders-en-390');
    } finally {
      await context.close();
    }
  });
});
