/**
 * Alarms as a person uses them: a rule on an item's temperature (made through the API here),
 * a record that breaches it, the alarm in the log; acknowledge it with a comment, then clear it
 * after the confirmation. The rule page lists the rule. Screenshots zh/en at 1440 and 390 px.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
let itemId: number;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
    parentId: null,
    type: 'dataItem',
    name: 'E2E锅炉',
    kind: 10,
  });
  expect(created.code, created.message).toBe(0);
  itemId = created.data.refId;
  const updated = await postJson('/smartdata/item/update', {
    itemId,
    fields: [{ name: '温度', unit: '℃', type: 1, decimals: 1 }],
  });
  expect(updated.code, updated.message).toBe(0);
  const item = await api<{ fields: Array<{ key: string }> }>(`/smartdata/item/get?itemId=${itemId}`);
  const rule = await postJson('/cloudSurveillance/rule/add', {
    name: 'Boiler hot',
    itemId,
    fieldKey: item.data.fields[0]!.key,
    condition: 'above',
    levels: [
      { level: 1, threshold: 80 },
      { level: 2, threshold: 90 },
    ],
    durationS: 0,
    clear: { threshold: 75 },
    recipients: { userIds: [], groupIds: [] },
    channels: ['app'],
  });
  expect(rule.code, rule.message).toBe(0);
  const record = await postJson('/smartdata/record/add', { itemId, values: { 温度: 93.5 } });
  expect(record.code, record.message).toBe(0);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('alarms', () => {
  test('the breach is in the log: acknowledge with a comment, then clear (zh, 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, '/cloudSurveillance/alertLog', 'alert-log-page');
      const row = page.locator('tr', { hasText: 'Boiler hot' });
      await row.waitFor();
      expect(await row.innerText()).toContain('93.5');
      expect(await row.innerText()).toContain('2 级');
      await shot(page, 'alarms-log-zh-1440');
      await row.getByRole('button', { name: '确认' }).click();
      await page.getByLabel('说明').fill('已开阀降温');
      await page.locator('.ant-modal-wrap:visible .ant-modal-footer button.ant-btn-primary').click();
      await page.locator('tr', { hasText: '已开阀降温' }).waitFor();
      await page.locator('tr', { hasText: 'Boiler hot' }).getByRole('button', { name: '清除' }).click();
      await page.locator('.ant-popconfirm .ant-btn-primary').click();
      await page.locator('tr', { hasText: '已清除' }).waitFor();
      await shot(page, 'alarms-log-cleared-zh-1440');
    } finally {
      await context.close();
    }
  });

  test('the rule page lists the rule (en 1440, zh and en 390)', async () => {
    for (const [lang, width] of [
      ['en', 1440],
      ['zh', 390],
      ['en', 390],
    ] as const) {
      const { context, page } = await openAs(lang, width);
      try {
        await go(page, '/cloudSurveillance/alertRule', 'alert-rule-page');
        await page.locator('tr', { hasText: 'Boiler hot' }).waitFor();
        await shot(page, `alarms-rules-${lang}-${width}`);
        await go(page, '/cloudSurveillance/alertLog', 'alert-log-page');
        await page.locator('tr', { hasText: 'Boiler hot' }).waitFor();
        await shot(page, `alarms-log-${lang}-${width}`);
      } finally {
        await context.close();
      }
    }
  });
});
