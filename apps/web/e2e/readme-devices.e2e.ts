/**
 * The README's devices walkthrough, as a newcomer follows it on the started platform (the demo
 * company's simulated gateways running inside the server, as `npm start` runs them): log in as
 * the demo administrator, see the three bound gateways online in the device list, open the
 * 设备 / Devices directory of the data cabin and an item one of them feeds, whose records
 * arrive while the page is open; bind the waiting gateway by its serial number, with the
 * countdown, press its bind button on the demo devices page, see "Bound successfully" and the
 * gateway online in the list. The serial number and the page's address are read from the
 * README, so the test follows what it says. Screenshots in zh and en at 1440 and 390 px.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SUCCESS_MESSAGES } from '@platform/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, REPO_ROOT, type RunningServer, shot, startServerAndBrowser } from './harness';
import { pickTree, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
const { acceptTerms, openAs, go } = supportFor(() => ({ server, browser }));

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const BOUND = ['SDG2024000101', 'SDG2024000102', 'SDG4024000103'];
/** the item the README names, fed by the switch room gateway */
const ITEM = '配电室电量';
const DIR = '设备';

/** What the README's walkthrough names: the waiting gateway and the demo devices page. */
function fromReadme(): { waiting: string; demoPage: string } {
  const section = README.slice(README.indexOf('### Devices walkthrough'));
  const waiting = /type the serial number `([A-Z0-9]+)`/.exec(section)?.[1];
  const demoPage = /http:\/\/127\.0\.0\.1:8080(\/general\/dev\/demoDevices)/.exec(section)?.[1];
  expect(waiting, 'the README names the waiting gateway').toBeTruthy();
  expect(demoPage, 'the README names the demo devices page').toBeTruthy();
  return { waiting: waiting!, demoPage: demoPage! };
}

function row(page: Page, sn: string) {
  return page.getByTestId(`device-row-${sn}`);
}

async function boundOnline(page: Page): Promise<void> {
  for (const sn of BOUND) await row(page, sn).locator('[data-online=true]').waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  [server, browser] = await startServerAndBrowser();
  await acceptTerms(DEMO_ADMIN.phone, DEMO_ADMIN.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the README devices walkthrough', () => {
  test('npm start says where the demo gateways’ buttons are', () => {
    const { demoPage } = fromReadme();
    expect(server.output()).toMatch(/demo gateways: 4 simulated, their buttons at http:\/\/127\.0\.0\.1:\d+/);
    expect(server.output()).toContain(demoPage);
  });

  test('the three bound gateways are online in the device list', async () => {
    for (const [lang, width] of [
      ['zh', 1440],
      ['en', 1440],
      ['zh', 390],
    ] as const) {
      const { context, page } = await openAs(lang, width);
      await go(page, '/devicemanagement/devicelist', 'device-list-page');
      await boundOnline(page);
      for (const sn of BOUND)
        await row(page, sn).locator('[data-testid=device-status][data-status=running]').waitFor();
      await shot(page, `readme-devices-list-${lang}-${width}`);
      await context.close();
    }
  });

  test('an item a gateway feeds: its records arrive while the page is open', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await openAs(lang, 1440);
      await go(page, '/smartdata/datacapsule', 'datacabin-page');
      await page.getByTestId('cabin-tree').getByTestId(`tree-node-${DIR}`).click();
      await page.locator('.ant-breadcrumb', { hasText: DIR }).waitFor();
      // the three gateways and the six items they feed
      for (const name of ['锅炉房采集网关', '配电室网关', '锅炉给水', '压缩空气', ITEM])
        await page.getByTestId(`entry-${name}`).waitFor();
      await shot(page, `readme-devices-cabin-${lang}-1440`);
      await page.getByTestId(`entry-${ITEM}`).click();
      await page.getByTestId('records-view').waitFor();
      const rows = page.locator('[data-testid="records-table"] tbody tr[data-row-key]');
      // the gateway reads its meters every 10 s: a first record, then a newer one on top
      await rows.first().waitFor({ timeout: 30_000 });
      const first = await rows.first().getAttribute('data-row-key');
      await expect
        .poll(async () => rows.first().getAttribute('data-row-key'), { timeout: 30_000 })
        .not.toBe(first);
      const cells = await rows.first().locator('td').allInnerTexts();
      // a mains voltage in the row (220 V or so), decoded from the meter's frame
      expect(
        cells.some((c) => /\b2[0-4]\d\.\d\b/.test(c)),
        cells.join(' | '),
      ).toBe(true);
      await shot(page, `readme-devices-records-${lang}-1440`);
      await context.close();
    }
  });

  test('binding the waiting gateway: its serial number, the countdown, its button, "Bound successfully"', async () => {
    const { waiting, demoPage } = fromReadme();
    const { context, page } = await openAs('en', 1440);
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    await page.locator('[data-testid=device-live][data-live=on]').waitFor({ timeout: 20_000 });
    await expect(row(page, waiting).count()).resolves.toBe(0);
    await page.getByTestId('device-bind').click();
    await page.getByTestId('bind-dialog').waitFor();
    await pickTree(page, page.getByTestId('bind-parent'), DIR);
    await page.getByTestId('bind-sn').fill(waiting);
    await page.getByTestId('bind-name').fill('Workshop gateway');
    await page.getByTestId('bind-submit').click();
    const countdown = page.getByTestId('bind-countdown');
    await countdown.waitFor();
    expect(Number(await countdown.getAttribute('data-seconds'))).toBeGreaterThan(0);
    await page.getByText(`Press the bind button on gateway ${waiting}`).waitFor();
    await shot(page, 'readme-devices-bind-countdown-en-1440');

    // the demo devices page, as the README says: the gateway's bind light blinks, its button confirms
    const box = await context.newPage();
    await box.goto(`${server.url}${demoPage}`);
    const card = box.locator('section.gw', { hasText: waiting });
    const press = card.getByRole('button', { name: /Press the bind button/ });
    await expect
      .poll(
        async () => {
          if (await press.isEnabled()) return true;
          await box.reload();
          return false;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await card.getByText('bind light blinking').waitFor();
    await shot(box, 'readme-devices-demo-page-blinking-1440');
    await press.click();
    await box.locator('.note', { hasText: 'confirmed' }).waitFor();
    await shot(box, 'readme-devices-demo-page-pressed-1440');

    await page.bringToFront();
    await page.getByTestId('bind-result-bound').filter({ hasText: SUCCESS_MESSAGES.bound.en }).waitFor();
    await shot(page, 'readme-devices-bound-en-1440');
    await page.getByTestId('bind-done').click();
    await row(page, waiting).locator('[data-online=true]').waitFor({ timeout: 20_000 });
    await expect(row(page, waiting).innerText()).resolves.toContain('Workshop gateway');
    await shot(page, 'readme-devices-list-after-bind-en-1440');
    await context.close();

    // in Chinese on a phone, the four gateways online
    const zh = await openAs('zh', 390);
    await go(zh.page, '/devicemanagement/devicelist', 'device-list-page');
    await boundOnline(zh.page);
    await row(zh.page, waiting).locator('[data-online=true]').waitFor({ timeout: 20_000 });
    await shot(zh.page, 'readme-devices-list-after-bind-zh-390');
    await zh.context.close();
  });
});
