/**
 * Production (/productionManagement) as a person uses it, on the demo company (its own product
 * "4G 数据网关" and three plans): a plan of 3 units made through the modal, started, its units
 * recorded by serial number on the process page, marked finished (chosen in the table and
 * scanned), the plan finished; refused moves (a unit beyond the quantity, finishing a plan with
 * a unit still in production) show the server's message and change nothing; the reports count
 * today's output and export it as CSV. Screenshots in Chinese at 1440 px and English at 390 px.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { allowPageErrors, DEMO_LIMITED, refused, shot } from './harness';
import { demoAdminRun, follow, modalOk, noSideways, numberInput, pickOption } from './support';

const { api, postJson, tokenOf, acceptTerms, openAs, go } = demoAdminRun();

interface Plan {
  id: number;
  number: string;
  status: string;
  quantity: number;
  recorded: number;
  finished: number;
  inProduction: number;
  steps: string[];
  units: Array<{ sn: string; status: string }>;
}

const RUN = Date.now().toString(36).toUpperCase();
const LINE = `E2E-${RUN}`;
const SNS = [1, 2, 3].map((n) => `PE${RUN}-${n}`);
const PRODUCT = '4G 数据网关';
/** the plan test a makes, which the later tests look at */
let made: Plan | undefined;

async function plan(id: number): Promise<Plan> {
  const answer = await api<Plan>(`/production/schedule/get?id=${id}`);
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
}

async function planOnLine(line: string): Promise<Plan> {
  const answer = await api<{ list: Plan[] }>(`/production/schedule/list?keyword=${encodeURIComponent(line)}`);
  expect(answer.code, answer.message).toBe(0);
  expect(answer.data.list).toHaveLength(1);
  return plan(answer.data.list[0]!.id);
}

/** The company's calendar day now (the report counts by it). */
async function companyToday(): Promise<string> {
  const company = await api<{ timeZone: string }>('/company/getCompany');
  return new Intl.DateTimeFormat('en-CA', { timeZone: company.data.timeZone }).format(new Date());
}

/** The process page (the list it came from stays in the page, hidden, with counts of its own). */
const process = (page: Page) => page.getByTestId('production-process');

const rows = (page: Page, testId: string) => page.getByTestId(testId).locator('tbody tr.ant-table-row');

/** Confirm the open Popconfirm (antd keeps closed ones in the page). */
const confirm = (page: Page) => page.locator('.ant-popconfirm:visible .ant-btn-primary').click();

const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ');

/** The latest error notification's text (the http client shows the server's message there). */
const notice = (page: Page) => page.locator('.ant-notification-notice').last();

describe('production', () => {
  test('a production plan to finished units: planned, started, recorded, finished', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/productionManagement/scheduling', 'production-scheduling');
      // the demo's three plans
      await expect.poll(() => rows(page, 'production-table').count(), { timeout: 20_000 }).toBe(3);
      expect(await text(rows(page, 'production-table').first())).toContain(PRODUCT);
      await shot(page, 'production-scheduling-zh-1440');

      await page.getByTestId('production-add').click();
      const form = page.getByTestId('production-form');
      await pickOption(page, form.getByTestId('production-form-product'), PRODUCT);
      await numberInput(form, 'production-form-quantity').fill('3');
      await form.getByTestId('production-form-line').fill(LINE);
      await shot(page, 'production-plan-modal-zh-1440');
      await modalOk(page);
      const mine = rows(page, 'production-table').filter({ hasText: LINE });
      await expect.poll(() => mine.count()).toBe(1);
      made = await planOnLine(LINE);
      // the steps the server gives a plan that names none, in the planner's language
      expect(made).toMatchObject({ status: 'planned', quantity: 3, recorded: 0 });
      expect(made.steps[0]).toBe('贴片');
      expect(await text(mine)).toContain('已计划');

      await page.getByTestId(`production-start-${made.id}`).click();
      await confirm(page);
      await expect.poll(() => text(mine)).toContain('生产中');

      await follow(page, page.getByTestId(`production-number-${made.id}`), process(page));
      expect(await text(page.getByTestId('production-plan-number'))).toBe(made.number);
      expect(await text(page.getByTestId('production-plan-status'))).toBe('生产中');
      expect(await text(page.getByTestId('production-steps'))).toContain('贴片');

      await page.getByTestId('production-record-sns').fill(`${SNS[0]}\n${SNS[1]}, ${SNS[2]}`);
      await expect
        .poll(() => text(page.getByTestId('production-record-count')))
        .toBe('3 个序列号 · 还可登记 3 件');
      await page.getByTestId('production-record-submit').click();
      const units = rows(page, 'production-units-table');
      await expect.poll(() => units.count()).toBe(3);
      for (const row of await units.all()) expect(await text(row)).toContain('生产中');
      expect(await page.getByTestId('production-record-sns').inputValue()).toBe('');

      // two chosen in the table, the third scanned
      for (const sn of SNS.slice(0, 2))
        await units.filter({ hasText: sn }).locator('.ant-checkbox-input').check();
      await expect
        .poll(() => text(page.getByTestId('production-finish-selected')))
        .toContain('标记完成（2）');
      await page.getByTestId('production-finish-selected').click();
      await expect.poll(() => text(units.filter({ hasText: SNS[1]! }))).toContain('已完成');
      await page.getByTestId('production-finish-sns').fill(SNS[2]!);
      await page.getByTestId('production-finish-submit').click();
      await expect.poll(() => text(units.filter({ hasText: SNS[2]! }))).toContain('已完成');

      await page.getByTestId('production-finish-plan').click();
      await confirm(page);
      await expect.poll(() => text(page.getByTestId('production-plan-status'))).toBe('已完成');
      expect(await text(process(page).getByTestId('production-progress'))).toContain('3/3');
      expect(await text(process(page).getByTestId('production-counts'))).toBe(
        '已登记 3 · 已完成 3 · 生产中 0',
      );
      // every step done
      const steps = page.getByTestId('production-steps').locator('.ant-steps-item');
      expect(await steps.count()).toBe(made.steps.length);
      expect(await page.getByTestId('production-steps').locator('.ant-steps-item-finish').count()).toBe(
        made.steps.length,
      );
      for (const row of await units.all()) expect(await text(row)).toContain('已完成');
      // an ended plan takes no more units, and offers no more moves
      expect(await page.getByTestId('production-record').count()).toBe(0);
      expect(await page.getByTestId('production-finish-plan').count()).toBe(0);
      await shot(page, 'production-process-finished-zh-1440');

      const done = await plan(made.id);
      expect(done).toMatchObject({ status: 'finished', recorded: 3, finished: 3, inProduction: 0 });
      expect(done.units.map((u) => [u.sn, u.status])).toEqual(SNS.map((sn) => [sn, 'finished']));

      // back in the list, the plan shows finished and offers no more moves
      await page.getByTestId('production-back').click();
      await expect.poll(() => text(mine)).toContain('已完成');
      expect(await mine.getByRole('button').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test('refused moves show the server’s message and change nothing', async () => {
    // a plan of 1 with its unit still in production
    const line = `${LINE}-B`;
    const sn = `PB${RUN}-1`;
    const saved = await postJson<{ id: number }>('/production/schedule/save', {
      categoryId: (
        await api<{ list: Array<{ id: number; name: string }> }>('/inventory/category/list?kind=own')
      ).data.list.find((c) => c.name === PRODUCT)!.id,
      quantity: 1,
      line,
      startOn: await companyToday(),
      endOn: await companyToday(),
    });
    expect(saved.code, saved.message).toBe(0);
    const id = saved.data.id;
    expect((await postJson('/production/schedule/state', { id, action: 'start' })).code).toBe(0);
    expect((await postJson('/production/schedule/record', { id, sns: [sn] })).code).toBe(0);

    const { context, page } = await openAs('zh');
    try {
      // the server refuses both on purpose: its 400 answers are what is under test
      allowPageErrors(
        refused(400, '/general/production/schedule/record'),
        refused(400, '/general/production/schedule/state'),
      );
      await go(page, `/productionManagement/process/${id}/inProduction`, 'production-process');
      await page.getByTestId('production-units-table').getByText(sn).waitFor();

      const extra = `PB${RUN}-2`;
      await page.getByTestId('production-record-sns').fill(extra);
      await page.getByTestId('production-record-submit').click();
      const beyond = '该计划数量为 1，登记后将达到 2';
      await expect.poll(() => text(notice(page))).toContain(beyond);
      // beside the box too, which keeps what was scanned for another try
      await expect.poll(() => text(page.getByTestId('production-record-form'))).toContain(beyond);
      expect(await page.getByTestId('production-record-sns').inputValue()).toBe(extra);

      await page.getByTestId('production-finish-plan').click();
      expect(await text(page.locator('.ant-popconfirm:visible'))).toContain('还有 1 件产品在生产中');
      await confirm(page);
      await expect.poll(() => text(notice(page))).toContain('该计划还有 1 件产品在生产中');
      await shot(page, 'production-refused-zh-1440');
      expect(await text(page.getByTestId('production-plan-status'))).toBe('生产中');

      const after = await plan(id);
      expect(after).toMatchObject({ status: 'inProduction', recorded: 1, inProduction: 1 });
      expect(after.units.map((u) => u.sn)).toEqual([sn]);
    } finally {
      await context.close();
    }
  });

  test('the reports count today’s output and export it as CSV', async () => {
    expect(made, 'the plan of the first test').toBeDefined();
    const today = await companyToday();
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/productionManagement/reports', 'production-reports');
      // antd puts the test id on the first of the two inputs
      const range = page.locator('.production-range');
      // the last 30 days, today the last
      await expect.poll(async () => range.locator('input').nth(1).inputValue()).toBe(today);
      const from = await range.locator('input').first().inputValue();
      const report = await api<{ total: number; byLine: Record<string, number> }>(
        `/production/report?from=${from}&to=${today}`,
      );
      expect(report.data.byLine[LINE]).toBe(3);
      await expect
        .poll(() => text(page.getByTestId('production-report-total')))
        .toContain(String(report.data.total));
      expect(report.data.total).toBeGreaterThanOrEqual(3);
      expect(await text(rows(page, 'production-report-lines').filter({ hasText: LINE }))).toBe(`${LINE} 3`);
      expect(await text(rows(page, 'production-report-rows').filter({ hasText: LINE }))).toBe(
        `${today} ${LINE} ${PRODUCT} 3`,
      );
      await page.getByTestId('production-report-chart').locator('canvas').first().waitFor();
      await shot(page, 'production-reports-zh-1440');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('production-export-csv').click(),
      ]);
      expect(download.suggestedFilename()).toBe(`生产报表-${from}-${today}.csv`);
      const lines = readFileSync((await download.path())!, 'utf8')
        .replace('\uFEFF', '')
        .split(/\r?\n/);
      expect(lines[0]).toBe('日期,产线,产品,数量');
      expect(lines).toContain(`${today},${LINE},${PRODUCT},3`);
      expect(lines.filter(Boolean).at(-1)).toBe(`合计,,,${report.data.total}`);
    } finally {
      await context.close();
    }
  });

  test('English at 390 px: the process page, the list and the reports', async () => {
    expect(made, 'the plan of the first test').toBeDefined();
    const { context, page } = await openAs('en', 390);
    try {
      await go(page, `/productionManagement/process/${made!.id}/finished`, 'production-process');
      await expect.poll(() => text(page.getByTestId('production-plan-status'))).toBe('finished');
      expect(await text(page.getByTestId('production-units'))).toContain('Units (3)');
      expect(await text(process(page).getByTestId('production-counts'))).toBe(
        'recorded 3 · finished 3 · in production 0',
      );
      for (const row of await rows(page, 'production-units-table').all())
        expect(await text(row)).toContain('finished');
      // an ended plan takes no more units
      expect(await page.getByTestId('production-record').count()).toBe(0);
      await noSideways(page);
      await shot(page, 'production-process-en-390');
      await page.getByTestId('production-units').scrollIntoViewIfNeeded();
      await shot(page, 'production-process-units-en-390');

      await go(page, '/productionManagement/scheduling', 'production-scheduling');
      const mine = rows(page, 'production-table').filter({ hasText: LINE });
      await expect.poll(() => text(mine.first())).toContain('finished');
      await noSideways(page);
      await shot(page, 'production-scheduling-en-390');
      await page.getByTestId('production-add').click();
      await page.getByTestId('production-form').waitFor();
      await shot(page, 'production-plan-modal-en-390');
      await page.keyboard.press('Escape');

      await go(page, '/productionManagement/reports', 'production-reports');
      await page.getByTestId('production-report-chart').locator('canvas').first().waitFor();
      expect(await text(page.getByTestId('production-reports'))).toContain('Export CSV');
      await noSideways(page);
      await shot(page, 'production-reports-en-390');
    } finally {
      await context.close();
    }
  });

  test('a person with the process only (pm_process, not pm_scheduling) opens a plan from the sidebar and records its units', async () => {
    // the demo's limited member gets production's process code, and not the scheduling
    const users = await api<{ list: Array<{ phone: string; roleIds: number[] }> }>(
      '/user/getSysUserList?pageNum=1&pageSize=50',
    );
    const limited = users.data.list.find((u) => u.phone === DEMO_LIMITED.phone)!;
    const roles = (await api<Array<{ id: number; menuCodes: string[] }>>('/role/getRoleList')).data;
    for (const roleId of limited.roleIds) {
      const role = roles.find((r) => r.id === roleId)!;
      expect(role.menuCodes).not.toContain('pm_scheduling');
      const updated = await postJson('/role/updateRole', {
        id: roleId,
        menuCodes: [...new Set([...role.menuCodes, 'production_management', 'pm_process'])],
      });
      expect(updated.code, updated.message).toBe(0);
    }
    await acceptTerms(DEMO_LIMITED.phone, DEMO_LIMITED.password);
    const inProduction = await api<{ list: Plan[] }>('/production/schedule/list?status=inProduction');
    const open = inProduction.data.list.find((p) => p.recorded < p.quantity)!;
    expect(open, 'a plan in production with room for a unit').toBeDefined();
    const sn = `PP${RUN}-1`;

    const { context, page } = await openAs('zh', 1440, DEMO_LIMITED);
    try {
      // the sidebar's one production entry: the plans to open the process of
      await page.locator('.ant-menu').getByText('生产过程', { exact: true }).click();
      await page.getByTestId('production-process-plans').waitFor();
      expect(new URL(page.url()).pathname).toBe('/productionManagement/process');
      await expect.poll(() => rows(page, 'production-plans-table').count()).toBeGreaterThan(0);
      await shot(page, 'production-process-plans-zh-1440');

      await page.getByTestId(`production-open-${open.id}`).click();
      await process(page).waitFor();
      expect(await text(page.getByTestId('production-plan-number'))).toBe(open.number);
      // the plan's start, finish and cancel stay with the planners
      for (const action of ['start', 'finish', 'cancel'])
        expect(await page.getByTestId(`production-${action}-plan`).count()).toBe(0);
      await page.getByTestId('production-record-sns').fill(sn);
      await page.getByTestId('production-record-submit').click();
      await rows(page, 'production-units-table').filter({ hasText: sn }).waitFor();
      expect((await plan(open.id)).recorded).toBe(open.recorded + 1);
      await shot(page, 'production-process-pm-process-zh-1440');

      await page.getByTestId('production-back').click();
      await page.getByTestId('production-process-plans').waitFor();
      // and the server refuses them a plan's move
      const token = await tokenOf(DEMO_LIMITED.phone, DEMO_LIMITED.password);
      const moved = await api('/production/schedule/state', {
        method: 'POST',
        token,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: open.id, action: 'finish' }),
      });
      expect(moved.code).not.toBe(0);
      expect((await plan(open.id)).status).toBe('inProduction');
    } finally {
      await context.close();
    }
  });

  test('the plans sort by a column header: quantity up, then down, as the server orders them', async () => {
    const { context, page } = await openAs('zh');
    const serverOrder = async (sortOrder: 'asc' | 'desc') =>
      (
        await api<{ list: Plan[] }>(
          `/production/schedule/list?pageSize=10&sortField=quantity&sortOrder=${sortOrder}`,
        )
      ).data.list.map((p) => p.number);
    const shown = () =>
      page
        .getByTestId('production-table')
        .locator('tbody [data-testid^="production-number-"]')
        .allInnerTexts();
    try {
      await go(page, '/productionManagement/scheduling', 'production-scheduling');
      await expect.poll(() => rows(page, 'production-table').count(), { timeout: 20_000 }).toBeGreaterThan(1);
      const header = page.getByTestId('production-table').locator('th', { hasText: '数量' });
      await header.click();
      const up = await serverOrder('asc');
      await expect.poll(shown).toEqual(up);
      await header.click();
      const down = await serverOrder('desc');
      await expect.poll(shown).toEqual(down);
      // the quantities really go down the list
      const quantities = (
        await api<{ list: Plan[] }>('/production/schedule/list?pageSize=10&sortField=quantity&sortOrder=desc')
      ).data.list.map((p) => p.quantity);
      expect(quantities).toEqual([...quantities].sort((a, b) => b - a));
      await shot(page, 'production-scheduling-sorted-zh-1440');
    } finally {
      await context.close();
    }
  });
});
