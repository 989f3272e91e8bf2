/**
 * Charts of data items as a person makes and reads them: from the item's page, open its charts,
 * make a line chart (the editor previews it live), see it drawn on its page (the canvas has
 * content), open it as a dialog, export its data as CSV. Screenshots zh/en at 1440 and 390 px.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

const ITEM_NAME = 'E2E图表电表';
let item: { itemId: number; nodeId: number };
let chart: { id: number; name: string } | null = null;

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
    parentId: null,
    type: 'dataItem',
    name: ITEM_NAME,
    kind: 13,
  });
  expect(created.code, created.message).toBe(0);
  item = { itemId: created.data.refId, nodeId: created.data.id };
  const updated = await postJson('/smartdata/item/update', {
    itemId: item.itemId,
    fields: [{ name: '电压', unit: 'V', type: 1, decimals: 1 }],
  });
  expect(updated.code, updated.message).toBe(0);
  // the last hour, one record every two minutes: a wave around 220 V (today, unless the file
  // runs in the first hour after midnight, when part of it is yesterday's)
  const now = Date.now();
  for (let i = 0; i < 30; i++) {
    const added = await postJson('/smartdata/record/add', {
      itemId: item.itemId,
      ts: new Date(now - (29 - i) * 120_000).toISOString(),
      values: { f1: Math.round((220 + 8 * Math.sin(i / 4)) * 10) / 10 },
    });
    expect(added.code, added.message).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function valuePath(): string {
  return `/smartdata/datavalue/${item.itemId}/${encodeURIComponent(ITEM_NAME)}/13/${item.nodeId}/0/-`;
}

/** Pixels of the chart's canvas that are not blank: an empty canvas has none. */
async function drawnPixels(page: Page, scope = '[data-testid=chart-canvas]'): Promise<number> {
  const canvas = page.locator(`${scope} canvas`).first();
  await canvas.waitFor();
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
}

describe('charts of a data item', () => {
  test('make a line chart from the item page, see it drawn, open it as a dialog, export CSV (zh, 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, valuePath(), 'datavalue-page');
      await page.getByTestId('item-charts').click();
      await page.getByTestId('item-charts-drawer').waitFor();
      await page.getByText('该数据项还没有图表').waitFor();
      await page.getByTestId('chart-add').click();

      await page.getByTestId('chart-config-page').waitFor();
      // a new chart starts as a line of the first number field over today: the preview draws it
      await page
        .locator('[data-testid=chart-preview] [data-testid=chart-canvas]')
        .waitFor({ timeout: 20_000 });
      await expect
        .poll(() => drawnPixels(page, '[data-testid=chart-preview] [data-testid=chart-canvas]'))
        .toBeGreaterThan(500);
      // saving without a name is refused with the spec's message
      await page.getByTestId('chart-save').click();
      await page.getByText('请输入名称').waitFor();
      await page.getByTestId('chart-name').fill('电压曲线');
      await shot(page, 'charts-editor-zh-1440');
      await page.getByTestId('chart-save').click();
      await success(page);

      await page.getByTestId('chart-page').waitFor();
      await expect.poll(() => page.getByTestId('chart-page-title').innerText()).toBe('电压曲线');
      await expect.poll(() => drawnPixels(page)).toBeGreaterThan(500);
      const points = Number(await page.getByTestId('chart-canvas').getAttribute('data-points'));
      expect(points).toBeGreaterThan(0);
      expect(points).toBeLessThanOrEqual(30);
      await shot(page, 'charts-page-zh-1440');
      chart = { id: Number(page.url().split('/').at(-2)), name: '电压曲线' };

      await page.getByTestId('chart-open-dialog').click();
      const dialog = page.locator('.ant-modal-wrap:visible [data-testid=chart-dialog-body]');
      await dialog.waitFor();
      await expect
        .poll(() => drawnPixels(page, '.ant-modal-wrap:visible [data-testid=chart-canvas]'))
        .toBeGreaterThan(500);
      await shot(page, 'charts-dialog-zh-1440');

      await page.locator('.ant-modal-wrap:visible [data-testid=chart-export]').hover();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('.ant-dropdown-menu-item', { hasText: 'CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('电压曲线.csv');
      const lines = readFileSync((await download.path())!, 'utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(lines[0]).toBe('时间,电压 (V)');
      expect(lines.length - 1).toBe(points);
      await context.close();
    } catch (error) {
      await context.close();
      throw error;
    }
  });

  test('the chart page and dialog in English and at 390 px', async () => {
    expect(chart, 'the first test made the chart').not.toBeNull();
    const c = chart!;
    const pagePath = `/smartdata/chartpages/${item.itemId}/${encodeURIComponent(c.name)}/line/${c.id}/${encodeURIComponent(ITEM_NAME)}`;
    for (const [lang, width] of [
      ['en', 1440],
      ['en', 390],
      ['zh', 390],
    ] as const) {
      const { context, page } = await openAs(lang, width);
      try {
        await go(page, pagePath, 'chart-page');
        await expect.poll(() => drawnPixels(page)).toBeGreaterThan(200);
        await shot(page, `charts-page-${lang}-${width}`);
        if (lang === 'en' && width === 1440) {
          await go(page, valuePath(), 'datavalue-page');
          await page.getByTestId('item-charts').click();
          await page.getByTestId('chart-row-dialog').first().click();
          await page.locator('.ant-modal-wrap:visible [data-testid=chart-canvas]').waitFor();
          await expect
            .poll(() => drawnPixels(page, '.ant-modal-wrap:visible [data-testid=chart-canvas]'))
            .toBeGreaterThan(500);
          await page.getByText('Save picture (PNG)').waitFor();
          await shot(page, 'charts-dialog-en-1440');
        }
      } finally {
        await context.close();
      }
    }
  });
});
