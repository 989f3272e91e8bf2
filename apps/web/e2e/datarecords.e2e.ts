/**
 * The records pages of data items as a person uses them: add and edit a record in the modal,
 * sort and filter, delete, export CSV (the download's content checked), import a CSV with one
 * bad row (the report), a refused non-image upload and image bomb, pictures and files that
 * open only through their signed links (list, record form, download), a record submitted from
 * outside appearing live in the open list, clearing only with the exact item name, the form
 * entry page of a form item, the API keys drawer; and screenshots in zh and en at 1440 and 390 px.
 *
 * Server routes of this feature are written in parallel: a route missing from the server's
 * OpenAPI document (or the live socket not answering) skips the test that needs it, by name.
 */
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { messageFor } from '@platform/domain';
import ExcelJS from 'exceljs';
import mqtt from 'mqtt';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  allowPageErrors,
  DEMO_ADMIN,
  openBrowser,
  type RunningServer,
  refused,
  shot,
  startServer,
} from './harness';
import { type Envelope, SPEC_FORMAT, SPEC_SIZE, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, openAs, go, loadRoutes, routeMissing } = supportFor(() => ({
  server,
  browser,
  token,
}));

interface Item {
  itemId: number;
  nodeId: number;
  name: string;
}

const ITEM_NAME = 'E2E温度记录';
const FIELDS = [
  { name: '温度', unit: '℃', type: 1, decimals: 1 },
  { name: '备注', type: 5 },
  { name: '日期', type: 4, dateFormat: 'yyyy-MM-dd' },
  { name: '照片', type: 8 },
];

async function makeItem(name: string, kind: number, fields: unknown[]): Promise<Item> {
  const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
    parentId: null,
    type: 'dataItem',
    name,
    kind,
  });
  expect(created.code, created.message).toBe(0);
  const updated = await postJson('/smartdata/item/update', { itemId: created.data.refId, fields });
  expect(updated.code, updated.message).toBe(0);
  return { itemId: created.data.refId, nodeId: created.data.id, name };
}

async function addRecord(itemId: number, values: Record<string, unknown>, ts?: string): Promise<number> {
  const result = await postJson<{ id: number }>('/smartdata/record/add', { itemId, values, ts });
  expect(result.code, result.message).toBe(0);
  return result.data.id;
}

/** A valid single-colour PNG of this size: 16000 × 16000 is a few dozen KB on the wire. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8);
  const pixels = deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function valuePath(item: Item): string {
  return `/smartdata/datavalue/${item.itemId}/${encodeURIComponent(item.name)}/10/${item.nodeId}/0/-`;
}

/** the input (or textarea) behind a test id, wherever antd put the attribute */
function field(page: Page, testId: string): Locator {
  return page
    .locator(
      `input[data-testid="${testId}"], textarea[data-testid="${testId}"], [data-testid="${testId}"] input, [data-testid="${testId}"] textarea`,
    )
    .first();
}

function rows(page: Page): Locator {
  return page.locator('[data-testid="records-table"] tbody tr[data-row-key]');
}

/** the text of one column in every shown row, by the column's header text */
async function column(page: Page, header: string): Promise<string[]> {
  const headers = await page.locator('[data-testid="records-table"] thead th').allInnerTexts();
  const index = headers.findIndex((h) => h.includes(header));
  expect(index, `column ${header} in ${headers.join('|')}`).toBeGreaterThanOrEqual(0);
  // one read of every row at once: a row that goes away between reads must not hang the poll
  return rows(page).evaluateAll(
    (trs, i) =>
      trs.map((tr) => (tr.querySelectorAll('td')[i] as HTMLElement | undefined)?.innerText.trim() ?? ''),
    index,
  );
}

async function waitColumn(page: Page, header: string, expected: string[]): Promise<void> {
  await expect.poll(() => column(page, header), { timeout: 10_000 }).toEqual(expected);
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  // the first-login terms dialog is not what these tests are about (auth.e2e.ts covers it)
  const accepted = await postJson('/user/acceptTerms', { accepted: true });
  expect(accepted.code, accepted.message).toBe(0);
  await loadRoutes();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('records of a data item', () => {
  let item: Item;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    item = await makeItem(ITEM_NAME, 10, FIELDS);
    ({ context, page } = await openAs('zh'));
  });

  afterAll(async () => {
    await context?.close();
  });

  test('add a record in the modal, then edit it', async () => {
    await go(page, valuePath(item), 'records-view');
    await expect.poll(() => page.getByTestId('datavalue-title').innerText()).toBe(ITEM_NAME);
    await page.getByTestId('record-add').click();
    await page.getByTestId('record-form').waitFor();
    await field(page, 'record-field-温度').fill('21.5');
    await field(page, 'record-field-备注').fill('第一条');
    await page.getByTestId('record-save').click();
    await success(page);
    await waitColumn(page, '温度', ['21.5']);
    expect(await column(page, '备注')).toEqual(['第一条']);

    const id = await rows(page).first().getAttribute('data-row-key');
    await page.getByTestId(`record-edit-${id}`).click();
    await expect.poll(() => field(page, 'record-field-温度').inputValue()).toBe('21.5');
    await field(page, 'record-field-温度').fill('23.4');
    await field(page, 'record-field-备注').fill('改过');
    await page.getByTestId('record-save').click();
    await waitColumn(page, '温度', ['23.4']);
    expect(await column(page, '备注')).toEqual(['改过']);
    // the server holds what the page showed
    const list = await api<{ list: Array<{ values: Record<string, unknown> }> }>(
      `/smartdata/record/list?itemId=${item.itemId}&pageNum=1&pageSize=10`,
    );
    expect(list.data.list.map((r) => r.values.f1)).toEqual([23.4]);
  });

  test('sort by a field and filter by field and value', async () => {
    const base = Date.now() - 3_600_000;
    await addRecord(item.itemId, { f1: 10, f2: '冷' }, new Date(base).toISOString());
    await addRecord(
      item.itemId,
      { f1: 30.5, f2: '热', f3: '2026-11-01T00:00:00.000Z' },
      new Date(base + 60_000).toISOString(),
    );
    await page.reload();
    await page.getByTestId('records-view').waitFor();
    // newest first by default: the modal's record (now), then the two older ones
    await waitColumn(page, '温度', ['23.4', '30.5', '10.0']);
    // dateTime shown by its display format (yyyy-MM-dd), in the company's zone
    const dates = await column(page, '日期');
    expect(dates[1]).toMatch(/^2026-1[01]-\d\d$/);

    await page.locator('[data-testid="records-table"] thead th', { hasText: '温度' }).click();
    await waitColumn(page, '温度', ['10.0', '23.4', '30.5']);
    await page.locator('[data-testid="records-table"] thead th', { hasText: '温度' }).click();
    await waitColumn(page, '温度', ['30.5', '23.4', '10.0']);

    await page.getByTestId('record-filter-toggle').click();
    await page.getByTestId('record-filter-add').click();
    await page.getByTestId('record-filter-field').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '温度' }).click();
    await page.getByTestId('record-filter-op').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '大于' })
      .first()
      .click();
    await page.getByTestId('record-filter-value').fill('20');
    await page.getByTestId('record-filter-apply').click();
    await waitColumn(page, '温度', ['30.5', '23.4']);
    await page.getByTestId('record-filter-value').fill('25');
    await page.getByTestId('record-filter-apply').click();
    await waitColumn(page, '温度', ['30.5']);
    await page.getByTestId('record-filter-reset').click();
    await waitColumn(page, '温度', ['30.5', '23.4', '10.0']);
  });

  test('delete selected records after confirming', async () => {
    await page.locator('[data-testid="records-table"] thead th', { hasText: '温度' }).click(); // back to time order
    await waitColumn(page, '温度', ['23.4', '30.5', '10.0']);
    const last = rows(page).last();
    await last.locator('.ant-checkbox-input').check();
    await page.getByTestId('record-bulk-delete').click();
    await page.getByTestId('bulk-delete-ok').click();
    await waitColumn(page, '温度', ['23.4', '30.5']);
    await shot(page, 'datarecords-list-zh-1440');
  });

  test('export CSV: the download holds the header with units and the values', async (_ctx) => {
    const missing = routeMissing('/smartdata/record/export');
    if (missing) throw new Error(`server route missing: ${missing}`);
    await page.getByTestId('record-export').hover();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.ant-dropdown-menu-item', { hasText: 'CSV' }).click(),
    ]);
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toContain('温度');
    expect(lines[0]).toContain('℃');
    expect(lines).toHaveLength(3);
    expect(text).toContain('23.4');
    expect(text).toContain('30.5');
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
  });

  test('import a CSV with one bad row: the report lists it and counts the inserted', async (_ctx) => {
    const missing = routeMissing('/smartdata/record/import', '/smartdata/record/export');
    if (missing) throw new Error(`server route missing: ${missing}`);
    // the header the server exports is the header it imports
    const exported = await fetch(
      `${server.url}/general/smartdata/record/export?itemId=${item.itemId}&format=csv`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    const header = (await exported.text()).replace(/^\uFEFF/, '').split(/\r?\n/)[0]!;
    const columns = header.split(',');
    const row = (values: Record<string, string>) =>
      columns.map((c) => Object.entries(values).find(([k]) => c.includes(k))?.[1] ?? '').join(',');
    const csv = [
      header,
      row({ 时间: '2026-11-20 08:00:00', 温度: '41.5', 备注: '导入一' }),
      row({ 时间: '2026-11-20 09:00:00', 温度: 'abc', 备注: '坏行' }),
      row({ 时间: '2026-11-20 10:00:00', 温度: '42.5', 备注: '导入二' }),
    ].join('\n');
    await page.getByTestId('record-import').click();
    await page
      .getByTestId('import-modal')
      .locator('input[type=file]')
      .setInputFiles({ name: 'import.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    const result = page.getByTestId('import-result');
    await result.waitFor({ timeout: 20_000 });
    await expect.poll(() => result.innerText()).toContain('2');
    const rejected = page.getByTestId('import-rejected');
    const text = await rejected.innerText();
    expect(text).toContain('温度');
    expect(await rejected.locator('tbody tr').count()).toBe(1);
    await shot(page, 'datarecords-import-zh-1440');
    await page.keyboard.press('Escape');
    await expect.poll(() => column(page, '备注')).toContain('导入一');
    expect(await column(page, '备注')).not.toContain('坏行');
  });

  test('download the import template, fill it in and import it back', async () => {
    // a page of its own: the shared page's later steps do not inherit its modal or download
    const { context: own, page } = await openAs('zh');
    try {
      await go(page, valuePath(item), 'records-view');
      await page.getByTestId('record-import').click();
      await page.getByTestId('import-template').waitFor();
      await shot(page, 'datarecords-import-template-zh-1440');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('import-template-xlsx').click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${ITEM_NAME}-导入模板.xlsx`);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const cells = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
      expect(cells(1)).toEqual(['时间', '温度(℃)', '备注', '日期', '照片']);
      expect(cells(2)).toEqual([
        '记录时间，格式 yyyy-MM-dd HH:mm:ss，留空为导入时间',
        '小数，1 位小数，单位 ℃',
        '文本',
        '日期时间，格式 yyyy-MM-dd',
        '图片，已上传文件的地址，可留空',
      ]);
      // filled in below the note row, which stays where it is
      sheet.addRow(['2026-11-21 08:00:00', 36.64, '模板一', '2026-11-21', null]);
      sheet.addRow(['2026-11-21 09:00:00', '很热', '模板坏行', null, null]);
      const filled = Buffer.from(await book.xlsx.writeBuffer());
      await page.getByTestId('import-modal').locator('input[type=file]').setInputFiles({
        name: 'template.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: filled,
      });
      const result = page.getByTestId('import-result');
      await expect.poll(() => result.innerText(), { timeout: 20_000 }).toContain('共 2 行，成功导入 1 行');
      const reject = page.getByTestId('import-rejected').locator('tbody tr');
      expect(await reject.count()).toBe(1);
      // row 4 of the file; the field column names 温度, the reason does not repeat it
      expect(await reject.locator('td').allInnerTexts()).toEqual(['4', '温度', '必须是数字']);
      await shot(page, 'datarecords-import-template-result-zh-1440');
      await page.keyboard.press('Escape');
      await expect.poll(() => column(page, '备注')).toContain('模板一');
      expect(await column(page, '备注')).not.toContain('模板坏行');
    } finally {
      await own.close();
    }
  });

  test('a record published over MQTT appears in the open list without reload', async (_ctx) => {
    const missing = routeMissing('/smartdata/key/create', '/smartdata/submit');
    if (missing) throw new Error(`server route missing: ${missing}`);
    // the page's live socket is up before anything is published
    await page
      .getByTestId('live-indicator')
      .and(page.locator('[data-live="on"]'))
      .waitFor({ timeout: 10_000 });

    // a key made in the API keys drawer, shown once
    await page.getByTestId('record-keys').click();
    await page.getByTestId('keys-create').click();
    await field(page, 'keys-name').fill('E2E采集器');
    await page.getByTestId('keys-create-ok').click();
    const key = (await page.getByTestId('keys-created-value').innerText()).trim();
    expect(key.length).toBeGreaterThan(10);
    // its MQTT username, the key's public name (the password is the key)
    const username = (await page.getByTestId('keys-created-username').innerText()).trim();
    expect(username).toMatch(/^key-\d+$/);
    await shot(page, 'datarecords-key-created');
    await page.getByTestId('keys-created-close').click();
    await page.locator('.ant-table-row', { hasText: 'E2E采集器' }).waitFor();
    // closed by its own button: Escape only reaches the drawer while focus is inside it
    await page.locator('.ant-drawer-close').click();
    await page.getByTestId('keys-panel').waitFor({ state: 'detached' });

    const marker = `live-${Date.now()}`;
    const before = await page.evaluate(() => performance.getEntriesByType('navigation').length);
    // a device publishes over MQTT to the platform's broker, as the keys drawer shows
    const endpoints = await api<{ mqtt: { host: string | null; port: number } | null }>(
      '/smartdata/key/endpoints',
    );
    expect(endpoints.data.mqtt, 'the embedded broker runs').not.toBeNull();
    // nobody gets in without the key
    await expect(
      mqtt.connectAsync(`mqtt://127.0.0.1:${endpoints.data.mqtt!.port}`, { reconnectPeriod: 0 }),
    ).rejects.toThrow(/not authori[sz]ed/i);
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${endpoints.data.mqtt!.port}`, {
      username,
      password: key,
      reconnectPeriod: 0,
    });
    try {
      const answered = new Promise<Envelope<{ count: number }>>((resolve) => {
        device.on('message', (_topic, payload) => resolve(JSON.parse(payload.toString())));
      });
      await device.subscribeAsync(`smartdata/result/${username}`, { qos: 1 });
      await device.publishAsync(
        `smartdata/submit/${username}`,
        JSON.stringify({ itemId: item.itemId, 温度: 55.5, 备注: marker }),
        { qos: 1 },
      );
      const body = await answered;
      expect(body.code, body.message).toBe(0);
    } finally {
      await device.endAsync();
    }
    const row = page.locator('[data-testid="records-table"] tbody tr', { hasText: marker });
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute('class')).toContain('dr-row-live');
    expect((await column(page, '备注'))[0]).toBe(marker);
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(before);
  });

  test('clearing needs the exact item name', async () => {
    await page.getByTestId('record-clear').click();
    await field(page, 'clear-name').fill(`${ITEM_NAME}x`);
    await page.getByTestId('clear-mismatch').waitFor();
    expect(await page.getByTestId('clear-ok').isDisabled()).toBe(true);
    // the server refuses a wrong name on its own too, and nothing is deleted
    const refused = await postJson('/smartdata/record/clear', {
      itemId: item.itemId,
      confirmName: 'e2e温度记录',
    });
    expect(refused.code).toBe(40000);
    await field(page, 'clear-name').fill(ITEM_NAME);
    expect(await page.getByTestId('clear-ok').isDisabled()).toBe(false);
    await page.getByTestId('clear-ok').click();
    await success(page);
    await expect.poll(() => rows(page).count()).toBe(0);
    const list = await api<{ total: number }>(
      `/smartdata/record/list?itemId=${item.itemId}&pageNum=1&pageSize=10`,
    );
    expect(list.data.total).toBe(0);
  });

  test('two open data items are two tabs, each carrying its item name', async () => {
    const other = await makeItem('E2E压力记录', 10, FIELDS);
    await go(page, valuePath(item), 'records-view');
    // the second one in the same page (a reload would start a new tab strip), as a link would
    await page.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, valuePath(other));
    const tab = (path: string) => page.locator(`[data-testid=tag][data-path="${path.split('?')[0]}"]`);
    await expect.poll(() => tab(valuePath(item)).innerText()).toBe(`${ITEM_NAME} · 数据项数据`);
    await expect.poll(() => tab(valuePath(other)).innerText()).toBe('E2E压力记录 · 数据项数据');
  });
});

describe('uploads, forms and screens', () => {
  let item: Item;

  beforeAll(async () => {
    item = await makeItem('E2E图片记录', 10, FIELDS);
    await addRecord(item.itemId, { f1: 18.2, f2: '晴', f3: '2026-11-22T00:00:00.000Z' });
    await addRecord(item.itemId, { f1: 19.6, f2: '多云' });
  });

  test('a non-image or too large picture is refused in the browser with the spec messages', async (_ctx) => {
    const { context, page } = await openAs('en');
    try {
      await go(page, valuePath(item), 'records-view');
      await page.getByTestId('record-add').click();
      const input = page.getByTestId('record-field-照片').locator('input[type=file]');
      const uploads: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/smartdata/record/upload')) uploads.push(r.url());
      });
      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await page.locator('.ant-message-notice', { hasText: SPEC_FORMAT }).waitFor();
      // a text file wearing a .png name is judged by its bytes
      await input.setInputFiles({
        name: 'fake.png',
        mimeType: 'image/png',
        buffer: Buffer.from('not a png'),
      });
      await expect
        .poll(() => page.locator('.ant-message-notice', { hasText: SPEC_FORMAT }).count())
        .toBeGreaterThan(0);
      const big = Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.alloc(3 * 1024 * 1024 + 10),
      ]);
      await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
      await page.locator('.ant-message-notice', { hasText: SPEC_SIZE }).waitFor();
      // a small PNG that would decode to 16000 × 16000 pixels is refused by its header
      await input.setInputFiles({ name: 'bomb.png', mimeType: 'image/png', buffer: pngBomb(16000, 16000) });
      await page
        .locator('.ant-message-notice', { hasText: messageFor('imageTooManyPixels', 'en') })
        .waitFor();
      expect(uploads).toEqual([]);
      expect(routeMissing('/smartdata/record/upload')).toBeNull();
      const png = await page.evaluate(() => {
        const canvas = document.createElement('canvas');
        canvas.width = 200;
        canvas.height = 120;
        const g = canvas.getContext('2d')!;
        g.fillStyle = '#1677ff';
        g.fillRect(0, 0, 200, 120);
        return canvas.toDataURL('image/png').split(',')[1]!;
      });
      await input.setInputFiles({
        name: 'blue.png',
        mimeType: 'image/png',
        buffer: Buffer.from(png, 'base64'),
      });
      await page.getByTestId('record-field-照片').locator('.ant-upload-list-item').waitFor();
      await field(page, 'record-field-温度').fill('20.1');
      await page.getByTestId('record-save').click();
      await page.locator('[data-testid="records-table"] .dr-thumb').first().waitFor();

      // the picture is private: the thumbnail loads through a signed link, the bare address does not
      const thumb = page.locator('[data-testid="records-table"] img.dr-thumb').first();
      await expect
        .poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      const src = (await thumb.getAttribute('src')) ?? '';
      expect(src).toMatch(
        /^\/general\/files\/records\/\d+\/\d+\/[0-9a-f]{32}-thumb\.png\?exp=\d+&sig=[\w-]+$/,
      );
      // the bare addresses are asked on purpose, and refused
      const bare = src.split('?')[0]!;
      allowPageErrors(
        refused(404, bare),
        refused(404, bare.replace('/general/files/', '/general/files/public/')),
      );
      const statusOf = (url: string) =>
        page.evaluate(async (u) => (await fetch(u, { credentials: 'include' })).status, url);
      expect(await statusOf(src)).toBe(200);
      expect(await statusOf(src.split('?')[0]!)).toBe(404);
      expect(await statusOf(src.split('?')[0]!.replace('/general/files/', '/general/files/public/'))).toBe(
        404,
      );
      await shot(page, 'datarecords-picture-en-1440');

      // the record form shows the stored picture too, and saving it keeps it
      const row = rows(page)
        .filter({ has: page.locator('img.dr-thumb') })
        .first();
      const id = await row.getAttribute('data-row-key');
      await page.getByTestId(`record-edit-${id}`).click();
      const card = page.getByTestId('record-field-照片').locator('.ant-upload-list-item img').first();
      await expect
        .poll(() => card.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await shot(page, 'datarecords-picture-form-en-1440');
      await page.getByTestId('record-save').click();
      await success(page);
      const stored = await api<{ list: Array<{ id: number; values: { f4?: Array<{ url: string }> } }> }>(
        `/smartdata/record/list?itemId=${item.itemId}&pageSize=50`,
      );
      const saved = stored.data.list.find((r) => String(r.id) === id)!;
      expect(saved.values.f4?.[0]?.url).toMatch(/\?exp=\d+&sig=/);
    } finally {
      await context.close();
    }
  });

  test('a record file downloads through its signed link, in the list and in zh', async (_ctx) => {
    const files = await makeItem('E2E附件记录', 10, [
      { name: '名称', type: 5 },
      { name: '附件', type: 9 },
    ]);
    const form = new FormData();
    form.append('itemId', String(files.itemId));
    form.append('field', 'f2');
    form.append('file', new Blob([Buffer.from('%PDF-1.4 巡检报告')]), '巡检报告.pdf');
    const uploaded = await api<{ url: string; name: string; size: number }>('/smartdata/record/upload', {
      method: 'POST',
      body: form,
    });
    expect(uploaded.code, uploaded.message).toBe(0);
    await addRecord(files.itemId, { f1: '三号线', f2: [uploaded.data] });
    const { context, page } = await openAs('zh');
    try {
      await go(page, valuePath(files), 'records-view');
      const link = page.locator('[data-testid="records-table"] a[download]', { hasText: '巡检报告.pdf' });
      await link.waitFor();
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).toMatch(/^\/general\/files\/records\/.+\.pdf\?exp=\d+&sig=/);
      const download = page.waitForEvent('download');
      await link.click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('巡检报告.pdf');
      const body = readFileSync((await file.path())!, 'utf8');
      expect(body).toBe('%PDF-1.4 巡检报告');
      await shot(page, 'datarecords-file-zh-1440');
    } finally {
      await context.close();
    }
  });

  test('form entry page of a form item submits a record and resets', async (_ctx) => {
    const form = await makeItem('E2E巡检表', 11, [
      { name: '巡检人', type: 5, required: true },
      { name: '读数', unit: 'kPa', type: 1, decimals: 2 },
      { name: '结论', type: 5 },
    ]);
    const saved = await postJson('/smartdata/item/updateForm', {
      itemId: form.itemId,
      form: [
        { id: 'a', type: 'input', label: '巡检人', field: 'f1', required: true },
        {
          id: 'b',
          type: 'number',
          label: '读数',
          field: 'f2',
          required: false,
          min: 0,
          max: 500,
          decimals: 2,
        },
        { id: 'c', type: 'radio', label: '结论', field: 'f3', required: false, options: ['正常', '异常'] },
      ],
    });
    expect(saved.code, saved.message).toBe(0);
    const { context, page } = await openAs('zh');
    try {
      await go(
        page,
        `/smartdata/formpage/${form.itemId}/${encodeURIComponent(form.name)}/${form.nodeId}`,
        'entry-form',
      );
      await page.getByTestId('form-submit').click();
      await page.locator('.ant-form-item-explain-error', { hasText: '巡检人' }).waitFor();
      await field(page, 'form-el-f1').fill('张三');
      await field(page, 'form-el-f2').fill('101.256');
      await page.getByText('异常').click();
      await shot(page, 'datarecords-form-zh-1440');
      await page.getByTestId('form-submit').click();
      await success(page);
      await expect.poll(() => field(page, 'form-el-f1').inputValue()).toBe('');
      const list = await api<{ list: Array<{ values: Record<string, unknown>; source: string }> }>(
        `/smartdata/record/list?itemId=${form.itemId}&pageNum=1&pageSize=10`,
      );
      expect(list.data.list).toHaveLength(1);
      expect(list.data.list[0]!.values).toMatchObject({ f1: '张三', f2: 101.26, f3: '异常' });
    } finally {
      await context.close();
    }
  });

  test('a form submitted with nothing entered is refused with a message, and nothing is stored', async () => {
    const form = await makeItem('E2E空白表单', 11, [
      { name: '读数', unit: 'kPa', type: 1, decimals: 2 },
      { name: '备注', type: 5 },
    ]);
    const saved = await postJson('/smartdata/item/updateForm', {
      itemId: form.itemId,
      form: [
        { id: 'a', type: 'number', label: '读数', field: 'f1', required: false },
        { id: 'b', type: 'input', label: '备注', field: 'f2', required: false },
      ],
    });
    expect(saved.code, saved.message).toBe(0);
    const count = async () =>
      (await api<{ total: number }>(`/smartdata/record/list?itemId=${form.itemId}&pageNum=1&pageSize=10`))
        .data.total;
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await openAs(lang);
      try {
        await go(
          page,
          `/smartdata/formpage/${form.itemId}/${encodeURIComponent(form.name)}/${form.nodeId}`,
          'entry-form',
        );
        await page.getByTestId('form-submit').click();
        const words =
          lang === 'zh'
            ? '没有填写任何内容，请至少填写一项后再提交'
            : 'Nothing was entered: fill in at least one field before submitting';
        await page.locator('.ant-message-notice .ant-message-warning', { hasText: words }).waitFor();
        expect(await page.locator('.ant-message-success').count()).toBe(0);
        await shot(page, `datarecords-form-empty-${lang}-1440`);
        expect(await count()).toBe(0);
        // blanks typed and cleared are still nothing
        await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 });
        await field(page, 'form-el-f2').fill('   ');
        await page.getByTestId('form-submit').click();
        await page.locator('.ant-message-notice .ant-message-warning', { hasText: words }).waitFor();
        expect(await count()).toBe(0);
      } finally {
        await context.close();
      }
    }
    // the server refuses it too, whoever sends it
    const direct = await postJson('/smartdata/record/add', { itemId: form.itemId, values: { f1: null } });
    expect(direct).toMatchObject({ code: 40000, data: { field: 'values' } });
    expect(direct.message).toBe(messageFor('recordEmpty', 'zh'));
    expect(await count()).toBe(0);
  });

  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`screens ${lang} ${width}px`, async () => {
        const { context, page } = await openAs(lang, width);
        try {
          await go(page, valuePath(item), 'records-view');
          await rows(page).first().waitFor();
          await shot(page, `datarecords-list-${lang}-${width}`);
          await page.getByTestId('record-add').click();
          await page.getByTestId('record-form').waitFor();
          await shot(page, `datarecords-modal-${lang}-${width}`);
          await page.keyboard.press('Escape');
          await page.getByTestId('record-keys').click();
          await page.getByTestId('keys-panel').waitFor();
          await page.locator('[data-testid="keys-panel"] .ant-table-row').first().waitFor();
          await shot(page, `datarecords-keys-list-${lang}-${width}`);
          // the drawer's second tab (the app's own tab bar has role=tab too)
          await page
            .locator('.ant-tabs', { has: page.getByTestId('keys-panel') })
            .getByRole('tab')
            .nth(1)
            .click();
          await page.getByTestId('keys-help-http').waitFor();
          expect(await page.getByTestId('keys-help-http').innerText()).toContain(`"itemId":${item.itemId}`);
          const mqttHelp = await page.getByTestId('keys-help-mqtt').innerText();
          // the examples sign in as a key and use its own topics; the key itself is never shown
          expect(mqttHelp).toMatch(/-u 'key-(\d+|<ID>)' -P '<KEY>'/);
          expect(mqttHelp).toMatch(/smartdata\/submit\/key-(\d+|<ID>)/);
          expect(mqttHelp).not.toContain('sdk_');
          await shot(page, `datarecords-keys-${lang}-${width}`);
        } finally {
          await context.close();
        }
      });
    }
  }
});
