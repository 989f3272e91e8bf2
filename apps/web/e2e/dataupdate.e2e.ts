/**
 * Data-update monitoring as a person uses it: an empty page that says what it is for; two data
 * items picked in the add dialog (type a name, tick it, twice); with a check every second and a
 * minute of the window shortened to 100 ms (DATA_UPDATE_MINUTE_MS, tests only), both go to "no
 * data" on the page and into the alarm log; one's window is widened on the page, a record for it
 * clears its alarm (page and log) while the other stays in alarm. Screenshots zh/en, 1440/390.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const items: Record<string, number> = {};
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

const A = 'E2E水泵压力';
const B = 'E2E冷却塔温度';

beforeAll(async () => {
  server = await startServer({ DATA_UPDATE_CHECK_S: '1', DATA_UPDATE_MINUTE_MS: '100' });
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  for (const name of [A, B]) {
    const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
      parentId: null,
      type: 'dataItem',
      name,
      kind: 10,
    });
    expect(created.code, created.message).toBe(0);
    items[name] = created.data.refId;
    const updated = await postJson('/smartdata/item/update', {
      itemId: created.data.refId,
      fields: [{ name: '值', unit: '', type: 1, decimals: 1 }],
    });
    expect(updated.code, updated.message).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** the state cell of the page's row of `name` */
function stateOf(page: Page, name: string) {
  return page.locator('tr', { hasText: name }).locator('[data-state]');
}

async function pick(page: Page, name: string): Promise<void> {
  const search = page.getByTestId('dataupdate-item-search').locator('input');
  await search.fill(name);
  const node = page.getByTestId('dataupdate-item-tree').locator('.ant-tree-treenode', { hasText: name });
  await node.locator('.ant-tree-checkbox').click();
  await page.getByTestId('dataupdate-picked').getByText(name).waitFor();
}

describe('data-update monitoring', () => {
  test('two items picked, both go to no data, a record clears one (zh, 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, '/cloudSurveillance/dataUpdate', 'dataupdate-page');
      await page.getByText('还没有数据更新监控').waitFor();
      await shot(page, 'dataupdate-empty-zh-1440');
      await page.getByTestId('dataupdate-add').click();
      await pick(page, A);
      await pick(page, B);
      // both picks kept across the searches
      expect(await page.getByTestId('dataupdate-picked').innerText()).toContain(A);
      await page.getByTestId('dataupdate-item-search').locator('input').fill('');
      await shot(page, 'dataupdate-add-zh-1440');
      await page.getByTestId('dataupdate-add-submit').click();
      await page.getByText('已添加 2 项监控').waitFor();
      // the 30-minute window lasts 3 s here: both fire, the page reads the list again by itself
      await stateOf(page, A).and(page.locator('[data-state=alarm]')).waitFor({ timeout: 60_000 });
      await stateOf(page, B).and(page.locator('[data-state=alarm]')).waitFor({ timeout: 60_000 });
      expect(await stateOf(page, B).innerText()).toContain('无数据');
      expect(await stateOf(page, B).innerText()).toContain('未关闭的无数据告警');
      await shot(page, 'dataupdate-alarm-zh-1440');

      // in the alarm log: two active no-data alarms of level 2
      await go(page, '/cloudSurveillance/alertLog', 'alert-log-page');
      for (const name of [A, B]) {
        const row = page.locator('tr', { hasText: name });
        await row.waitFor();
        expect(await row.innerText()).toContain('2 级');
        expect(await row.innerText()).toContain('告警中');
      }

      // widen A's window on the page (it stays in alarm: no data came), then data arrives
      await go(page, '/cloudSurveillance/dataUpdate', 'dataupdate-page');
      await page.locator('tr', { hasText: A }).locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item', { hasText: '24 小时' }).click();
      await page.getByText('操作成功').first().waitFor();
      expect(await stateOf(page, A).getAttribute('data-state')).toBe('alarm');
      const record = await postJson('/smartdata/record/add', { itemId: items[A], values: { 值: 1.5 } });
      expect(record.code, record.message).toBe(0);
      await stateOf(page, A).and(page.locator('[data-state=ok]')).waitFor({ timeout: 60_000 });
      expect(await stateOf(page, B).getAttribute('data-state')).toBe('alarm');
      await shot(page, 'dataupdate-cleared-zh-1440');

      await go(page, '/cloudSurveillance/alertLog', 'alert-log-page');
      await page.locator('tr', { hasText: A }).filter({ hasText: '已清除' }).waitFor();
      expect(await page.locator('tr', { hasText: B }).innerText()).toContain('告警中');
      const log = await api<{ list: Array<{ origin: string; itemName: string; status: string }> }>(
        '/cloudSurveillance/alarm/list?pageNum=1&pageSize=20',
      );
      const noData = log.data.list.filter((a) => a.origin === 'noData');
      expect(noData.find((a) => a.itemName === A)?.status).toBe('cleared');
      expect(noData.find((a) => a.itemName === B)?.status).toBe('active');
    } finally {
      await context.close();
    }
  }, 240_000);

  test('the list and the add dialog in English at 390 px, removing asks first', async () => {
    const { context, page } = await openAs('en', 390);
    try {
      await go(page, '/cloudSurveillance/dataUpdate', 'dataupdate-page');
      await page.locator('tr', { hasText: B }).waitFor();
      await shot(page, 'dataupdate-list-en-390');
      await page.getByTestId('dataupdate-add').click();
      await page.getByTestId('dataupdate-item-search').locator('input').fill('E2E');
      // already watched items are offered but cannot be ticked again
      expect(await page.getByTestId('dataupdate-item-tree').innerText()).toContain('Watched');
      await shot(page, 'dataupdate-add-en-390');
      await page.locator('.ant-modal-footer button', { hasText: 'Cancel' }).click();
      await page.locator('tr', { hasText: B }).getByRole('button', { name: 'Remove' }).click();
      await page.locator('.ant-popconfirm').getByText('Stop watching').waitFor();
      await page.locator('.ant-popconfirm .ant-btn-primary').click();
      await page.locator('tr', { hasText: B }).waitFor({ state: 'detached' });
      // removing cleared its open no-data alarm
      const log = await api<{ list: Array<{ origin: string; itemName: string; status: string }> }>(
        '/cloudSurveillance/alarm/list?pageNum=1&pageSize=20',
      );
      expect(log.data.list.find((a) => a.origin === 'noData' && a.itemName === B)?.status).toBe('cleared');
    } finally {
      await context.close();
    }
  }, 120_000);

  test('the list in English at 1440 and in Chinese at 390', async () => {
    for (const [lang, width] of [
      ['en', 1440],
      ['zh', 390],
    ] as const) {
      const { context, page } = await openAs(lang, width);
      try {
        await go(page, '/cloudSurveillance/dataUpdate', 'dataupdate-page');
        await page.locator('tr', { hasText: A }).waitFor();
        await shot(page, `dataupdate-list-${lang}-${width}`);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});
