/**
 * Inventory (/inventoryManagement) as a person uses it, on the demo company with test data of
 * its own (serial numbers unique to the run): a category added, refused a taken name, edited,
 * searched and deleted (and a category holding goods refused deletion); three gateways recorded
 * as produced and finished on the production log tab, brought in by an entry order of own
 * products and confirmed, then shown stocked in that warehouse (and exported); the same three
 * shipped by an exit order to a customer and its delivery note downloaded; a paste refused for
 * a unit still in production and one already in another open order, naming both, the order's
 * lines unchanged; the exit order's page in English on a phone. Screenshots in Chinese at
 * 1440 px and English at 390 px.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { allowPageErrors, refused, shot } from './harness';
import { demoAdminRun, exportAs, modalOk, noSideways, pickOption } from './support';

const { api, postJson, openAs, go } = demoAdminRun();

/** unique to this run: the demo company may hold inventory already */
const stamp = Date.now().toString(36).toUpperCase();
const WAREHOUSE = `E2E仓-${stamp}`;
const GATEWAYS = [1, 2, 3].map((n) => `GW${stamp}-${n}`);
const OWN_CATEGORY = `E2E 网关 ${stamp}`;

let ownCategoryId = 0;
/** the exit order of test c, for the English page of test e */
let shipped: { id: number; number: string } | null = null;

beforeAll(async () => {
  ownCategoryId = ok(
    await postJson<{ id: number }>('/inventory/category/save', {
      name: OWN_CATEGORY,
      kind: 'own',
      model: 'SDG-E2E',
    }),
  ).id;
});

function ok<T>(answer: { code: number; message: string; data: T }): T {
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
}

interface CategoryRow {
  id: number;
  name: string;
  counts: Record<string, number> | null;
}
interface UnitRow {
  sn: string;
  status: string;
  stockStatus: number;
  warehouse: string;
}
interface OrderLine {
  sn: string | null;
}

async function categories(keyword: string): Promise<CategoryRow[]> {
  return ok(
    await api<{ list: CategoryRow[] }>(
      `/inventory/category/list?pageSize=100&keyword=${encodeURIComponent(keyword)}`,
    ),
  ).list;
}

async function units(keyword: string): Promise<UnitRow[]> {
  return ok(
    await api<{ list: UnitRow[] }>(
      `/inventory/unit/list?pageSize=100&keyword=${encodeURIComponent(keyword)}`,
    ),
  ).list;
}

async function lines(orderId: number): Promise<string[]> {
  const order = ok(await api<{ lines: OrderLine[] }>(`/inventory/order/get?id=${orderId}`));
  return order.lines.flatMap((l) => (l.sn ? [l.sn] : []));
}

async function openOrder(body: object): Promise<{ id: number; number: string }> {
  return ok(await postJson<{ id: number; number: string }>('/inventory/order/create', body));
}

/** The view shown (the app keeps the views of other tabs mounted, hidden). */
const view = (page: Page) => page.locator('.app-view:visible');
const rows = (scope: Page | Locator, testId: string) =>
  scope.getByTestId(testId).locator('tbody tr.ant-table-row');
const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');
const textarea = (scope: Page | Locator, testId: string) =>
  scope.locator(`textarea[data-testid="${testId}"], [data-testid="${testId}"] textarea`).first();

async function search(scope: Locator, testId: string, text: string): Promise<void> {
  const input = scope.getByTestId(testId).locator('input');
  await input.fill(text);
  await input.press('Enter');
}

/** Answer the open confirmation with its OK button. */
async function confirmDialog(page: Page): Promise<void> {
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').last().click();
}

describe('inventory', () => {
  test('a: a category added, refused a taken name, edited, searched and deleted', async () => {
    const name = `E2E 线缆 ${stamp}`;
    const edited = `${name} 改`;
    // a second category of the same name, and deleting one that holds goods, are refused on purpose
    allowPageErrors(
      refused(409, '/general/inventory/category/save'),
      refused(409, '/general/inventory/category/delete'),
    );
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/inventoryManagement/categoryList', 'inv-categories');
      const v = view(page);
      await page.getByTestId('inv-category-add').click();
      const form = modal(page);
      await form.getByTestId('inv-category-name').fill(name);
      await pickOption(page, form.getByTestId('inv-category-kind'), '其他货品');
      await form.getByTestId('inv-category-counted').click();
      await form.getByTestId('inv-category-model').fill('RVV 2×1.0');
      await form.getByTestId('inv-category-unit').fill('米');
      await shot(page, 'inventory-category-modal-zh-1440');
      await modalOk(page);
      await form.waitFor({ state: 'hidden' });
      const mine = rows(v, 'inv-category-table').filter({ hasText: name });
      await expect.poll(() => mine.count()).toBe(1);
      expect(await mine.innerText()).toContain('按数量');
      expect(await mine.innerText()).toContain('其他货品');
      const [saved] = await categories(name);
      expect(saved).toMatchObject({ name, counts: null });

      // the same name again: the server's words beside the name field
      await page.getByTestId('inv-category-add').click();
      await form.getByTestId('inv-category-name').fill(name);
      await modalOk(page);
      await form.locator('.ant-form-item-explain-error', { hasText: `名为“${name}”的分类已存在` }).waitFor();
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'hidden' });

      await search(v, 'inv-category-search', stamp);
      await expect.poll(() => rows(v, 'inv-category-table').count()).toBe(2);
      await v.getByTestId(`inv-category-edit-${saved!.id}`).click();
      await expect.poll(() => form.getByTestId('inv-category-name').inputValue()).toBe(name);
      await form.getByTestId('inv-category-name').fill(edited);
      await modalOk(page);
      await form.waitFor({ state: 'hidden' });
      await expect.poll(() => rows(v, 'inv-category-table').filter({ hasText: edited }).count()).toBe(1);
      await search(v, 'inv-category-search', '改');
      await expect.poll(() => rows(v, 'inv-category-table').count()).toBe(1);
      await shot(page, 'inventory-categories-zh-1440');
      await search(v, 'inv-category-search', `不存在${stamp}`);
      await v.getByText('没有符合条件的分类').waitFor();

      // the demo's gateways hold goods: deleting their category is refused, with the server's words
      const held = (await categories('')).find((c) => Object.values(c.counts ?? {}).some((n) => n > 0))!;
      await search(v, 'inv-category-search', held.name);
      await v.getByTestId(`inv-category-delete-${held.id}`).click();
      await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
      await page.locator('.ant-notification-notice', { hasText: '不能删除' }).first().waitFor();
      expect((await categories(held.name)).map((c) => c.id)).toContain(held.id);

      await search(v, 'inv-category-search', edited);
      await v.getByTestId(`inv-category-delete-${saved!.id}`).click();
      await page.locator('.ant-popconfirm:visible .ant-btn-dangerous').click();
      await expect.poll(() => rows(v, 'inv-category-table').count()).toBe(0);
      expect(await categories(stamp)).toHaveLength(1); // the own-product category of the other tests
    } finally {
      await context.close();
    }
  });

  test('b: three gateways produced, brought in by an entry order and stocked in its warehouse', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/inventoryManagement/inventoryList', 'inv-inventory');
      let v = view(page);
      await v.getByTestId('inv-tab-log').click();
      await v.getByTestId('inv-produce').click();
      const form = modal(page);
      await pickOption(page, form.getByTestId('inv-produce-category'), OWN_CATEGORY);
      await textarea(form, 'inv-serials-input').fill(GATEWAYS.join('\n'));
      await expect.poll(() => form.locator('.inv-serials-count').innerText()).toBe('3 个序列号');
      expect(await form.getByTestId('inv-produce-finished').getAttribute('aria-checked')).toBe('true');
      await modalOk(page);
      await form.waitFor({ state: 'hidden' });
      await search(v, 'inv-log-search', stamp);
      await expect.poll(() => rows(v, 'inv-log-table').count()).toBe(3);
      expect(await rows(v, 'inv-log-table').first().innerText()).toContain('已完成');
      await shot(page, 'inventory-log-zh-1440');
      expect((await units(stamp)).map((u) => u.status)).toEqual(['finished', 'finished', 'finished']);

      // an entry order of own products, opened on its page
      await go(page, '/inventoryManagement/entryList', 'inv-entry-list');
      v = view(page);
      await v.getByTestId('inv-order-new').click();
      await form.getByTestId('inv-order-warehouse').fill(WAREHOUSE);
      await modalOk(page);
      await page.waitForURL(/\/inventoryManagement\/ownDetail\/\d+$/);
      const orderId = Number(page.url().split('/').pop());
      v = view(page);
      await v.getByTestId('inv-order').waitFor();
      // scanned with commas and a repeat: three lines
      await textarea(v, 'inv-add-serials').fill(`${GATEWAYS.join(', ')}, ${GATEWAYS[0]}`);
      await v.getByTestId('inv-add-submit').click();
      await expect.poll(() => rows(v, 'inv-lines-table').count()).toBe(3);
      expect(await v.getByTestId('inv-line-status').allInnerTexts()).toEqual(
        GATEWAYS.map(() => '已选入入库单'),
      );
      expect(await textarea(v, 'inv-add-serials').inputValue()).toBe('');
      await shot(page, 'inventory-entry-open-zh-1440');

      await v.getByTestId('inv-order-confirm').click();
      await confirmDialog(page);
      await expect.poll(() => v.getByTestId('inv-order-state').innerText()).toBe('已确认');
      await v.getByTestId('inv-order-readonly').waitFor();
      expect(await v.getByTestId('inv-add').count()).toBe(0);
      expect(await v.getByTestId('inv-order-confirm').count()).toBe(0);
      expect(await lines(orderId)).toEqual(GATEWAYS);

      // the entry list finds it by its warehouse
      await go(page, '/inventoryManagement/entryList', 'inv-entry-list');
      v = view(page);
      await search(v, 'inv-order-search', WAREHOUSE);
      await expect.poll(() => rows(v, 'inv-order-table').count()).toBe(1);
      expect(await rows(v, 'inv-order-table').first().innerText()).toContain('已确认');
      await shot(page, 'inventory-entries-zh-1440');

      // the stock and the units tab: stocked, in that warehouse
      await go(page, '/inventoryManagement/inventoryList', 'inv-inventory');
      v = view(page);
      await expect
        .poll(() => rows(v, 'inv-stock-table').filter({ hasText: WAREHOUSE }).innerText())
        .toContain('已入库 3');
      await shot(page, 'inventory-stock-zh-1440');
      await v.getByTestId('inv-tab-units').click();
      await search(v, 'inv-unit-search', stamp);
      await expect.poll(() => rows(v, 'inv-unit-table').count()).toBe(3);
      expect(await v.getByTestId('inv-unit-warehouse').allInnerTexts()).toEqual(
        GATEWAYS.map(() => WAREHOUSE),
      );
      expect(await v.getByTestId('inv-unit-table').getByTestId('inv-stock-status').allInnerTexts()).toEqual(
        GATEWAYS.map(() => '已入库'),
      );
      await shot(page, 'inventory-units-zh-1440');
      // one disabled (stock status 9) and enabled again, each asked for again
      const first = rows(v, 'inv-unit-table').filter({ hasText: GATEWAYS[0]! });
      for (const [action, word] of [
        ['disable', '已停用'],
        ['enable', '已入库'],
      ] as const) {
        await first.locator('input[type=checkbox]').check();
        await v.getByTestId(`inv-unit-${action}`).click();
        await confirmDialog(page);
        await expect.poll(() => first.getByTestId('inv-stock-status').innerText()).toBe(word);
      }
      const download = await exportAs(page, v, 'inv-unit-export');
      const csv = readFileSync((await download.path())!, 'utf8');
      for (const sn of GATEWAYS) expect(csv).toContain(sn);
      expect(csv).toContain(WAREHOUSE);
      expect((await units(stamp)).map((u) => [u.status, u.warehouse])).toEqual(
        GATEWAYS.map(() => ['stocked', WAREHOUSE]),
      );

      // the category's page: its stock in that warehouse, and its units
      await v.getByTestId('inv-tab-stock').click();
      await rows(v, 'inv-stock-table').filter({ hasText: WAREHOUSE }).getByRole('link').click();
      await page.waitForURL(new RegExp(`/inventoryManagement/categoryDetail/${ownCategoryId}/`));
      v = view(page);
      await expect.poll(() => v.getByTestId('inv-category-title').innerText()).toBe(OWN_CATEGORY);
      expect(await rows(v, 'inv-category-stock').filter({ hasText: WAREHOUSE }).innerText()).toContain(
        '已入库 3',
      );
      await expect.poll(() => rows(v, 'inv-unit-table').count()).toBe(3);
      await shot(page, 'inventory-category-detail-zh-1440');
    } finally {
      await context.close();
    }
  });

  test('c: an exit order to a customer ships the three, and its delivery note downloads', async () => {
    const customer = `E2E 客户 ${stamp}`;
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/inventoryManagement/exitList', 'inv-exit-list');
      let v = view(page);
      await v.getByTestId('inv-order-new').click();
      const form = modal(page);
      // the customer is required
      await form.getByTestId('inv-order-warehouse').fill(WAREHOUSE);
      await modalOk(page);
      await form.getByText('请输入客户').waitFor();
      await form.getByTestId('inv-order-customer').fill(customer);
      await form.getByTestId('inv-order-contact').fill('王工');
      await form.getByTestId('inv-order-phone').fill('13900000000');
      await form.getByTestId('inv-order-address').fill('上海市浦东新区张江路 88 号');
      await modalOk(page);
      await page.waitForURL(/\/inventoryManagement\/exitDetail\/\d+\/open$/);
      const orderId = Number(page.url().split('/').at(-2));
      v = view(page);
      await v.getByTestId('inv-order').waitFor();
      const number = await v.getByTestId('inv-order-number').innerText();
      expect(number).toMatch(/^CK-\d{8}-\d{5}$/);
      expect(await v.getByTestId('inv-order-header').innerText()).toContain(customer);

      await textarea(v, 'inv-add-serials').fill(GATEWAYS.join('\n'));
      await v.getByTestId('inv-add-submit').click();
      await expect.poll(() => rows(v, 'inv-lines-table').count()).toBe(3);
      expect(await v.getByTestId('inv-lines-table').getByTestId('inv-stock-status').allInnerTexts()).toEqual(
        GATEWAYS.map(() => '已选入出库单'),
      );
      await v.getByTestId('inv-order-confirm').click();
      await confirmDialog(page);
      await expect.poll(() => v.getByTestId('inv-order-state').innerText()).toBe('已确认');
      expect(await v.getByTestId('inv-line-status').allInnerTexts()).toEqual(GATEWAYS.map(() => '已出库'));
      await shot(page, 'inventory-exit-confirmed-zh-1440');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        v.getByTestId('inv-order-print').click(),
      ]);
      expect(download.suggestedFilename()).toContain(number);
      expect(download.suggestedFilename()).toBe(`${number}-zh.pdf`);
      const pdf = readFileSync((await download.path())!);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect((await units(stamp)).map((u) => u.status)).toEqual(GATEWAYS.map(() => 'out'));

      // the list links the order with its state now
      await go(page, '/inventoryManagement/exitList', 'inv-exit-list');
      v = view(page);
      await search(v, 'inv-order-search', GATEWAYS[0]!);
      await expect.poll(() => rows(v, 'inv-order-table').count()).toBe(1);
      expect(await v.getByTestId(`inv-order-link-${orderId}`).getAttribute('href')).toBe(
        `/inventoryManagement/exitDetail/${orderId}/confirmed`,
      );
      shipped = { id: orderId, number };
    } finally {
      await context.close();
    }
  });

  test('d: a paste naming a unit in production and one in another open order is refused whole', async () => {
    const [making, ready, elsewhere, fresh] = ['M', 'R', 'E', 'F'].map((x) => `GW${stamp}-${x}`) as [
      string,
      string,
      string,
      string,
    ];
    ok(
      await postJson('/inventory/unit/produce', {
        categoryId: ownCategoryId,
        sns: [making],
        finished: false,
      }),
    );
    ok(
      await postJson('/inventory/unit/produce', {
        categoryId: ownCategoryId,
        sns: [ready, elsewhere, fresh],
        finished: true,
      }),
    );
    const other = await openOrder({ kind: 'entry', source: 'own', warehouse: WAREHOUSE });
    ok(await postJson('/inventory/order/add', { id: other.id, sns: [elsewhere] }));
    const entry = await openOrder({ kind: 'entry', source: 'own', warehouse: WAREHOUSE });
    ok(await postJson('/inventory/order/add', { id: entry.id, sns: [ready] }));
    // the paste is refused on purpose: its 400 answer is what is under test
    allowPageErrors(refused(400, '/general/inventory/order/add'));
    const { context, page } = await openAs('zh');
    try {
      await go(page, `/inventoryManagement/ownDetail/${entry.id}`, 'inv-order');
      const v = view(page);
      await expect.poll(() => rows(v, 'inv-lines-table').count()).toBe(1);
      await textarea(v, 'inv-add-serials').fill([making, fresh, elsewhere].join('\n'));
      await v.getByTestId('inv-add-submit').click();
      const alert = v.getByTestId('inv-add-refusal');
      await alert.waitFor();
      expect(await alert.innerText()).toContain(`序列号 ${making} 当前为“生产中”，不能选入入库单`);
      const items = alert.getByTestId('inv-add-refusal-item');
      await expect.poll(() => items.count()).toBe(2);
      expect(await items.nth(0).innerText()).toContain(making);
      expect(await items.nth(1).innerText()).toContain(elsewhere);
      expect(await items.nth(1).innerText()).toContain(`已在未完成的单据（${other.id}）中`);
      await shot(page, 'inventory-entry-refused-zh-1440');
      // nothing changed: the order holds its one line, the units are where they were
      expect(await rows(v, 'inv-lines-table').count()).toBe(1);
      expect(await lines(entry.id)).toEqual([ready]);
      expect(await lines(other.id)).toEqual([elsewhere]);
      const byStatus = Object.fromEntries((await units(stamp)).map((u) => [u.sn, u.status]));
      expect([byStatus[making], byStatus[fresh]]).toEqual(['inProduction', 'finished']);

      // the refused lines taken out of the input, the rest goes in
      await alert.getByTestId('inv-add-refusal-drop').click();
      expect(await textarea(v, 'inv-add-serials').inputValue()).toBe(fresh);
      await v.getByTestId('inv-add-submit').click();
      await expect.poll(() => rows(v, 'inv-lines-table').count()).toBe(2);
      expect(await lines(entry.id)).toEqual([ready, fresh]);
    } finally {
      await context.close();
    }
  });

  test('f: counted goods into an entry of other goods, and new SIM cards into their category', async () => {
    const all = ok(
      await api<{ list: Array<{ id: number; name: string; kind: string; serialized: boolean }> }>(
        '/inventory/category/list?pageSize=100',
      ),
    ).list;
    const cable = all.find((c) => c.kind === 'other' && !c.serialized)!;
    const sim = all.find((c) => c.kind === 'sim')!;
    const iccids = [1, 2].map((n) => `8986E2E${stamp}${n}`);
    // a paste of new ICCIDs without their category is refused on purpose
    allowPageErrors(refused(400, '/general/inventory/order/add'));
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/inventoryManagement/entryList', 'inv-entry-list');
      let v = view(page);
      await v.getByTestId('inv-order-new').click();
      const form = modal(page);
      await pickOption(page, form.getByTestId('inv-order-source'), '其他货品');
      await form.getByTestId('inv-order-warehouse').fill(WAREHOUSE);
      await modalOk(page);
      await page.waitForURL(/\/inventoryManagement\/otherDetail\/\d+$/);
      v = view(page);
      await v.getByTestId('inv-counted-edit').click();
      const row = form.getByTestId('inv-counted-row').first();
      await pickOption(page, row.locator('.ant-select'), cable.name);
      await row.locator('input.ant-input-number-input').fill('25');
      await modalOk(page);
      await form.waitFor({ state: 'hidden' });
      await expect
        .poll(() => v.getByTestId('inv-counted-quantity').allInnerTexts())
        .toEqual([expect.stringMatching(/^25\b/)]);
      await v.getByTestId('inv-order-confirm').click();
      await confirmDialog(page);
      await expect.poll(() => v.getByTestId('inv-order-state').innerText()).toBe('已确认');
      const stock = ok(
        await api<Array<{ categoryId: number; warehouse: string; quantity: number | null }>>(
          '/inventory/stock',
        ),
      );
      expect(stock.find((s) => s.categoryId === cable.id && s.warehouse === WAREHOUSE)?.quantity).toBe(25);

      // SIM cards new to the inventory need the category they join
      await go(page, '/inventoryManagement/entryList', 'inv-entry-list');
      v = view(page);
      await v.getByTestId('inv-order-new').click();
      await pickOption(page, form.getByTestId('inv-order-source'), 'SIM 卡');
      await form.getByTestId('inv-order-warehouse').fill(WAREHOUSE);
      await modalOk(page);
      await page.waitForURL(/\/inventoryManagement\/simDetail\/\d+$/);
      v = view(page);
      await textarea(v, 'inv-add-serials').fill(iccids.join(' '));
      await v.getByTestId('inv-add-submit').click();
      await v.getByTestId('inv-add-refusal').getByText('新序列号的分类').waitFor();
      await pickOption(page, v.getByTestId('inv-add-category'), sim.name);
      await v.getByTestId('inv-add-submit').click();
      await expect.poll(() => rows(v, 'inv-lines-table').count()).toBe(2);
      expect(await v.getByTestId('inv-add-refusal').count()).toBe(0);
      await shot(page, 'inventory-entry-sim-zh-1440');
    } finally {
      await context.close();
    }
  });

  test('e: the exit order in English on a phone', async () => {
    expect(shipped, 'test c shipped an order').not.toBeNull();
    const open = await openOrder({
      kind: 'exit',
      warehouse: WAREHOUSE,
      customer: 'East Water Group',
      address: '88 Zhangjiang Road',
    });
    const { context, page } = await openAs('en', 390);
    try {
      await go(page, `/inventoryManagement/exitDetail/${open.id}/open`, 'inv-order');
      let v = view(page);
      await expect.poll(() => v.getByTestId('inv-order-state').innerText()).toBe('Open');
      expect(await v.getByTestId('inv-order-confirm').innerText()).toContain('Confirm exit');
      expect(await v.getByTestId('inv-order-print').innerText()).toContain('Print delivery note');
      expect(await v.getByTestId('inv-lines').innerText()).toContain('No serial numbers yet');
      await noSideways(page);
      await shot(page, 'inventory-exit-open-en-390');

      await go(page, `/inventoryManagement/exitDetail/${shipped!.id}/confirmed`, 'inv-order');
      v = view(page);
      await expect.poll(() => rows(v, 'inv-lines-table').count()).toBe(3);
      expect(await v.getByTestId('inv-order-state').innerText()).toBe('Confirmed');
      expect(await v.getByTestId('inv-line-status').allInnerTexts()).toEqual(
        GATEWAYS.map(() => 'out of stock'),
      );
      expect(await v.getByTestId('inv-order-readonly').innerText()).toContain('viewed and printed only');
      await noSideways(page);
      await shot(page, 'inventory-exit-confirmed-en-390');
      await v.getByTestId('inv-lines-table').scrollIntoViewIfNeeded();
      await shot(page, 'inventory-exit-lines-en-390');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        v.getByTestId('inv-order-print').click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${shipped!.number}-en.pdf`);

      await go(page, '/inventoryManagement/exitList', 'inv-exit-list');
      v = view(page);
      await expect.poll(() => rows(v, 'inv-order-table').count()).toBeGreaterThan(1);
      await noSideways(page);
      await shot(page, 'inventory-exits-en-390');

      await go(page, '/inventoryManagement/inventoryList', 'inv-inventory');
      v = view(page);
      await expect.poll(() => rows(v, 'inv-stock-table').count()).toBeGreaterThan(0);
      await noSideways(page);
      await shot(page, 'inventory-stock-en-390');
      await v.getByTestId('inv-tab-units').click();
      await expect.poll(() => rows(v, 'inv-unit-table').count()).toBeGreaterThan(0);
      await noSideways(page);
      await shot(page, 'inventory-units-en-390');

      await go(page, '/inventoryManagement/categoryList', 'inv-categories');
      v = view(page);
      await expect.poll(() => rows(v, 'inv-category-table').count()).toBeGreaterThan(0);
      await noSideways(page);
      await shot(page, 'inventory-categories-en-390');
    } finally {
      await context.close();
    }
  });
});
