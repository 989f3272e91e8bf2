/**
 * The data cabin and a data item's configuration as a person uses them: names refused with
 * the server's own words before anything is sent, create a directory and a data item, rename,
 * the move and copy dialogs (with the spec's "select" messages), search showing paths, delete
 * with a confirmation that lists what goes, configure fields and save, a jump pointing at its
 * own item refused with the spec's message; and screenshots in zh and en at 1440 and 390 px.
 *
 * Server routes are written in parallel: a test whose route is missing from the server's
 * OpenAPI document is skipped, and says which route it misses.
 */
import { type Lang as DomainLang, type ErrorKey, messageFor } from '@platform/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { modalOk, pickOption, pickTree, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, openAs, go, loadRoutes, routeMissing } = supportFor(() => ({
  server,
  browser,
  token,
}));

interface TreeRow {
  id: number;
  parentId: number | null;
  type: string;
  name: string;
  refId: number | null;
  kind?: number;
}

const DIR = 'E2E目录';
const TARGET = 'E2E目标';
const ITEM = 'E2E温度';
const RENAMED = 'E2E温度二';

const text = (key: ErrorKey, lang: DomainLang = 'zh') => messageFor(key, lang);
/** Sent with the calls whose messages are compared with the catalogue's Chinese words. */
const ZH = { 'Accept-Language': 'zh' };

async function tree(): Promise<TreeRow[]> {
  const result = await api<TreeRow[]>('/smartdata/cabin/tree');
  expect(result.code).toBe(0);
  return result.data;
}

/** Fail, naming them, when the server lacks routes the test drives through the page. */
function needs(_ctx: { skip: (note?: string) => void }, ...paths: string[]): void {
  const missing = routeMissing(...paths);
  if (missing) throw new Error(`server route missing: ${missing}`);
}

function row(page: Page, name: string): Locator {
  return page.getByTestId(`row-${name}`);
}

async function check(page: Page, name: string): Promise<void> {
  await row(page, name).locator('input[type=checkbox]').check();
}

async function openDir(page: Page, name: string): Promise<void> {
  await page.getByTestId('cabin-tree').getByTestId(`tree-node-${name}`).click();
  await page.locator('.ant-breadcrumb', { hasText: name }).waitFor();
}

/** The names shown in the name column (not the other entry-* test ids of a row: path, configure). */
async function entryNames(page: Page): Promise<string[]> {
  const names = page.locator(
    '[data-testid=cabin-entries] tr.ant-table-row .dc-entry-name [data-testid^="entry-"]',
  );
  return (await names.allInnerTexts()).map((s) => s.trim());
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true }, ZH);
  await loadRoutes();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('data cabin', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openAs('zh'));
  });

  afterAll(async () => {
    await context?.close();
  });

  test('a new directory: a name with % is refused in the form with the server words, then created', async (ctx) => {
    needs(ctx, '/smartdata/cabin/tree', '/smartdata/cabin/create');
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/smartdata/cabin/create')) calls.push(r.url());
    });
    await go(page, '/smartdata/datacapsule', 'datacabin-page');
    await page.getByTestId('cabin-new-directory').click();
    await page.getByTestId('cabin-name-input').fill('50%目录');
    await modalOk(page);
    await page.locator('.ant-form-item-explain-error', { hasText: text('nameNoPercent') }).waitFor();
    await page.getByTestId('cabin-name-input').fill('');
    await page.locator('.ant-form-item-explain-error', { hasText: text('nameRequired') }).waitFor();
    await page.getByTestId('cabin-name-input').fill('目'.repeat(26));
    await page.locator('.ant-form-item-explain-error', { hasText: text('nameTooLong') }).waitFor();
    expect(calls).toEqual([]);

    await page.getByTestId('cabin-name-input').fill(DIR);
    await modalOk(page);
    await success(page, { untilGone: true });
    await page.getByTestId('cabin-tree').getByTestId(`tree-node-${DIR}`).waitFor();
    await page.getByTestId('cabin-new-directory').click();
    await page.getByTestId('cabin-name-input').fill(TARGET);
    await modalOk(page);
    await success(page, { untilGone: true });
    await page.getByTestId('cabin-tree').getByTestId(`tree-node-${TARGET}`).waitFor();
    const rows = await tree();
    expect(rows.filter((r) => r.name === DIR || r.name === TARGET).map((r) => r.type)).toEqual([
      'directory',
      'directory',
    ]);
  });

  test('a new data item inside the directory: special characters refused, kind chosen, kind tag shown', async (ctx) => {
    needs(ctx, '/smartdata/cabin/create');
    await openDir(page, DIR);
    await page.getByTestId('cabin-new-item').click();
    await page.getByTestId('cabin-name-input').fill('温度#1');
    await modalOk(page);
    await page.locator('.ant-form-item-explain-error', { hasText: text('nameNoSpecial') }).waitFor();
    await page.getByTestId('cabin-name-input').fill(ITEM);
    await page.getByTestId('cabin-kind-13').click();
    await shot(page, 'datacabin-new-item-zh-1440');
    await modalOk(page);
    await success(page, { untilGone: true });
    await row(page, ITEM).waitFor();
    await expect.poll(() => row(page, ITEM).locator('.ant-tag').innerText()).toBe('物联网数据列表');
    const made = (await tree()).find((r) => r.name === ITEM);
    expect(made?.type).toBe('dataItem');
    expect(made?.kind).toBe(13);
    const dir = (await tree()).find((r) => r.name === DIR);
    expect(made?.parentId).toBe(dir?.id);
  });

  test('rename', async (ctx) => {
    needs(ctx, '/smartdata/cabin/rename');
    await check(page, ITEM);
    await page.getByTestId('cabin-rename').click();
    await expect.poll(() => page.getByTestId('cabin-name-input').inputValue()).toBe(ITEM);
    await page.getByTestId('cabin-name-input').fill(RENAMED);
    await modalOk(page);
    await success(page, { untilGone: true });
    await row(page, RENAMED).waitFor();
    expect(await entryNames(page)).toEqual([RENAMED]);
    // the renamed entry stays selected, as it was before the rename
    expect(await row(page, RENAMED).locator('input[type=checkbox]').isChecked()).toBe(true);
  });

  test('move: the spec messages without a selection or a directory, then moved', async (ctx) => {
    needs(ctx, '/smartdata/cabin/move');
    // nothing selected: the spec's message, client-side
    await row(page, RENAMED).locator('input[type=checkbox]').uncheck();
    await page.getByTestId('cabin-move').click();
    await page.locator('.ant-message-notice', { hasText: text('selectMoveObjects') }).waitFor();
    await check(page, RENAMED);
    await page.getByTestId('cabin-move').click();
    await modalOk(page);
    await expect.poll(() => page.getByTestId('cabin-target-error').innerText()).toBe(text('selectDirectory'));
    await pickTree(page, page.getByTestId('cabin-target-select'), TARGET);
    await modalOk(page);
    await success(page, { untilGone: true });
    await expect.poll(() => entryNames(page)).toEqual([]);
    await openDir(page, TARGET);
    await expect.poll(() => entryNames(page)).toEqual([RENAMED]);
    const rows = await tree();
    expect(rows.find((r) => r.name === RENAMED)?.parentId).toBe(rows.find((r) => r.name === TARGET)?.id);
  });

  test('copy: back into the first directory; the server refuses a target inside a moved node too', async (ctx) => {
    needs(ctx, '/smartdata/cabin/copy', '/smartdata/cabin/move');
    await check(page, RENAMED);
    await page.getByTestId('cabin-copy').click();
    await pickTree(page, page.getByTestId('cabin-target-select'), DIR);
    await modalOk(page);
    await success(page, { untilGone: true });
    await openDir(page, DIR);
    await expect.poll(() => entryNames(page)).toEqual([RENAMED]);
    const rows = await tree();
    expect(rows.filter((r) => r.name === RENAMED)).toHaveLength(2);
    // the server's word on an empty move, the same as the page said
    const empty = await postJson(
      '/smartdata/cabin/move',
      { ids: [], targetId: rows.find((r) => r.name === DIR)?.id },
      ZH,
    );
    expect(empty.code).toBe(40000);
    expect(empty.message).toBe(text('selectMoveObjects'));
  });

  test('search shows matches with their path', async (ctx) => {
    needs(ctx, '/smartdata/cabin/search');
    await page.getByTestId('cabin-search').locator('input').fill(RENAMED);
    await page.getByTestId('cabin-search').locator('input').press('Enter');
    await page.getByTestId('cabin-search-title').waitFor();
    await expect.poll(() => entryNames(page)).toEqual([RENAMED, RENAMED]);
    const paths = await page.locator(`[data-testid="entry-path-${RENAMED}"]`).allInnerTexts();
    expect(paths.map((p) => p.trim()).sort()).toEqual(
      [`${DIR} / ${RENAMED}`, `${TARGET} / ${RENAMED}`].sort(),
    );
    await shot(page, 'datacabin-search-zh-1440');
    await page.getByTestId('cabin-search').locator('input').fill('');
    await openDir(page, DIR);
  });

  test('configure fields and save; the jump to itself is refused with the spec message', async (ctx) => {
    needs(ctx, '/smartdata/item/get', '/smartdata/item/update');
    await openDir(page, TARGET);
    await page.getByTestId(`entry-config-${RENAMED}`).click();
    await page.getByTestId('item-config-page').waitFor();
    await expect.poll(() => page.getByTestId('item-config-title').innerText()).toBe(RENAMED);
    await page.getByTestId('field-add').click();
    await page.getByTestId('field-name-0').fill('温度');
    await page.getByTestId('field-unit-0').fill('℃');
    await pickOption(page, page.getByTestId('field-type-0'), '小数');
    await page.getByTestId('field-add').click();
    // an empty field name: the catalogue's message
    await page.getByTestId('fields-save').click();
    await page.locator('.ant-message-notice', { hasText: text('dataNameRequired') }).waitFor();
    await page.getByTestId('field-name-1').fill('备注');
    await page.getByTestId('fields-save').click();
    await success(page, { untilGone: true });
    await expect
      .poll(() =>
        page
          .getByTestId('fields-tab')
          .locator('td', { hasText: /^f\d+$/ })
          .count(),
      )
      .toBe(2);
    await shot(page, 'datacabin-config-fields-zh-1440');

    const rows = await tree();
    const itemId = rows.find(
      (r) => r.name === RENAMED && r.parentId === rows.find((d) => d.name === TARGET)?.id,
    )?.refId as number;
    const saved = await api<{ fields: Array<{ name: string; unit?: string; type: number; key: string }> }>(
      `/smartdata/item/get?itemId=${itemId}`,
    );
    expect(saved.data.fields.map((f) => [f.name, f.unit ?? null, f.type])).toEqual([
      ['温度', '℃', 1],
      ['备注', null, 5],
    ]);

    if (routeMissing('/smartdata/item/saveJump', '/smartdata/item/jumps')) return;
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/smartdata/item/saveJump')) sent.push(r.url());
    });
    await page.locator('.ant-tabs-tab', { hasText: '跳转关联' }).click();
    await page.getByTestId('jump-add').click();
    await page.getByTestId('jump-name').fill('自跳转');
    await pickTree(page, page.getByTestId('jump-target'), RENAMED);
    await page.getByTestId('jump-save').click();
    await expect.poll(() => page.getByTestId('jump-error').innerText()).toBe(text('jumpSelf'));
    await shot(page, 'datacabin-jump-self-zh-1440');
    expect(sent).toEqual([]);
    // and the server says the same
    const refused = await postJson(
      '/smartdata/item/saveJump',
      {
        itemId,
        priority: 1,
        name: '自跳转',
        conditions: [],
        targetItemId: itemId,
        mapping: [],
        enabled: true,
      },
      ZH,
    );
    expect(refused.code).toBe(40000);
    expect(refused.message).toBe(text('jumpSelf'));
    await page.keyboard.press('Escape');
  });

  test('delete asks first and lists what goes, deep', async (ctx) => {
    needs(ctx, '/smartdata/cabin/delete');
    await go(page, '/smartdata/datacapsule', 'datacabin-page');
    await check(page, DIR);
    await page.getByTestId('cabin-delete').click();
    const confirm = page.getByTestId('cabin-delete-confirm');
    await confirm.waitFor();
    await expect.poll(() => confirm.innerText()).toContain(DIR);
    await expect.poll(() => confirm.innerText()).toContain(RENAMED);
    await shot(page, 'datacabin-delete-zh-1440');
    // cancel keeps everything
    await page.locator('.ant-modal-confirm .ant-btn:not(.ant-btn-dangerous)').click();
    expect((await tree()).some((r) => r.name === DIR)).toBe(true);
    await page.getByTestId('cabin-delete').click();
    await page.getByTestId('cabin-delete-ok').click();
    await success(page, { untilGone: true });
    await page.getByTestId('cabin-tree').getByTestId(`tree-node-${DIR}`).waitFor({ state: 'detached' });
    const rows = await tree();
    expect(rows.some((r) => r.name === DIR)).toBe(false);
    expect(rows.filter((r) => r.name === RENAMED)).toHaveLength(1);
  });

  test('copy and delete with nothing selected each ask for their own selection', async (ctx) => {
    needs(ctx, '/smartdata/cabin/tree');
    await page.getByTestId('cabin-copy').click();
    await page.locator('.ant-message-notice', { hasText: text('selectCopyObjects') }).waitFor();
    await page.getByTestId('cabin-delete').click();
    await page.locator('.ant-message-notice', { hasText: text('selectDeleteObjects') }).waitFor();
    expect(await page.locator('.ant-message-notice', { hasText: text('selectMoveObjects') }).count()).toBe(0);
  });
});

describe('screenshots', () => {
  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`cabin and configuration, ${lang} ${width}px`, async (ctx) => {
        needs(ctx, '/smartdata/cabin/tree', '/smartdata/item/get');
        const { context, page } = await openAs(lang, width);
        try {
          await go(page, '/smartdata/datacapsule', 'datacabin-page');
          await page.getByTestId('cabin-tree').waitFor();
          await page.waitForLoadState('networkidle');
          await shot(page, `datacabin-${lang}-${width}`);
          const rows = await tree();
          const item = rows.find((r) => r.type === 'dataItem' && r.refId != null);
          if (item) {
            await go(
              page,
              `/smartdata/dataitem/config/${item.refId}/${encodeURIComponent(item.name)}/${item.id}`,
              'item-config-page',
            );
            await page.getByTestId('fields-tab').waitFor();
            await page.waitForLoadState('networkidle');
            await shot(page, `datacabin-config-${lang}-${width}`);
          }
          if (lang === 'en' && width === 1440) {
            // the English words of the catalogue, from the same client-side check
            await go(page, '/smartdata/datacapsule', 'datacabin-page');
            await page.getByTestId('cabin-move').click();
            await page
              .locator('.ant-message-notice', { hasText: 'Please select the objects to move' })
              .waitFor();
          }
        } finally {
          await context.close();
        }
      });
    }
  }
});
