/**
 * Gas blending (/setgas) as a person uses it, on the demo company: the gas properties with the
 * default components (search, add, edit, delete); the two parent gases of the worked example
 * with their impurities; the product "10 % CO2 in N2"; its component calculation, forward
 * (41.028 mol, CO2 180.56 g, N2 1034.41 g at Z 1; 186.05 g and 1065.85 g at Z 0.9705) and
 * inverse (CO2 9.9998 %, O2 9.0 µmol/mol from the weighed masses); refused inputs (components
 * past 100 %, one component at 100 %, a negative mass) show the field's error and save
 * nothing; the pure gases exported as CSV (every row under the search, headed in Chinese) and
 * the issued certificates headed in English. Screenshots in Chinese and English at 1440 and 390 px.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { allowPageErrors, type Lang, refused, shot } from './harness';
import { demoAdminRun, exportAs, modalOk, noSideways, numberInput, pathOf, success } from './support';

const { api, postJson, openAs, go } = demoAdminRun();

interface Named {
  id: number;
  name: string;
}

const PRODUCT = '10 % CO2 in N2';
const CO2_GAS = 'CO2 99.995 %';
const N2_GAS = 'N2 99.999 %';

async function listed(path: string): Promise<Named[]> {
  const page = await api<{ list: Named[] }>(`${path}?pageNum=1&pageSize=100`);
  expect(page.code, page.message).toBe(0);
  return page.data.list;
}

const rows = (page: Page, testId: string) => page.getByTestId(testId).locator('tbody tr.ant-table-row');

/** The visible modal (antd keeps closed ones in the page). */
const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');

/** Open a Select, type to narrow it (antd's list is virtual), and pick the option that matches. */
async function pick(page: Page, select: Locator, typed: string, option: RegExp): Promise<void> {
  await select.click();
  await select.locator('input').first().fill(typed);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

/** A component of the gas properties in a ComponentSelect ("CO2 · 二氧化碳"). */
const component = (page: Page, select: Locator, formula: string) =>
  pick(page, select, formula, new RegExp(`^${formula} ·`));

/** Fill one weighing row of the calculation page: the pure gas (by name) and its mass. */
async function weigh(page: Page, index: number, gas: string, mass: string): Promise<void> {
  const row = page.getByTestId('gas-parent').nth(index);
  const escaped = gas.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await pick(page, row.getByTestId('gas-parent-gas'), gas.split(' ')[0]!, new RegExp(`^${escaped}`));
  await numberInput(row, 'gas-parent-mass').fill(mass);
}

const WORDS = {
  zh: {
    properties: '气体属性',
    pure: '纯气',
    products: '产品列表',
    composition: 'CO2 10 % · 平衡气 N2',
    fill: '计算目标质量',
    certify: '计算定值',
    noMatch: '没有符合“不存在”的产品',
    over: '各组分合计 110 %',
    fractionRange: '摩尔分数必须大于 0 且小于 1',
    negative: '称量质量必须大于 0',
  },
  en: {
    properties: 'Gas Properties',
    pure: 'Pure Gas',
    products: 'Product List',
    composition: 'CO2 10 % · balance N2',
    fill: 'Calculate target masses',
    certify: 'Certify composition',
    noMatch: 'No product matches “不存在”',
    over: 'The components add up to 110 %',
    fractionRange: 'an amount fraction is greater than 0 and less than 1',
    negative: 'The weighed mass must be greater than 0',
  },
} as const;

describe('gas blending, the worked example', () => {
  test('gas properties: the defaults, a search, and a component added, edited and deleted', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/setgas/gaspropertieslist', 'gas-properties');
      // the company's defaults, written on first use
      await expect.poll(() => rows(page, 'gas-component-table').count(), { timeout: 20_000 }).toBe(11);
      const search = page.getByTestId('gas-component-search').locator('input');
      await search.fill('二氧化');
      await expect.poll(() => rows(page, 'gas-component-table').count()).toBe(2);
      await search.fill('co2');
      await expect.poll(() => rows(page, 'gas-component-table').count()).toBe(1);
      expect(await rows(page, 'gas-component-table').first().innerText()).toContain('44.009');
      await search.fill('');

      await page.getByTestId('gas-component-add').click();
      await page.getByTestId('gas-component-formula').fill('Kr');
      await page.getByTestId('gas-component-name').fill('氪气');
      await numberInput(page, 'gas-component-molar-mass').fill('83.798');
      await modalOk(page);
      await success(page, { untilGone: true });
      const kr = rows(page, 'gas-component-table').filter({ hasText: '氪气' });
      await expect.poll(() => kr.innerText()).toContain('83.798');
      expect(await kr.innerText()).toContain('自定义');

      await page.getByTestId('gas-component-edit-Kr').click();
      await numberInput(page, 'gas-component-molar-mass').fill('83.8');
      await modalOk(page);
      await expect.poll(() => kr.innerText()).toContain('83.800');

      await page.getByTestId('gas-component-delete-Kr').click();
      await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
      await expect.poll(() => kr.count()).toBe(0);
      const left = await api<Array<{ formula: string }>>('/gas/component/list');
      expect(left.data.map((c) => c.formula)).not.toContain('Kr');
    } finally {
      await context.close();
    }
  });

  test('adds the two parent gases with their impurities', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/setgas/puregas', 'gas-pure');
      const before = (await listed('/gas/pure/list')).map((g) => g.name);
      for (const [name, main, impurity, amount, purity, u] of [
        [CO2_GAS, 'CO2', 'N2', '50', '99.9950 %', ''],
        // the nitrogen's oxygen with the standard uncertainty of its analysis
        [N2_GAS, 'N2', 'O2', '10', '99.9990 %', '1'],
      ] as const) {
        await page.getByTestId('gas-pure-add').click();
        const form = modal(page);
        await form.getByTestId('gas-pure-name').fill(name);
        await component(page, form.getByTestId('gas-pure-main'), main);
        await form.getByTestId('gas-pure-add-impurity').click();
        const row = form.getByTestId('gas-pure-impurity').first();
        await component(page, row.locator('.ant-select').first(), impurity);
        await row.locator('input.ant-input-number-input').first().fill(amount);
        if (u) await numberInput(row, 'gas-pure-impurity-u').fill(u);
        // the purity follows the impurities as they are typed
        await expect.poll(() => form.getByTestId('gas-pure-purity').innerText()).toContain(purity);
        await form.getByTestId('gas-pure-supplier').fill('示例气体公司');
        await form.getByTestId('gas-pure-lot').fill(`L-${main}`);
        await form.getByTestId('gas-pure-cylinder').fill(`C-${main}-01`);
        await modalOk(page);
        await success(page, { untilGone: true });
        const shown = rows(page, 'gas-pure-table').filter({ hasText: name });
        await expect.poll(() => shown.innerText()).toContain(purity);
        expect(await shown.innerText()).toContain(`${impurity} ${amount}${u ? ` ± ${u}` : ''} µmol/mol`);
      }
      const gases = (await listed('/gas/pure/list')).map((g) => g.name);
      expect(gases.sort()).toEqual([...before, CO2_GAS, N2_GAS].sort());
      await page.getByTestId('gas-pure-search').locator('input').fill('L-N2');
      await page.getByTestId('gas-pure-search').locator('input').press('Enter');
      await expect.poll(() => rows(page, 'gas-pure-table').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  test('adds the product; components past 100 % and one at 100 % are refused and save nothing', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/setgas/productlist', 'gas-products');
      const before = (await listed('/gas/product/list')).map((p) => p.name);
      await page.getByTestId('gas-product-add').click();
      const form = modal(page);
      await form.getByTestId('gas-product-name').fill(PRODUCT);
      await form.getByTestId('gas-product-code').fill('MIX-CO2-10');
      const first = form.getByTestId('gas-product-component').first();
      await component(page, first.locator('.ant-select').first(), 'CO2');
      await first.locator('input.ant-input-number-input').fill('10');
      await component(page, form.getByTestId('gas-product-balance'), 'N2');
      await expect.poll(() => form.getByTestId('gas-product-total').innerText()).toContain('90 %');
      // the cylinder's defaults: 10 L, 10 MPa, 20 °C, Z 1
      expect(Number(await numberInput(form, 'gas-product-volume').inputValue())).toBe(10);
      expect(Number(await numberInput(form, 'gas-product-pressure').inputValue())).toBe(10);
      expect(Number(await numberInput(form, 'gas-product-temperature').inputValue())).toBe(20);
      expect(Number(await numberInput(form, 'gas-product-z').inputValue())).toBe(1);
      await modalOk(page);
      await success(page, { untilGone: true });
      const row = rows(page, 'gas-product-table').filter({ hasText: PRODUCT });
      await expect.poll(() => row.innerText()).toContain('MIX-CO2-10');
      expect((await row.innerText()).replace(/\s+/g, ' ')).toContain(WORDS.zh.composition);
      const saved = await api<{ components: unknown; balance: string; volumeL: number; z: number }>(
        `/gas/product/get?id=${(await listed('/gas/product/list')).find((p) => p.name === PRODUCT)!.id}`,
      );
      expect(saved.data).toMatchObject({
        components: [{ component: 'CO2', fraction: 0.1 }],
        balance: 'N2',
        volumeL: 10,
        pressureMPa: 10,
        temperatureC: 20,
        z: 1,
      });

      // the server refuses these on purpose: its 400 answers are what is under test
      allowPageErrors(refused(400, '/general/gas/product/save'));
      await page.getByTestId('gas-product-add').click();
      await form.getByTestId('gas-product-name').fill('Over 100');
      const a = form.getByTestId('gas-product-component').first();
      await component(page, a.locator('.ant-select').first(), 'CO2');
      await a.locator('input.ant-input-number-input').fill('60');
      await form.getByTestId('gas-product-add-component').click();
      const b = form.getByTestId('gas-product-component').nth(1);
      await component(page, b.locator('.ant-select').first(), 'CO');
      await b.locator('input.ant-input-number-input').fill('50');
      await component(page, form.getByTestId('gas-product-balance'), 'N2');
      await modalOk(page);
      // the server's words under the component list, and as a notification
      const listError = form.getByTestId('gas-product-components').locator('.ant-form-item-explain-error');
      await expect.poll(() => listError.allInnerTexts()).toEqual([expect.stringContaining(WORDS.zh.over)]);
      await page.locator('.ant-notification-notice', { hasText: WORDS.zh.over }).first().waitFor();
      await shot(page, 'gas-product-refused-zh-1440');

      // one component at 100 %: its own amount field says why
      await b.locator('.ant-btn-dangerous').click();
      await a.locator('input.ant-input-number-input').fill('100');
      await modalOk(page);
      const amountError = a.locator('.ant-form-item-explain-error');
      await expect.poll(() => amountError.innerText()).toContain(WORDS.zh.fractionRange);
      await page.keyboard.press('Escape');
      const after = (await listed('/gas/product/list')).map((p) => p.name);
      expect(after.sort()).toEqual([...before, PRODUCT].sort());
    } finally {
      await context.close();
    }
  });

  test('calculates the target masses, then certifies the weighed composition', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/setgas/productlist', 'gas-products');
      const product = (await listed('/gas/product/list')).find((p) => p.name === PRODUCT)!;
      await page.getByTestId(`gas-product-calc-${product.id}`).click();
      await page.getByTestId('gas-fill').waitFor();
      expect(pathOf(page)).toBe(`/setgas/calculation/${product.id}`);
      expect(await page.getByTestId('gas-calc-title').innerText()).toContain(PRODUCT);

      await page.getByTestId('gas-fill-calculate').click();
      await expect.poll(() => page.getByTestId('gas-fill-total-mol').innerText()).toBe('41.028');
      expect(await page.getByTestId('gas-fill-mass-CO2').innerText()).toBe('180.56');
      expect(await page.getByTestId('gas-fill-mass-N2').innerText()).toBe('1034.41');

      await numberInput(page, 'gas-fill-z').fill('0.9705');
      await page.getByTestId('gas-fill-calculate').click();
      await expect.poll(() => page.getByTestId('gas-fill-total-mol').innerText()).toBe('42.275');
      expect(await page.getByTestId('gas-fill-mass-CO2').innerText()).toBe('186.05');
      // 0.9 × 42.274685 mol × 28.014 g/mol = 1065.8547 g
      expect(await page.getByTestId('gas-fill-mass-N2').innerText()).toBe('1065.85');

      // a negative mass is refused beside its field, and nothing is certified
      await weigh(page, 0, CO2_GAS, '186.05');
      await page.getByTestId('gas-parent-add').click();
      await weigh(page, 1, N2_GAS, '-5');
      await page.getByTestId('gas-certify-button').click();
      await expect
        .poll(() => page.getByTestId('gas-parent').nth(1).locator('.ant-form-item-explain-error').innerText())
        .toBe(WORDS.zh.negative);
      expect(await page.getByTestId('gas-cert-result').count()).toBe(0);

      await numberInput(page.getByTestId('gas-parent').nth(1), 'gas-parent-mass').fill('1065.86');
      await page.getByTestId('gas-certify-button').click();
      await expect.poll(() => page.getByTestId('gas-cert-value-CO2').innerText()).toBe('9.9998 %');
      expect(await page.getByTestId('gas-cert-value-N2').innerText()).toBe('89.9993 %');
      expect(await page.getByTestId('gas-cert-value-O2').innerText()).toBe('9.0 µmol/mol');
      // the weighings' u(m) = 0.005 g each: a small but stated U, in the value's unit
      expect(await page.getByTestId('gas-cert-u-CO2').innerText()).toMatch(/^\d\.?\d* %$/);
      await page.getByTestId('gas-cert-table').scrollIntoViewIfNeeded();
      await shot(page, 'gas-calculation-certified-zh-1440');
    } finally {
      await context.close();
    }
  });
});

describe('the pages in both languages and widths', () => {
  for (const lang of ['zh', 'en'] as Lang[]) {
    for (const width of [1440, 390]) {
      test(`${lang}, ${width} px: lists, the product form and the calculation`, async () => {
        const words = WORDS[lang];
        const { context, page } = await openAs(lang, width);
        try {
          await go(page, '/setgas/gaspropertieslist', 'gas-properties');
          await expect.poll(() => rows(page, 'gas-component-table').count(), { timeout: 20_000 }).toBe(11);
          expect(await page.getByTestId('gas-properties').innerText()).toContain(words.properties);
          // a component in use cannot be deleted: its button is off
          const co2 = rows(page, 'gas-component-table').filter({
            has: page.getByTestId('gas-component-edit-CO2'),
          });
          expect(await co2.locator('button.ant-btn-dangerous').isDisabled()).toBe(true);
          if (width === 390) await noSideways(page);
          await shot(page, `gas-properties-${lang}-${width}`);

          await go(page, '/setgas/puregas', 'gas-pure');
          const gases = await listed('/gas/pure/list');
          await expect
            .poll(() => rows(page, 'gas-pure-table').count(), { timeout: 20_000 })
            .toBe(Math.min(10, gases.length));
          expect(await page.getByTestId('gas-pure').innerText()).toContain(words.pure);
          if (width === 390) await noSideways(page);
          await shot(page, `gas-pure-${lang}-${width}`);
          await page.getByTestId(`gas-pure-edit-${gases.find((g) => g.name === CO2_GAS)!.id}`).click();
          await modal(page).getByTestId('gas-pure-purity').waitFor();
          await shot(page, `gas-pure-modal-${lang}-${width}`);
          await page.keyboard.press('Escape');

          await go(page, '/setgas/productlist', 'gas-products');
          const products = await listed('/gas/product/list');
          const product = products.find((p) => p.name === PRODUCT)!;
          const mine = rows(page, 'gas-product-table').filter({ hasText: PRODUCT });
          await expect.poll(() => mine.count(), { timeout: 20_000 }).toBe(1);
          expect((await mine.innerText()).replace(/\s+/g, ' ')).toContain(words.composition);
          const search = page.getByTestId('gas-product-search').locator('input');
          await search.fill('不存在');
          await search.press('Enter');
          await page.getByTestId('gas-products').getByText(words.noMatch).waitFor();
          await search.fill('');
          await search.press('Enter');
          await expect
            .poll(() => rows(page, 'gas-product-table').count())
            .toBe(Math.min(10, products.length));
          if (width === 390) await noSideways(page);
          await shot(page, `gas-products-${lang}-${width}`);
          await page.getByTestId(`gas-product-edit-${product.id}`).click();
          await expect.poll(() => modal(page).getByTestId('gas-product-name').inputValue()).toBe(PRODUCT);
          await shot(page, `gas-product-modal-${lang}-${width}`);
          await page.keyboard.press('Escape');

          await go(page, `/setgas/calculation/${product.id}`, 'gas-fill');
          expect(await page.getByTestId('gas-fill-calculate').innerText()).toContain(words.fill);
          await page.getByTestId('gas-fill-calculate').click();
          await expect.poll(() => page.getByTestId('gas-fill-mass-CO2').innerText()).toBe('180.56');
          await weigh(page, 0, CO2_GAS, '186.05');
          await page.getByTestId('gas-parent-add').click();
          await weigh(page, 1, N2_GAS, '1065.86');
          expect(await page.getByTestId('gas-certify-button').innerText()).toContain(words.certify);
          await page.getByTestId('gas-certify-button').click();
          await expect.poll(() => page.getByTestId('gas-cert-value-O2').innerText()).toBe('9.0 µmol/mol');
          if (width === 390) await noSideways(page);
          await page.getByTestId('gas-fill-table').scrollIntoViewIfNeeded();
          await shot(page, `gas-calculation-fill-${lang}-${width}`);
          await page.getByTestId('gas-cert-table').scrollIntoViewIfNeeded();
          await shot(page, `gas-calculation-certify-${lang}-${width}`);
        } finally {
          await context.close();
        }
      });
    }
  }
});

describe('a filled cylinder: quality control, certificate and reference materials', () => {
  const stamp = Date.now().toString(36).toUpperCase();

  interface Page_<T> {
    list: T[];
  }
  interface CylinderRow {
    id: number;
    serialNumber: string;
    status: string;
    certificate: { number: string; replaces?: string; pressureMPa: number } | null;
    revokedCertificates: Array<{ number: string; reason: string }>;
  }

  async function cylinder(serialNumber: string): Promise<CylinderRow> {
    const page = await api<Page_<CylinderRow>>(`/gas/cylinder/list?keyword=${serialNumber}`);
    expect(page.code, page.message).toBe(0);
    const found = page.data.list.find((c) => c.serialNumber === serialNumber);
    expect(found, serialNumber).toBeDefined();
    return found!;
  }

  test('a mixture weighed, saved as a cylinder, analysed, certified and its PDF downloaded', async () => {
    const serial = `CY-${stamp}`;
    const reference = `CO2/N2 10 % ${stamp}`;
    // the serial number saved twice is refused on purpose
    allowPageErrors(refused(409, '/general/gas/cylinder/save'));
    const { context, page } = await openAs('zh');
    try {
      // a reference material to analyse against
      await go(page, '/setgas/referencematerial', 'gas-reference');
      await page.getByTestId('gas-reference-add').click();
      const form = modal(page);
      await form.getByTestId('gas-reference-name').fill(reference);
      await form.getByTestId('gas-reference-certno').fill('GBW(E)060123');
      const row = form.getByTestId('gas-reference-component').first();
      await component(page, row.locator('.ant-select').first(), 'CO2');
      await row.getByLabel('含量').fill('10.01');
      await row.getByLabel('U (k=2)').fill('0.02');
      await component(page, form.getByTestId('gas-reference-balance'), 'N2');
      const expires = numberInput(form, 'gas-reference-expires');
      await expires.click();
      await expires.fill('2028-06-30');
      await expires.press('Enter');
      await modalOk(page);
      await success(page);
      await expect
        .poll(() => rows(page, 'gas-reference-table').filter({ hasText: reference }).count())
        .toBe(1);
      await shot(page, 'gas-reference-list-zh-1440');

      // weigh on the calculation page and save the result as a cylinder
      // the demo company's worked example, whichever language it was made in
      const products = await api<{ list: Array<Named & { code: string }> }>(
        '/gas/product/list?pageNum=1&pageSize=100',
      );
      const product = products.data.list.find((p) => p.code === 'CO2-N2-10')!;
      const gases = (
        await api<{ list: Array<Named & { main: string; purity: number }> }>(
          '/gas/pure/list?pageNum=1&pageSize=100',
        )
      ).data.list;
      const parent = (main: string, purity: number) =>
        gases.find((g) => g.main === main && Math.abs(g.purity - purity) < 1e-9)!.name;
      await go(page, `/setgas/calculation/${product.id}`, 'gas-certify');
      await weigh(page, 0, parent('CO2', 0.99995), '186.05');
      await page.getByTestId('gas-parent-add').click();
      await weigh(page, 1, parent('N2', 0.99999), '1065.86');
      await page.getByTestId('gas-certify-button').click();
      await expect.poll(() => page.getByTestId('gas-cert-value-CO2').innerText()).toBe('9.9998 %');
      // an empty serial number is refused beside its field
      await page.getByTestId('gas-cylinder-save').click();
      await page.getByTestId('gas-save-cylinder').getByText('请输入气瓶编号').waitFor();
      await page.getByTestId('gas-cylinder-serial').fill(serial);
      await page.getByTestId('gas-cylinder-save').click();
      await page.getByTestId('gas-cylinder-saved').waitFor();
      await shot(page, 'gas-cylinder-saved-zh-1440');
      expect((await cylinder(serial)).status).toBe('weighed');
      // the same serial number twice is refused, and nothing more is saved
      await page.getByTestId('gas-cylinder-serial').fill(serial);
      await page.getByTestId('gas-cylinder-save').click();
      await page.getByTestId('gas-save-cylinder').getByText(`气瓶 ${serial} 已存在`).waitFor();

      // quality control: an analysis that disagrees fails, one that agrees passes
      await page.getByTestId('gas-cylinder-saved').getByRole('link').click();
      await page.getByTestId('gas-quality').waitFor();
      const search = page.getByTestId('gas-cylinder-search').locator('input');
      await search.fill(serial);
      await search.press('Enter');
      const mine = rows(page, 'gas-cylinder-table').filter({ hasText: serial });
      await expect.poll(() => mine.count()).toBe(1);
      const { id } = await cylinder(serial);
      await page.getByTestId(`gas-cylinder-analyse-${id}`).click();
      const analysis = modal(page).getByTestId('gas-analysis-CO2');
      await numberInput(analysis, 'gas-analysis-value').fill('10.2');
      await numberInput(analysis, 'gas-analysis-u').fill('0.02');
      await modalOk(page);
      await expect
        .poll(() => modal(page).getByTestId('gas-analysis-outcome').innerText())
        .toContain('验证未通过');
      expect((await cylinder(serial)).status).toBe('failed');
      await numberInput(analysis, 'gas-analysis-value').fill('10.01');
      await pick(page, analysis.getByTestId('gas-analysis-reference'), 'CO2/N2', new RegExp(stamp));
      await modalOk(page);
      await expect
        .poll(() => modal(page).getByTestId('gas-analysis-outcome').innerText())
        .toContain('验证通过');
      await shot(page, 'gas-quality-analysis-zh-1440');
      await page.keyboard.press('Escape');
      await expect.poll(() => mine.getByTestId('gas-cylinder-status').innerText()).toBe('验证通过');
      await shot(page, 'gas-quality-list-zh-1440');

      // the certificate: issued from the passed list, then downloaded as a PDF
      await go(page, '/setgas/certandreport', 'gas-certificates');
      await page.getByTestId(`gas-cert-issue-${id}`).click();
      const certificate = modal(page);
      // the reference quality control named is chosen already
      await expect
        .poll(() => certificate.getByTestId('gas-cert-references').innerText())
        .toContain(reference);
      await numberInput(certificate, 'gas-cert-pressureMPa').fill('9.8');
      await numberInput(certificate, 'gas-cert-tempMaxC').fill('-20');
      await certificate.getByTestId('gas-cert-laboratory').fill('演示气体校准实验室');
      await modalOk(page);
      await certificate.getByText('最高温度必须高于最低温度').waitFor();
      await numberInput(certificate, 'gas-cert-tempMaxC').fill('40');
      await modalOk(page);
      await success(page);
      const issued = await cylinder(serial);
      expect(issued.status).toBe('certified');
      expect(issued.certificate?.number).toMatch(/^COA-\d{8}-\d{5}$/);
      await expect.poll(() => page.getByTestId(`gas-cert-pdf-zh-${id}`).count()).toBe(1);
      await shot(page, 'gas-certificates-issued-zh-1440');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId(`gas-cert-pdf-zh-${id}`).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${issued.certificate!.number}-${serial}-zh.pdf`);
      const pdf = readFileSync((await download.path())!);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

      // a certified cylinder's record is closed: no more analysis or deletion
      await go(page, '/setgas/qualityctrl', 'gas-quality');
      await search.fill(serial);
      await search.press('Enter');
      await expect.poll(() => mine.getByTestId('gas-cylinder-status').innerText()).toBe('已出证书');
      expect(await page.getByTestId(`gas-cylinder-analyse-${id}`).isDisabled()).toBe(true);
      expect(await page.getByTestId(`gas-cylinder-delete-${id}`).isDisabled()).toBe(true);

      // a mistake found after issue: the certificate revoked with a reason, then reissued
      await go(page, '/setgas/certandreport', 'gas-certificates');
      await page.getByTestId('gas-cert-view').getByText('已出证书').click();
      const certSearch = page.getByTestId('gas-cert-search').locator('input');
      await certSearch.fill(serial);
      await certSearch.press('Enter');
      await page.getByTestId(`gas-cert-revoke-${id}`).click();
      const revoke = modal(page);
      await revoke.getByTestId('gas-revoke-ok').click();
      await revoke.getByText('请填写撤销原因').waitFor();
      expect((await cylinder(serial)).status).toBe('certified');
      await revoke.getByTestId('gas-revoke-reason').fill('定值压力填写错误');
      await shot(page, 'gas-certificate-revoke-zh-1440');
      await revoke.getByTestId('gas-revoke-ok').click();
      await success(page);
      const revoked = await cylinder(serial);
      expect(revoked).toMatchObject({ status: 'passed', certificate: null });
      expect(revoked.revokedCertificates).toEqual([
        expect.objectContaining({ number: issued.certificate!.number, reason: '定值压力填写错误' }),
      ]);
      // back among those waiting, marked; issued again under a number of its own
      await page.getByTestId(`gas-cert-revoked-${id}`).waitFor();
      await page.getByTestId(`gas-cert-issue-${id}`).click();
      const reissue = modal(page);
      await numberInput(reissue, 'gas-cert-pressureMPa').fill('10');
      await modalOk(page);
      // the revocation's message may still be showing: wait for the new certificate itself
      await expect.poll(async () => (await cylinder(serial)).certificate).not.toBeNull();
      const again = await cylinder(serial);
      expect(again.certificate).toMatchObject({
        number: `${issued.certificate!.number}-R1`,
        replaces: issued.certificate!.number,
        pressureMPa: 10,
      });
      await expect
        .poll(() => page.getByTestId(`gas-cert-replaces-${id}`).innerText())
        .toBe(`替代 ${issued.certificate!.number}`);
      await shot(page, 'gas-certificate-reissued-zh-1440');
    } finally {
      await context.close();
    }
  });

  for (const lang of ['en', 'zh'] as Lang[]) {
    for (const width of [1440, 390]) {
      if (lang === 'zh' && width === 1440) continue; // the flow above
      test(`${lang}, ${width} px: quality control, certificates and reference materials`, async () => {
        const { context, page } = await openAs(lang, width);
        try {
          await go(page, '/setgas/qualityctrl', 'gas-quality');
          await expect
            .poll(() => rows(page, 'gas-cylinder-table').count(), { timeout: 20_000 })
            .toBeGreaterThan(0);
          await shot(page, `gas-quality-${lang}-${width}`);
          if (width === 390) await noSideways(page);
          const first = (await api<Page_<CylinderRow>>('/gas/cylinder/list?status=certified')).data.list[0];
          await go(page, '/setgas/certandreport', 'gas-certificates');
          await page
            .getByTestId('gas-cert-view')
            .getByText(lang === 'zh' ? '已出证书' : 'Certified')
            .click();
          if (first) await page.getByTestId(`gas-cert-pdf-en-${first.id}`).waitFor();
          await shot(page, `gas-certificates-${lang}-${width}`);
          if (width === 390) await noSideways(page);
          await go(page, '/setgas/referencematerial', 'gas-reference');
          await expect
            .poll(() => rows(page, 'gas-reference-table').count(), { timeout: 20_000 })
            .toBeGreaterThan(0);
          await shot(page, `gas-reference-${lang}-${width}`);
          if (width === 390) await noSideways(page);
          await page.getByTestId('gas-reference-add').click();
          await modal(page).getByTestId('gas-reference-name').waitFor();
          await shot(page, `gas-reference-modal-${lang}-${width}`);
          await page.keyboard.press('Escape');
        } finally {
          await context.close();
        }
      });
    }
  }
});

/** A CSV file's rows (RFC 4180 quoting), its byte-order mark left out. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  return rows;
}

/** Click a list's export and read the CSV it saves. */
async function exported(page: Page, testId: string): Promise<{ name: string; rows: string[][] }> {
  const download = await exportAs(page, page, testId);
  return {
    name: download.suggestedFilename(),
    rows: csvRows(readFileSync((await download.path())!, 'utf8')),
  };
}

describe('gas list exports', () => {
  test('the pure gases export as CSV: headed in Chinese, every row under the search, not only the page shown', async () => {
    // more pure gases than a page shows (10)
    const stamp = Date.now().toString(36).toUpperCase();
    const before = (await api<{ total: number }>('/gas/pure/list?pageNum=1&pageSize=10')).data.total;
    for (let i = before; i < 12; i += 1) {
      const saved = await postJson('/gas/pure/save', {
        name: `导出 ${stamp} ${i}`,
        main: 'N2',
        impurities: [],
      });
      expect(saved.code, saved.message).toBe(0);
    }
    const total = (await api<{ total: number }>('/gas/pure/list?pageNum=1&pageSize=10')).data.total;
    expect(total).toBeGreaterThan(10);
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/setgas/puregas', 'gas-pure');
      await expect.poll(() => rows(page, 'gas-pure-table').count(), { timeout: 20_000 }).toBe(10);
      const all = await exported(page, 'gas-pure-export');
      expect(all.name).toMatch(/^纯气-\d{14}\.csv$/);
      expect(all.rows[0]).toEqual(['名称', '主组分', '纯度', '杂质', '供应商', '批号', '钢瓶号']);
      expect(all.rows.length - 1).toBe(total);
      // the demo's carbon dioxide, as the list shows it
      const co2 = all.rows.find((r) => r[0] === '二氧化碳 99.995 %');
      expect(co2).toEqual([
        '二氧化碳 99.995 %',
        'CO2',
        expect.stringMatching(/^99\.995\d* %$/),
        'N2 50 ± 5 µmol/mol',
        '演示气体供应商',
        'CO2-2611',
        'P-1001',
      ]);
      await shot(page, 'gas-pure-export-zh-1440');

      // the same rows as an Excel workbook: one sheet, the numbers a person reads as text stay so
      const workbook = await exportAs(page, page, 'gas-pure-export', 'xlsx');
      expect(workbook.suggestedFilename()).toMatch(/^纯气-\d{14}\.xlsx$/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile((await workbook.path())!);
      const sheet = book.worksheets[0]!;
      const sheetRows: string[][] = [];
      sheet.eachRow((row) => {
        sheetRows.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v))));
      });
      expect(sheetRows[0]).toEqual(all.rows[0]);
      expect(sheetRows).toHaveLength(all.rows.length);
      expect(sheetRows.find((r) => r[0] === '二氧化碳 99.995 %')).toEqual(co2);

      // under a search, only what it finds
      await page.getByTestId('gas-pure-search').locator('input').fill('CO2-2611');
      await page.getByTestId('gas-pure-search').locator('input').press('Enter');
      await expect.poll(() => rows(page, 'gas-pure-table').count()).toBe(1);
      const found = await exported(page, 'gas-pure-export');
      expect(found.rows.map((r) => r[0])).toEqual(['名称', '二氧化碳 99.995 %']);
    } finally {
      await context.close();
    }
  });

  test('in English, the issued certificates export headed in English, the demo certificate in it', async () => {
    const { context, page } = await openAs('en');
    try {
      await go(page, '/setgas/certandreport', 'gas-certificates');
      await page.getByTestId('gas-cert-view').getByText('Certified').click();
      await expect.poll(() => rows(page, 'gas-cert-table').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      const { name, rows: csv } = await exported(page, 'gas-cert-export');
      expect(name).toMatch(/\.csv$/);
      expect(csv[0]).toEqual([
        'Cylinder No.',
        'Product',
        'Gravimetric values',
        'Certificate No.',
        'Certification date',
        'Valid until',
      ]);
      const demo = csv.find((r) => r[0] === 'DEMO-CY-0001');
      expect(demo?.[1]).toBe('10 % 二氧化碳/氮气');
      expect(demo?.[2]).toMatch(/^CO2 9\.99\d+ % · O2 [\d.]+ µmol\/mol · balance N2$/);
      expect(demo?.[4]).toBe('2026-11-02');
    } finally {
      await context.close();
    }
  });
});
