/**
 * The energy data platform (/energy) as a person uses it, on the demo company (a boiler house,
 * a plant and a workshop with two years of monthly records up to last month): on a phone in
 * Chinese, today's coal of the boiler house entered through the form and seen in tce (1000 t of
 * raw coal is 714.3 tce with the default 0.7143 tce/t), a second record of the same day refused
 * beside its field, the record deleted after its confirmation; in English at 1440 px, the coal
 * page with its figures and chart, the sidebar to steam produced, its CSV and XLSX exports
 * with the totals. Screenshots in Chinese at 390 px and English at 1440 px.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { allowPageErrors, refused, shot } from './harness';
import { demoAdminRun, modalOk, noSideways, numberInput, pickOption } from './support';

const { api, openAs, go } = demoAdminRun();

interface EnergyRecord {
  id: number;
  siteName: string;
  periodType: string;
  periodOn: string;
  quantity: number;
  tce: number;
}

const BOILER_ZH = '一号锅炉房';

const rows = (page: Page, testId: string) => page.getByTestId(testId).locator('tbody tr.ant-table-row');
const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ');
const confirm = (page: Page) => page.locator('.ant-popconfirm:visible .ant-btn-primary').click();

/** The chart's bars grow for a second after it draws: shoot it grown. */
const settled = (page: Page) => page.waitForTimeout(1200);

/** The company's calendar day now (a record's period may not be later). */
async function companyToday(): Promise<string> {
  const company = await api<{ timeZone: string }>('/company/getCompany');
  return new Intl.DateTimeFormat('en-CA', { timeZone: company.data.timeZone }).format(new Date());
}

async function recordsOn(kind: string, day: string): Promise<EnergyRecord[]> {
  const answer = await api<{ list: EnergyRecord[] }>(`/energy/${kind}/record/list?from=${day}&to=${day}`);
  expect(answer.code, answer.message).toBe(0);
  return answer.data.list;
}

/** Type a day into an antd DatePicker and take it. */
async function pickDay(page: Page, picker: Locator, day: string): Promise<void> {
  await picker.click();
  const input = page
    .locator('[data-testid="energy-form-period"] input, input[data-testid="energy-form-period"]')
    .first();
  await input.fill(day);
  await input.press('Enter');
}

describe('energy data', () => {
  test("on a phone in Chinese: today's coal entered, seen in tce, refused twice, deleted", async () => {
    const today = await companyToday();
    const { context, page } = await openAs('zh', 390);
    try {
      await go(page, '/energy/coal', 'energy-page-coal');
      // the demo's monthly records of the last year
      await expect.poll(() => rows(page, 'energy-table').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await page.getByTestId('energy-chart').locator('canvas').first().waitFor();
      await noSideways(page);
      await settled(page);
      await shot(page, 'energy-coal-zh-390');

      await page.getByTestId('energy-add').click();
      const form = page.getByTestId('energy-form');
      await form.waitFor();
      await pickOption(page, form.getByTestId('energy-form-site'), BOILER_ZH);
      await form.getByText('日', { exact: true }).click();
      await pickDay(page, form.getByTestId('energy-form-period'), today);
      await numberInput(form, 'energy-form-quantity').fill('1000');
      await form.getByTestId('energy-form-remark').fill('E2E 抄表');
      await noSideways(page);
      await shot(page, 'energy-record-modal-zh-390');
      await modalOk(page);
      await expect.poll(async () => (await recordsOn('coal', today)).length).toBe(1);
      const [made] = await recordsOn('coal', today);
      expect(made).toMatchObject({ siteName: BOILER_ZH, periodType: 'day', quantity: 1000, tce: 714.3 });
      // its tce in the list, as the phone shows it
      await expect.poll(() => text(page.getByTestId(`energy-tce-${made!.id}`))).toBe('714.3');
      await noSideways(page);
      await shot(page, 'energy-coal-added-zh-390');

      // the same site and day again: refused beside the period, nothing written
      allowPageErrors(refused(409, '/energy/coal/record/save'));
      await page.getByTestId('energy-add').click();
      await pickOption(page, form.getByTestId('energy-form-site'), BOILER_ZH);
      await form.getByText('日', { exact: true }).click();
      await pickDay(page, form.getByTestId('energy-form-period'), today);
      await numberInput(form, 'energy-form-quantity').fill('5');
      await modalOk(page);
      await expect
        .poll(() => text(form.locator('.ant-form-item-explain-error').first()))
        .toContain(`“${BOILER_ZH}”在 ${today} 已有记录`);
      expect(await recordsOn('coal', today)).toHaveLength(1);
      await shot(page, 'energy-record-refused-zh-390');
      await page.locator('.ant-modal-wrap:visible .ant-modal-footer button:not(.ant-btn-primary)').click();

      // the figures count it
      const summary = await api<{ total: { tce: number } }>(`/energy/coal/summary?from=${today}&to=${today}`);
      expect(summary.data.total.tce).toBe(714.3);

      // deleted after its confirmation
      await page.getByTestId(`energy-delete-${made!.id}`).click();
      await confirm(page);
      await expect.poll(async () => (await recordsOn('coal', today)).length).toBe(0);
    } finally {
      await context.close();
    }
  });

  test('in English at 1440 px: coal figures, steam produced from the sidebar, exported', async () => {
    const today = await companyToday();
    const { context, page } = await openAs('en', 1440);
    try {
      await go(page, '/energy/coal', 'energy-page-coal');
      await expect.poll(() => rows(page, 'energy-table').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await page.getByTestId('energy-chart').locator('canvas').first().waitFor();
      const range = page.locator('.energy-range input');
      const from = await range.first().inputValue();
      const to = await range.nth(1).inputValue();
      expect(to >= today).toBe(true);
      const coal = await api<{ total: { quantity: number; tce: number } }>(
        `/energy/coal/summary?from=${from}&to=${to}`,
      );
      // the demo's raw coal at 0.7143 tce/t
      expect(coal.data.total.tce).toBeCloseTo(coal.data.total.quantity * 0.7143, 3);
      await expect.poll(() => text(page.getByTestId('energy-total-tce'))).toContain('Total coal equivalent');
      expect(await text(page.getByTestId('energy-change-year'))).toMatch(/%/);
      await settled(page);
      await shot(page, 'energy-coal-en-1440');

      // the coal factors dialog
      await page.getByTestId('energy-factors').click();
      await page.getByTestId('energy-factors-form').waitFor();
      // the defaults show once the company's factors have loaded into the dialog
      await expect
        .poll(() => text(page.getByTestId('energy-factors-form')))
        .toContain('Default 0.7143 tce/t');
      await shot(page, 'energy-factors-en-1440');
      await page.keyboard.press('Escape');

      // to steam produced through the sidebar
      await page.getByRole('menuitem', { name: 'Steam Output' }).click();
      const view = page.getByTestId('energy-page-steamOutput');
      await view.waitFor();
      expect(new URL(page.url()).pathname).toBe('/energy/steamoutput');
      await expect.poll(() => text(view.locator('.page-header-title'))).toBe('Steam produced');
      const steamRows = view.getByTestId('energy-table').locator('tbody tr.ant-table-row');
      await expect.poll(() => steamRows.count(), { timeout: 20_000 }).toBeGreaterThan(0);
      // the demo company's names are Chinese (its seed language)
      expect(await text(steamRows.first())).toContain(BOILER_ZH);
      await view.getByTestId('energy-chart').locator('canvas').first().waitFor();
      // the coal view stays as it was, hidden
      expect(await page.getByTestId('energy-page-coal').isVisible()).toBe(false);
      await settled(page);
      await shot(page, 'energy-steamoutput-en-1440');

      const steam = await api<{ total: { quantity: number; tce: number; count: number } }>(
        `/energy/steamoutput/summary?from=${from}&to=${to}`,
      );
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        view.getByTestId('energy-export-csv').click(),
      ]);
      expect(download.suggestedFilename()).toBe(`steamoutput-${from}-${to}.csv`);
      const lines = readFileSync((await download.path())!, 'utf8')
        .replace('\uFEFF', '')
        .split(/\r?\n/)
        .filter(Boolean);
      expect(lines[0]).toBe('Site,Period type,Period,Quantity,Unit,Coal equivalent (tce),Source,Remark');
      expect(lines).toHaveLength(steam.data.total.count + 2);
      const total = lines.at(-1)!.split(',');
      expect(total[0]).toBe('Total');
      expect(Number(total[3])).toBeCloseTo(steam.data.total.quantity, 2);
      expect(Number(total[5])).toBeCloseTo(steam.data.total.tce, 2);

      const [xlsx] = await Promise.all([
        page.waitForEvent('download'),
        view.getByTestId('energy-export-xlsx').click(),
      ]);
      expect(xlsx.suggestedFilename()).toBe(`steamoutput-${from}-${to}.xlsx`);
      expect(
        readFileSync((await xlsx.path())!)
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
    } finally {
      await context.close();
    }
  });
});
