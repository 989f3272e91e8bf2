/**
 * Report templates as a person uses them: create a report in the data cabin, open it, edit
 * its grid (static text, two cells bound to the demo item 产线小时产量's 产量 with "latest
 * record" and "total yesterday", a merged row), save; the preview shows the values the server
 * computes (checked against the records themselves); download the XLSX (content checked) and
 * the PDF. Screenshots zh/en at 1440 px.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { modalOk, pickOption, pickTree, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, openAs } = supportFor(() => ({ server, browser, token }));

const DEMO_ITEM = '产线小时产量';
const REPORT = '产量日报';
const LATEST = 4321;
const DAY = 86_400_000;
const SHANGHAI = 8 * 3_600_000;

/** Sum of 产量 (f2) over yesterday in company time (Asia/Shanghai), read from the records list. */
async function yesterdayTotal(itemId: number): Promise<number> {
  const now = Date.now();
  const todayStart = Math.floor((now + SHANGHAI) / DAY) * DAY - SHANGHAI;
  const from = new Date(todayStart - DAY).toISOString();
  const to = new Date(todayStart - 1).toISOString(); // the list's `to` is inclusive
  let sum = 0;
  for (let pageNum = 1; ; pageNum += 1) {
    const page = await api<{ list: Array<{ values: { f2?: number } }>; total: number }>(
      `/smartdata/record/list?itemId=${itemId}&pageNum=${pageNum}&pageSize=100&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(page.code, page.message).toBe(0);
    for (const r of page.data.list) if (typeof r.values.f2 === 'number') sum += r.values.f2;
    if (pageNum * 100 >= page.data.total) break;
  }
  return sum;
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('report templates', () => {
  let context: BrowserContext;
  let page: Page;
  let itemId: number;
  let reportId: number;
  let expectedYesterday: number;

  beforeAll(async () => {
    const tree =
      await api<Array<{ id: number; type: string; name: string; refId: number }>>('/smartdata/cabin/tree');
    const node = tree.data.find((n) => n.type === 'dataItem' && n.name === DEMO_ITEM);
    expect(node, 'demo item').toBeDefined();
    itemId = node!.refId;
    // the newest record of the item: the seed's end at the last whole hour, this one just now
    const added = await postJson<{ id: number }>('/smartdata/record/add', {
      itemId,
      values: { f1: 'E2E线', f2: LATEST, f3: 99 },
      ts: new Date(Date.now() - 1000).toISOString(),
    });
    expect(added.code, added.message).toBe(0);
    expectedYesterday = await yesterdayTotal(itemId);
    expect(expectedYesterday).toBeGreaterThan(0);
    ({ context, page } = await openAs('zh'));
  });

  afterAll(async () => {
    await context?.close();
  });

  test('a new report in the cabin opens on its template page', async () => {
    await page.goto(`${server.url}/smartdata/datacapsule`);
    await page.getByTestId('entry-生产数据').waitFor();
    await shot(page, 'reports-cabin-zh-1440');
    await page.getByTestId('cabin-new-report').click();
    await page.locator('.ant-modal-title', { hasText: '新建报表' }).waitFor();
    await page.getByTestId('cabin-name-input').fill(REPORT);
    await modalOk(page);
    await success(page);
    const made = (
      await api<Array<{ id: number; type: string; name: string }>>('/smartdata/cabin/tree')
    ).data.find((n) => n.name === REPORT);
    expect(made?.type).toBe('report');
    reportId = made!.id;
    await page.getByTestId(`entry-${REPORT}`).click();
    await page.waitForURL(
      (u) => decodeURIComponent(u.pathname) === `/smartdata/reportTemplate/${reportId}/${REPORT}`,
    );
    await page.getByTestId('report-template-page').waitFor();
    expect(await page.getByTestId('report-name').innerText()).toBe(REPORT);
    // a new report: 10 × 6, empty
    expect(await page.locator('[data-testid^=template-cell-]').count()).toBe(60);
  });

  test('edit: static text, two bound cells and a merged row, saved', async () => {
    await page.getByTestId('report-edit').click();
    await page.getByTestId('report-edit-page').waitFor();
    await page.getByTestId('report-title').fill('产线产量日报');
    await page.getByTestId('report-rows').fill('3');
    await page.getByTestId('report-cols').fill('3');
    await page.getByTestId('report-title').click(); // leave the number inputs
    await expect.poll(() => page.locator('[data-testid^=edit-cell-]').count()).toBe(9);

    const panel = page.getByTestId('report-cell-panel');
    const setText = async (r: number, c: number, text: string) => {
      await page.getByTestId(`edit-cell-${r}-${c}`).click();
      await panel.getByText('静态文本').click();
      await page.getByTestId('report-cell-text').fill(text);
    };
    const bind = async (r: number, c: number, method: string) => {
      await page.getByTestId(`edit-cell-${r}-${c}`).click();
      await panel.getByText('绑定数据').click();
      // nothing chosen yet: the cell says what to choose, never an id ("{#0. · 最新记录}")
      await expect
        .poll(() => page.getByTestId(`edit-cell-${r}-${c}`).innerText())
        .toBe('选择数据项 · 最新记录');
      await pickTree(page, page.getByTestId('report-cell-item'), DEMO_ITEM);
      await expect
        .poll(() => page.getByTestId(`edit-cell-${r}-${c}`).innerText())
        .toBe(`${DEMO_ITEM} · 选择字段 · 最新记录`);
      await pickOption(page, page.getByTestId('report-cell-field'), '产量');
      await pickOption(page, page.getByTestId('report-cell-method'), method);
    };
    await setText(0, 0, '最新产量');
    await bind(0, 1, '最新记录');
    await setText(1, 0, '昨日产量合计');
    await bind(1, 1, '昨日合计');
    await page.getByTestId('report-cell-decimals').fill('0');
    // style the first label: bold, centred, a yellow fill from the presets (#ffe58f, the 8th)
    await page.getByTestId('edit-cell-0-0').click();
    await page.getByTestId('report-style-bold').click();
    await page.getByTestId('report-style-align').getByTitle('居中').click();
    await page.getByTestId('report-style-fill').click();
    await page.locator('.ant-color-picker-presets-color').nth(7).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.getByTestId('edit-cell-0-0').evaluate((td) => getComputedStyle(td).backgroundColor))
      .toBe('rgb(255, 229, 143)');
    // merge the last row and write a note into it
    await page.getByTestId('edit-cell-2-0').click();
    await page.getByTestId('edit-cell-2-2').click({ modifiers: ['Shift'] });
    await page.getByTestId('report-merge').click();
    await expect.poll(() => page.getByTestId('edit-cell-2-0').getAttribute('colspan')).toBe('3');
    await page.getByTestId('edit-cell-2-0').click();
    await panel.getByText('静态文本').click();
    await page.getByTestId('report-cell-text').fill('备注：数据来自产线小时产量');
    await page.getByTestId('edit-cell-0-1').click();
    await expect
      .poll(() => page.getByTestId('edit-cell-0-1').innerText())
      .toContain('产线小时产量 · 产量 · 最新记录');
    await shot(page, 'reports-edit-zh-1440');

    await page.getByTestId('report-save').click();
    await success(page);
    const saved = await api<{ template: { title: string; cells: unknown[]; merges: unknown[] } }>(
      `/smartdata/report/get?id=${reportId}`,
    );
    expect(saved.data.template).toMatchObject({
      title: '产线产量日报',
      rows: 3,
      cols: 3,
      merges: [{ row: 2, col: 0, rowSpan: 1, colSpan: 3 }],
      cells: [
        {
          row: 0,
          col: 0,
          kind: 'text',
          text: '最新产量',
          style: { bold: true, align: 'center', fill: '#ffe58f' },
        },
        { row: 0, col: 1, kind: 'bind', itemId, field: 'f2', method: 'latest' },
        { row: 1, col: 0, kind: 'text', text: '昨日产量合计' },
        { row: 1, col: 1, kind: 'bind', itemId, field: 'f2', method: 'totalYesterday', decimals: 0 },
        { row: 2, col: 0, kind: 'text', text: '备注：数据来自产线小时产量' },
      ],
    });
  });

  test('preview shows the values the server computes from the records', async () => {
    await page.getByTestId('report-preview').click();
    await page.waitForURL((u) => u.pathname === `/previewReport/${reportId}`);
    await page.getByTestId('report-preview-page').waitFor();
    expect(await page.getByTestId('preview-title').innerText()).toBe('产线产量日报');
    await expect.poll(() => page.getByTestId('preview-cell-0-1').innerText()).toBe(String(LATEST));
    expect(await page.getByTestId('preview-cell-1-1').innerText()).toBe(String(expectedYesterday));
    expect(await page.getByTestId('preview-cell-0-0').innerText()).toBe('最新产量');
    const look = await page.getByTestId('preview-cell-0-0').evaluate((td) => {
      const css = getComputedStyle(td);
      return [css.fontWeight, css.textAlign, css.backgroundColor];
    });
    expect(look).toEqual(['600', 'center', 'rgb(255, 229, 143)']);
    expect(await page.getByTestId('preview-cell-2-0').getAttribute('colspan')).toBe('3');
    const preview = await api<{ grid: Array<Array<{ value?: number | null }>> }>(
      `/smartdata/report/preview?id=${reportId}`,
    );
    expect(preview.data.grid[0]![1]!.value).toBe(LATEST);
    expect(preview.data.grid[1]![1]!.value).toBe(expectedYesterday);
    await shot(page, 'reports-preview-zh-1440');
  });

  test('download XLSX: title, texts, the numbers and the merge', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('preview-download-xlsx').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${REPORT}-.*\\.xlsx$`));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getCell('A1').value).toBe('产线产量日报');
    expect(sheet.getCell('A2').value).toBe('最新产量');
    expect(sheet.getCell('A2').font?.bold).toBe(true);
    expect(sheet.getCell('A2').fill).toMatchObject({ fgColor: { argb: 'FFFFE58F' } });
    expect(sheet.getCell('B2').value).toBe(LATEST);
    expect(sheet.getCell('A3').value).toBe('昨日产量合计');
    expect(sheet.getCell('B3').value).toBe(expectedYesterday);
    expect(sheet.getCell('B3').numFmt).toBe('0');
    expect(sheet.getCell('A4').value).toBe('备注：数据来自产线小时产量');
    expect(sheet.getCell('C4').isMerged).toBe(true);
  });

  test('download PDF', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('preview-download-pdf').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/NotoSansHans/);
    writeFileSync('/tmp/reports-e2e.pdf', bytes); // for a look with pdftoppm
  });

  test('English: template, editor and preview', async () => {
    const en = await openAs('en');
    try {
      await en.page.goto(`${server.url}/smartdata/reportTemplate/${reportId}/${encodeURIComponent(REPORT)}`);
      await en.page.getByTestId('report-template-page').waitFor();
      await expect
        .poll(() => en.page.getByTestId('template-cell-1-1').innerText(), { timeout: 10_000 })
        .toContain('产线小时产量 · 产量 · Total yesterday');
      await shot(en.page, 'reports-template-en-1440');
      await en.page.getByTestId('report-edit').click();
      await en.page.getByTestId('report-edit-page').waitFor();
      await en.page.getByTestId('edit-cell-1-1').click();
      await en.page.getByTestId('report-cell-panel').getByText('Acquisition method').waitFor();
      await shot(en.page, 'reports-edit-en-1440');
      await en.page.goto(`${server.url}/previewReport/${reportId}`);
      await expect.poll(() => en.page.getByTestId('preview-cell-0-1').innerText()).toBe(String(LATEST));
      await en.page.getByRole('button', { name: 'Download Excel' }).waitFor();
      await shot(en.page, 'reports-preview-en-1440');
    } finally {
      await en.context.close();
    }
  });

  test('Chinese on a phone (390 px): template, editor and preview', async () => {
    const zh = await openAs('zh', 390);
    try {
      await zh.page.goto(`${server.url}/smartdata/reportTemplate/${reportId}/${encodeURIComponent(REPORT)}`);
      await zh.page.getByTestId('report-template-page').waitFor();
      await expect
        .poll(() => zh.page.getByTestId('template-cell-1-1').innerText())
        .toContain('产线小时产量 · 产量');
      await shot(zh.page, 'reports-template-zh-390');
      await zh.page.getByTestId('report-edit').click();
      await zh.page.getByTestId('report-edit-page').waitFor();
      await zh.page.getByTestId('edit-cell-1-1').click();
      await zh.page.getByTestId('report-cell-panel').waitFor();
      await shot(zh.page, 'reports-edit-zh-390');
      await zh.page.goto(`${server.url}/previewReport/${reportId}`);
      await expect.poll(() => zh.page.getByTestId('preview-cell-0-1').innerText()).toBe(String(LATEST));
      await shot(zh.page, 'reports-preview-zh-390');
    } finally {
      await zh.context.close();
    }
  });

  describe('a narrow column of a 3-decimal average', () => {
    const PRESSURE = 'E2E压力';
    /** the average of 1234567.004, .005 and .005 is 1234567.004666…: 压力 shows 3 decimals */
    const SHOWN = '1234567.005';
    let pressureReport: number;

    beforeAll(async () => {
      const item = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
        parentId: null,
        type: 'dataItem',
        name: PRESSURE,
        kind: 10,
      });
      expect(item.code, item.message).toBe(0);
      const fields = [{ name: '压力', unit: 'MPa', type: 1, decimals: 3 }];
      const updated = await postJson('/smartdata/item/update', { itemId: item.data.refId, fields });
      expect(updated.code, updated.message).toBe(0);
      for (const [hour, value] of [
        [1, 1234567.004],
        [2, 1234567.005],
        [3, 1234567.005],
      ] as const) {
        const added = await postJson('/smartdata/record/add', {
          itemId: item.data.refId,
          values: { f1: value },
          ts: `2026-11-20T0${hour}:00:00.000Z`,
        });
        expect(added.code, added.message).toBe(0);
      }
      const report = await postJson<{ id: number }>('/smartdata/cabin/create', {
        parentId: null,
        type: 'report',
        name: '压力报表',
      });
      expect(report.code, report.message).toBe(0);
      pressureReport = report.data.id;
      const saved = await postJson('/smartdata/report/save', {
        id: pressureReport,
        template: {
          title: '压力日均值',
          rows: 2,
          cols: 2,
          colWidths: [100, 60],
          merges: [],
          cells: [
            { row: 0, col: 0, kind: 'text', text: '平均压力' },
            {
              row: 0,
              col: 1,
              kind: 'bind',
              itemId: item.data.refId,
              field: 'f1',
              method: 'rangeAvg',
              range: 'period',
              from: '2026-11-20T00:00:00.000Z',
              to: '2026-11-21T00:00:00.000Z',
            },
            { row: 1, col: 0, kind: 'text', text: '备注' },
          ],
        },
      });
      expect(saved.code, saved.message).toBe(0);
    });

    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        test(`preview ${lang} ${width}px: field decimals, numbers unbroken, title over the grid, a way back`, async () => {
          const person = await openAs(lang, width);
          try {
            const p = person.page;
            await p.goto(`${server.url}/previewReport/${pressureReport}`);
            const cell = p.getByTestId('preview-cell-0-1');
            await expect.poll(() => cell.innerText()).toBe(SHOWN);
            // one line: the column grew rather than break the number
            const lines = await cell.evaluate((td) => {
              const range = document.createRange();
              range.selectNodeContents(td);
              return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            });
            expect(lines).toBe(1);
            expect(await cell.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
            // the title is centred over the grid, not over the page
            const title = await p.getByTestId('preview-title').boundingBox();
            const grid = await p.getByTestId('report-preview-grid').boundingBox();
            expect(title && grid).toBeTruthy();
            expect(Math.abs(title!.x + title!.width / 2 - (grid!.x + grid!.width / 2))).toBeLessThan(2);
            expect(await p.getByTestId('preview-title').innerText()).toBe('压力日均值');
            await shot(p, `reports-preview-narrow-${lang}-${width}`);
            // opened directly: back leads to the report's template page
            await p.getByTestId('preview-back').click();
            await p.getByTestId('report-template-page').waitFor();
            expect(decodeURIComponent(new URL(p.url()).pathname)).toBe(
              `/smartdata/reportTemplate/${pressureReport}/压力报表`,
            );
            // opened from the template page: back returns there
            await p.getByTestId('report-preview').click();
            await p.getByTestId('report-preview-page').waitFor();
            await p.getByTestId('preview-back').click();
            await p.getByTestId('report-template-page').waitFor();
          } finally {
            await person.context.close();
          }
        });
      }
    }
  });
});
