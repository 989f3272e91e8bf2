/**
 * Devices as a person uses them, with gateways played by MQTT clients in this process
 * (gateway-client.ts): the registry's batch registration with its one-time secrets and CSV,
 * a replaced secret, a removed registration; the empty device list; binding a gateway that
 * confirms (countdown, then "Bound successfully"), one that nobody confirms (expired), and
 * every refusal beside the serial number; the list following gateways live; the detail
 * drawer (edit, picture presets, uploads refused with the spec's words); the operation log
 * and its CSV; device permissions with the cabin's editor and a member who then does not see
 * the device; a maintenance plan done; unbinding after a prompt; screenshots in zh and en at
 * 1440 and 390 px.
 *
 * The server runs with BIND_REQUEST_TTL_S=30 so that an unconfirmed request expires within
 * the test; its embedded broker's port comes from the keys' endpoints call.
 */
import { readFileSync } from 'node:fs';
import { type Lang as DomainLang, type ErrorKey, messageFor, SUCCESS_MESSAGES } from '@platform/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestGateway } from './gateway-client';
import {
  allowPageErrors,
  DEMO_ADMIN,
  DEMO_LIMITED,
  openBrowser,
  type RunningServer,
  refused,
  shot,
  startServer,
} from './harness';
import { drawPng, fileInput, pickTree, SPEC_FORMAT, SPEC_SIZE, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
let tokenB: string;
let brokerUrl: string;
const { api, tokenOf, acceptTerms, registerUser, openAs, go } = supportFor(() => ({
  server,
  browser,
  token,
}));

const TTL_S = 30;
const DIR = 'E2E设备目录';
const MODEL = 'SDG-200';
const SN = {
  ok: 'E2EOK0001',
  expire: 'E2EEXP0001',
  offline: 'E2EOFF0001',
  elsewhere: 'E2EOTHER01',
  pending: 'E2EPEND001',
};
const DEVICE_NAME = '一号锅炉房网关';
const COMPANY_B_ADMIN = { phone: '13900000077', password: 'pass12345' };
const ZH = { 'Accept-Language': 'zh' };
const text = (key: ErrorKey, lang: DomainLang = 'zh', params?: Record<string, string>) =>
  messageFor(key, lang, params);

const secrets = new Map<string, string>();
const gateways = new Map<string, TestGateway>();
let dirB: number;
let deviceId: number;

interface DeviceRow {
  id: number;
  serialNumber: string;
  name: string;
  online: boolean;
  status: string;
  level: number;
}

async function post<T>(path: string, body: unknown, bearer = token) {
  return api<T>(path, {
    method: 'POST',
    token: bearer,
    headers: { 'Content-Type': 'application/json', ...ZH },
    body: JSON.stringify(body),
  });
}

async function devices(bearer = token): Promise<DeviceRow[]> {
  const result = await api<{ list: DeviceRow[] }>('/devicemanagement/device/list?pageNum=1&pageSize=100', {
    token: bearer,
  });
  expect(result.code, result.message).toBe(0);
  return result.data.list;
}

function gateway(sn: string): TestGateway {
  let gw = gateways.get(sn);
  if (!gw) {
    gw = new TestGateway(brokerUrl, sn, secrets.get(sn)!);
    gateways.set(sn, gw);
  }
  return gw;
}

function row(page: Page, sn: string): Locator {
  return page.getByTestId(`device-row-${sn}`);
}

/** The error shown under a form field of the open dialog. */
function fieldErrors(page: Page): Locator {
  return page.locator('.ant-modal-wrap:visible .ant-form-item-explain-error');
}

async function openBind(page: Page, sn: string, name: string): Promise<void> {
  await page.getByTestId('device-bind').click();
  await page.getByTestId('bind-dialog').waitFor();
  await pickTree(page, page.getByTestId('bind-parent'), DIR);
  await page.getByTestId('bind-sn').fill(sn);
  await page.getByTestId('bind-name').fill(name);
}

async function closeModal(page: Page): Promise<void> {
  await page.locator('.ant-modal-wrap:visible .ant-modal-close').click();
  await page
    .locator('.ant-modal-wrap:visible')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

beforeAll(async () => {
  server = await startServer({ BIND_REQUEST_TTL_S: String(TTL_S) });
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await acceptTerms(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await acceptTerms(DEMO_LIMITED.phone, DEMO_LIMITED.password);
  const endpoints = await api<{ mqtt: { port: number } | null }>('/smartdata/key/endpoints');
  expect(endpoints.data.mqtt, 'the embedded broker runs').not.toBeNull();
  brokerUrl = `mqtt://127.0.0.1:${endpoints.data.mqtt!.port}`;

  // the gateways of the fixtures, registered as the platform operator (the demo administrator)
  const registered = await post<{ gateways: Array<{ serialNumber: string; secret: string }> }>(
    '/system/gateway/register',
    { serialNumbers: Object.values(SN), model: MODEL },
  );
  expect(registered.code, registered.message).toBe(0);
  for (const g of registered.data.gateways) secrets.set(g.serialNumber, g.secret);

  const dir = await post<{ id: number }>('/smartdata/cabin/create', {
    parentId: null,
    type: 'directory',
    name: DIR,
  });
  expect(dir.code, dir.message).toBe(0);

  // company B: a new person's own company, for the refusals that name another company
  await registerUser(COMPANY_B_ADMIN.phone, COMPANY_B_ADMIN.password, 'E2E乙');
  await acceptTerms(COMPANY_B_ADMIN.phone, COMPANY_B_ADMIN.password);
  tokenB = await tokenOf(COMPANY_B_ADMIN.phone, COMPANY_B_ADMIN.password);
  const company = await post<{ id: number }>('/company/addCompany', { name: 'E2E乙公司' }, tokenB);
  expect(company.code, company.message).toBe(0);
  tokenB = await tokenOf(COMPANY_B_ADMIN.phone, COMPANY_B_ADMIN.password);
  const created = await post<{ id: number }>(
    '/smartdata/cabin/create',
    { parentId: null, type: 'directory', name: '乙公司设备' },
    tokenB,
  );
  expect(created.code, created.message).toBe(0);
  dirB = created.data.id;
});

afterAll(async () => {
  for (const gw of gateways.values()) await gw.disconnect().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

describe('gateway registry (system maintenance)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openAs('zh'));
  });

  afterAll(async () => {
    await context?.close();
  });

  test('the hub leads to the registry; a batch shows each secret once, with its CSV, and the secrets work', async () => {
    await go(page, '/systemMaintenance/datamanagement', 'hub-page');
    await page.getByTestId('hub-systemGateway').click();
    await page.getByTestId('registry-page').waitFor();
    await page.getByTestId('registry-register').click();
    // a broken batch is refused in the dialog, with the catalogue's words, before anything is sent
    await page.getByTestId('register-sns').fill('e2ereg0001\nE2E-BAD\ne2ereg0002');
    await page.getByTestId('register-model').fill(MODEL);
    await page.getByTestId('register-ok').click();
    await fieldErrors(page)
      .filter({ hasText: text('serialNumberInvalid') })
      .waitFor();
    await page.getByTestId('register-sns').fill('e2ereg0001\ne2ereg0002\nE2EREG0001');
    await fieldErrors(page)
      .filter({ hasText: text('serialNumberRepeated', 'zh', { sn: 'E2EREG0001' }) })
      .waitFor();
    // one registered already: the server's refusal names it, and nothing of the batch is registered
    // the test registers a taken serial number on purpose: the server refuses it (409)
    allowPageErrors(refused(409, '/general/system/gateway/register'));
    await page.getByTestId('register-sns').fill(`e2ereg0001\n${SN.ok}`);
    await page.getByTestId('register-ok').click();
    await fieldErrors(page)
      .filter({ hasText: text('serialNumberTaken', 'zh', { sn: SN.ok }) })
      .waitFor();
    const none = await api<{ total: number }>('/system/gateway/list?keyword=E2EREG&pageNum=1&pageSize=10');
    expect(none.data.total).toBe(0);

    await page.getByTestId('register-sns').fill('e2ereg0001\n e2ereg0002 \nE2EREG0003');
    await page.getByTestId('register-ok').click();
    await page.getByTestId('secrets-table').waitFor();
    await page.getByTestId('secrets-warning').waitFor();
    const shown = new Map<string, string>();
    for (const sn of ['E2EREG0001', 'E2EREG0002', 'E2EREG0003']) {
      const secret = (await page.getByTestId(`secret-${sn}`).innerText()).trim();
      expect(secret).toMatch(/^gws_[A-Za-z0-9_-]{43}$/);
      shown.set(sn, secret);
    }
    await shot(page, 'devices-registry-secrets-zh-1440');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('secrets-download').click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toBe('SN,secret');
    expect(csv.slice(1).sort()).toEqual([...shown].map(([sn, secret]) => `${sn},${secret}`).sort());
    await page.getByTestId('secrets-close').click();
    await page.getByTestId('secrets-table').waitFor({ state: 'hidden' });
    await page.getByTestId('registry-row-E2EREG0001').waitFor();

    // a shown secret is the gateway's password on the broker
    const gw = new TestGateway(brokerUrl, 'E2EREG0001', shown.get('E2EREG0001')!);
    await gw.connect();
    await expect
      .poll(
        async () =>
          (await api<{ online: boolean }>(`/system/gateway/detail?id=${await registryId('E2EREG0001')}`)).data
            .online,
        {
          timeout: 20_000,
        },
      )
      .toBe(true);
    await gw.disconnect();
    await shot(page, 'devices-registry-zh-1440');
  });

  test('replacing a secret shows the new one once and stops the old; a never-bound registration is removed', async () => {
    const id = await registryId('E2EREG0002');
    await go(page, `/systemMaintenance/sysgatewaydetail/${id}`, 'registry-detail-page');
    // the tab reads the serial number
    await page.locator('[data-testid=tag][aria-selected=true]', { hasText: 'E2EREG0002' }).waitFor();
    await page.getByTestId('registry-replace').click();
    await page.getByTestId('replace-ok').click();
    const secret = (await page.getByTestId('secret-E2EREG0002').innerText()).trim();
    expect(secret).toMatch(/^gws_/);
    // closing before saving asks first
    await page.getByTestId('secrets-close').click();
    await page.getByTestId('secrets-leave-ok').click();
    await page.getByTestId('secrets-table').waitFor({ state: 'hidden' });
    const fresh = new TestGateway(brokerUrl, 'E2EREG0002', secret);
    await fresh.connect();
    await fresh.disconnect();

    await page.getByTestId('registry-remove').click();
    await page.getByTestId('remove-ok').click();
    await page.getByTestId('registry-page').waitFor();
    const left = await api<{ total: number }>(
      '/system/gateway/list?keyword=E2EREG0002&pageNum=1&pageSize=10',
    );
    expect(left.data.total).toBe(0);
  });
});

async function registryId(sn: string): Promise<number> {
  const list = await api<{ list: Array<{ id: number; serialNumber: string }> }>(
    `/system/gateway/list?keyword=${sn}&pageNum=1&pageSize=10`,
  );
  const found = list.data.list.find((g) => g.serialNumber === sn);
  expect(found, sn).toBeTruthy();
  return found!.id;
}

describe('binding', () => {
  test('an empty device list says how to bind a first device', async () => {
    // company B has no device yet (the demo company has the demo's gateways)
    const { context, page } = await openAs('zh', 1440, COMPANY_B_ADMIN);
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    await page.getByTestId('device-empty').waitFor();
    await shot(page, 'devices-list-empty-zh-1440');
    await context.close();
  });

  test('a gateway that confirms: the countdown runs, then "Bound successfully" and the device in the list', async () => {
    const gw = gateway(SN.ok);
    await gw.connect({ firmware: '1.2.0', iccid: '89860012345678901234', configVersion: 3 });
    const { context, page } = await openAs('en');
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    await page.locator('[data-testid=device-live][data-live=on]').waitFor({ timeout: 20_000 });
    // typed in lower case, taken as upper case
    await openBind(page, SN.ok.toLowerCase(), DEVICE_NAME);
    expect(await page.getByTestId('bind-sn').inputValue()).toBe(SN.ok);
    await page.getByTestId('bind-submit').click();
    const countdown = page.getByTestId('bind-countdown');
    await countdown.waitFor();
    const first = Number(await countdown.getAttribute('data-seconds'));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(TTL_S);
    await page.getByText(`Press the bind button on gateway ${SN.ok}`).waitFor();
    await shot(page, 'devices-bind-countdown-en-1440');
    // the seconds count down while the request waits
    await expect
      .poll(async () => Number(await countdown.getAttribute('data-seconds')), { timeout: 15_000 })
      .toBeLessThan(first);

    // the person at the gateway presses its button
    const requestId = await gw.pressBindButton();
    await page.getByTestId('bind-result-bound').filter({ hasText: SUCCESS_MESSAGES.bound.en }).waitFor();
    await shot(page, 'devices-bind-bound-en-1440');
    await gw.waitFor(
      (m) => m.kind === 'bind' && m.payload.requestId === requestId && m.payload.result === 'bound',
    );
    await page.getByTestId('bind-done').click();
    await row(page, SN.ok).waitFor();
    const found = (await devices()).find((d) => d.serialNumber === SN.ok);
    expect(found?.name).toBe(DEVICE_NAME);
    deviceId = found!.id;
    await context.close();
  });

  test('a bind nobody confirms expires, with its message', async () => {
    const gw = gateway(SN.expire);
    await gw.connect();
    const { context, page } = await openAs('en');
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    await openBind(page, SN.expire, 'Never confirmed');
    await page.getByTestId('bind-submit').click();
    await page.getByTestId('bind-countdown').waitFor();
    await page
      .getByTestId('bind-result-expired')
      .filter({ hasText: text('bindRequestExpired', 'en') })
      .waitFor({ timeout: (TTL_S + 30) * 1000 });
    await gw.waitFor((m) => m.kind === 'bind' && m.payload.result === 'expired');
    await shot(page, 'devices-bind-expired-en-1440');
    // pressing the button now binds nothing
    await gw.publish('bind', { requestId: gw.bindRequests().at(-1)!.requestId });
    await page.getByTestId('bind-again').click();
    await page.getByTestId('bind-sn').waitFor();
    await closeModal(page);
    expect((await devices()).some((d) => d.serialNumber === SN.expire)).toBe(false);
    await context.close();
  }, 150_000);

  test('each refusal stands beside the serial number, in the server words', async () => {
    // company B binds one gateway, and has a request waiting on another
    const other = gateway(SN.elsewhere);
    await other.connect();
    const bound = await post<{ requestId: string }>(
      '/devicemanagement/device/bind',
      { serialNumber: SN.elsewhere, name: '乙公司网关', parentId: dirB },
      tokenB,
    );
    expect(bound.code, bound.message).toBe(0);
    await other.pressBindButton();
    await other.waitFor((m) => m.kind === 'bind' && m.payload.result === 'bound');
    const pending = gateway(SN.pending);
    await pending.connect();

    const { context, page } = await openAs('zh');
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/device/bind')) calls.push(r.url());
    });
    await openBind(page, 'AB-12', '乱码');
    await page.getByTestId('bind-submit').click();
    await fieldErrors(page)
      .filter({ hasText: text('serialNumberInvalid') })
      .waitFor();
    expect(calls).toEqual([]);

    // the refusals below are provoked on purpose: the server answers each with 400
    allowPageErrors(refused(400, '/general/devicemanagement/device/bind'));
    const refusals: Array<[string, ErrorKey]> = [
      ['ZZZZ99999', 'gatewayUnknown'],
      [SN.ok, 'gatewayAlreadyBound'],
      [SN.elsewhere, 'gatewayBoundElsewhere'],
      [SN.offline, 'gatewayOfflineBind'],
    ];
    for (const [sn, key] of refusals) {
      await page.getByTestId('bind-sn').fill(sn);
      await page.getByTestId('bind-submit').click();
      await fieldErrors(page)
        .filter({ hasText: text(key) })
        .waitFor();
    }
    // another company's request waits on this gateway
    const waiting = await post(
      '/devicemanagement/device/bind',
      { serialNumber: SN.pending, name: '乙等待', parentId: dirB },
      tokenB,
    );
    expect(waiting.code, waiting.message).toBe(0);
    await page.getByTestId('bind-sn').fill(SN.pending);
    await page.getByTestId('bind-submit').click();
    await fieldErrors(page)
      .filter({ hasText: text('gatewayBindPending') })
      .waitFor();
    // the name and the directory follow the cabin's rules
    await page.getByTestId('bind-name').fill('50%网关');
    await fieldErrors(page)
      .filter({ hasText: text('nameNoPercent') })
      .waitFor();
    await shot(page, 'devices-bind-refused-zh-1440');
    await closeModal(page);
    await context.close();
  });
});

describe('a bound device', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await openAs('zh'));
  });

  afterAll(async () => {
    await context?.close();
  });

  test('the list follows the gateway live: offline, online with a port error, running again', async () => {
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    await page.locator('[data-testid=device-live][data-live=on]').waitFor({ timeout: 20_000 });
    const line = row(page, SN.ok);
    await line.locator('[data-online=true]').waitFor();
    await line.locator('[data-status=running]').waitFor();
    const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);

    const gw = gateway(SN.ok);
    await gw.disconnect();
    await line.locator('[data-online=false]').waitFor({ timeout: 20_000 });
    await line.locator('[data-status=abnormal]').waitFor();

    await gw.connect({
      ports: [
        { port: 1, ok: true },
        { port: 2, ok: false, error: 'no answer' },
      ],
    });
    await line.locator('[data-online=true]').waitFor({ timeout: 20_000 });
    await line.locator('[data-status=abnormal]').hover();
    await page.getByTestId('status-port-errors').filter({ hasText: 'no answer' }).waitFor();
    await shot(page, 'devices-list-live-zh-1440');

    await gw.status({
      ports: [
        { port: 1, ok: true },
        { port: 2, ok: true },
      ],
    });
    await line.locator('[data-status=running]').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loads);
  });

  test('the detail drawer: fields and cabin path, edit, a preset picture; refused uploads', async () => {
    await page.getByTestId(`device-name-${SN.ok}`).click();
    await page.getByTestId('device-drawer-body').waitFor();
    expect(new URL(page.url()).searchParams.get('device')).toBe(String(deviceId));
    expect(await page.getByTestId('device-path').innerText()).toContain(DIR);
    await expect.poll(() => page.getByTestId('device-fields').innerText()).toContain('89860012345678901234');

    await page.getByTestId('drawer-edit').click();
    await page.getByTestId('edit-name').fill('');
    await fieldErrors(page)
      .filter({ hasText: text('nameRequired') })
      .waitFor();
    await page.getByTestId('edit-name').fill('一号锅炉房');
    await page.getByTestId('edit-address').fill('一号厂房东侧');
    await page.getByTestId('edit-ok').click();
    await success(page, { untilGone: true });
    await page.getByTestId('drawer-name').filter({ hasText: '一号锅炉房' }).waitFor();

    await page.getByTestId('picture-preset-boiler').click();
    await success(page);
    await page.locator('[data-testid=device-drawer-body] [data-preset=boiler]').first().waitFor();

    const input = fileInput(page, 'picture-upload');
    await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
    await page.locator('.ant-message-notice', { hasText: text('imageFormat') }).waitFor();
    await shot(page, 'devices-drawer-zh-1440');
  });

  test("the spec's two upload messages in English; a real photo becomes the picture", async () => {
    const en = await openAs('en');
    await go(en.page, `/devicemanagement/devicelist?device=${deviceId}`, 'device-drawer-body');
    const uploads: string[] = [];
    en.page.on('request', (r) => {
      if (r.url().includes('uploadPicture')) uploads.push(r.url());
    });
    const input = fileInput(en.page, 'picture-upload');
    await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
    await en.page.locator('.ant-message-notice', { hasText: SPEC_FORMAT }).waitFor();
    const big = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(3 * 1024 * 1024 + 1 - 8),
    ]);
    expect(big.length).toBe(3 * 1024 * 1024 + 1);
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await en.page.locator('.ant-message-notice', { hasText: SPEC_SIZE }).waitFor();
    expect(uploads).toEqual([]);
    // the server judges the bytes too
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('not a png')], { type: 'image/png' }), 'fake.png');
    const refused = await api(`/devicemanagement/device/uploadPicture?id=${deviceId}`, {
      method: 'POST',
      body: form,
      headers: { 'Accept-Language': 'en' },
    });
    expect(refused.message).toBe(SPEC_FORMAT);

    const png = await drawPng(en.page, 'DTU', '#1677ff');
    await input.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
    await success(en.page);
    await en.page.getByTestId('picture-photo').waitFor();
    await en.context.close();
  });

  test('the operation log: bind and edit, by kind, and as CSV', async () => {
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    await page.getByTestId(`device-more-${SN.ok}`).click();
    await page.getByTestId('device-action-log').click();
    await page.getByTestId('operation-log-page').waitFor();
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(
      `/operationLog/${deviceId}/${MODEL}/${SN.ok}/dtu/一号锅炉房`,
    );
    await page.getByTestId('log-row-bind').first().waitFor();
    await page.getByTestId('log-row-edit').first().waitFor();
    await shot(page, 'devices-oplog-zh-1440');
    await page.getByTestId('log-filter-kind').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '编辑' }).click();
    await expect.poll(() => page.getByTestId('log-row-bind').count()).toBe(0);
    const edits = await page.getByTestId('log-row-edit').count();
    expect(edits).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('log-export').click(),
    ]);
    const lines = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('时间,操作,结果,操作者,详情,数据');
    expect(lines.length - 1).toBe(edits);
    expect(lines.slice(1).every((l) => l.split(',')[1] === '编辑')).toBe(true);
  });

  test('device permissions with the cabin editor: a member without the permission does not see the device', async () => {
    // the limited member gets the device list's code, so only the data permission decides
    const users = await api<{ list: Array<{ userId: number; phone: string; roleIds: number[] }> }>(
      '/user/getSysUserList?pageNum=1&pageSize=50',
    );
    const limited = users.data.list.find((u) => u.phone === DEMO_LIMITED.phone)!;
    const roles = await api<Array<{ id: number; menuCodes: string[] }>>('/role/getRoleList');
    const roleList = roles.data;
    for (const roleId of limited.roleIds) {
      const role = roleList.find((r) => r.id === roleId)!;
      const updated = await post('/role/updateRole', {
        id: roleId,
        menuCodes: [...new Set([...role.menuCodes, 'device_management', 'dm_list'])],
      });
      expect(updated.code, updated.message).toBe(0);
    }
    const limitedToken = await tokenOf(DEMO_LIMITED.phone, DEMO_LIMITED.password);
    // inherited from the top of the cabin: every member reads it
    expect((await devices(limitedToken)).map((d) => d.serialNumber)).toContain(SN.ok);

    await go(page, '/devicemanagement/devicemanagementpermission', 'device-permission-page');
    await page.getByTestId(`perm-edit-${SN.ok}`).click();
    await page.getByTestId('permission-editor').waitFor();
    await page.getByTestId('perm-mode').getByText('自定义').click();
    await page.getByTestId('perm-company-level').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '无权限' }).click();
    await shot(page, 'devices-permission-editor-zh-1440');
    await page.getByTestId('perm-save').click();
    await success(page, { untilGone: true });
    await page
      .getByTestId(`perm-row-${SN.ok}`)
      .getByTestId('perm-mode-tag')
      .filter({ hasText: '自定义' })
      .waitFor();

    expect((await devices(limitedToken)).map((d) => d.serialNumber)).not.toContain(SN.ok);
    const hidden = await api(`/devicemanagement/device/detail?id=${deviceId}`, { token: limitedToken });
    expect(hidden.code).toBe(40400);
    const member = await openAs('zh', 1440, DEMO_LIMITED);
    await go(member.page, '/devicemanagement/devicelist', 'device-list-page');
    // the demo's own devices show (the list has loaded); this one does not
    await member.page.locator('[data-testid^="device-row-"]').first().waitFor();
    expect(await row(member.page, SN.ok).count()).toBe(0);
    await shot(member.page, 'devices-list-member-hidden-zh-1440');

    // read only for that person: the device shows, its edit and unbind say why they are off
    const set = await post('/devicemanagement/permission/set', {
      id: deviceId,
      mode: 'custom',
      entries: [
        { scope: 'company', subjectId: null, level: 0 },
        { scope: 'user', subjectId: limited.userId, level: 1 },
      ],
    });
    expect(set.code, set.message).toBe(0);
    await member.page.reload();
    await row(member.page, SN.ok).waitFor();
    expect(await member.page.getByTestId(`device-edit-${SN.ok}`).isDisabled()).toBe(true);
    await member.context.close();
  });

  test('maintenance: an overdue plan stands out; done records the work and moves the next due date', async () => {
    const company = await api<{ timeZone: string }>('/company/getCompany');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: company.data.timeZone }).format(new Date());
    const shift = (days: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const plan = await post<{ id: number }>('/devicemanagement/maintenance/plans/create', {
      deviceId,
      title: '季度巡检',
      intervalDays: 30,
      nextDue: shift(-5),
    });
    expect(plan.code, plan.message).toBe(0);
    await go(page, '/devicemanagement/maintenance?tab=plans', 'plans-table');
    const line = page.getByTestId(`plan-row-${plan.data.id}`);
    await line.and(page.locator('[data-overdue=true]')).waitFor();
    await line.getByTestId('plan-overdue').waitFor();
    await shot(page, 'devices-maintenance-overdue-zh-1440');

    await page.getByTestId(`plan-done-${plan.data.id}`).click();
    await page
      .getByTestId('done-next-due')
      .filter({ hasText: shift(30) })
      .waitFor();
    await page.getByTestId('done-description').fill('更换滤芯，清理端子');
    await page.getByTestId('done-ok').click();
    await success(page, { untilGone: true });
    await line.and(page.locator('[data-overdue=false]')).waitFor();
    expect(await line.getByTestId('plan-next-due-value').innerText()).toBe(shift(30));

    await page.getByRole('tab', { name: '维护记录' }).click();
    const record = page.getByTestId('records-table').locator('tr', { hasText: '更换滤芯，清理端子' });
    await record.waitFor();
    expect(await record.innerText()).toContain(today);
  });
});

describe('screens', () => {
  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`device pages in ${lang} at ${width} px`, async () => {
        const { context, page } = await openAs(lang, width);
        const tag = `${lang}-${width}`;
        await go(page, '/devicemanagement/devicelist', 'device-list-page');
        await row(page, SN.ok).waitFor();
        await shot(page, `devices-list-${tag}`);
        await page.getByTestId('device-bind').click();
        await page.getByTestId('bind-dialog').waitFor();
        await shot(page, `devices-bind-form-${tag}`);
        await closeModal(page);
        await go(page, `/devicemanagement/devicelist?device=${deviceId}`, 'device-drawer-body');
        await shot(page, `devices-drawer-${tag}`);
        await page.getByTestId('picture-picker').scrollIntoViewIfNeeded();
        await shot(page, `devices-drawer-more-${tag}`);
        await go(page, `/operationLog/${deviceId}/${MODEL}/${SN.ok}/dtu/x`, 'log-table');
        await page.getByTestId('log-row-bind').first().waitFor();
        await shot(page, `devices-oplog-${tag}`);
        await go(page, '/devicemanagement/devicemanagementpermission', 'device-permission-page');
        await page.getByTestId(`perm-row-${SN.ok}`).waitFor();
        await shot(page, `devices-permissions-${tag}`);
        await go(page, '/devicemanagement/maintenance?tab=plans', 'plans-table');
        await page.getByTestId('plans-table').locator('.ant-table-row').first().waitFor();
        await shot(page, `devices-maintenance-${tag}`);
        await go(page, '/systemMaintenance/systemgateway', 'registry-table');
        await page.getByTestId(`registry-row-${SN.ok}`).waitFor();
        await shot(page, `devices-registry-${tag}`);
        await go(page, '/systemMaintenance/datamanagement', 'hub-page');
        await shot(page, `devices-hub-${tag}`);
        await context.close();
      });
    }
  }
});

describe('unbinding', () => {
  test('unbind after a prompt that names the device: "Unbound successfully"', async () => {
    const { context, page } = await openAs('zh');
    await go(page, '/devicemanagement/devicelist', 'device-list-page');
    await page.getByTestId(`device-more-${SN.ok}`).click();
    await page.getByTestId('device-action-unbind').click();
    const prompt = page.locator('.ant-modal-confirm');
    await prompt.filter({ hasText: '一号锅炉房' }).filter({ hasText: SN.ok }).waitFor();
    await shot(page, 'devices-unbind-prompt-zh-1440');
    await page.getByTestId('unbind-ok').click();
    await page.locator('.ant-message-notice', { hasText: SUCCESS_MESSAGES.unbound.zh }).waitFor();
    await row(page, SN.ok).waitFor({ state: 'detached' });
    await gateway(SN.ok).waitFor((m) => m.kind === 'bind' && m.payload.result === 'unbound');
    expect((await devices()).some((d) => d.serialNumber === SN.ok)).toBe(false);
    await context.close();
  });
});
