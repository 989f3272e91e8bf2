/**
 * The serial debug assistant (/comDebug) through a gateway's passthrough, with the gateway
 * simulator (apps/gateway-sim) as the gateway: registered, online and bound to the demo
 * company. Pick the gateway and its port, type bad hex (the spec's message as typed), fill a
 * Modbus read, append the CRC (the bytes that will go are shown), send, and see TX and the
 * slave's RX with millisecond timestamps; the ASCII view, export and clear. Opened from the
 * device's `?device=` link in English. Screenshots zh/en at 1440 and 390 px.
 */
import { appendCrc, hasValidCrc, parseHex, toHex } from '@platform/domain';
import { SimGateway } from '@platform/gateway-sim';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { supportFor } from './support';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let token: string;
let sim: SimGateway;
let deviceId: number;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

const SN = 'E2ECOM0001';
const DEVICE_NAME = '调试网关';
const READ = toHex([1, 3, 0, 0, 0, 2]);
const READ_WITH_CRC = toHex(appendCrc([1, 3, 0, 0, 0, 2]));

async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const registered = await postJson<{ gateways: Array<{ id: number; secret: string }> }>(
    '/system/gateway/register',
    { serialNumbers: [SN], model: 'SDG-200' },
  );
  expect(registered.code, registered.message).toBe(0);
  const endpoints = await api<{ mqtt: { port: number } | null }>('/smartdata/key/endpoints');
  sim = new SimGateway(
    { sn: SN, secret: registered.data.gateways[0]!.secret },
    { url: `mqtt://127.0.0.1:${endpoints.data.mqtt!.port}`, speed: 500, backoff: { minMs: 50, maxMs: 200 } },
  );
  sim.start();
  await waitFor(async () => {
    const detail = await api<{ online: boolean }>(
      `/system/gateway/detail?id=${registered.data.gateways[0]!.id}`,
    );
    return detail.data?.online === true;
  }, 'the gateway online');
  const tree =
    await api<Array<{ id: number; type: string; parentId: number | null }>>('/smartdata/cabin/tree');
  const directory = tree.data.find((n) => n.type === 'directory' && n.parentId === null);
  expect(directory, 'a directory of the demo cabin').toBeDefined();
  const bind = await postJson<{ requestId: string }>('/devicemanagement/device/bind', {
    serialNumber: SN,
    name: DEVICE_NAME,
    parentId: directory!.id,
  });
  expect(bind.code, bind.message).toBe(0);
  await waitFor(async () => sim.pressBindButton().sent, 'the bind request at the gateway');
  deviceId = await waitFor(async () => {
    const status = await api<{ state: string; deviceId: number | null }>(
      `/devicemanagement/device/bindStatus?requestId=${bind.data.requestId}`,
    );
    return status.data.state === 'bound' ? (status.data.deviceId ?? undefined) : undefined;
  }, 'bound');
});

afterAll(async () => {
  await sim?.stop();
  sim?.scheduler.stop();
  await browser?.close();
  await server?.stop();
});

/** Opens the port, sends the Modbus read with its CRC and waits for the slave's answer; returns the RX text. */
async function readThroughGateway(page: Page, openLabel: string): Promise<string> {
  await page.getByTestId('comdebug-open').click();
  await expect.poll(() => page.getByTestId('comdebug-state').innerText()).toBe(openLabel);
  await page.getByTestId('comdebug-quick').click();
  expect(await page.getByTestId('comdebug-text').inputValue()).toBe(READ);
  expect(await page.getByTestId('comdebug-crc').isChecked()).toBe(true);
  expect(await page.getByTestId('comdebug-preview').locator('code').innerText()).toBe(READ_WITH_CRC);
  await page.getByTestId('comdebug-send-button').click();
  // the mouse leaves the quick-send's hint, which would cover the screenshots
  await page.mouse.move(1, 1);
  const rx = page.getByTestId('comdebug-line-RX').first();
  await rx.waitFor({ timeout: 20_000 });
  const tx = await page.getByTestId('comdebug-line-TX').first().innerText();
  expect(tx).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}\s+TX\s+01 03 00 00 00 02 C4 0B$/);
  return rx.innerText();
}

/** The bytes of an RX line in the hex view. */
function rxBytes(line: string): Uint8Array {
  const m = /^\d{2}:\d{2}:\d{2}\.\d{3}\s+RX\s+(.+)$/.exec(line.trim());
  expect(m, line).not.toBeNull();
  return parseHex(m![1]!)!;
}

describe('the serial debug assistant through a gateway', () => {
  let context: BrowserContext | undefined;
  afterAll(async () => {
    await context?.close();
  });

  test('pick the gateway and port, see bad hex refused as typed, send a Modbus read with CRC, get the answer (zh)', async () => {
    const opened = await openAs('zh');
    context = opened.context;
    const page = opened.page;
    await go(page, '/comDebug', 'comdebug-page');
    await page.getByTestId('comdebug-lines').locator('.ant-empty').waitFor();
    await page.getByTestId('comdebug-target-gateway').click();
    await page.getByTestId('comdebug-gateway').click();
    await page.locator('.ant-select-item-option', { hasText: `${DEVICE_NAME} (${SN})` }).click();
    await expect.poll(() => page.getByTestId('comdebug-port').innerText()).toBe('端口 1');
    await shot(page, 'comdebug-empty-zh-1440');

    // the hex rule of the spec, checked as typed
    await page.getByTestId('comdebug-text').fill('01 0G');
    expect(await page.getByTestId('comdebug-text-error').innerText()).toBe(
      '十六进制数据须为两位一组、以单个空格分隔的十六进制数字',
    );
    await page.getByTestId('comdebug-text').fill('01 03 ');
    expect(await page.getByTestId('comdebug-text-error').count()).toBe(1);
    await page.getByTestId('comdebug-text').fill('');

    const rx = await readThroughGateway(page, '已连接');
    const bytes = rxBytes(rx);
    expect(hasValidCrc(bytes)).toBe(true);
    expect([...bytes.slice(0, 3)]).toEqual([1, 3, 4]);
    await shot(page, 'comdebug-rx-zh-1440');

    // the ASCII view shows the same lines; clear empties the log
    await page.getByTestId('comdebug-view').getByText('ASCII').click();
    expect(await page.getByTestId('comdebug-line-TX').first().innerText()).toContain('\\x01\\x03');
    await page.getByTestId('comdebug-close').click();
    await expect.poll(() => page.getByTestId('comdebug-state').innerText()).toBe('未连接');
    await page.getByTestId('comdebug-clear').click();
    await page.getByTestId('comdebug-lines').locator('.ant-empty').waitFor();

    // the operation log has the session, opened and closed, by the demo administrator
    const log = await waitFor(async () => {
      const res = await api<{ list: Array<{ kind: string; data: { action?: string } }> }>(
        `/devicemanagement/device/log?id=${deviceId}&kind=passthrough`,
      );
      return res.data.list.some((r) => r.data?.action === 'close') ? res.data.list : undefined;
    }, 'the session in the operation log');
    expect(log.map((r) => r.data.action).sort()).toEqual(['close', 'open']);
    await context.close();
    context = undefined;
  });

  test('from the device link in English: the gateway is chosen, the answer comes back, the log exports', async () => {
    const opened = await openAs('en');
    context = opened.context;
    const page = opened.page;
    await go(page, `/comDebug?device=${deviceId}`, 'comdebug-page');
    await expect.poll(() => page.getByTestId('comdebug-port').innerText()).toBe('Port 1');
    const rx = await readThroughGateway(page, 'Connected');
    expect(hasValidCrc(rxBytes(rx))).toBe(true);
    await shot(page, 'comdebug-rx-en-1440');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('comdebug-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^comdebug-.+\.txt$/);
    await page.getByTestId('comdebug-close').click();
    await expect.poll(() => page.getByTestId('comdebug-state').innerText()).toBe('Not connected');
    await context.close();
    context = undefined;
  });

  for (const lang of ['zh', 'en'] as const) {
    test(`on a phone (${lang}, 390 px)`, async () => {
      const opened = await openAs(lang, 390);
      context = opened.context;
      const page = opened.page;
      await go(page, `/comDebug?device=${deviceId}`, 'comdebug-page');
      await page.getByTestId('comdebug-port').waitFor();
      const rx = await readThroughGateway(page, lang === 'zh' ? '已连接' : 'Connected');
      expect(hasValidCrc(rxBytes(rx))).toBe(true);
      await shot(page, `comdebug-target-${lang}-390`);
      await page.getByTestId('comdebug-log').scrollIntoViewIfNeeded();
      await shot(page, `comdebug-rx-${lang}-390`);
      await page.getByTestId('comdebug-close').click();
      await context.close();
      context = undefined;
    });
  }
});
