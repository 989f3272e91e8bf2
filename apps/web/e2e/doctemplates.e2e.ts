/**
 * Document templates as a person uses them: create a template on the Doctemplate page, bind it
 * to the demo item 产线小时产量, type text and insert field placeholders, save; then open the
 * item's records, use the row's "document" action and see the template filled with that
 * record's values (an XSS attempt in a value shows as text and runs nothing); the cabin opens
 * the template in the editor; delete with confirmation. Screenshots zh/en at 1440 px.
 */

import { messageFor } from '@platform/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
import { drawPng, fileInput, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

const DEMO_ITEM = '产线小时产量';
const XSS = '<img src=x onerror="window.__xss=1">';

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

describe('document templates', () => {
  let context: BrowserContext;
  let page: Page;
  let item: { itemId: number; nodeId: number };
  let recordId: number;
  let xssRecordId: number;
  let templateId: number;

  beforeAll(async () => {
    const tree =
      await api<Array<{ id: number; type: string; name: string; refId: number }>>('/smartdata/cabin/tree');
    const node = tree.data.find((n) => n.type === 'dataItem' && n.name === DEMO_ITEM);
    expect(node, 'demo item').toBeDefined();
    item = { itemId: node!.refId, nodeId: node!.id };
    const now = Date.now();
    const added = await postJson<{ id: number }>('/smartdata/record/add', {
      itemId: item.itemId,
      values: { f1: 'E2E-三号线', f2: 1234, f3: 98.5 },
      ts: new Date(now + 60_000).toISOString(),
    });
    expect(added.code, added.message).toBe(0);
    recordId = added.data.id;
    const xss = await postJson<{ id: number }>('/smartdata/record/add', {
      itemId: item.itemId,
      values: { f1: XSS, f2: 1, f3: 1 },
      ts: new Date(now + 30_000).toISOString(),
    });
    expect(xss.code, xss.message).toBe(0);
    xssRecordId = xss.data.id;
    ({ context, page } = await openAs('zh'));
  });

  afterAll(async () => {
    await context?.close();
  });

  test('create a template, bind the demo item, insert fields and save', async () => {
    await go(page, '/smartdata/Doctemplate', 'doctemplate-page');
    await page.getByTestId('doc-add').click();
    await page.getByTestId('doc-create-name').fill('E2E产线日报');
    await page.getByTestId('doc-create-ok').click();
    await page.getByTestId('doc-editor-page').waitFor();
    await page.getByTestId('doc-editor').waitFor();
    templateId = Number(new URL(page.url()).searchParams.get('edit'));
    expect(templateId).toBeGreaterThan(0);
    expect(await page.getByTestId('doc-editor-title').innerText()).toBe('E2E产线日报');

    // bind the demo item through the picker
    await page.getByTestId('doc-item-picker').click();
    await page.keyboard.type(DEMO_ITEM);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: DEMO_ITEM })
      .first()
      .click();
    await page.getByTestId('doc-insert-f1').waitFor();

    // a heading, text and three placeholders
    await page.getByTestId('doc-editor').click();
    await page.getByTestId('doc-tool-h2').click();
    await page.keyboard.type('生产日报');
    await page.keyboard.press('Enter');
    await page.keyboard.type('产线：');
    await page.getByTestId('doc-insert-f1').click();
    await page.keyboard.type('产量：');
    await page.getByTestId('doc-insert-f2').click();
    await page.keyboard.type('件，合格率：');
    await page.getByTestId('doc-insert-f3').click();
    await page.keyboard.type('%，时间：');
    await page.getByTestId('doc-insert-ts').click();
    await expect.poll(() => page.locator('[data-testid="doc-editor"] span[data-field]').count()).toBe(4);
    await shot(page, 'doctemplates-editor-zh-1440');

    await page.getByTestId('doc-save').click();
    await success(page);
    const saved = await api<{ html: string; itemId: number }>(`/smartdata/template/get?id=${templateId}`);
    expect(saved.data.itemId).toBe(item.itemId);
    expect(saved.data.html).toContain('<h2>生产日报</h2>');
    expect(saved.data.html).toContain('<span data-field="f1">产线</span>');
    expect(saved.data.html).toContain('<span data-field="ts">记录时间</span>');

    // the list shows it with its bound item
    await go(page, '/smartdata/Doctemplate', 'doctemplate-page');
    const row = page.locator('.ant-table-row', { hasText: 'E2E产线日报' });
    await expect.poll(() => row.innerText()).toContain(DEMO_ITEM);
    await shot(page, 'doctemplates-list-zh-1440');
  });

  test("open it from a record's document action, filled with that record", async () => {
    const path = `/smartdata/datavalue/${item.itemId}/${encodeURIComponent(DEMO_ITEM)}/10/${item.nodeId}/0/-`;
    await go(page, path, 'records-view');
    await page.getByTestId(`record-document-${recordId}`).click();
    await page.getByTestId('rendered-doc-page').waitFor();
    const body = page.getByTestId('rendered-doc-body');
    await body.waitFor();
    const text = await body.innerText();
    expect(text).toContain('生产日报');
    expect(text).toMatch(/产线：\s*E2E-三号线/);
    expect(text).toMatch(/产量：\s*1234\s*件/);
    expect(text).toMatch(/合格率：\s*98\.50\s*%/);
    expect(text).toMatch(/时间：\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(await page.getByTestId('rendered-doc-title').innerText()).toBe('E2E产线日报');
    await shot(page, 'doctemplates-rendered-zh-1440');

    // a value holding markup shows as text and runs nothing
    await page.goBack();
    await page.getByTestId(`record-document-${xssRecordId}`).click();
    await expect.poll(() => body.innerText()).toContain(XSS);
    expect(await body.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  test('a table and an image made with the toolbar are stored and show in the filled document', async () => {
    await go(page, `/smartdata/Doctemplate?edit=${templateId}`, 'doc-editor');
    const editor = page.getByTestId('doc-editor');
    await expect.poll(() => editor.innerText()).toContain('生产日报');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('检查记录：');

    // a 3 × 3 table with a header row; fill two rows, add one below, delete the third column
    await page.getByTestId('doc-tool-table').click();
    await page.getByTestId('doc-table-insert').click();
    await expect.poll(() => editor.locator('table tr').count()).toBe(3);
    for (const text of ['检查项', '结果', '备注', '外观', '合格', '无']) {
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
    }
    await page.getByTestId('doc-tool-table').click();
    await page.getByTestId('doc-table-addRowAfter').click();
    await expect.poll(() => editor.locator('table tr').count()).toBe(4);
    await editor.locator('th', { hasText: '备注' }).click();
    await page.getByTestId('doc-tool-table').click();
    await page.getByTestId('doc-table-deleteColumn').click();
    await expect.poll(() => editor.locator('table tr').first().locator('th').count()).toBe(2);

    // a text file named .png is refused in the browser with the catalogue's message
    await fileInput(page, 'doc-tool-image').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture'),
    });
    await expect
      .poll(() => page.locator('.ant-message-error').last().innerText())
      .toBe(messageFor('imageFormat', 'zh'));
    // (ProseMirror draws separator <img>s of its own in empty cells)
    const images = editor.locator('img:not(.ProseMirror-separator)');
    expect(await images.count()).toBe(0);

    // a real PNG is uploaded and placed where the cursor is (the cell the table left it in)
    const png = await drawPng(page, 'LOGO', '#1677ff');
    await fileInput(page, 'doc-tool-image').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await expect.poll(() => images.count()).toBe(1);
    const src = await images.getAttribute('src');
    expect(src).toMatch(/^\/general\/files\/public\/templates\/\d+\/\d+\/[0-9a-f]{32}\.png$/);
    await shot(page, 'doctemplates-editor-table-zh-1440');

    await page.getByTestId('doc-save').click();
    await success(page);
    const saved = await api<{ html: string }>(`/smartdata/template/get?id=${templateId}`);
    expect(saved.data.html).toContain('<th><p>检查项</p></th><th><p>结果</p></th></tr>');
    expect(saved.data.html).toContain(`<img src="${src}" alt="logo" />`);
    expect(saved.data.html).not.toContain('备注');

    // the filled document draws the table and loads the image
    const path = `/smartdata/datavalue/${item.itemId}/${encodeURIComponent(DEMO_ITEM)}/10/${item.nodeId}/0/-`;
    await go(page, path, 'records-view');
    await page.getByTestId(`record-document-${recordId}`).click();
    const body = page.getByTestId('rendered-doc-body');
    await body.waitFor();
    await expect.poll(() => body.locator('table tr').count()).toBe(4);
    expect(await body.locator('th').allInnerTexts()).toEqual(['检查项', '结果']);
    await expect
      .poll(() => body.locator(`img[src="${src}"]`).evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(320);
    await shot(page, 'doctemplates-rendered-table-zh-1440');
  });

  test("a record's picture and file show in the filled document through signed links", async () => {
    const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
      parentId: null,
      type: 'dataItem',
      name: 'E2E巡检照片',
      kind: 10,
    });
    expect(created.code, created.message).toBe(0);
    const photoItem = { itemId: created.data.refId, nodeId: created.data.id };
    const fields = await postJson('/smartdata/item/update', {
      itemId: photoItem.itemId,
      fields: [
        { name: '位置', type: 5 },
        { name: '照片', type: 8 },
        { name: '报告', type: 9 },
      ],
    });
    expect(fields.code, fields.message).toBe(0);
    const upload = async (field: string, bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('itemId', String(photoItem.itemId));
      form.append('field', field);
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      const answer = await api<{ url: string; name: string; size: number }>('/smartdata/record/upload', {
        method: 'POST',
        body: form,
      });
      expect(answer.code, answer.message).toBe(0);
      return answer.data;
    };
    const photo = await upload('f2', await drawPng(page, '现场', '#52c41a'), '现场.png');
    const report = await upload('f3', Buffer.from('%PDF-1.4 report'), '报告.pdf');
    const record = await postJson<{ id: number }>('/smartdata/record/add', {
      itemId: photoItem.itemId,
      values: { f1: '二号锅炉', f2: [photo], f3: [report] },
    });
    expect(record.code, record.message).toBe(0);
    const doc = await postJson<{ id: number }>('/smartdata/cabin/create', {
      parentId: null,
      type: 'docTemplate',
      name: 'E2E巡检单',
    });
    expect(doc.code, doc.message).toBe(0);
    const saved = await postJson('/smartdata/template/save', {
      id: doc.data.id,
      itemId: photoItem.itemId,
      html: '<h2>巡检单</h2><p>位置：<span data-field="f1">位置</span></p><p><span data-field="f2">照片</span></p><p>附件：<span data-field="f3">报告</span></p>',
    });
    expect(saved.code, saved.message).toBe(0);

    await go(
      page,
      `/smartdata/richEditorTemplate/${photoItem.itemId}/${record.data.id}/${encodeURIComponent('E2E巡检照片')}/${doc.data.id}`,
      'rendered-doc-body',
    );
    const body = page.getByTestId('rendered-doc-body');
    const img = body.locator('img').first();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(320);
    const src = (await img.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/general\/files\/records\/\d+\/\d+\/[0-9a-f]{32}\.png\?exp=\d+&sig=/);
    const statusOf = (url: string) => page.evaluate(async (u) => (await fetch(u)).status, url);
    // the bare address is asked on purpose, and refused
    allowPageErrors(refused(404, src.split('?')[0]!));
    expect(await statusOf(src.split('?')[0]!)).toBe(404);
    const href = (await body.locator('a', { hasText: '报告.pdf' }).getAttribute('href')) ?? '';
    expect(await statusOf(href)).toBe(200);
    await shot(page, 'doctemplates-rendered-picture-zh-1440');
  });

  test('the cabin opens the template in the editor; delete asks first', async () => {
    await go(page, '/smartdata/datacapsule', 'cabin-entries');
    await page.getByTestId('entry-E2E产线日报').click();
    await page.getByTestId('doc-editor-page').waitFor();
    expect(new URL(page.url()).searchParams.get('edit')).toBe(String(templateId));

    await go(page, '/smartdata/Doctemplate', 'doctemplate-page');
    await page.getByTestId(`doc-delete-${templateId}`).click();
    await page.getByTestId('doc-delete-ok').click();
    await success(page);
    await expect.poll(() => page.getByTestId(`doc-open-${templateId}`).count()).toBe(0);
    const gone = await api(`/smartdata/template/get?id=${templateId}`);
    expect(gone.code).toBe(40400);
  });

  test('screenshots of the list, the editor and a filled template: English 1440 px, Chinese 390 px', async () => {
    const created = await postJson<{ id: number }>('/smartdata/cabin/create', {
      parentId: null,
      type: 'docTemplate',
      name: 'Shift report',
    });
    expect(created.code).toBe(0);
    const html =
      '<h2>Shift report</h2><p>Line: <span data-field="f1">产线</span></p><p>Output: <span data-field="f2">产量</span> pcs, yield <span data-field="f3">合格率</span> %</p>';
    const saved = await postJson('/smartdata/template/save', {
      id: created.data.id,
      html,
      itemId: item.itemId,
    });
    expect(saved.code, saved.message).toBe(0);

    const en = await openAs('en');
    try {
      await go(en.page, '/smartdata/Doctemplate', 'doctemplate-page');
      await expect.poll(() => en.page.getByTestId('doctemplate-page').innerText()).toContain('Shift report');
      expect(await en.page.getByTestId('doctemplate-page').innerText()).toContain('Bound data item');
      await shot(en.page, 'doctemplates-list-en-1440');
      await go(en.page, `/smartdata/Doctemplate?edit=${created.data.id}`, 'doc-editor');
      await expect.poll(() => en.page.getByTestId('doc-field-list').innerText()).toContain('合格率');
      await shot(en.page, 'doctemplates-editor-en-1440');
      await go(
        en.page,
        `/smartdata/richEditorTemplate/${item.itemId}/${recordId}/${encodeURIComponent(DEMO_ITEM)}/${created.data.id}`,
        'rendered-doc-body',
      );
      expect(await en.page.getByTestId('rendered-doc-body').innerText()).toMatch(/yield\s*98\.50\s*%/);
      expect(await en.page.getByTestId('rendered-doc-print').innerText()).toContain('Print');
      await shot(en.page, 'doctemplates-rendered-en-1440');
    } finally {
      await en.context.close();
    }
    const zh = await openAs('zh', 390);
    try {
      await go(zh.page, '/smartdata/Doctemplate', 'doctemplate-page');
      await expect.poll(() => zh.page.getByTestId('doctemplate-page').innerText()).toContain('Shift report');
      // on a phone the type and item go under the name, and the actions stay on screen
      const phoneRow = zh.page.locator('.ant-table-row', { hasText: 'Shift report' });
      expect(await phoneRow.innerText()).toContain(`文档模板 · ${DEMO_ITEM}`);
      const edit = await zh.page.getByTestId(`doc-edit-${created.data.id}`).boundingBox();
      expect(edit!.x + edit!.width).toBeLessThanOrEqual(390);
      await shot(zh.page, 'doctemplates-list-zh-390');
      await go(zh.page, `/smartdata/Doctemplate?edit=${created.data.id}`, 'doc-editor');
      await expect.poll(() => zh.page.getByTestId('doc-field-list').innerText()).toContain('合格率');
      await shot(zh.page, 'doctemplates-editor-zh-390');
      await go(
        zh.page,
        `/smartdata/richEditorTemplate/${item.itemId}/${recordId}/${encodeURIComponent(DEMO_ITEM)}/${created.data.id}`,
        'rendered-doc-body',
      );
      await shot(zh.page, 'doctemplates-rendered-zh-390');
    } finally {
      await zh.context.close();
    }
  });
});
