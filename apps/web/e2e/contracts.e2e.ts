/**
 * Sales contracts (/smartSale/salecontract, /smartSale/saletemplate, /smartSale/orderDetail) as
 * a person uses them, on the demo company: a contract template made from the plain contract with
 * one more order field inserted, a name already taken refused beside the name; an order opened on
 * its own page and its contract made from there, read as paper, downloaded for Word, signed after
 * its confirmation (then neither signable nor deletable); an exit order of the inventory that
 * delivers a sales order, linked both ways; the demo's signed contract in English on a phone.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { allowPageErrors, refused, shot } from './harness';
import { demoAdminRun, noSideways, pickOption, success } from './support';

const { api, postJson, openAs, go } = demoAdminRun();

interface Contract {
  id: number;
  number: string;
  orderNumber: string;
  status: string;
  templateName: string;
  signedOn: string | null;
}

let productId: number;

beforeAll(async () => {
  const catalogue = await api<{ products: Array<{ id: number }> }>('/sales/catalogue');
  expect(catalogue.code, catalogue.message).toBe(0);
  productId = catalogue.data.products[0]!.id;
});

async function contracts(query = ''): Promise<Contract[]> {
  const page = await api<{ list: Contract[] }>(`/sales/contract/list?pageNum=1&pageSize=100${query}`);
  expect(page.code, page.message).toBe(0);
  return page.data.list;
}

describe('sales contracts', () => {
  test('a template from the plain contract, one more field inserted; a taken name refused beside it', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/smartSale/saletemplate', 'sales-templates');
      // the demo's standard template is listed
      await page.getByTestId('template-table').getByText('标准销售合同').waitFor();
      await page.getByTestId('template-new').click();
      await page.getByTestId('template-editor').waitFor();
      const editor = page.locator('.dt-editor-content');
      await editor.getByText('销售合同', { exact: true }).waitFor();
      // the plain contract's placeholders are there, labelled in Chinese
      expect(await editor.locator('span[data-field="totalUpper"]').innerText()).toBe('金额大写');
      // one more: the order date at the end of the text
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('交货日期以订单日期为准：');
      await page.getByTestId('template-insert-orderDate').click();
      expect(await editor.locator('span[data-field="orderDate"]').count()).toBe(2);

      // the demo's name is taken: said beside the name, nothing saved
      await page.getByTestId('template-name').fill('标准销售合同');
      allowPageErrors(refused(409, '/general/sales/contract/template/save'));
      await page.getByTestId('template-save').click();
      const nameError = page
        .locator('.ant-form-item', { has: page.getByTestId('template-name') })
        .locator('.ant-form-item-explain-error');
      await expect.poll(() => nameError.innerText()).toBe('名为“标准销售合同”的合同模板已存在');
      const templates = await api<Array<{ name: string }>>('/sales/contract/template/list');
      expect(templates.data.map((t) => t.name)).toEqual(['标准销售合同']);

      await page.getByTestId('template-name').fill('年度框架合同');
      await page.getByTestId('template-save').click();
      await success(page);
      await expect.poll(() => page.url()).toMatch(/edit=\d+/);
      await shot(page, 'contract-template-zh-1440');
      const saved = await api<Array<{ id: number; name: string }>>('/sales/contract/template/list');
      const made = saved.data.find((t) => t.name === '年度框架合同')!;
      const body = await api<{ html: string }>(`/sales/contract/template/get?id=${made.id}`);
      expect(body.data.html).toContain('交货日期以订单日期为准：<span data-field="orderDate">');
    } finally {
      await context.close();
    }
  });

  test("an order's contract made from its page, read, downloaded for Word and signed", async () => {
    const submitted = await postJson<{ id: number; number: string }>('/sales/order/submit', {
      customer: '合同测试水厂',
      contact: '赵工',
      lines: [{ kind: 'product', categoryId: productId, quantity: 2, unitPriceCents: 150_050 }],
    });
    expect(submitted.code, submitted.message).toBe(0);
    const order = submitted.data;
    const { context, page } = await openAs('zh');
    try {
      // the order list's drawer opens the order's own page
      await go(page, '/smartSale/ordermanagement', 'sales-orders');
      await page.getByTestId(`sales-detail-${order.number}`).click();
      await page.getByTestId('sales-open-page').click();
      const orderPage = page.getByTestId('sales-order-page');
      await orderPage.waitFor();
      expect(page.url()).toContain(`/smartSale/orderDetail/`);
      await orderPage.getByTestId('sales-order-make-contract').waitFor();
      expect(await orderPage.innerText()).toContain('合同测试水厂');
      await shot(page, 'sales-order-page-zh-1440');

      // make the contract: the order comes chosen, the template is picked
      await orderPage.getByTestId('sales-order-make-contract').click();
      await page.getByTestId('contract-new-form').waitFor();
      await pickOption(page, page.getByTestId('contract-template'), '标准销售合同');
      await page.getByTestId('contract-new-ok').click();
      await page.getByTestId('contract-body').waitFor();
      const made = (await contracts()).find((c) => c.orderNumber === order.number)!;
      expect(made).toMatchObject({ status: 'draft', templateName: '标准销售合同' });
      const paper = page.getByTestId('contract-body');
      expect(await paper.locator('[data-field="customer"]').innerText()).toBe('合同测试水厂');
      expect(await paper.locator('[data-field="contractNo"]').innerText()).toBe(made.number);
      expect(await paper.locator('[data-field="total"]').innerText()).toBe('¥3,001.00');
      expect(await paper.locator('[data-field="totalUpper"]').innerText()).toBe('叁仟零壹元整');
      await shot(page, 'contract-paper-zh-1440');

      // the Word document
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('contract-download').click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${made.number}.doc`);
      const doc = readFileSync((await download.path())!, 'utf8');
      expect(doc).toContain('urn:schemas-microsoft-com:office:word');
      expect(doc).toContain('合同测试水厂');

      // signed after its confirmation; then it can be neither signed nor deleted
      await page.getByTestId('contract-drawer-sign').click();
      await page.getByTestId('contract-drawer-sign-ok').click();
      await success(page);
      await page.locator('.ant-drawer').getByTestId('contract-status-signed').waitFor();
      expect(await page.getByTestId('contract-drawer-sign').count()).toBe(0);
      expect(await page.getByTestId('contract-drawer-delete').count()).toBe(0);
      const signed = (await contracts()).find((c) => c.id === made.id)!;
      expect(signed.status).toBe('signed');
      expect(signed.signedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      // the order page now links its contract
      await page.keyboard.press('Escape');
      await page.goBack();
      await orderPage.getByTestId('sales-order-contract-link').waitFor();
      expect(await orderPage.getByTestId('sales-order-contract-link').innerText()).toContain(made.number);
    } finally {
      await context.close();
    }
  });

  test('a draft contract deleted from the list after its confirmation', async () => {
    const submitted = await postJson<{ id: number; number: string }>('/sales/order/submit', {
      customer: '草稿合同客户',
      lines: [{ kind: 'product', categoryId: productId, quantity: 1, unitPriceCents: 10_000 }],
    });
    const templates = await api<Array<{ id: number; name: string }>>('/sales/contract/template/list');
    const standard = templates.data.find((t) => t.name === '标准销售合同')!;
    const draft = await postJson<Contract>('/sales/contract/create', {
      orderId: submitted.data.id,
      templateId: standard.id,
    });
    expect(draft.code, draft.message).toBe(0);
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/smartSale/salecontract', 'sales-contracts');
      await page.getByTestId('contract-search').locator('input').fill('草稿合同');
      await page.getByTestId('contract-search').locator('input').press('Enter');
      await expect.poll(() => page.getByTestId('contract-table').locator('tr.ant-table-row').count()).toBe(1);
      await page.getByTestId(`contract-delete-${draft.data.number}`).click();
      await page.getByTestId('contract-delete-ok').waitFor();
      await shot(page, 'contract-delete-confirm-zh-1440');
      await page.getByTestId('contract-delete-ok').click();
      await success(page);
      await expect.poll(() => page.getByTestId('contract-table').locator('tr.ant-table-row').count()).toBe(0);
      expect((await contracts()).some((c) => c.id === draft.data.id)).toBe(false);
    } finally {
      await context.close();
    }
  });

  test('an exit order of the inventory delivering a sales order: chosen, filled, and linked both ways', async () => {
    const submitted = await postJson<{ id: number; number: string }>('/sales/order/submit', {
      customer: '交付测试电厂',
      contact: '孙工',
      phone: '13700000007',
      address: '江苏省南京市江宁区 1 号',
      lines: [{ kind: 'product', categoryId: productId, quantity: 1, unitPriceCents: 20_000 }],
    });
    expect(submitted.code, submitted.message).toBe(0);
    const sale = submitted.data;
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/inventoryManagement/exitList', 'inv-exit-list');
      await page.getByTestId('inv-exit-list').getByTestId('inv-order-new').click();
      const form = page.locator('.ant-modal').filter({ has: page.getByTestId('inv-order-form') });
      await pickOption(page, form.getByTestId('inv-order-sale'), sale.number);
      // the sale's customer fills the blank fields
      await expect.poll(() => form.getByTestId('inv-order-customer').inputValue()).toBe('交付测试电厂');
      expect(await form.getByTestId('inv-order-phone').inputValue()).toBe('13700000007');
      await form.getByTestId('inv-order-warehouse').fill('成品仓');
      await shot(page, 'exit-order-sale-zh-1440');
      await form.locator('.ant-btn-primary').click();
      await page.waitForURL(/\/inventoryManagement\/exitDetail\/\d+\/open$/);
      const header = page.locator('[data-testid="inv-order-header"]:visible');
      await header.getByTestId('inv-order-sale-link').waitFor();
      expect(await header.getByTestId('inv-order-sale-link').innerText()).toBe(sale.number);
      const exitNumber = await page.locator('[data-testid="inv-order-number"]:visible').innerText();
      // and the sale lists its exit order
      await header.getByTestId('inv-order-sale-link').click();
      const orderPage = page.getByTestId('sales-order-page');
      await orderPage.getByTestId('sales-order-deliveries').waitFor();
      expect(await orderPage.getByTestId('sales-order-deliveries').innerText()).toContain(exitNumber);
      expect(await orderPage.getByTestId('sales-order-deliveries').innerText()).toContain('备货中');
    } finally {
      await context.close();
    }
  });

  test("in English on a phone: the demo's signed contract", async () => {
    const signed = (await contracts('&status=signed')).find((c) => c.templateName === '标准销售合同')!;
    const { context, page } = await openAs('en', 390);
    try {
      await go(page, '/smartSale/salecontract', 'sales-contracts');
      expect(await page.getByTestId('sales-contracts').innerText()).toContain('Sales Contracts');
      await expect
        .poll(() => page.getByTestId('contract-table').locator('tr.ant-table-row').count())
        .toBeGreaterThan(0);
      await noSideways(page);
      await shot(page, 'contracts-en-390');
      await page.getByTestId(`contract-view-${signed.number}`).click();
      await page.getByTestId('contract-body').waitFor();
      expect(await page.getByTestId('contract-body').innerText()).toContain(signed.number);
      await shot(page, 'contract-paper-en-390');
    } finally {
      await context.close();
    }
  });
});
