/**
 * Electricity meters as a person uses them, on the demo company (its meters MAIN with LIGHT and
 * AIR as children, the virtual OTHER, a time-of-use tariff, two months of hourly readings):
 * a standard meter made from the data cabin through the form (a CT of 0 is refused under its
 * field), its page with live values and energy; the demo incomer's monthly report, downloaded
 * as XLSX and read back; a virtual meter's formula naming an unknown meter refused as typed and
 * then accepted; time-of-use hours with a gap refused by the server; the monthly report's PDF,
 * downloaded through its button, read page by page (pdfjs-dist) and its first page drawn by
 * pdf.js in the browser. Screenshots of the meter page and the report in Chinese at 390 px and
 * English at 1440 px.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { allowPageErrors, refused, SCREENSHOT_DIR, shot } from './harness';
import { demoAdminRun, noSideways, numberInput, pickOption, pickTree } from './support';

const { api, openAs, go } = demoAdminRun();

const RUN = Date.now().toString(36).toUpperCase().slice(-5);

interface Meter {
  id: number;
  name: string;
  code: string;
  type: number;
}

interface Report {
  kWh: number;
  totalCents: number;
  balance: { difference: number; childrenKWh: number } | null;
}

async function meters(): Promise<Meter[]> {
  const answer = await api<Meter[]>('/meter/list');
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
}

async function demoMeter(code: string): Promise<Meter> {
  const m = (await meters()).find((x) => x.code === code);
  expect(m, code).toBeTruthy();
  return m!;
}

/** Last month in the company's calendar (whole in the demo's history). */
async function lastMonth(): Promise<{ year: number; month: number }> {
  const company = await api<{ timeZone: string }>('/company/getCompany');
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: company.data.timeZone })
    .format(new Date())
    .split('-')
    .map(Number) as [number, number];
  return m === 1 ? { year: y - 1, month: 12 } : { year: y, month: m - 1 };
}

const text = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).innerText()).replace(/\s+/g, ' ');

/** The error shown under a form field (antd's explain) of the item holding this test id. */
const fieldError = (page: Page, testId: string) =>
  page
    .locator('.ant-form-item', { has: page.locator(`[data-testid="${testId}"]`) })
    .locator('.ant-form-item-explain-error');

/** The text of each page of a PDF, read by pdf.js in Node (its legacy build), spaces squeezed. */
async function pdfPages(bytes: Buffer): Promise<string[]> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    disableFontFace: true,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await pdf.destroy();
  return pages;
}

/** pdf.js's browser build, served to a page of its own origin (nothing of the app's). */
const PDFJS_BUILD = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/build/pdf.mjs'));
const VIEWER = 'http://pdfjs.test';

/**
 * Page 1 of a PDF drawn by pdf.js in the browser on a canvas (its worker loaded into the page,
 * so no worker thread), saved as a screenshot of the canvas: what a reader's PDF viewer shows.
 */
async function drawFirstPage(context: BrowserContext, bytes: Buffer, name: string): Promise<string> {
  const viewer = await context.newPage();
  try {
    await viewer.route(`${VIEWER}/**`, (route) => {
      const file = new URL(route.request().url()).pathname.slice(1);
      if (file === 'view.html')
        return route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html><body style="margin:0;background:#888">
<script type="module">
import * as pdfjsLib from '/pdf.mjs';
import * as pdfjsWorker from '/pdf.worker.mjs';
window.pdfjsWorker = pdfjsWorker;
window.pdfjsLib = pdfjsLib;
</script></body></html>`,
        });
      if (file === 'pdf.mjs' || file === 'pdf.worker.mjs')
        return route.fulfill({
          contentType: 'text/javascript',
          body: readFileSync(path.join(PDFJS_BUILD, file)),
        });
      return route.fulfill({ status: 404, body: '' });
    });
    await viewer.goto(`${VIEWER}/view.html`);
    await viewer.waitForFunction(() => 'pdfjsLib' in window);
    const size = await viewer.evaluate(async (base64) => {
      type PdfJs = typeof import('pdfjs-dist');
      const pdfjs = (window as unknown as { pdfjsLib: PdfJs }).pdfjsLib;
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const pdf = await pdfjs.getDocument({ data }).promise;
      const page = await pdf.getPage(1);
      const viewport = page.getViewport({ scale: 1.5 });
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      canvas.style.display = 'block';
      document.body.append(canvas);
      await page.render({ canvas, viewport }).promise;
      return { width: canvas.width, height: canvas.height };
    }, bytes.toString('base64'));
    await viewer.setViewportSize(size);
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    await viewer.locator('canvas').screenshot({ path: file });
    return file;
  } finally {
    await viewer.close();
  }
}

describe('electricity meters', () => {
  test('a standard meter made from the data cabin, with live values and energy', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/smartdata/datacapsule', 'datacabin-page');
      await page.getByTestId('cabin-new-meter').click();
      await page.getByTestId('cabin-new-meter-standard').click();
      await page.getByTestId('meter-config-page').waitFor();
      expect(new URL(page.url()).pathname).toBe('/smartdata/electricMeterConfig/0/-');

      const name = `E2E 电表 ${RUN}`;
      await page.getByTestId('meter-name').fill(name);
      await page.getByTestId('meter-code').fill(`E${RUN}`);
      await pickTree(page, page.getByTestId('meter-item'), '配电室电量');
      await pickOption(page, page.getByTestId('meter-point-energy'), '电能');
      await pickOption(page, page.getByTestId('meter-point-power'), '有功功率');
      await pickOption(page, page.getByTestId('meter-point-voltageA'), '电压');
      // a CT of 0 is no transformer: refused under its field, nothing saved
      await numberInput(page, 'meter-ctPrimary').fill('0');
      await page.getByTestId('meter-save').click();
      await expect.poll(() => fieldError(page, 'meter-ctPrimary').innerText()).toContain('大于 0');
      expect((await meters()).some((m) => m.name === name)).toBe(false);
      await shot(page, 'meter-config-refused-zh-1440');

      await numberInput(page, 'meter-ctPrimary').fill('200');
      await numberInput(page, 'meter-ctSecondary').fill('5');
      await page.getByTestId('meter-save').click();
      await page.getByTestId('standard-meter-page').waitFor({ timeout: 15_000 });
      const made = (await meters()).find((m) => m.name === name)!;
      expect(made.code).toBe(`E${RUN}`);
      expect(new URL(page.url()).pathname).toBe(
        `/standardElectricMeter/${made.id}/${encodeURIComponent(name)}`,
      );

      // live values: the newest reading of each bound point with its time
      const energy = page.getByTestId('meter-live-energy');
      await expect.poll(() => energy.innerText(), { timeout: 15_000 }).toMatch(/\d[\d,.]* kWh/);
      expect(await text(page, 'meter-live-energy')).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
      await page.getByTestId('meter-live-voltageA').waitFor();
      // energy per day over the last 30 days, split by time-of-use period, with cost
      await expect
        .poll(() => text(page, 'meter-energy-figures'), { timeout: 15_000 })
        .toMatch(/合计电量 [\d,.]+ kWh/);
      expect(await text(page, 'meter-energy-figures')).toMatch(/¥[\d,.]+/);
      expect(await text(page, 'meter-energy-figures')).toContain('谷');
      await page.getByTestId('meter-energy-chart').waitFor();
      // its monthly report and its form are one click away
      expect(await page.getByTestId('meter-report-link').getAttribute('href')).toMatch(
        new RegExp(`^/standardReport/\\d{4}/\\d{1,2}/${made.id}/`),
      );

      // the data cabin opens it as a meter
      await go(page, '/smartdata/datacapsule', 'datacabin-page');
      await page.getByTestId('cabin-search').locator('input').fill(name);
      await page.getByTestId('cabin-search').locator('input').press('Enter');
      await page.getByTestId(`entry-${name}`).click();
      await page.getByTestId('standard-meter-page').waitFor({ timeout: 15_000 });
    } finally {
      await context.close();
    }
  });

  test('a replacement recorded through the dialog, after a confirmation, shows in the log', async () => {
    const m = await demoMeter('LIGHT');
    const live = await api<{ points: Array<{ point: string; value: number }> }>(`/meter/live?id=${m.id}`);
    const reading = live.data.points.find((p) => p.point === 'energy')!.value;
    const { context, page } = await openAs('zh');
    try {
      await go(page, `/standardElectricMeter/${m.id}/${encodeURIComponent(m.name)}`, 'standard-meter-page');
      await page.getByTestId('meter-replace').click();
      // the demo gateway keeps counting while the person types: the old register's final reading
      // is a little past the one just read (never below a reading that arrives meanwhile), the
      // new register starts at the reading (never above what it reports next)
      await numberInput(page, 'meter-replace-old').fill(String(Math.ceil(reading) + 10));
      await numberInput(page, 'meter-replace-new').fill(String(reading));
      await page.getByTestId('meter-replace-ok').click();
      await page.getByTestId('meter-replace-confirm').click();
      // the success message, or the refusal's notification (its text then fails the test)
      const outcome = await Promise.race([
        page
          .locator('.ant-message-success')
          .first()
          .waitFor({ timeout: 10_000 })
          .then(() => 'recorded'),
        page
          .locator('.ant-notification-notice')
          .first()
          .waitFor({ timeout: 10_000 })
          .then(() => page.locator('.ant-notification-notice').first().innerText()),
      ]);
      expect(outcome).toBe('recorded');
      await expect
        .poll(() => page.getByTestId('meter-log').locator('tbody tr.ant-table-row').count(), {
          timeout: 10_000,
        })
        .toBe(1);
      expect(await text(page, 'meter-log')).toContain('换表');
      const log = await api<Array<{ kind: string }>>(`/meter/log?id=${m.id}`);
      expect(log.data.map((e) => e.kind)).toEqual(['replacement']);
    } finally {
      await context.close();
    }
  });

  test('the monthly report of the incomer: balance against its children, XLSX with the same numbers', async () => {
    const main = await demoMeter('MAIN');
    const { year, month } = await lastMonth();
    const report = await api<Report>(`/meter/report?meterId=${main.id}&year=${year}&month=${month}`);
    expect(report.code, report.message).toBe(0);
    expect(report.data.kWh).toBeGreaterThan(0);
    const { context, page } = await openAs('zh');
    try {
      await go(
        page,
        `/standardReport/${year}/${month}/${main.id}/${encodeURIComponent(main.name)}`,
        'meter-report',
      );
      const shown = Number((await text(page, 'meter-report-kwh')).replace(/[^\d.]/g, ''));
      expect(shown).toBeCloseTo(report.data.kWh, 2);
      expect(await text(page, 'meter-report-tou')).toContain('峰');
      expect(await text(page, 'meter-report-balance')).toContain('LIGHT');
      expect(await text(page, 'meter-report-percent')).toMatch(/[\d.]+ %/);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('meter-report-xlsx').click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile((await download.path())!);
      const numbers: number[] = [];
      book.worksheets[0]!.eachRow((row) =>
        row.eachCell((cell) => {
          if (typeof cell.value === 'number') numbers.push(cell.value);
        }),
      );
      expect(numbers.some((n) => Math.abs(n - report.data.kWh) < 0.01)).toBe(true);
      expect(numbers.some((n) => Math.abs(n - report.data.totalCents / 100) < 0.01)).toBe(true);
      expect(numbers.some((n) => Math.abs(n - report.data.balance!.difference) < 0.01)).toBe(true);

      // another month is another address
      await page.getByTestId('meter-report-prev').click();
      const prev = month === 1 ? { y: year - 1, m: 12 } : { y: year, m: month - 1 };
      await page.waitForURL((u) => u.pathname.startsWith(`/standardReport/${prev.y}/${prev.m}/`));
    } finally {
      await context.close();
    }
  });

  test('the monthly report as a PDF: downloaded through its button, read page by page, page 1 drawn', async () => {
    const main = await demoMeter('MAIN');
    const { year, month } = await lastMonth();
    const label = `${year}-${String(month).padStart(2, '0')}`;
    const report = await api<Report>(`/meter/report?meterId=${main.id}&year=${year}&month=${month}`);
    expect(report.code, report.message).toBe(0);
    // the energy as the PDF writes it: grouped, up to three decimals
    const energy = `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 }).format(report.data.kWh)} kWh`;
    const words = {
      zh: {
        title: '电表月报',
        page: (n: number, of: number) => `第 ${n} 页，共 ${of} 页`,
        balance: '下级电表合计',
      },
      en: {
        title: 'Meter monthly report',
        page: (n: number, of: number) => `Page ${n} of ${of}`,
        balance: 'Child meters in all',
      },
    } as const;
    for (const lang of ['zh', 'en'] as const) {
      const { context, page } = await openAs(lang);
      try {
        await go(
          page,
          `/standardReport/${year}/${month}/${main.id}/${encodeURIComponent(main.name)}`,
          'meter-report',
        );
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByTestId('meter-report-pdf').click(),
        ]);
        expect(download.suggestedFilename()).toBe(`${main.name}-${label}.pdf`);
        const bytes = readFileSync((await download.path())!);
        expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

        const pages = await pdfPages(bytes);
        expect(pages.length).toBeGreaterThanOrEqual(1);
        const w = words[lang];
        pages.forEach((text, i) => {
          // every page names the meter and the month in its footer, and its number
          expect(text, `page ${i + 1}`).toContain(main.name);
          expect(text, `page ${i + 1}`).toContain(label);
          expect(text, `page ${i + 1}`).toContain(w.page(i + 1, pages.length));
        });
        expect(pages[0]).toContain(`${w.title} · ${main.name}`);
        expect(pages[0]).toContain(energy);
        expect(pages.join(' ')).toContain(w.balance);
        expect(pages.join(' ')).toContain('LIGHT');

        const png = await drawFirstPage(context, bytes, `meter-report-pdf-${lang}-1440`);
        expect(readFileSync(png).length).toBeGreaterThan(20_000);
      } finally {
        await context.close();
      }
    }
  });

  test('a virtual meter: an unknown meter in the formula is named as it is typed, then accepted', async () => {
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/smartdata/electricMeterConfig/0/-?type=100', 'meter-config-page');
      const name = `E2E 虚拟 ${RUN}`;
      await page.getByTestId('meter-name').fill(name);
      await page.getByTestId('meter-code').fill(`V${RUN}`);
      await page.getByTestId('meter-formula').fill('MAIN - NOPE');
      await expect
        .poll(() => page.getByTestId('meter-formula-issue').innerText(), { timeout: 10_000 })
        .toContain('NOPE');
      expect(await page.getByTestId('meter-formula-mark').locator('mark').innerText()).toBe('NOPE');
      await shot(page, 'meter-formula-issue-zh-1440');
      // saved anyway: the server refuses it on the formula, shown under the field
      allowPageErrors(refused(400, '/general/meter/create'));
      await page.getByTestId('meter-save').click();
      await expect.poll(() => page.getByTestId('meter-formula-issue').innerText()).toContain('NOPE');
      expect((await meters()).some((m) => m.name === name)).toBe(false);

      // the ready-made "parent minus children" of MAIN
      await pickOption(page, page.getByTestId('meter-preset-base'), 'MAIN');
      await page.getByTestId('meter-preset-remainder').click();
      expect(await page.getByTestId('meter-formula').inputValue()).toBe('MAIN - AIR - LIGHT');
      await expect
        .poll(() => page.getByTestId('meter-formula-ok').innerText(), { timeout: 10_000 })
        .toContain('LIGHT');
      await page.getByTestId('meter-save').click();
      await page.getByTestId('virtual-meter-page').waitFor({ timeout: 15_000 });
      expect(await text(page, 'meter-formula-text')).toBe('MAIN - AIR - LIGHT');
      expect(await page.getByTestId('meter-refs').locator('a').count()).toBe(3);
      await expect.poll(() => text(page, 'meter-energy-figures'), { timeout: 15_000 }).toMatch(/[\d,.]+ kWh/);
      await shot(page, 'meter-virtual-zh-1440');
    } finally {
      await context.close();
    }
  });

  test('time-of-use hours with a gap are refused by name; nothing is saved', async () => {
    const before = await api<{ schedule: Record<string, Array<{ from: number; to: number }>> }>('/meter/tou');
    const { context, page } = await openAs('zh');
    try {
      await go(page, '/sysSetting/companyManagement', 'tou-settings');
      const valleyTo = numberInput(page, 'tou-valley-0-to');
      await expect.poll(() => valleyTo.inputValue()).toBe('7');
      await valleyTo.fill('6');
      allowPageErrors(refused(400, '/general/meter/tou/save'));
      await page.getByTestId('tou-save').click();
      await expect.poll(() => text(page, 'tou-refusal')).toContain('06:00');
      await page.getByTestId('tou-settings').scrollIntoViewIfNeeded();
      await shot(page, 'meter-tou-refused-zh-1440');
      expect((await api('/meter/tou')).data).toMatchObject({ schedule: before.data.schedule });
    } finally {
      await context.close();
    }
  });

  test('system maintenance lists every company’s meters and the meter log', async () => {
    const { context, page } = await openAs('en');
    try {
      await go(page, '/systemMaintenance/systememeter', 'system-meter-list');
      await expect.poll(() => text(page, 'system-meter-list'), { timeout: 15_000 }).toContain('MAIN');
      await page.getByTestId('system-meter-search').locator('input').fill('照明回路电表');
      await expect
        .poll(() => page.getByTestId('system-meter-list').locator('tbody tr.ant-table-row').count())
        .toBe(1);
      await go(page, '/systemMaintenance/systememeterlog', 'system-meter-log');
      await page.getByTestId('system-meter-log-table').waitFor();
    } finally {
      await context.close();
    }
  });

  test('screenshots: the meter page and the report in Chinese on a phone and English on a desktop', async () => {
    const main = await demoMeter('MAIN');
    const { year, month } = await lastMonth();
    const meterPath = `/standardElectricMeter/${main.id}/${encodeURIComponent(main.name)}`;
    const reportPath = `/standardReport/${year}/${month}/${main.id}/${encodeURIComponent(main.name)}`;
    for (const [lang, width] of [
      ['zh', 390],
      ['en', 1440],
    ] as const) {
      const { context, page } = await openAs(lang, width);
      try {
        await go(page, meterPath, 'standard-meter-page');
        await page.getByTestId('meter-energy-chart').waitFor({ timeout: 15_000 });
        await page.getByTestId('meter-live-energy').waitFor();
        await noSideways(page);
        await shot(page, `meter-standard-${lang}-${width}`);
        await page.getByTestId('meter-energy').scrollIntoViewIfNeeded();
        await shot(page, `meter-energy-${lang}-${width}`);
        await go(
          page,
          `/smartdata/electricMeterConfig/${main.id}/${encodeURIComponent(main.name)}`,
          'meter-form',
        );
        await expect.poll(() => page.getByTestId('meter-name').inputValue()).toBe(main.name);
        await noSideways(page);
        await shot(page, `meter-config-${lang}-${width}`);
        await go(page, reportPath, 'meter-report');
        await page.getByTestId('meter-report-balance').waitFor();
        await noSideways(page);
        await shot(page, `meter-report-${lang}-${width}`);
        if (lang === 'en') expect(await text(page, 'meter-report')).toContain('Balance against child meters');
      } finally {
        await context.close();
      }
    }
  });
});
