/**
 * Firmware upgrade as people use it, with the gateway simulator (apps/gateway-sim) as three
 * gateways of the demo company, registered, online and bound, at a speed factor that makes an
 * upgrade take seconds. The operator uploads a version in system maintenance (firmware tab);
 * a gateway is upgraded from its page to success, the page reloaded mid-upgrade keeps the
 * progress; an upgrade loses power mid-download, fails named, and Retry succeeds; an offline
 * gateway is refused with the spec's words; the release note; a batch from the device list
 * with each gateway's state. Screenshots zh/en at 1440 and 390 px.
 */
import { randomBytes } from 'node:crypto';
import { SimGateway } from '@platform/gateway-sim';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allowPageErrors, DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

const MODEL = 'SDG-200';
const FROM = '1.2.0';
/** uploaded through the page */
const NEXT = '1.3.0';
/** uploaded through the API, for the batch */
const LATER = '1.4.0';
const NOTES_ZH = '修复串口在高波特率下丢帧的问题。\n新增 Modbus 超时重试。';
const NOTES_EN = 'Fixes frames lost on serial ports at high baud rates.\nAdds Modbus timeout retries.';

interface Gw {
  sn: string;
  name: string;
  id: number;
  sim: SimGateway;
}
const gateways: Gw[] = [];
const gw = (i: number) => gateways[i]!;

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

/** A gateway registered by the factory, online on the platform's broker, bound by the company. */
async function addGateway(sn: string, name: string, mqttUrl: string, directoryId: number): Promise<Gw> {
  const registered = await postJson<{ gateways: Array<{ id: number; secret: string }> }>(
    '/system/gateway/register',
    {
      serialNumbers: [sn],
      model: MODEL,
    },
  );
  expect(registered.code, registered.message).toBe(0);
  const { id, secret } = registered.data.gateways[0]!;
  // speed 20: an upgrade (about 2.5 minutes on a real gateway) takes about 7 s
  const sim = new SimGateway(
    { sn, secret, model: MODEL, firmware: FROM },
    { url: mqttUrl, speed: 20, backoff: { minMs: 50, maxMs: 200 } },
  );
  sim.start();
  await waitFor(
    async () => (await api<{ online: boolean }>(`/system/gateway/detail?id=${id}`)).data?.online === true,
    `${sn} online`,
  );
  const bind = await postJson<{ requestId: string }>('/devicemanagement/device/bind', {
    serialNumber: sn,
    name,
    parentId: directoryId,
  });
  expect(bind.code, bind.message).toBe(0);
  await waitFor(async () => sim.pressBindButton().sent, `${sn} bind request`);
  const deviceId = await waitFor(async () => {
    const status = await api<{ state: string; deviceId: number | null }>(
      `/devicemanagement/device/bindStatus?requestId=${bind.data.requestId}`,
    );
    return status.data.state === 'bound' ? (status.data.deviceId ?? undefined) : undefined;
  }, `${sn} bound`);
  return { sn, name, id: deviceId, sim };
}

/** A firmware image: random bytes (nothing a picture, text or archive would start with). */
function image(size = 96 * 1024): Buffer {
  const bytes = randomBytes(size);
  bytes[0] = 0x7f; // not the start of any format the server refuses
  return bytes;
}

beforeAll(async () => {
  // one upgrade dispatched at a time across the platform: the batch shows the others queued
  server = await startServer({ FIRMWARE_MAX_DISPATCH: '1' });
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  const endpoints = await api<{ mqtt: { port: number } | null }>('/smartdata/key/endpoints');
  const mqttUrl = `mqtt://127.0.0.1:${endpoints.data.mqtt!.port}`;
  const tree =
    await api<Array<{ id: number; type: string; parentId: number | null }>>('/smartdata/cabin/tree');
  const directory = tree.data.find((n) => n.type === 'directory' && n.parentId === null);
  expect(directory, 'a directory of the demo cabin').toBeDefined();
  for (const [i, name] of ['锅炉房网关', '水泵房网关', '配电室网关'].entries())
    gateways.push(await addGateway(`E2EFW000${i + 1}`, name, mqttUrl, directory!.id));
}, 120_000);

afterAll(async () => {
  for (const g of gateways) {
    await g.sim.stop();
    g.sim.scheduler.stop();
  }
  await browser?.close();
  await server?.stop();
});

const upgradePath = (g: Gw) => `/upgradeVersion/-/${FROM}/${g.sn}`;

async function progressState(page: Page): Promise<string | null> {
  return page
    .getByTestId('fw-progress')
    .getAttribute('data-state', { timeout: 1000 })
    .catch(() => null);
}

async function waitForState(page: Page, test: (state: string) => boolean, what: string, ms = 60_000) {
  return waitFor(
    async () => {
      const state = await progressState(page);
      return state != null && test(state) ? state : undefined;
    },
    what,
    ms,
  );
}

/** Choose a version on the upgrade page and confirm the upgrade. */
async function upgradeTo(page: Page, version: string) {
  await page.getByTestId(`fw-version-${version}`).click();
  await page.getByTestId('fw-upgrade').click();
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').last().click();
}

describe('firmware upgrade', () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  test('the operator uploads a version with its notes; the server names its SHA-256 (zh)', async () => {
    let page: Page;
    ({ context, page } = await openAs('zh'));
    await go(page, '/systemMaintenance/systemgateway?tab=firmware', 'fw-admin');
    await page.getByTestId('fw-admin-upload').click();
    const dialog = page.getByTestId('fw-upload-modal');
    await dialog.waitFor();
    // a version the rule refuses is named at its field, and nothing is sent
    await page.getByTestId('fw-upload-model').fill(MODEL);
    await page.getByTestId('fw-upload-version').fill('v1.3');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect
      .poll(() => dialog.locator('.ant-form-item-explain-error').allInnerTexts())
      .toContain('版本号为 1 至 4 段数字（每段 0-9999），以点分隔，可加 -后缀，例如 1.3.0 或 2.0.1-rc1');
    await page.getByTestId('fw-upload-version').fill(NEXT);
    const bytes = image();
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'sdg200-1.3.0.bin',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await page.getByTestId('fw-upload-notes-zh').fill(NOTES_ZH);
    await page.getByTestId('fw-upload-notes-en').fill(NOTES_EN);
    await shot(page, 'firmware-upload-zh');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    const row = page.getByTestId(`fw-admin-row-${MODEL}-${NEXT}`);
    await row.waitFor();
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(await row.innerText()).toContain(`${sha.slice(0, 8)}…${sha.slice(-8)}`);
    expect(await row.innerText()).toContain('96.0 KB');
    await shot(page, 'firmware-versions-zh');

    // the release note of the version: both languages, its SHA-256 whole
    await row.getByRole('link', { name: NEXT }).click();
    await page.getByTestId('fw-release-note').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/releaseNote/${NEXT}/${MODEL}`);
    expect(await page.getByTestId('fw-note-sha').innerText()).toBe(sha);
    // a form sends line breaks as CR LF (the HTML rule for multipart): the lines are the same
    expect((await page.getByTestId('fw-note-zh').innerText()).replace(/\r\n/g, '\n')).toBe(NOTES_ZH);
    await shot(page, 'firmware-release-note-zh');

    // a second version for the batch, through the API
    const form = new FormData();
    form.append('model', MODEL);
    form.append('version', LATER);
    form.append('notesZh', '批量升级用的版本');
    form.append('notesEn', 'The version the batch installs');
    form.append('file', new Blob([new Uint8Array(image(64 * 1024))]), 'sdg200-1.4.0.bin');
    const later = await api<{ id: number }>('/system/firmware/upload', { method: 'POST', body: form });
    expect(later.code, later.message).toBe(0);
  });

  test('upgrade from the device page to success; a reload mid-upgrade keeps the progress (zh)', async () => {
    const page = context.pages()[0]!;
    const g = gw(0);
    // from the device's drawer, as a person gets there
    await go(page, `/devicemanagement/devicelist?device=${g.id}`, 'device-drawer');
    await page.getByTestId('device-drawer').getByText('固件升级').click();
    await page.getByTestId('fw-page').waitFor();
    expect(new URL(page.url()).pathname).toBe(upgradePath(g));
    expect(await page.getByTestId('fw-current').innerText()).toBe(FROM);
    expect(await page.getByTestId('fw-online').getAttribute('data-online')).toBe('true');
    expect(await page.getByTestId('fw-notice').innerText()).toContain(
      '升级需要 2-3 分钟，期间请保持网关通电，不要刷新页面。',
    );
    const offered = page.getByTestId(`fw-version-${NEXT}`);
    expect(await offered.innerText()).toContain('修复串口在高波特率下丢帧的问题。');
    expect(await offered.innerText()).toContain('较新');
    await shot(page, 'firmware-page-zh');

    await upgradeTo(page, NEXT);
    const upgradeId = await page.getByTestId('fw-progress').getAttribute('data-upgrade');
    expect(upgradeId).toMatch(/^\d+$/);
    // mid-upgrade (downloading or later, before the end) the page is reloaded
    await waitForState(page, (s) => ['downloading', 'verifying', 'installing'].includes(s), 'the download');
    await shot(page, 'firmware-progress-zh');
    await page.reload();
    await page.getByTestId('fw-progress').waitFor();
    expect(await page.getByTestId('fw-progress').getAttribute('data-upgrade')).toBe(upgradeId);
    const afterReload = await progressState(page);
    expect(['downloading', 'verifying', 'installing', 'rebooting', 'checking', 'success']).toContain(
      afterReload,
    );
    // and it keeps following live to the end: success only once the gateway names the target version
    await waitForState(page, (s) => s === 'success' || s === 'failed', 'the end', 60_000);
    expect(await progressState(page)).toBe('success');
    expect(await page.getByTestId('fw-result').innerText()).toContain('固件更新成功');
    expect(await page.getByTestId('fw-result').innerText()).toContain(NEXT);
    await expect.poll(() => page.getByTestId('fw-current').innerText()).toBe(NEXT);
    for (const step of ['queued', 'dispatched', 'downloading', 'rebooting', 'checking', 'success'])
      expect(await page.getByTestId(`fw-step-${step}`).getAttribute('data-status')).toBe('finish');
    expect(g.sim.firmware).toBe(NEXT);
    await expect.poll(() => page.getByTestId(`fw-history-${upgradeId}`).innerText()).toContain('成功');
    await shot(page, 'firmware-success-zh');
  });

  test('power lost mid-download: failure named, then Retry to success (en)', async () => {
    const { context: en, page } = await openAs('en');
    try {
      const g = gw(1);
      g.sim.losePowerDuringNextUpgrade('downloading');
      await go(page, upgradePath(g), 'fw-page');
      expect(await page.getByTestId('fw-notice').innerText()).toContain(
        'It takes 2-3 minutes. Power must stay on and the page must not be refreshed.',
      );
      await upgradeTo(page, NEXT);
      await waitForState(page, (s) => s === 'failed' || s === 'success', 'the end');
      expect(await progressState(page)).toBe('failed');
      const result = page.getByTestId('fw-result');
      expect(await result.getAttribute('data-reason')).toBe('interrupted');
      expect(await result.innerText()).toContain('Firmware update failed, please try again later.');
      expect(await page.getByTestId('fw-reason').innerText()).toBe(
        'The gateway went offline mid-upgrade (power lost?): the upgrade was interrupted and it still runs the old version',
      );
      // the failed step is marked, the later ones never reached
      expect(await page.getByTestId('fw-step-success').getAttribute('data-status')).toBe('wait');
      expect(await page.locator('[data-testid^=fw-step-][data-status=error]').count()).toBe(1);
      expect(await page.getByTestId('fw-current').innerText()).toBe(FROM);
      await shot(page, 'firmware-power-lost-en');

      // the power is back: Retry (once the gateway is online again) ends in success
      await expect
        .poll(() => page.getByTestId('fw-online').getAttribute('data-online'), { timeout: 30_000 })
        .toBe('true');
      const failedId = await page.getByTestId('fw-progress').getAttribute('data-upgrade');
      await page.getByTestId('fw-retry').click();
      await expect
        .poll(() => page.getByTestId('fw-progress').getAttribute('data-upgrade'))
        .not.toBe(failedId);
      await waitForState(page, (s) => s === 'success' || s === 'failed', 'the retry to end');
      expect(await progressState(page)).toBe('success');
      expect(await page.getByTestId('fw-result').innerText()).toContain('Firmware update succeeded');
      await expect.poll(() => page.getByTestId('fw-current').innerText()).toBe(NEXT);
      expect(await page.getByTestId(`fw-history-${failedId}`).innerText()).toContain('Failed');
      await shot(page, 'firmware-retry-success-en');
    } finally {
      await en.close();
    }
  });

  test('an offline gateway is refused with the spec words (en); the page on a phone (zh, en)', async () => {
    const g = gw(2);
    await g.sim.goOffline();
    await waitFor(
      async () =>
        (await api<{ device: { online: boolean } }>(`/devicemanagement/firmware/device?id=${g.id}`)).data
          ?.device.online === false,
      'offline',
    );
    const { context: en, page } = await openAs('en');
    try {
      // the refusal answers a business error: the page shows it (and the browser logs the status)
      allowPageErrors(/\/general\/devicemanagement\/firmware\/upgrade/);
      await go(page, upgradePath(g), 'fw-page');
      expect(await page.getByTestId('fw-offline').innerText()).toContain(
        'The current gateway is offline and cannot upgrade firmware.',
      );
      await upgradeTo(page, NEXT);
      await expect
        .poll(() => page.getByTestId('fw-refusal').innerText())
        .toBe('The current gateway is offline and cannot upgrade firmware.');
      expect(await page.getByTestId('fw-progress').count()).toBe(0);
      await shot(page, 'firmware-offline-en');
    } finally {
      await en.close();
    }
    g.sim.comeOnline();
    for (const lang of ['zh', 'en'] as const) {
      const phone = await openAs(lang, 390);
      try {
        await go(phone.page, upgradePath(gw(0)), 'fw-page');
        await phone.page.getByTestId('fw-progress').waitFor();
        await shot(phone.page, `firmware-success-${lang}-390`);
        await phone.page.getByTestId('fw-progress').scrollIntoViewIfNeeded();
        await shot(phone.page, `firmware-steps-${lang}-390`);
      } finally {
        await phone.context.close();
      }
    }
  });

  test('a batch from the device list: each gateway state shown live (en)', async () => {
    await waitFor(
      async () =>
        (await api<{ device: { online: boolean } }>(`/devicemanagement/firmware/device?id=${gw(2).id}`)).data
          ?.device.online === true,
      'back online',
    );
    const { context: en, page } = await openAs('en');
    try {
      await go(page, '/devicemanagement/devicelist', 'device-table');
      for (const g of gateways)
        await page.getByTestId(`device-row-${g.sn}`).locator('.ant-checkbox-input').check();
      await page.getByTestId('device-batch-upgrade').click();
      const dialog = page.getByTestId('fw-batch');
      await dialog.waitFor();
      await page.getByTestId('fw-batch-version').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: LATER }).click();
      const states = async () =>
        Promise.all(
          gateways.map((g) =>
            page.getByTestId(`fw-batch-row-${g.sn}`).getByTestId('fw-batch-state').getAttribute('data-state'),
          ),
        );
      await page.getByTestId('fw-batch-start').click();
      await page.getByTestId('fw-batch-counts').waitFor();
      // the throttle, as the person sees it: one gateway upgrading, the two others queued
      // (each upgrade takes seconds, so the queue is still there when the dialog shows it)
      await expect.poll(async () => (await states()).filter((state) => state === 'queued').length).toBe(2);
      expect(await page.getByTestId('fw-batch-counts').innerText()).toContain('queued 2');
      await shot(page, 'firmware-batch-started-en');
      await expect.poll(states, { timeout: 90_000 }).toEqual(['success', 'success', 'success']);
      expect(await page.getByTestId('fw-batch-counts').innerText()).toContain('Succeeded 3');
      await shot(page, 'firmware-batch-done-en');
      for (const g of gateways) expect(g.sim.firmware).toBe(LATER);
    } finally {
      await en.close();
    }
  });
});
