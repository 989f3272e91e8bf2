/**
 * Gateway configuration as a person uses it, with the gateway simulator (apps/gateway-sim) as
 * the gateway: registered, online and bound to the demo company. In the node editor: add nodes
 * from the palette, draw a link the table refuses (and one it allows), fail the check, try to
 * push (refused with the spec's words, saved first), jump from a problem to its field, fix it,
 * pass the check, save, push and see the gateway apply and the platform confirm; reach the node
 * maximum. In English: the check's problems, the versions, the push page. On a phone: the
 * read-only editor and a push of the same configuration, which the gateway answers unchanged.
 * Screenshots zh/en at 1440 px and zh at 390 px.
 */
import { SimGateway } from '@platform/gateway-sim';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  allowPageErrors,
  DEMO_ADMIN,
  openBrowser,
  type RunningServer,
  refused,
  shot,
  startServer,
} from './harness';
import { supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
let sim: SimGateway;
let deviceId: number;
/** the cabin directory the device was bound into */
let directoryName: string;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

const SN = 'E2ECFG0001';
const DEVICE_NAME = '配置网关';

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

  // the factory registers the gateway; it comes online on the platform's broker
  const registered = await postJson<{ gateways: Array<{ id: number; secret: string }> }>(
    '/system/gateway/register',
    {
      serialNumbers: [SN],
      model: 'SDG-200',
    },
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

  // the company binds it into a directory of its data cabin; the person at the gateway presses its button
  const tree =
    await api<Array<{ id: number; type: string; name: string; parentId: number | null }>>(
      '/smartdata/cabin/tree',
    );
  const directory = tree.data.find((n) => n.type === 'directory' && n.parentId === null);
  expect(directory, 'a directory of the demo cabin').toBeDefined();
  directoryName = directory!.name;
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

const editorPath = () => `/smartdata/device/deviceconfig/${deviceId}`;

async function handleCenter(page: Page, nodeId: string, kind: 'source' | 'target') {
  const box = await page.locator(`[data-testid=gc-node-${nodeId}] .react-flow__handle.${kind}`).boundingBox();
  expect(box, `${nodeId} ${kind} handle`).not.toBeNull();
  return { x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 };
}

/** Draws a link with the mouse, from one node's output to another's input. */
async function drawLink(page: Page, from: string, to: string): Promise<void> {
  const a = await handleCenter(page, from, 'source');
  const b = await handleCenter(page, to, 'target');
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2 + 20, { steps: 8 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

async function messageText(page: Page, kind: 'warning' | 'error' | 'success'): Promise<string> {
  const notice = page.locator(`.ant-message-notice .ant-message-${kind}`).last();
  await notice.waitFor({ timeout: 10_000 });
  return (await notice.innerText()).trim();
}

/** The OK of the open confirmation (antd's confirm dialog, not a form modal). */
async function confirmOk(page: Page): Promise<void> {
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').last().click();
}

async function pushState(page: Page, state: string): Promise<void> {
  await page.locator(`[data-testid=gc-push][data-state=${state}]`).waitFor({ timeout: 60_000 });
}

describe('gateway configuration', () => {
  let context: BrowserContext;
  let page: Page;

  afterAll(async () => {
    await context?.close();
  });

  test('build a configuration, fail the check, fix it, save, push and see the gateway apply it (zh)', async () => {
    ({ context, page } = await openAs('zh'));
    // the device is an entry of the data cabin: opening it opens its configuration
    await go(page, '/smartdata/datacapsule', 'datacabin-page');
    await page.getByTestId('cabin-tree').getByTestId(`tree-node-${directoryName}`).click();
    await page.getByTestId(`entry-${DEVICE_NAME}`).click();
    await page.getByTestId('gc-editor').waitFor();
    expect(new URL(page.url()).pathname).toBe(editorPath());
    await page.getByTestId('gc-templates').waitFor();
    await expect.poll(() => page.getByTestId('gc-version').innerText()).toBe('尚未保存');
    await shot(page, 'gatewayconfig-empty-zh');

    await page.getByTestId('gc-palette-mqttPublish').click();
    await page.getByTestId('gc-node-publish1').waitFor();
    await page.getByTestId('gc-palette-timestamp').click();
    await page.getByTestId('gc-node-time1').waitFor();
    // dragged from the palette onto the canvas
    await page.getByTestId('gc-palette-com').dragTo(page.getByTestId('gc-canvas'), {
      targetPosition: { x: 420, y: 420 },
    });
    await page.getByTestId('gc-node-com1').waitFor();
    expect(await page.getByTestId('gc-node-count').innerText()).toBe('3 / 64 个节点');
    // the COM node is named after its port and starts 9600 8N1, client
    await expect.poll(() => page.getByTestId('gc-node-com1').innerText()).toContain('COM1');

    // a timestamp cannot go to a COM port: refused as it is drawn, with the table's reason
    await drawLink(page, 'time1', 'com1');
    expect(await messageText(page, 'warning')).toBe('不能连接：时间戳只能连接到MQTT发布（JSON）或HTTP请求');
    await shot(page, 'gatewayconfig-link-refused-zh');
    expect(await page.locator('.react-flow__edge').count()).toBe(0);
    // it may go to the MQTT publish
    await drawLink(page, 'time1', 'publish1');
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(1);

    // a third-party broker without its address and topic
    await page.getByTestId('gc-node-publish1').click();
    await page.getByTestId('gc-settings').locator('label', { hasText: '第三方MQTT服务器' }).click();
    await page.getByTestId('gc-field-url').waitFor();

    await page.getByTestId('gc-check').click();
    await page.getByTestId('gc-check-failed').waitFor();
    const problems = page.getByTestId('gc-problem');
    await expect.poll(() => problems.count()).toBeGreaterThanOrEqual(3);
    const urlProblem = page.locator('[data-testid=gc-problem][data-node=publish1][data-field=url]');
    expect(await urlProblem.innerText()).toContain('此项必填');
    expect(await page.locator('[data-testid=gc-problem][data-node=publish1][data-field=topic]').count()).toBe(
      1,
    );
    // the idle port is a note, not an error
    expect(
      await page.locator('[data-testid=gc-problem][data-node=com1][data-key=configPortIdle]').count(),
    ).toBe(1);
    await shot(page, 'gatewayconfig-check-failed-zh');

    // a push saves first, then refuses with the spec's words
    // the refused push answers 400: the page shows the reason
    allowPageErrors(refused(400, '/general/devicemanagement/gatewayconfig/push'));
    await page.getByTestId('gc-push-button').click();
    await confirmOk(page);
    const refusal = page.locator('.ant-notification-notice', {
      hasText: '配置未通过检查，请使用配置检查查看详情。',
    });
    await refusal.waitFor();
    await expect.poll(() => page.getByTestId('gc-version').innerText()).toBe('版本 1');
    await shot(page, 'gatewayconfig-push-refused-zh');
    await refusal.locator('.ant-notification-notice-close').click();

    // from the problem to its field
    await urlProblem.click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('gc-field-url');
    expect(await page.getByTestId('gc-settings').getAttribute('data-node')).toBe('publish1');

    // fixed: back to this platform
    await page.getByTestId('gc-settings').locator('label', { hasText: '本平台' }).click();
    await page.getByTestId('gc-check').click();
    await page.getByTestId('gc-check-passed').waitFor();
    expect(await page.getByTestId('gc-check-passed').innerText()).toContain('检查通过（有 1 条提醒）');
    await shot(page, 'gatewayconfig-check-passed-zh');

    await page.getByTestId('gc-save').click();
    expect(await messageText(page, 'success')).toBe('已保存为版本 2');
    await expect.poll(() => page.getByTestId('gc-version').innerText()).toBe('版本 2');

    await page.getByTestId('gc-push-button').click();
    await confirmOk(page);
    await pushState(page, 'committed');
    expect(await page.getByTestId('gc-push-state').innerText()).toContain('网关已应用并确认');
    await shot(page, 'gatewayconfig-pushed-zh');
    await waitFor(
      async () => sim.state().config?.version === 2 && sim.state().pendingConfig === null,
      'kept',
    );
    await page.locator('.ant-modal-wrap:visible .ant-modal-footer button').click();

    // the node maximum, with the spec's words
    const palette = page.getByTestId('gc-palette-timestamp');
    for (let n = 3; n < 64; n++) await palette.click();
    await expect.poll(() => page.getByTestId('gc-node-count').innerText()).toBe('64 / 64 个节点');
    await palette.click();
    expect(await messageText(page, 'error')).toBe('已达到可创建节点数量的上限！');
    expect(await page.locator('.react-flow__node').count()).toBe(64);
    await shot(page, 'gatewayconfig-max-nodes-zh');
  });

  test('English: the check names node and field; versions; the push page', async () => {
    await context?.close();
    ({ context, page } = await openAs('en'));
    await go(page, editorPath(), 'gc-editor');
    await page.getByTestId('gc-node-publish1').waitFor();
    expect(await page.getByTestId('gc-version').innerText()).toBe('Version 2');

    await page.getByTestId('gc-palette-httpRequest').click();
    await page.getByTestId('gc-node-http1').waitFor();
    // an HTTP request sends out what reaches it: it has no output to draw from
    expect(await page.locator('[data-testid=gc-node-http1] .react-flow__handle.source').count()).toBe(0);
    await drawLink(page, 'time1', 'com1');
    expect(await messageText(page, 'warning')).toBe(
      'Cannot link: A timestamp goes to an MQTT publish (JSON) or an HTTP request',
    );
    await shot(page, 'gatewayconfig-link-refused-en');

    await page.getByTestId('gc-check').click();
    await page.getByTestId('gc-check-failed').waitFor();
    const url = page.locator('[data-testid=gc-problem][data-node=http1][data-field=url]');
    expect(await url.innerText()).toContain('Address');
    expect(await url.innerText()).toContain('This value is required');
    await shot(page, 'gatewayconfig-check-failed-en');

    // meanwhile someone else saves version 3: this page's save is refused, naming them, and it reloads
    const current = await api<{ config: { nodes: Array<{ id: string; name: string }>; links: unknown[] } }>(
      `/devicemanagement/gatewayconfig/get?id=${deviceId}`,
    );
    const theirs = structuredClone(current.data.config);
    theirs.nodes.find((n) => n.id === 'time1')!.name = 'Reading time';
    const saved = await postJson<{ version: number }>('/devicemanagement/gatewayconfig/save', {
      id: deviceId,
      baseVersion: 2,
      config: theirs,
    });
    expect(saved.data.version).toBe(3);
    // the refused save answers 409: the page offers to reload
    allowPageErrors(refused(409, '/general/devicemanagement/gatewayconfig/save'));
    await page.getByTestId('gc-save').click();
    const conflict = page.getByTestId('gc-conflict');
    await conflict.waitFor();
    expect(await conflict.innerText()).toMatch(
      /^Version 3 was saved by 演示管理员 at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d after you opened this configuration/,
    );
    await shot(page, 'gatewayconfig-conflict-en');
    await confirmOk(page);
    await expect.poll(() => page.getByTestId('gc-version').innerText()).toBe('Version 3');
    await page.getByTestId('gc-node-time1').getByText('Reading time').waitFor();
    expect(await page.getByTestId('gc-node-http1').count()).toBe(0);

    await page.getByTestId('gc-history').click();
    await page.locator('.ant-drawer .ant-table-row').first().waitFor();
    expect(await page.locator('.ant-drawer .ant-table-row').count()).toBe(3);
    await shot(page, 'gatewayconfig-versions-en');

    // an old version, read-only on the canvas, then back to the latest
    const v1 = page.locator('.ant-drawer .ant-table-row', { hasText: 'v1' });
    await v1.getByRole('button', { name: 'View' }).click();
    await page.getByTestId('gc-viewing').waitFor();
    expect(await page.getByTestId('gc-viewing').innerText()).toContain('Viewing version 1 (read-only)');
    await page.getByTestId('gc-node-time1').getByText('时间戳1').waitFor();
    expect(await page.getByTestId('gc-palette-com').count()).toBe(0);
    await shot(page, 'gatewayconfig-viewing-en');
    await page.getByTestId('gc-viewing').getByRole('button', { name: 'Back to editing' }).click();
    await page.getByTestId('gc-node-time1').getByText('Reading time').waitFor();

    // restored: version 2's content (the one the gateway runs) becomes version 4
    await page.getByTestId('gc-history').click();
    await page.getByTestId('gc-restore-2').click();
    await page.locator('.ant-popover:visible .ant-popconfirm-buttons button.ant-btn-primary').click();
    await page.locator('.ant-message-notice', { hasText: 'Version 2 restored as version 4' }).waitFor();
    await expect.poll(() => page.getByTestId('gc-version').innerText()).toBe('Version 4');
    await page.getByTestId('gc-node-time1').getByText('时间戳1').waitFor();

    // the DTU route opens the same editor
    await go(page, `/smartdata/device/dtu/config/${deviceId}`, 'gc-editor');
    expect(await page.locator('.gc-title-text').innerText()).toBe(`DTU configuration · ${DEVICE_NAME}`);

    await go(page, `/upgradeCfg/${deviceId}/${encodeURIComponent(DEVICE_NAME)}`, 'gc-push-page');
    await page.locator('[data-testid=gc-push][data-state=committed]').waitFor();
    await page.locator('[data-testid=gc-push-row-state][data-state=committed]').waitFor();
    // it runs version 2; versions 3 and 4 were saved since
    await page.getByText('The gateway does not run the latest version').waitFor({ timeout: 30_000 });
    await shot(page, 'gatewayconfig-pushes-en');
  });

  test('on a phone: the editor reads only; a push of what the gateway runs changes nothing (zh, 390 px)', async () => {
    await context?.close();
    ({ context, page } = await openAs('zh', 390));
    await go(page, editorPath(), 'gc-editor');
    await page.getByTestId('gc-node-publish1').waitFor();
    expect(await page.getByTestId('gc-palette-com').count()).toBe(0);
    await page.getByText('在手机上可查看、检查和推送配置；编辑请使用更宽的屏幕').waitFor();
    await shot(page, 'gatewayconfig-phone-zh');

    await go(page, `/upgradeCfg/${deviceId}/${encodeURIComponent(DEVICE_NAME)}`, 'gc-push-page');
    // version 4 has version 2's content, which the gateway runs: it answers unchanged
    await page.getByTestId('gc-push-latest').click();
    await confirmOk(page);
    await page.locator('[data-testid=gc-push][data-state=unchanged]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('gc-push-state').innerText()).toContain('网关已在运行此配置，未做更改');
    await page.locator('[data-testid=gc-push-row-state][data-state=unchanged]').waitFor();
    expect(await page.getByTestId('gc-push-row-state').count()).toBe(2);
    await page.getByText('网关运行的正是最新版本').waitFor({ timeout: 30_000 });
    expect(sim.state().config?.version, 'nothing changed on the gateway').toBe(2);
    await shot(page, 'gatewayconfig-pushes-phone-zh');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').toBeLessThanOrEqual(390);

    // the gateway goes offline: Push is disabled, and says why
    await sim.goOffline('polite');
    await page.reload();
    await page.getByTestId('gc-push-page').waitFor();
    await expect.poll(() => page.getByTestId('gc-push-latest').isDisabled(), { timeout: 30_000 }).toBe(true);
    await page.getByTestId('gc-push-latest').hover({ force: true });
    await page.locator('.ant-tooltip', { hasText: '网关离线，无法推送' }).waitFor();
    await shot(page, 'gatewayconfig-offline-phone-zh');
  });
});
