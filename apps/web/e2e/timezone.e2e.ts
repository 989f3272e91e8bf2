/**
 * One record, one time: the browser runs in Europe/Berlin while the company keeps its time in
 * Asia/Shanghai (the default). The records list, the record form and the rendered document all
 * show the company's wall time and name the zone; a date entered in the form is read in the
 * company's zone. Then the company setting moves to Europe/Berlin on the company settings page:
 * every page follows and, the browser now reading the same clock, the zone hint goes away.
 * Screenshots zh/en at 1440 and 390 px.
 */

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DEMO_ADMIN,
  type Lang,
  loginAs,
  newContext,
  openBrowser,
  type RunningServer,
  shot,
  startServer,
} from './harness';
import { success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, go } = supportFor(() => ({ server, browser, token }));

const BROWSER_ZONE = 'Europe/Berlin';
const ITEM_NAME = 'E2E时区';
/** 2026-11-25 02:50:46 in Asia/Shanghai, 2026-11-24 19:50:46 in Berlin */
const TS = '2026-11-24T18:50:46.000Z';
/** 2026-11-25 07:30:00 in Asia/Shanghai, 2026-11-25 00:30:00 in Berlin */
const PLANNED = '2026-11-24T23:30:00.000Z';

let item: { itemId: number; nodeId: number };
let recordId: number;
let templateId: number;

/** A logged-in page in a browser whose clock reads Europe/Berlin. */
async function openInBerlin(lang: Lang, width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, { width, lang, timezoneId: BROWSER_ZONE });
  const page = await context.newPage();
  await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
  return { context, page };
}

const listPath = () =>
  `/smartdata/datavalue/${item.itemId}/${encodeURIComponent(ITEM_NAME)}/10/${item.nodeId}/0/-`;
const docPath = () =>
  `/smartdata/richEditorTemplate/${item.itemId}/${recordId}/${encodeURIComponent(ITEM_NAME)}/${templateId}`;

async function setZone(timeZone: string): Promise<void> {
  const result = await postJson('/company/updateCompany', { timeZone });
  expect(result.code, result.message).toBe(0);
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
    parentId: null,
    type: 'dataItem',
    name: ITEM_NAME,
    kind: 10,
  });
  expect(created.code, created.message).toBe(0);
  item = { itemId: created.data.refId, nodeId: created.data.id };
  const updated = await postJson('/smartdata/item/update', {
    itemId: item.itemId,
    fields: [{ name: '计划时间', type: 4 }],
  });
  expect(updated.code, updated.message).toBe(0);
  const added = await postJson<{ id: number }>('/smartdata/record/add', {
    itemId: item.itemId,
    values: { f1: PLANNED },
    ts: TS,
  });
  expect(added.code, added.message).toBe(0);
  recordId = added.data.id;
  const doc = await postJson<{ id: number }>('/smartdata/cabin/create', {
    parentId: null,
    type: 'docTemplate',
    name: 'E2E时区单',
  });
  expect(doc.code, doc.message).toBe(0);
  templateId = doc.data.id;
  const saved = await postJson('/smartdata/template/save', {
    id: templateId,
    itemId: item.itemId,
    html: '<p>记录：<span data-field="ts">记录时间</span></p><p>计划：<span data-field="f1">计划时间</span></p>',
  });
  expect(saved.code, saved.message).toBe(0);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the company time zone, with the browser in another zone', () => {
  test('the records list and the rendered document show the same time and name the zone', async () => {
    const company = await api<{ timeZone: string }>('/company/getCompany');
    expect(company.data.timeZone).toBe('Asia/Shanghai');
    const { context, page } = await openInBerlin('zh');
    try {
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(BROWSER_ZONE);
      await go(page, listPath(), 'records-view');
      const row = page.getByTestId(`record-row-${recordId}`);
      await row.waitFor();
      const rowText = await row.innerText();
      expect(rowText).toContain('2026-11-25 02:50:46');
      expect(rowText).toContain('2026-11-25 07:30:00');
      expect(rowText).not.toContain('19:50:46');
      // the time column says which zone it is in
      // the time column and the dateTime field's column say which zone they are in
      expect(await page.locator('.ant-table-thead [data-testid="zone-hint"]').count()).toBe(2);
      const hint = page.locator('.ant-table-thead [data-testid="zone-hint"]').first();
      expect(await hint.innerText()).toBe('UTC+8');
      expect(await hint.getAttribute('data-zone')).toBe('Asia/Shanghai');
      await shot(page, 'timezone-records-zh-1440');

      await page.getByTestId(`record-document-${recordId}`).click();
      await page.getByTestId('rendered-doc-body').waitFor();
      const body = await page.getByTestId('rendered-doc-body').innerText();
      expect(body).toContain('记录：2026-11-25 02:50:46');
      expect(body).toContain('计划：2026-11-25 07:30:00');
      const header = await page.getByTestId('rendered-doc-time').innerText();
      expect(header).toContain('2026-11-25 02:50:46');
      expect(header).toContain('Asia/Shanghai UTC+8');
      await shot(page, 'timezone-document-zh-1440');
    } finally {
      await context.close();
    }
  });

  test("the record form shows and reads the company's wall time", async () => {
    const { context, page } = await openInBerlin('zh');
    try {
      await go(page, listPath(), 'records-view');
      await page.getByTestId(`record-edit-${recordId}`).click();
      const form = page.getByTestId('record-form');
      await form.waitFor();
      const planned = form.locator('input').first();
      expect(await planned.inputValue()).toBe('2026-11-25 07:30:00');
      await page.getByTestId('record-save').click();
      await success(page, { untilGone: true });
      const kept = await api<{ list: Array<{ id: number; values: Record<string, unknown> }> }>(
        `/smartdata/record/list?itemId=${item.itemId}&pageNum=1&pageSize=10`,
      );
      expect(kept.data.list.find((r) => r.id === recordId)?.values.f1).toBe(PLANNED);

      // a new record: its time typed as the company's wall clock
      await page.getByTestId('record-add').click();
      await form.waitFor();
      expect(await form.innerText()).toContain('Asia/Shanghai UTC+8');
      await shot(page, 'timezone-record-form-zh-1440');
      const time = form.locator('input').first();
      await time.click();
      await time.fill('2026-11-26 08:00:00');
      await time.press('Enter');
      // a record needs a value besides its time (an empty one is refused)
      const plannedNew = form.locator('input').nth(1);
      await plannedNew.click();
      await plannedNew.fill('2026-11-26 09:00:00');
      await plannedNew.press('Enter');
      await page.getByTestId('record-save').click();
      await success(page);
      const list = await api<{ list: Array<{ ts: string }> }>(
        `/smartdata/record/list?itemId=${item.itemId}&pageNum=1&pageSize=10`,
      );
      expect(list.data.list.map((r) => r.ts)).toContain('2026-11-26T00:00:00.000Z');
    } finally {
      await context.close();
    }
  });

  test('English and a phone: the same time, the zone named', async () => {
    for (const [lang, width] of [
      ['en', 1440],
      ['en', 390],
      ['zh', 390],
    ] as const) {
      const { context, page } = await openInBerlin(lang, width);
      try {
        await go(page, listPath(), 'records-view');
        const row = page.getByTestId(`record-row-${recordId}`);
        await row.waitFor();
        expect(await row.innerText()).toContain('2026-11-25 02:50:46');
        await shot(page, `timezone-records-${lang}-${width}`);
        await go(page, docPath(), 'rendered-doc-body');
        expect(await page.getByTestId('rendered-doc-body').innerText()).toContain('2026-11-25 02:50:46');
        expect(await page.getByTestId('rendered-doc-time').innerText()).toContain('Asia/Shanghai UTC+8');
        await shot(page, `timezone-document-${lang}-${width}`);
      } finally {
        await context.close();
      }
    }
  });

  test('company settings move the zone; every page follows and the hint goes', async () => {
    const { context, page } = await openInBerlin('zh');
    try {
      await go(page, '/sysSetting/companyManagement', 'company-management-page');
      const select = page.getByTestId('company-time-zone');
      expect(await select.innerText()).toContain('Asia/Shanghai (UTC+8)');
      await select.click();
      await page.keyboard.type('Europe/Berl');
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Europe/Berlin' })
        .first()
        .click();
      await shot(page, 'timezone-settings-zh-1440');
      await page.getByTestId('company-save').click();
      await success(page);
      const company = await api<{ timeZone: string }>('/company/getCompany');
      expect(company.data.timeZone).toBe('Europe/Berlin');

      await go(page, listPath(), 'records-view');
      const row = page.getByTestId(`record-row-${recordId}`);
      await row.waitFor();
      await expect.poll(() => row.innerText()).toContain('2026-11-24 19:50:46');
      expect(await row.innerText()).toContain('2026-11-25 00:30:00');
      expect(await page.locator('[data-testid="zone-hint"]').count()).toBe(0);
      await go(page, docPath(), 'rendered-doc-body');
      expect(await page.getByTestId('rendered-doc-body').innerText()).toContain('记录：2026-11-24 19:50:46');
      expect(await page.locator('[data-testid="zone-hint"]').count()).toBe(0);
      await shot(page, 'timezone-document-berlin-zh-1440');
    } finally {
      await context.close();
      await setZone('Asia/Shanghai');
    }
  });
});
