/**
 * The energy data platform (/energy) as a person uses it, on the demo company (a boiler house,
 * a plant and a workshop with two years of monthly records up to last month): on a phone in
 * Chinese, today's coal of the boiler house entered through the form and seen in tce (1000 t of
 * raw coal is 714.3 tce with the default 0.7143 tce/t), a second record of the same day refused
 * beside its field, the record deleted after its confirmation; in English at 1440 px, the coal
 * page with its figures and chart, the sidebar to steam produced, its CSV and XLSX exports
 * with the totals; in Chinese at 1440 px, a gas meter's cumulative readings (made through the
 * API: four days, a meter replaced on the second, a silent third, a day already entered by
 * hand on the fourth) filled into day records through the 从数据项生成 dialog, its answer and the
 * records with the source 数据项. Screenshots in Chinese at 390 and 1440 px, English at 1440 px.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { allowPageErrors, refused, shot } from './harness';
import { demoAdminRun, modalOk, noSideways, numberInput, pickOption } from './support';

const { api, postJson, openAs, go } = demoAdminRun();

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

/** `day` plus `n` calendar days, YYYY-MM-DD. */
const plusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

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

  test("in Chinese at 1440 px: a gas meter's readings filled into day records", async () => {
    const today = await companyToday();
    const company = await api<{ timeZone: string }>('/company/getCompany');
    // the demo company keeps Shanghai's clock: its midnight is 00:00+08:00
    expect(company.data.timeZone).toBe('Asia/Shanghai');
    const tag = String(Date.now()).slice(-5);
    const siteName = `E2E 燃气站 ${tag}`;
    const itemName = `E2E锅炉燃气表${tag}`;
    const site = await postJson<{ id: number }>('/energy/site/save', { name: siteName, type: 'boilerHouse' });
    expect(site.code, site.message).toBe(0);
    const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
      parentId: null,
      type: 'dataItem',
      name: itemName,
      kind: 10,
    });
    expect(created.code, created.message).toBe(0);
    const itemId = created.data.refId;
    const fields = [
      { name: '累计流量', unit: 'm³', type: 1, decimals: 2 },
      { name: '备注', type: 5 },
    ];
    const updated = await postJson('/smartdata/item/update', { itemId, fields });
    expect(updated.code, updated.message).toBe(0);
    const [d1, d2, d4] = [-4, -3, -1].map((n) => plusDays(today, n)) as [string, string, string];
    for (const [day, time, total] of [
      // the first day: 1000 → 1120.5, 120.5 m³ from its first reading
      [d1, '08:00', 1000],
      [d1, '20:00', 1120.5],
      // the second: 1200, the meter replaced (0), 60: 79.5 + 60 = 139.5 m³
      [d2, '09:00', 1200],
      [d2, '14:00', 0],
      [d2, '20:00', 60],
      // the third: no reading; the fourth: 150, 90 m³, but entered by hand already
      [d4, '10:00', 150],
    ] as const) {
      const added = await postJson('/smartdata/record/add', {
        itemId,
        values: { f1: total },
        ts: `${day}T${time}:00+08:00`,
      });
      expect(added.code, added.message).toBe(0);
    }
    const entered = await postJson('/energy/gas/record/save', {
      siteId: site.data.id,
      periodType: 'day',
      periodOn: d4,
      quantity: 88,
      remark: 'E2E 手工抄表',
    });
    expect(entered.code, entered.message).toBe(0);

    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, '/energy/gas', 'energy-page-gas');
      await expect.poll(() => rows(page, 'energy-table').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await page.getByTestId('energy-fill').click();
      const form = page.getByTestId('energy-fill-form');
      await form.waitFor();
      await pickOption(page, form.getByTestId('energy-fill-site'), siteName);
      const range = page.locator('.ant-modal-wrap:visible .ant-picker-range input');
      await range.first().click();
      await range.first().fill(d1);
      await range.first().press('Enter');
      await range.nth(1).fill(d4);
      await range.nth(1).press('Enter');
      await pickOption(page, form.getByTestId('energy-fill-item'), itemName);
      await pickOption(page, form.getByTestId('energy-fill-field'), '累计流量 (m³)');
      // counter is the mode offered first, its sentence beneath
      expect(await text(form)).toContain('每日数量 = 当日结束时读数 − 当日开始时读数');
      expect(await numberInput(form, 'energy-fill-factor').inputValue()).toBe('1');
      await modalOk(page);
      const result = page.getByTestId('energy-fill-result');
      await result.waitFor({ timeout: 20_000 });
      expect(await text(result)).toContain('新写入 2 条，替换 0 条，跳过 1 天，1 天无读数');
      expect(await text(result)).toContain(`${d4} 已有手工录入的记录`);
      await shot(page, 'energy-fill-zh-1440');

      const listed = await api<{ list: Array<EnergyRecord & { source: string; remark: string }> }>(
        `/energy/gas/record/list?from=${d1}&to=${d4}&siteId=${site.data.id}&sort=periodOn&order=asc`,
      );
      expect(listed.data.list.map((r) => [r.periodOn, r.quantity, r.source])).toEqual([
        [d1, 120.5, 'item'],
        [d2, 139.5, 'item'],
        [d4, 88, 'entry'],
      ]);
      expect(listed.data.list[0]!.remark).toBe(`数据项 ${itemName} · 累计流量`);

      // filled again: its own days replaced, the hand-entered day kept
      await modalOk(page);
      await expect.poll(() => text(result)).toContain('新写入 0 条，替换 2 条');
      await page.locator('.ant-modal-wrap:visible .ant-modal-footer button:not(.ant-btn-primary)').click();

      // the list, read again, shows the source of each record
      await pickOption(page, page.getByTestId('energy-site-filter'), siteName);
      const siteRows = rows(page, 'energy-table');
      await expect.poll(() => siteRows.count(), { timeout: 20_000 }).toBe(3);
      expect(await text(siteRows.nth(0))).toContain('手工录入');
      expect(await text(siteRows.nth(1))).toContain('数据项');
      expect(await text(siteRows.nth(1))).toContain('139.5');
      expect(await text(siteRows.nth(2))).toContain(`数据项 ${itemName} · 累计流量`);
      await shot(page, 'energy-fill-list-zh-1440');
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
