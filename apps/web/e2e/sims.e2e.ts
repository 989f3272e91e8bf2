/**
 * SIM data cards as a person uses them, on the demo company's eight cards (one moved from one
 * gateway to another) and the platform's stock of four: the list with its usage bars and the
 * moved flag, its filters, an import with a rejected row, the export, a card's page with the
 * usage chart and the gateways it was in, acknowledging the move; in system maintenance,
 * assigning a card from the stock and suspending it. Screenshots in Chinese and English at
 * 1440 and 390 px.
 */
import { readFileSync } from 'node:fs';
import { luhnCheckDigit } from '@platform/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, type Lang, openBrowser, type RunningServer, shot, startServer } from './harness';
import { pickOption, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

interface Card {
  id: number;
  iccid: string;
  moved: { from: string; to: string } | null;
  company?: { id: number; name: string } | null;
}

let serial = 0;
/** a new China Mobile ICCID with its check digit */
function newIccid(): string {
  serial += 1;
  const body = `89860099${String(Date.now() % 1e9).padStart(9, '0')}${String(serial).padStart(2, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

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

async function cards(query = ''): Promise<Card[]> {
  const page = await api<{ list: Card[] }>(`/devicecommunication/sim/list?pageSize=100${query}`);
  expect(page.code, page.message).toBe(0);
  return page.data.list;
}

const rows = (page: Page) => page.getByTestId('sim-table').locator('tbody tr.ant-table-row');

const WORDS = {
  zh: {
    title: '数据卡',
    moved: '已移动',
    summary: '共 3 行：新增 2 张，更新 0 张',
    reason: 'ICCID 校验位不符，请核对卡号',
  },
  en: {
    title: 'SIM Data Cards',
    moved: 'Moved',
    summary: '3 rows: 2 cards added, 0 updated',
    reason: 'The check digit of the ICCID does not match: please check the number',
  },
} as const;

describe('the SIM list', () => {
  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`shows the cards with usage and the moved flag (${lang}, ${width} px), and imports with a rejected row`, async () => {
        const { context, page } = await openAs(lang, width);
        try {
          await go(page, '/devicecommunication/simList', 'sim-list');
          const before = (await cards()).length;
          await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBe(Math.min(before, 20));
          expect(await page.getByTestId('sim-list').innerText()).toContain(WORDS[lang].title);
          // the usage bars of the demo cards with a plan, and the one moved card
          expect(await page.getByTestId('sim-usage').count()).toBeGreaterThanOrEqual(6);
          expect(await page.getByTestId('sim-moved').count()).toBe(1);
          expect(await page.getByTestId('sim-moved').innerText()).toContain(WORDS[lang].moved);
          if (width === 390) {
            // nothing sticks out of the phone's width but the table's own scroller
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            expect(overflow).toBeLessThanOrEqual(0);
          }
          await shot(page, `sims-list-${lang}-${width}`);

          const good = [newIccid(), newIccid()];
          const bad = newIccid();
          const wrong = `${bad.slice(0, -1)}${(Number(bad.at(-1)) + 1) % 10}`;
          const csv = [
            lang === 'zh' ? 'ICCID,运营商,套餐(MB),备注' : 'ICCID,Carrier,Plan (MB),Notes',
            `${good[0]},中国移动,500,${lang}-${width}`,
            `${wrong},,100,`,
            `${good[1]},,2048,`,
          ].join('\n');
          await page.getByTestId('sim-import-open').click();
          await page
            .getByTestId('sim-import-modal')
            .locator('input[type=file]')
            .setInputFiles({ name: 'cards.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
          const result = page.getByTestId('sim-import-result');
          await expect.poll(() => result.innerText(), { timeout: 20_000 }).toContain(WORDS[lang].summary);
          const rejected = page.getByTestId('sim-import-rejected').locator('tbody tr');
          expect(await rejected.count()).toBe(1);
          expect(await rejected.locator('td').allInnerTexts()).toEqual(['3', 'ICCID', WORDS[lang].reason]);
          await shot(page, `sims-import-${lang}-${width}`);
          await page.keyboard.press('Escape');
          const after = await cards();
          expect(after.map((c) => c.iccid)).toEqual(expect.arrayContaining(good));
          expect(after.map((c) => c.iccid)).not.toContain(wrong);
        } finally {
          await context.close();
        }
      });
    }
  }

  test('filters, searches, sorts and exports', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/devicecommunication/simList', 'sim-list');
      await rows(page).first().waitFor();
      const moved = (await cards('&moved=true'))[0]!;
      // the gateway's serial number finds its card, typed in lower case
      const search = page.getByTestId('sim-search').locator('input');
      await search.fill(moved.moved!.to.toLowerCase());
      await search.press('Enter');
      await expect.poll(() => rows(page).count()).toBe(1);
      expect(await rows(page).first().innerText()).toContain(moved.iccid);
      await search.fill('');
      await search.press('Enter');
      await pickOption(page, page.getByTestId('sim-filter-moved'), '已移动');
      await expect.poll(() => rows(page).count()).toBe(1);
      await pickOption(page, page.getByTestId('sim-filter-moved'), '未移动');
      const still = await cards('&moved=false');
      await expect.poll(() => rows(page).count()).toBe(Math.min(20, still.length));
      // sorted by usage, the heaviest first (a card without a plan has no share: last)
      await page.locator('.ant-table-thead th', { hasText: '本月用量' }).click();
      await page.locator('.ant-table-thead th', { hasText: '本月用量' }).click();
      const sorted = await cards('&moved=false&sortField=usage&sortOrder=desc');
      await expect
        .poll(async () => (await rows(page).locator('a.sim-mono').allInnerTexts()).join())
        .toBe(
          sorted
            .slice(0, 20)
            .map((c) => c.iccid)
            .join(),
        );
      await pickOption(page, page.getByTestId('sim-filter-usage'), '20%');
      const heavy = await cards('&moved=false&usageMin=20');
      await expect.poll(() => rows(page).count()).toBe(heavy.length);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        (async () => {
          await page.getByTestId('sim-export').hover();
          await page.locator('.ant-dropdown-menu-item', { hasText: 'CSV' }).click();
        })(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^SIM卡-\d{8}-\d{6}\.csv$/);
      const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      // the export follows the filter: the heavy users only
      expect(text.trim().split('\n')).toHaveLength(heavy.length + 1);
    } finally {
      await context.close();
    }
  });
});

describe('a card’s page', () => {
  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`shows the usage chart, the readings and the gateways (${lang}, ${width} px)`, async () => {
        const moved = (await cards('&moved=true'))[0]!;
        const { context, page } = await openAs(lang, width);
        try {
          await go(page, `/devicecommunication/simDetail/${moved.id}`, 'sim-detail');
          await page.getByTestId('sim-detail-iccid').waitFor();
          expect(await page.getByTestId('sim-detail-iccid').innerText()).toBe(moved.iccid);
          // ECharts drew its canvas
          await page.getByTestId('sim-usage-chart').locator('canvas').waitFor({ timeout: 20_000 });
          expect(await page.getByTestId('sim-readings').locator('tbody tr.ant-table-row').count()).toBe(8);
          const gateways = page.getByTestId('sim-gateways').locator('tbody tr.ant-table-row');
          expect(await gateways.count()).toBe(2);
          expect(await gateways.first().innerText()).toContain(moved.moved!.to);
          expect(await page.getByTestId('sim-moved-alert').innerText()).toContain(moved.moved!.from);
          if (width === 390) {
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            expect(overflow).toBeLessThanOrEqual(0);
          }
          await shot(page, `sims-detail-${lang}-${width}`);
        } finally {
          await context.close();
        }
      });
    }
  }

  test('acknowledging the move clears the flag and keeps who did it', async () => {
    const moved = (await cards('&moved=true'))[0]!;
    const { context, page } = await openAs('zh');
    try {
      await go(page, `/devicecommunication/simDetail/${moved.id}`, 'sim-detail');
      await page.getByTestId('sim-ack').click();
      await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
      await page.getByTestId('sim-last-move').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('sim-moved-alert').count()).toBe(0);
      expect(await page.getByTestId('sim-last-move').innerText()).toContain(moved.moved!.from);
      expect(await cards('&moved=true')).toHaveLength(0);
      await shot(page, 'sims-detail-acknowledged-zh-1440');
    } finally {
      await context.close();
    }
  });
});

describe('system maintenance', () => {
  for (const [lang, width] of [
    ['zh', 1440],
    ['en', 390],
  ] as Array<[Lang, number]>) {
    test(`lists every card with its company (${lang}, ${width} px)`, async () => {
      const { context, page } = await openAs(lang, width);
      try {
        await go(page, '/systemMaintenance/systemsim', 'system-sim-list');
        await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(12);
        await shot(page, `sims-system-${lang}-${width}`);
      } finally {
        await context.close();
      }
    });
  }

  test('assigns a card of the stock to the demo company, then suspends and resumes it', async () => {
    const stock = await api<{ list: Card[] }>('/system/sim/list?stock=true&pageSize=100');
    const card = stock.data.list[0]!;
    const company = await api<{ displayName: string }>('/company/getCompany');
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/systemMaintenance/systemsim', 'system-sim-list');
      await pickOption(page, page.getByTestId('sim-filter-stock'), '平台库存');
      await expect.poll(() => rows(page).count()).toBe(stock.data.list.length);
      await rows(page).filter({ hasText: card.iccid }).locator('.ant-checkbox-input').check();
      await page.getByTestId('sim-assign-open').click();
      await page
        .getByTestId('sim-assign-company')
        .locator('input')
        .fill(company.data.displayName.slice(0, 2));
      await page.locator('.ant-select-item-option', { hasText: company.data.displayName }).first().click();
      await page.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary').click();
      await expect.poll(() => rows(page).count()).toBe(stock.data.list.length - 1);
      expect((await cards()).map((c) => c.iccid)).toContain(card.iccid);

      await go(page, `/systemMaintenance/syssimdetail/${card.id}`, 'sim-detail');
      await page.getByTestId('sim-suspend').click();
      await page.locator('.ant-modal-confirm-btns .ant-btn-dangerous').click();
      await expect.poll(() => page.getByTestId('sim-detail-state').innerText()).toBe('停机');
      await shot(page, 'sims-system-detail-zh-1440');
      await page.getByTestId('sim-resume').click();
      await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
      await expect.poll(() => page.getByTestId('sim-detail-state').innerText()).toBe('正常');
    } finally {
      await context.close();
    }
  });
});
