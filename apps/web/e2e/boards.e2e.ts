/**
 * Boards as a person uses them: build a board in the designer (a number card on a demo item
 * and a text widget, moved by dragging, the move undone, saved), display it and see a submitted record
 * arrive live, play a carousel of two boards and see it advance. Screenshots at 1440 px,
 * 1920×1080 (big screen) and 390 px, zh and en.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, newContext, openBrowser, type RunningServer, shot, startServer } from './harness';
import { pickOption, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
/** the demo's manual item "产线小时产量", rate field f3 (%) */
let itemId: number;
let boardId: number;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const tree =
    await api<Array<{ type: string; name: string; refId: number | null }>>('/smartdata/cabin/tree');
  itemId = tree.data.find((n) => n.type === 'dataItem' && n.name === '产线小时产量')!.refId!;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** the widget's place as the property panel shows it: "x 0 · y 4 · 6×2" */
const rectText = (page: Page) => page.locator('.board-props-rect').innerText();

describe('boards', () => {
  test('a board built in the designer shows a value arriving live (zh, 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, '/smartdata/dashboard3', 'board-new');
      await page.getByTestId('board-new').click();
      await page.getByTestId('board-name').fill('车间看板');
      await page.getByTestId('board-create-ok').click();
      await page.getByTestId('board-designer').waitFor();
      boardId = Number(new URL(page.url()).pathname.split('/').at(-1));

      // a number card on the demo item's rate
      await page.getByTestId('add-number').click();
      await pickOption(page, page.getByTestId('prop-item'), '产线小时产量');
      await pickOption(page, page.getByTestId('prop-field'), '%');
      // a text widget, typed in the property panel
      await page.getByTestId('add-text').click();
      await page.getByTestId('prop-text').fill('一号产线');
      const text = page.locator('[data-widget-type=text]');
      await text.getByText('一号产线').waitFor();
      const before = await rectText(page);

      // move it by dragging, then undo the move
      const box = (await text.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      for (let step = 1; step <= 10; step++)
        await page.mouse.move(box.x + box.width / 2 + step * 20, box.y + box.height / 2);
      await page.mouse.up();
      await expect.poll(() => rectText(page)).not.toBe(before);
      await page.getByTestId('tool-undo').click();
      await expect.poll(() => rectText(page)).toBe(before);
      await shot(page, 'boards-designer-zh-1440');
      await page.getByTestId('designer-save').click();
      await success(page);

      // the display: the number card, then a record submitted elsewhere arrives without reload
      await page.getByTestId('designer-preview').click();
      await page.getByTestId('board-show').waitFor();
      await page.getByTestId('board-live').getByText('实时').waitFor({ timeout: 20_000 });
      const value = page.getByTestId('widget-number-value');
      await value.waitFor();
      const added = await postJson('/smartdata/record/add', {
        itemId,
        values: { f1: 'L1', f2: 120, f3: 87.65 },
      });
      expect(added.code).toBe(0);
      await expect.poll(() => value.innerText(), { timeout: 15_000 }).toContain('87.65');
      await expect.poll(() => page.getByTestId('widget-updated').first().innerText()).toContain('更新于');
      await page.getByText('一号产线').waitFor();
      await shot(page, 'boards-display-zh-1440');

      // the home page lists it among the boards opened last
      await go(page, '/home', 'home-recent-boards');
      await page.getByTestId(`recent-board-${boardId}`).waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);

  test('a carousel of two boards plays full screen and advances (zh, 1920×1080)', async () => {
    const screen = await postJson<{ id: number }>('/smartdata/board/create', {
      name: '监控大屏',
      template: 'screen-monitor',
    });
    expect(screen.code).toBe(0);
    const context = await newContext(browser, { lang: 'zh', width: 1920 });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1920, height: 1080 });
    try {
      const { loginAs } = await import('./harness');
      await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
      await go(page, '/smartdata/configboardplay/new', 'play-name');
      await page.getByTestId('play-name').fill('大厅轮播');
      await pickOption(page, page.getByTestId('play-board-0'), '监控大屏');
      await page.locator('[data-testid=play-entry-0] input.ant-input-number-input').fill('5');
      await page.getByTestId('play-add-board').click();
      await pickOption(page, page.getByTestId('play-board-1'), '车间看板');
      await page.locator('[data-testid=play-entry-1] input.ant-input-number-input').fill('5');
      await page.getByTestId('play-save-play').click();
      await page.getByTestId('board-play').waitFor();
      const name = page.getByTestId('play-board-name');
      await expect.poll(() => name.innerText(), { timeout: 15_000 }).toBe('监控大屏');
      await page.getByTestId('play-countdown').getByText('1/2').waitFor();
      await shot(page, 'boards-bigscreen-zh-1920');
      await expect.poll(() => name.innerText(), { timeout: 15_000 }).toBe('车间看板');
      await page.getByTestId('play-countdown').getByText('2/2').waitFor();
      await expect.poll(() => page.getByTestId('widget-number-value').innerText()).toContain('87.65');
      await shot(page, 'boards-carousel-zh-1920');
    } finally {
      await context.close();
    }
  }, 120_000);

  test('reads in English and fits a phone (en 1440, zh and en 390)', async () => {
    const { context, page } = await openAs('en', 1440);
    try {
      await go(page, `/smartdata/dashboard3/EditBoard/${boardId}/x/${boardId}`, 'board-designer');
      await page.getByText('Number card').first().waitFor();
      await shot(page, 'boards-designer-en-1440');
    } finally {
      await context.close();
    }
    for (const lang of ['zh', 'en'] as const) {
      const phone = await openAs(lang, 390);
      try {
        await go(phone.page, '/smartdata/dashboard3', 'board-new');
        await shot(phone.page, `boards-list-${lang}-390`);
        await go(phone.page, `/showdashboard/${boardId}`, 'board-show');
        await phone.page.getByTestId('widget-number-value').waitFor();
        const overflow = await phone.page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await shot(phone.page, `boards-display-${lang}-390`);
      } finally {
        await phone.context.close();
      }
    }
  }, 120_000);
});
