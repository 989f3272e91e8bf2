/**
 * Device views as a person uses them, with the demo company's simulated gateways (the fleet
 * `npm start` runs: each bound gateway runs its configuration version 1 and polls its meters,
 * sending the answers as raw frames that the platform decodes into the demo's IoT items).
 * The data chart shows the device's points and grows live while "last hour" is shown; the data
 * flow draws the running configuration and lights up as frames arrive (values on the parser,
 * frames counted on the port, records pulsing the items).
 * Screenshots zh/en at 1440 and 390 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
let device: { id: number; name: string };
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

async function waitUntil<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const list = await api<{ list: Array<{ id: number; name: string; online: boolean }> }>(
    '/devicemanagement/device/list?pageNum=1&pageSize=100',
  );
  // a demo gateway that runs a configuration with points and is online
  const seen: unknown[] = [];
  device = await waitUntil(async () => {
    seen.length = 0;
    for (const d of list.data.list) {
      const points = await api<{ version: number | null; points: Array<{ numeric: boolean }> }>(
        `/devicemanagement/device/points?id=${d.id}`,
      );
      const online = await api<{ online: boolean }>(`/devicemanagement/device/detail?id=${d.id}`);
      seen.push({ d, points: points.data, online: online.data?.online });
      if (points.data?.version != null && points.data.points.some((p) => p.numeric) && online.data?.online)
        return d;
    }
    return undefined;
  }, 'a demo gateway online with points').catch((error) => {
    throw new Error(`${error.message}: ${JSON.stringify(seen).slice(0, 3000)}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** how many buckets the charts of the page draw */
async function drawnPoints(page: Page): Promise<number> {
  const counts = await page
    .locator('.dv-chart')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-points') ?? 0)));
  return counts.reduce((a, b) => a + b, 0);
}

describe('the data chart', () => {
  test('shows the points of the running configuration and grows live (zh, 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, `/dtuChart/${device.id}`, 'dv-chart-page');
      await page.locator('.dv-chart').first().waitFor({ timeout: 30_000 });
      // the chosen points: the device's numeric points, all of them up to the default
      const chosen = await page.locator('[data-testid=dv-points] .ant-select-selection-item').count();
      expect(chosen).toBeGreaterThan(0);
      await page.getByTestId('dv-live').getByText('实时').waitFor({ timeout: 20_000 });
      const before = await drawnPoints(page);
      // the demo gateways poll every few seconds: a new reading is appended without reloading
      await waitUntil(async () => (await drawnPoints(page)) > before, 'a live reading on the chart', 60_000);
      expect(await page.getByTestId('dv-export').isEnabled()).toBe(true);
      await shot(page, 'deviceviews-chart-zh-1440');
      // the spec's windows are offered, a day reads from the server again
      await page.getByTestId('dv-window').getByText('24 小时').click();
      await page.locator('.dv-chart').first().waitFor();
      expect(await drawnPoints(page)).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  }, 120_000);

  test('reads in English and exports what it shows as CSV (en, 1440)', async () => {
    const { context, page } = await openAs('en', 1440);
    try {
      await go(page, `/dtuChart/${device.id}`, 'dv-chart-page');
      await page.locator('.dv-chart').first().waitFor({ timeout: 30_000 });
      await page.getByText('Data chart', { exact: false }).first().waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('dv-export').click(),
      ]);
      const file = await download.path();
      const { readFile } = await import('node:fs/promises');
      const text = (await readFile(file!, 'utf8')).replace(/^\uFEFF/, '');
      const lines = text.trim().split(/\r\n/);
      expect(lines[0]).toBe('Time,Point,Unit,Average,Minimum,Maximum,Readings');
      expect(lines.length).toBeGreaterThan(1);
      await shot(page, 'deviceviews-chart-en-1440');
    } finally {
      await context.close();
    }
  }, 120_000);

  test('fits a phone (zh and en, 390)', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await openAs(lang, 390);
      try {
        await go(page, `/dtuChart/${device.id}`, 'dv-chart-page');
        await page.locator('.dv-chart').first().waitFor({ timeout: 30_000 });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await shot(page, `deviceviews-chart-${lang}-390`);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});

describe('the data flow', () => {
  test('draws the running configuration and lights up as frames arrive (zh, 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, `/dataflow/${device.id}/dtu/${encodeURIComponent(device.name)}`, 'dv-flow-page');
      await page.getByTestId('dv-canvas').locator('.react-flow__node').first().waitFor();
      const comNodes = page.locator('[data-testid^=dv-counts-]');
      expect(await comNodes.count()).toBeGreaterThan(0);
      await page.getByTestId('dv-live').getByText('实时').waitFor({ timeout: 20_000 });
      // a frame arrives: it is listed, the parser shows the values it decoded, something lights
      await page
        .locator('[data-testid=dv-recent] tbody tr.ant-table-row')
        .first()
        .waitFor({ timeout: 60_000 });
      await page.locator('[data-testid^=dv-values-] li').first().waitFor({ timeout: 30_000 });
      await page.locator('[data-activity=lit]').first().waitFor({ timeout: 30_000 });
      expect(
        await page.locator('[data-testid=dv-recent] tbody tr.ant-table-row').first().innerText(),
      ).toContain('COM');
      await shot(page, 'deviceviews-flow-zh-1440');
    } finally {
      await context.close();
    }
  }, 120_000);

  test('in English and on a phone', async () => {
    for (const [lang, width] of [
      ['en', 1440],
      ['zh', 390],
      ['en', 390],
    ] as const) {
      const { context, page } = await openAs(lang, width);
      try {
        await go(page, `/dataflow/${device.id}/dtu/${encodeURIComponent(device.name)}`, 'dv-flow-page');
        await page.getByTestId('dv-canvas').locator('.react-flow__node').first().waitFor();
        await page.locator('[data-testid^=dv-values-] li').first().waitFor({ timeout: 60_000 });
        await shot(page, `deviceviews-flow-${lang}-${width}`);
      } finally {
        await context.close();
      }
    }
  }, 240_000);
});
