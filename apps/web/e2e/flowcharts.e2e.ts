/**
 * Device flow charts and the PV inverter dashboard as a person uses them, on the demo gateways
 * the simulated fleet feeds: the boiler room gateway's chart (the boiler feedwater family, its
 * roles on the gateway's points) live, reached from the device list, and in English through
 * /nssFlowChart's language; the compressor room gateway's chart removed, suggested back from its
 * point names with one click, a role unmapped in the dialog (named on the chart), mapped again by
 * name; the switch room gateway's rooftop inverter on its dashboard with the values the server
 * reads; the boiler's feed pump stopped and started from its chart's switch at 390 px (the
 * simulated pump follows: the flow reads 0, then runs again). Screenshots: chart zh 1440 and 390,
 * en 1440, dialog zh 1440 and en 1440 (with its switch commands), the switch dialog zh 390 and en
 * 1440, inverter zh 1440, en 390 and 1440.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { allowPageErrors, refused, shot } from './harness';
import { demoAdminRun, modalShown, noSideways } from './support';

const { api, openAs, go } = demoAdminRun();

interface Device {
  id: number;
  name: string;
  serialNumber: string;
}
interface Chart {
  chart: {
    templateId: number;
    name: string;
    map: Record<string, { itemId: number; field: string } | null>;
    commands: Record<string, string | null>;
    unmapped: string[];
  } | null;
  commands: string[];
}
interface Values {
  values: Array<{ itemId: number; field: string; value: unknown; ts: string | null }>;
}
interface Inverter {
  roles: Array<{ key: string; value: number | null; ts: string | null }>;
}

let boiler: Device;
let compressor: Device;
let switchRoom: Device;

const liveElements = (page: Page) => page.locator('[data-testid^="show-el-"][data-quality="live"]');
const chartOf = async (d: Device) =>
  (await api<Chart>(`/devicemanagement/flowchart?id=${d.id}&lang=zh`)).data;

beforeAll(async () => {
  const list = await api<{ list: Device[] }>('/devicemanagement/device/list?pageNum=1&pageSize=100');
  const bySn = (sn: string) => list.data.list.find((d) => d.serialNumber === sn)!;
  boiler = bySn('SDG2024000101');
  compressor = bySn('SDG2024000102');
  switchRoom = bySn('SDG4024000103');
  expect([boiler, compressor, switchRoom].every(Boolean)).toBe(true);
});

describe('flow charts', () => {
  test('the boiler room gateway’s flow chart from the device list, live, and in English by its path (1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, '/devicemanagement/devicelist', 'device-list-page');
      await page.getByTestId(`device-more-${boiler.serialNumber}`).click();
      await page.locator('[data-testid="device-action-flowChart"]:visible').click();
      await page.getByTestId('flowchart-page').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/flowChart/${boiler.id}/${encodeURIComponent(boiler.name)}`);
      expect(await page.getByTestId('flowchart-family').innerText()).toBe('锅炉给水系统');
      // the simulated gateway feeds it: bound elements turn live
      await expect.poll(() => liveElements(page).count(), { timeout: 60_000 }).toBeGreaterThan(3);
      expect(await page.getByTestId('flowchart-unmapped').count()).toBe(0);
      const texts = await page
        .locator('[data-testid^="show-el-"][data-type="text"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-text') ?? ''));
      expect(texts).toContain('锅炉给水系统');
      expect(texts.some((x) => x.startsWith('水温 '))).toBe(true);
      await shot(page, 'flowchart-boiler-zh-1440');

      await go(page, `/nssFlowChart/${boiler.id}/${encodeURIComponent(boiler.name)}/en`, 'flowchart-page');
      await expect.poll(() => page.getByTestId('flowchart-family').innerText()).toBe('Boiler feedwater');
      await expect
        .poll(() =>
          page
            .locator('[data-testid^="show-el-"][data-type="text"]')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-text') ?? '')),
        )
        .toContain('Boiler feedwater');
      await shot(page, 'flowchart-boiler-en-1440');
    } finally {
      await context.close();
    }
  });

  test('a chart removed is suggested back by its point names; a role unmapped is named, then mapped by name', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, `/flowChart/${compressor.id}/${encodeURIComponent(compressor.name)}`, 'flowchart-page');
      await page.getByTestId('flowchart-family').waitFor();
      await page.getByTestId('flowchart-clear').click();
      await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await page.getByTestId('flowchart-empty').waitFor();
      expect((await chartOf(compressor)).chart).toBeNull();
      expect(await page.getByTestId('flowchart-empty').innerText()).toContain('计量柜');

      await page.getByTestId('flowchart-apply-suggestion').click();
      await expect.poll(() => page.getByTestId('flowchart-family').count()).toBe(1);
      expect(await page.getByTestId('flowchart-family').innerText()).toBe('计量柜');
      const back = (await chartOf(compressor)).chart!;
      expect(back.unmapped).toEqual([]);

      // the dialog: power factor to none
      await page.getByTestId('flowchart-choose').click();
      const dialog = page.locator('.ant-modal:visible');
      await dialog.getByTestId('flowchart-map-table').waitFor();
      expect(await dialog.getByTestId('flowchart-matched').innerText()).toBe('已对应 5/5');
      await dialog.getByTestId('flowchart-role-powerFactor').hover();
      await dialog.getByTestId('flowchart-role-powerFactor').locator('.ant-select-clear').click();
      expect(await dialog.getByTestId('flowchart-matched').innerText()).toBe('已对应 4/5');
      await shot(page, 'flowchart-map-dialog-zh-1440');
      await dialog.getByTestId('flowchart-map-save').click();
      await page.getByTestId('flowchart-unmapped').waitFor();
      expect(await page.getByTestId('flowchart-unmapped').innerText()).toContain('功率因数');
      expect((await chartOf(compressor)).chart!.unmapped).toEqual(['powerFactor']);

      // matched by name again
      await page.getByTestId('flowchart-choose').click();
      await dialog.getByTestId('flowchart-automap').click();
      expect(await dialog.getByTestId('flowchart-matched').innerText()).toBe('已对应 5/5');
      await dialog.getByTestId('flowchart-map-save').click();
      await page.getByTestId('flowchart-unmapped').waitFor({ state: 'detached' });
      expect((await chartOf(compressor)).chart!.map).toEqual(back.map);
    } finally {
      await context.close();
    }
  });

  test('the rooftop inverter’s dashboard shows what the server reads (zh 1440, en 390 and 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, `/flowChart/${switchRoom.id}/${encodeURIComponent(switchRoom.name)}`, 'flowchart-page');
      await page.getByTestId('flowchart-inverter-link').click();
      await page.getByTestId('inverter-page').waitFor();
      // the simulated inverter has been read: its total yield is a live value
      await expect
        .poll(() => page.getByTestId('inverter-totalYield').getAttribute('data-quality'), { timeout: 60_000 })
        .toBe('live');
      const read = (await api<Inverter>(`/devicemanagement/inverter?id=${switchRoom.id}`)).data;
      const total = read.roles.find((r) => r.key === 'totalYield')!.value!;
      expect(total).toBeGreaterThan(18_650);
      const shown = Number(
        (await page.getByTestId('inverter-totalYield-value').innerText()).replace(/,/g, ''),
      );
      // the page polls every 5 s: the value it shows is the server's, within a poll's growth
      expect(Math.abs(shown - total)).toBeLessThan(5);
      expect(['待机', '并网发电']).toContain(await page.getByTestId('inverter-status').innerText());
      expect(await page.getByTestId('inverter-matched').count()).toBe(0);
      // today's curve has the readings since the server started (or says there are none yet)
      await page
        .locator('[data-testid="inverter-today"], [data-testid="inverter-today-empty"]')
        .first()
        .waitFor();
      await shot(page, 'inverter-zh-1440');
    } finally {
      await context.close();
    }
    const phone = await openAs('en', 390);
    try {
      await go(
        phone.page,
        `/inverterDashboard/${switchRoom.id}/${encodeURIComponent(switchRoom.name)}`,
        'inverter-page',
      );
      await expect
        .poll(() => phone.page.getByTestId('inverter-acPower').getAttribute('data-quality'), {
          timeout: 30_000,
        })
        .toBe('live');
      expect(['Standby', 'Generating']).toContain(
        await phone.page.getByTestId('inverter-status').innerText(),
      );
      await noSideways(phone.page);
      await shot(phone.page, 'inverter-en-390');
      // the same page on a desktop, in English
      await phone.page.setViewportSize({ width: 1440, height: 900 });
      await expect
        .poll(() => phone.page.getByTestId('inverter-page').evaluate((e) => e.clientWidth))
        .toBeGreaterThan(1000);
      await shot(phone.page, 'inverter-en-1440');
    } finally {
      await phone.context.close();
    }
  });

  test('the boiler’s feed pump is stopped and started from its flow chart’s switch, and the simulated pump follows (390)', async () => {
    const chart = await chartOf(boiler);
    // the demo maps the template's pumpStart and pumpStop onto the gateway's commands of those names
    expect(chart.chart!.commands).toEqual({ pumpStart: 'pumpStart', pumpStop: 'pumpStop' });
    expect([...chart.commands].sort()).toEqual(['pumpStart', 'pumpStop']);
    const flowPoint = chart.chart!.map.flow!;
    const flowNow = async () => {
      const read = (await api<Values>(`/devicemanagement/flowchart/values?id=${boiler.id}`)).data;
      const v = read.values.find((x) => x.itemId === flowPoint.itemId && x.field === flowPoint.field);
      return typeof v?.value === 'number' ? v.value : null;
    };
    const { context, page } = await openAs('zh', 390);
    try {
      await go(page, `/flowChart/${boiler.id}/${encodeURIComponent(boiler.name)}`, 'flowchart-page');
      await expect.poll(() => liveElements(page).count(), { timeout: 60_000 }).toBeGreaterThan(3);
      await noSideways(page);
      await shot(page, 'flowchart-boiler-zh-390');
      const pump = page.locator('[data-testid^="show-el-"][data-type="switch"]');
      expect(await pump.getAttribute('data-text')).toBe('锅炉给水系统');

      const dialog = page.locator('.ant-modal:visible');
      const dialogGone = () => expect.poll(() => dialog.count()).toBe(0);
      await pump.click();
      await dialog.getByTestId('switch-off').waitFor();
      expect(await dialog.getByTestId('switch-off').innerText()).toContain('pumpStop');
      await modalShown(page);
      await shot(page, 'flowchart-switch-dialog-zh-390');
      await dialog.getByTestId('switch-off').click();
      await dialogGone();
      // the gateway writes the pump's coil; its next reading has no flow, and the chart shows it
      await expect.poll(flowNow, { timeout: 60_000, interval: 1_000 }).toBe(0);
      await expect.poll(() => pump.getAttribute('data-active'), { timeout: 15_000 }).toBe('0');

      await pump.click();
      await dialog.getByTestId('switch-on').click();
      await dialogGone();
      await expect.poll(flowNow, { timeout: 60_000, interval: 1_000 }).toBeGreaterThan(0);
      await expect.poll(() => pump.getAttribute('data-active'), { timeout: 15_000 }).toBe('1');
    } finally {
      await context.close();
    }
  });

  test('the mapping dialog in English lists the switch commands beside the roles; the switch asks in English (1440)', async () => {
    const { context, page } = await openAs('en', 1440);
    try {
      await go(page, `/flowChart/${boiler.id}/${encodeURIComponent(boiler.name)}`, 'flowchart-page');
      await page.getByTestId('flowchart-choose').click();
      const dialog = page.locator('.ant-modal:visible');
      await dialog.getByTestId('flowchart-command-table').waitFor();
      expect(await dialog.getByTestId('flowchart-matched').innerText()).toBe('6 of 6 mapped');
      expect(await dialog.getByTestId('flowchart-command-table').innerText()).toContain('pumpStart');
      await shot(page, 'flowchart-map-dialog-en-1440');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      // the switch's own dialog, worded in English, left without sending anything
      await page.locator('[data-testid^="show-el-"][data-type="switch"]').click();
      await dialog.getByTestId('switch-on').waitFor();
      expect(await dialog.getByTestId('switch-on').innerText()).toContain('pumpStart');
      await modalShown(page);
      await shot(page, 'flowchart-switch-dialog-en-1440');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test('a device that is no inverter says so on the dashboard and leads to its flow chart', async () => {
    // the dashboard's question is refused (40400), on purpose
    allowPageErrors(refused(404, '/general/devicemanagement/inverter'));
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(
        page,
        `/inverterDashboard/${boiler.id}/${encodeURIComponent(boiler.name)}`,
        'inverter-refused',
      );
      expect(await page.getByTestId('inverter-refused').innerText()).toContain('此设备不是光伏逆变器');
    } finally {
      await context.close();
    }
  });
});
