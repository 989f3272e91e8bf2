/**
 * The alarm wall (/alertdashboard) as a person uses it, end to end: a rule made by clicking the
 * rule form (item, field, levels, duration, clear threshold, recipients), a record submitted over
 * HTTP with a submission key breaching it, the alarm arriving on the wall without reload (counts,
 * row, the optional sound), acknowledged on the wall, cleared in the log and leaving the wall
 * live. The connection to the alarm socket cut (playwright routes the WebSocket): the wall says
 * so and greys its numbers, and once back it shows the alarm that fired meanwhile. The home
 * page's "my open alarms" card. Screenshots: wall 1920×1080 zh and en, 1440 and 390 px, home card.
 */
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { modalOk, pickOption, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
let itemId: number;
let submitKey: string;
const RULE = 'E2E冷库超温';
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

/** A record of the item submitted over HTTP with the submission key, as a device does. */
async function submit(value: number, ts = new Date()): Promise<void> {
  const response = await fetch(`${server.url}/general/smartdata/submit`, {
    method: 'POST',
    headers: { Authorization: submitKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ itemId, ts: ts.toISOString(), 温度: value }),
  });
  const body = (await response.json()) as { code: number; message: string };
  expect(body.code, body.message).toBe(0);
}

/** The page's navigations so far: unchanged means nothing was reloaded. */
const navigations = (page: Page) => page.evaluate(() => performance.getEntriesByType('navigation').length);

const count = (page: Page, level: number) =>
  page.getByTestId(`wall-count-${level}`).locator('.alarm-wall-level-count').innerText();

async function openWall(lang: 'zh' | 'en', width: number, height?: number) {
  const opened = await openAs(lang, width);
  if (height) await opened.page.setViewportSize({ width, height });
  return opened;
}

async function waitLive(page: Page) {
  await page.locator('[data-testid="alert-wall"][data-live="yes"]').waitFor({ timeout: 20_000 });
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const created = await postJson<{ id: number; refId: number }>('/smartdata/cabin/create', {
    parentId: null,
    type: 'dataItem',
    name: 'E2E冷库',
    kind: 10,
  });
  expect(created.code, created.message).toBe(0);
  itemId = created.data.refId;
  const updated = await postJson('/smartdata/item/update', {
    itemId,
    fields: [{ name: '温度', unit: '℃', type: 1, decimals: 1 }],
  });
  expect(updated.code, updated.message).toBe(0);
  const key = await postJson<{ key: string }>('/smartdata/key/create', { name: 'E2E冷库探头', kind: 'user' });
  expect(key.code, key.message).toBe(0);
  submitKey = key.data.key;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('alarm wall', () => {
  test('a rule made by clicking the form is listed and stored as entered (zh 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, '/cloudSurveillance/alertRule', 'alert-rule-page');
      await page.getByRole('button', { name: '新建规则' }).click();
      const dialog = page.locator('.ant-modal-wrap:visible');
      await dialog.getByLabel('名称', { exact: true }).fill(RULE);
      await pickOption(page, dialog.getByLabel('数据项', { exact: true }), 'E2E冷库');
      await pickOption(page, dialog.getByLabel('字段', { exact: true }), '温度');
      // the condition stays "above"
      await dialog.getByLabel('1 级', { exact: true }).fill('80');
      await dialog.getByLabel('2 级', { exact: true }).fill('90');
      await dialog.getByLabel('3 级', { exact: true }).fill('100');
      await dialog.getByLabel('持续时间（秒）', { exact: true }).fill('30');
      await dialog.getByLabel('恢复阈值', { exact: true }).fill('75');
      await pickOption(page, dialog.getByLabel('接收人', { exact: true }), '演示管理员');
      await page.keyboard.press('Escape');
      await shot(page, 'alertwall-rule-form-zh-1440');
      await modalOk(page);
      await success(page);
      const row = page.locator('tr', { hasText: RULE });
      await row.waitFor();
      expect(await row.innerText()).toContain('E2E冷库 · 温度');
      expect(await row.innerText()).toContain('L1 80 / L2 90 / L3 100');
      // what the server keeps is what was typed
      const rules = await api<{ list: Array<Record<string, unknown>> }>(
        `/cloudSurveillance/rule/list?name=${encodeURIComponent(RULE)}`,
      );
      expect(rules.data.list).toHaveLength(1);
      expect(rules.data.list[0]).toMatchObject({
        itemId,
        condition: 'above',
        durationS: 30,
        clear: { threshold: 75 },
        channels: ['app'],
        levels: [
          { level: 1, threshold: 80 },
          { level: 2, threshold: 90 },
          { level: 3, threshold: 100 },
        ],
      });
      const me = await api<{ userId: number }>('/user/getUser');
      const recipients = (rules.data.list[0] as { recipients: { userIds: number[] } }).recipients;
      expect(recipients.userIds).toEqual([me.data.userId]);
    } finally {
      await context.close();
    }
  });

  test('a breach reaches the wall live with a sound; acknowledged on the wall, cleared in the log (zh 1920×1080)', async () => {
    const wall = await openWall('zh', 1920, 1080);
    const log = await openAs('zh', 1440);
    try {
      await go(wall.page, '/alertdashboard', 'alert-wall');
      await waitLive(wall.page);
      await wall.page.getByTestId('wall-empty').waitFor();
      expect(await count(wall.page, 2)).toBe('0');
      await shot(wall.page, 'alertwall-empty-zh-1920');
      // the sound, off by default; the click turning it on is remembered
      const sound = wall.page.getByTestId('wall-sound');
      expect(await sound.getAttribute('aria-checked')).toBe('false');
      await sound.click();
      expect(await wall.page.evaluate(() => localStorage.getItem('alarmWall.sound'))).toBe('on');
      const before = await navigations(wall.page);

      // held above level 2 for 60 s of the records' own time (the rule asks 30 s); both a minute
      // in the past, so that the next test's records, stamped from 40 s ago, are newer than
      // these (the engine judges no record older than the last it judged)
      await submit(95.5, new Date(Date.now() - 120_000));
      await submit(95.5, new Date(Date.now() - 60_000));
      const row = wall.page.locator('.alarm-wall-row', { hasText: RULE });
      await row.waitFor({ timeout: 20_000 });
      expect(await row.innerText()).toContain('2 级');
      expect(await row.innerText()).toContain('95.5');
      expect(await row.innerText()).toContain('E2E冷库');
      await expect.poll(() => count(wall.page, 2), { timeout: 10_000 }).toBe('1');
      expect(await count(wall.page, 1)).toBe('0');
      expect(await count(wall.page, 3)).toBe('0');
      expect(await sound.getAttribute('data-beeps')).toBe('1');
      // the duration ticks: the text changes on its own
      const since = row.locator('.alarm-wall-since');
      const first = await since.innerText();
      await expect.poll(() => since.innerText(), { timeout: 10_000 }).not.toBe(first);
      expect(await navigations(wall.page)).toBe(before);
      await shot(wall.page, 'alertwall-alarm-zh-1920');

      // acknowledged from the wall with a comment
      // antd spaces a two-character Chinese label: "确 认"
      await row.getByRole('button', { name: /^确\s?认$/ }).click();
      await wall.page.getByLabel('说明').fill('已派人检查冷机');
      await modalOk(wall.page);
      await row.locator('.alarm-wall-acked').waitFor();
      expect(await row.innerText()).toContain('已确认（演示管理员）');

      // the log shows it acknowledged; clearing it there empties the wall live
      await go(log.page, '/cloudSurveillance/alertLog', 'alert-log-page');
      const logRow = log.page.locator('tr', { hasText: RULE }).first();
      await logRow.waitFor();
      expect(await logRow.innerText()).toContain('已派人检查冷机');
      await logRow.getByRole('button', { name: '清除' }).click();
      await log.page.locator('.ant-popconfirm .ant-btn-primary').click();
      await log.page.locator('tr', { hasText: '已清除' }).waitFor();
      await wall.page.getByTestId('wall-empty').waitFor({ timeout: 20_000 });
      await expect.poll(() => count(wall.page, 2), { timeout: 10_000 }).toBe('0');
      expect(await navigations(wall.page)).toBe(before);
    } finally {
      await wall.context.close();
      await log.context.close();
    }
  });

  test('a lost connection is shown, not hidden; an alarm fired meanwhile appears once it is back (en 1920×1080)', async () => {
    const { context, page } = await openWall('en', 1920, 1080);
    let down = false;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/cloudSurveillance\/alarm\/live/, (ws) => {
      if (down) {
        void ws.close({ code: 4000, reason: 'network down' });
        return;
      }
      ws.connectToServer();
      sockets.push(ws);
    });
    try {
      await go(page, '/alertdashboard', 'alert-wall');
      await waitLive(page);
      await page.getByTestId('wall-empty').waitFor();
      expect(await page.getByTestId('wall-lost').count()).toBe(0);
      down = true;
      for (const ws of sockets.splice(0)) await ws.close({ code: 4000, reason: 'network down' });
      await page.locator('[data-testid="alert-wall"][data-live="no"]').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('wall-lost').innerText()).toContain('connection to the server was lost');
      expect(await page.getByTestId('wall-connection').innerText()).toContain('Connection lost');
      expect(await page.getByTestId('alert-wall').getAttribute('class')).toContain('is-stale');

      // a breach while the wall hears nothing (the rule's state was reset by the clear)
      await submit(101, new Date(Date.now() - 40_000));
      await submit(101.5);
      await shot(page, 'alertwall-lost-en-1920');
      down = false;
      await waitLive(page);
      const row = page.locator('.alarm-wall-row', { hasText: RULE });
      await row.waitFor({ timeout: 20_000 });
      expect(await row.innerText()).toContain('Level 3');
      expect(await row.innerText()).toContain('101.5');
      await expect.poll(() => count(page, 3), { timeout: 10_000 }).toBe('1');
      expect(await page.getByTestId('wall-lost').count()).toBe(0);
      await shot(page, 'alertwall-alarm-en-1920');
    } finally {
      await context.close();
    }
  });

  test('the home card shows my open alarms with links to the log and the wall; the wall at 1440 and 390 px', async () => {
    for (const [lang, width] of [
      ['zh', 1440],
      ['en', 1440],
      ['zh', 390],
      ['en', 390],
    ] as const) {
      const { context, page } = await openAs(lang, width);
      try {
        await page.getByTestId('home-page').waitFor();
        const card = page.getByTestId('home-my-alarms');
        await card.locator('.ant-list-item', { hasText: RULE }).waitFor();
        expect(await page.getByTestId('home-alarm-count-3').innerText()).toContain('1');
        await card.scrollIntoViewIfNeeded();
        await shot(page, `alertwall-home-card-${lang}-${width}`);
        if (lang === 'zh' && width === 1440) {
          await card.getByRole('link', { name: '告警大屏' }).click();
          await page.getByTestId('alert-wall').waitFor();
        } else {
          await go(page, '/alertdashboard', 'alert-wall');
        }
        await waitLive(page);
        await page.locator('.alarm-wall-row', { hasText: RULE }).waitFor();
        await shot(page, `alertwall-alarm-${lang}-${width}`);
      } finally {
        await context.close();
      }
    }
  });
});
