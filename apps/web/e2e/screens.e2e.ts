/**
 * Configuration screens as a person uses them, on a demo gateway the simulated fleet feeds: a
 * screen made in the editor (a tank and a light bound to one of the gateway's points, a
 * threshold rule), saved; a bad rule (between with the upper value below the lower) refused on
 * its own field, the element selected; the screen shown live with the gateway's value; a
 * second person opening the editor sees who holds it, read-only, and takes it once the first
 * editor closes. Screenshots: the editor zh 1440, the show page zh 1440 and en 390.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { allowPageErrors, DEMO_LIMITED, refused, shot } from './harness';
import { demoAdminRun, noSideways, numberInput, pickOption, success } from './support';

const { api, postJson, openAs, go } = demoAdminRun();

interface Point {
  itemId: number;
  itemName: string;
  field: string;
  fieldName: string;
}
interface ScreenGet {
  device: { id: number; name: string; online: boolean };
  screen: {
    version: number;
    body: { elements: Array<{ type: string; binding: unknown; rules: unknown[] }> };
  } | null;
  points: Point[];
}

let device: { id: number; name: string };
/** the boiler room gateway, whose screen the demo brings */
let demoScreen: { id: number; name: string };
let point: Point;

async function waitUntil<T>(check: () => Promise<T | undefined>, what: string, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  const list = await api<{ list: Array<{ id: number; name: string }> }>(
    '/devicemanagement/device/list?pageNum=1&pageSize=100',
  );
  // a demo gateway online whose running configuration has numeric points and no screen yet
  // (the boiler room gateway has the demo's own screen)
  const found = await waitUntil(async () => {
    for (const d of list.data.list) {
      const s = await api<ScreenGet>(`/devicemanagement/screen?id=${d.id}`);
      if (s.code === 0 && s.data.device.online && s.data.points.length > 0 && s.data.screen === null)
        return { device: d, point: s.data.points[0]! };
    }
    return undefined;
  }, 'a demo gateway online with points and no screen');
  device = found.device;
  point = found.point;
  demoScreen = list.data.list.find((d) => d.name === '锅炉房采集网关')!;
  expect(demoScreen).toBeDefined();
}, 120_000);

describe('configuration screens', () => {
  test('a screen made in the editor, a bad rule refused on its field, a second editor held off (zh 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, `/editConfigurationTool/${device.id}`, 'screen-editor');
      await page.getByTestId('lease-mine').waitFor();
      expect(await page.getByText('从左侧添加元素开始设计组态画面').count()).toBe(1);

      // a tank bound to the point, with a rule
      await page.getByTestId('add-tank').click();
      await pickOption(page, page.getByTestId('binding'), `${point.itemName} · ${point.fieldName}`);
      await page.getByTestId('rule-add').click();
      await page.getByTestId('rule-0').waitFor();
      // a light on the same point, placed beside the tank
      await page.getByTestId('add-light').click();
      await numberInput(page, 'geom-x').fill('400');
      await numberInput(page, 'geom-x').press('Enter');
      await pickOption(page, page.getByTestId('binding'), `${point.itemName} · ${point.fieldName}`);
      await expect.poll(() => page.locator('[data-testid^="screen-el-"]').count()).toBe(2);
      await page.getByTestId('screen-save').click();
      await success(page);
      const saved = await api<ScreenGet>(`/devicemanagement/screen?id=${device.id}`);
      expect(saved.data.screen?.version).toBe(1);
      const elements = saved.data.screen!.body.elements;
      expect(elements.map((e) => e.type)).toEqual(['tank', 'light']);
      expect(
        elements.every(
          (e) => JSON.stringify(e.binding) === JSON.stringify({ itemId: point.itemId, field: point.field }),
        ),
      ).toBe(true);
      expect(elements[0]!.rules).toHaveLength(1);

      // a bad rule on the tank: between 10 and 5; the save names its upper value
      await page.locator('[data-testid^="screen-el-"][data-type=tank]').click({ position: { x: 10, y: 10 } });
      await page.getByTestId('rule-add').click();
      await pickOption(page, page.getByTestId('rule-1-op'), '介于');
      await numberInput(page, 'rule-1-value').fill('10');
      await numberInput(page, 'rule-1-value2').fill('5');
      await numberInput(page, 'rule-1-value2').press('Tab');
      await page.locator('[data-testid^="screen-el-"][data-type=light]').click({ position: { x: 5, y: 5 } });
      await page.getByTestId('screen-save').click();
      // the check selected the tank again and shows why under the field
      const error = page.getByTestId('field-error-rules[1].value2');
      await error.waitFor();
      expect(await error.innerText()).toContain('不能小于起始值');
      expect(await page.locator('.scr-frame.selected').getAttribute('data-type')).toBe('tank');
      await shot(page, 'screens-editor-zh-1440');
      // nothing was saved
      expect((await api<ScreenGet>(`/devicemanagement/screen?id=${device.id}`)).data.screen?.version).toBe(1);
      await numberInput(page, 'rule-1-value2').fill('20');
      await numberInput(page, 'rule-1-value2').press('Tab');
      await page.getByTestId('screen-save').click();
      await expect
        .poll(
          async () => (await api<ScreenGet>(`/devicemanagement/screen?id=${device.id}`)).data.screen?.version,
        )
        .toBe(2);

      // a second person who may edit the device opens the editor: held, read-only
      const roles = await api<Array<{ id: number; menuCodes: string[] }>>('/role/getRoleList');
      const users = await api<{ list: Array<{ phone: string; roleIds: number[] }> }>(
        '/user/getSysUserList?pageNum=1&pageSize=50',
      );
      const limited = users.data.list.find((u) => u.phone === DEMO_LIMITED.phone)!;
      for (const roleId of limited.roleIds) {
        const role = roles.data.find((r) => r.id === roleId)!;
        const updated = await postJson('/role/updateRole', {
          id: roleId,
          menuCodes: [...new Set([...role.menuCodes, 'device_management', 'dm_list'])],
        });
        expect(updated.code, updated.message).toBe(0);
      }
      // the held editor's lease request is refused (409) on purpose
      allowPageErrors(refused(409, '/devicemanagement/screen/lease'));
      const other = await openAs('zh', 1440, DEMO_LIMITED);
      try {
        await go(other.page, `/editConfigurationTool/${device.id}`, 'screen-editor');
        const held = other.page.getByTestId('lease-held');
        await held.waitFor();
        expect(await held.innerText()).toMatch(/正在编辑此画面/);
        expect(await other.page.getByTestId('screen-save').isDisabled()).toBe(true);
        expect(await other.page.getByTestId('add-tank').isDisabled()).toBe(true);
        await shot(other.page, 'screens-editor-held-zh-1440');

        // the first editor leaves (its lease is given back); the second takes it on retry
        await page.getByTestId('screen-show-link').click();
        await page.getByTestId('screen-show-page').waitFor();
        await expect
          .poll(
            async () => {
              if (await other.page.getByTestId('lease-retry').isVisible())
                await other.page.getByTestId('lease-retry').click();
              return other.page.getByTestId('screen-editor').getAttribute('data-lease');
            },
            { timeout: 15_000 },
          )
          .toBe('mine');
      } finally {
        await other.context.close();
      }
    } finally {
      await context.close();
    }
  }, 180_000);

  test('the screen live: the gateway value on the tank, the light, ages on hover (zh 1440, en 390)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, `/showConfigurationTool/${device.id}`, 'screen-show-page');
      const tank = page.locator('[data-testid^="show-el-"][data-type=tank]');
      await expect.poll(() => tank.getAttribute('data-quality'), { timeout: 90_000 }).toBe('live');
      expect(await tank.getAttribute('data-text')).toMatch(/^-?\d+(\.\d+)?$/);
      const values = await api<{ values: Array<{ value: unknown }> }>(
        `/devicemanagement/screen/values?id=${device.id}`,
      );
      expect(values.data.values.length).toBe(1);
      expect(await tank.locator('title').textContent()).toMatch(/^实时 · \d+ 秒前$/);
      expect(await page.getByTestId('screen-online').innerText()).toBe('在线');
      await shot(page, 'screens-show-zh-1440');
    } finally {
      await context.close();
    }
    const en = await openAs('en', 390);
    try {
      await go(en.page, `/showConfigurationTool/${device.id}`, 'screen-show-page');
      await expect
        .poll(
          () => en.page.locator('[data-testid^="show-el-"][data-type=light]').getAttribute('data-quality'),
          {
            timeout: 30_000,
          },
        )
        .toBe('live');
      await noSideways(en.page);
      await shot(en.page, 'screens-show-en-390');
      // the editor says it needs a wider screen on a phone
      await go(en.page, `/editConfigurationTool/${device.id}`, 'screen-edit-narrow');
      await noSideways(en.page);
    } finally {
      await en.context.close();
    }
  }, 150_000);

  test('the demo’s boiler room screen is live on first start: pump, pipes, gauge and values bound to the gateway', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, `/showConfigurationTool/${demoScreen.id}`, 'screen-show-page');
      const gauge = page.locator('[data-testid^="show-el-"][data-type=gauge]');
      await expect.poll(() => gauge.getAttribute('data-quality'), { timeout: 90_000 }).toBe('live');
      expect(await gauge.getAttribute('data-text')).toMatch(/^\d+(\.\d+)? MPa$|^\d+(\.\d+)?$/);
      expect(await page.locator('[data-testid^="show-el-"][data-type=pump]').count()).toBe(1);
      expect(await page.locator('[data-testid^="show-el-"][data-type=line]').count()).toBe(2);
      await shot(page, 'screens-demo-boiler-zh-1440');

      // the device live socket pushes each record the gateway's frames make: with the values
      // route cut off (the test's own doing), the screen still changes (the gateway reads its two
      // slaves every 10 s)
      await expect.poll(() => page.getByTestId('screen-show-page').getAttribute('data-pushed')).toBe('1');
      allowPageErrors(/Failed to load resource: net::ERR_FAILED/);
      await page.route('**/general/devicemanagement/screen/values*', (route) => route.abort('failed'));
      await page.getByTestId('screen-values-failed').waitFor();
      const shown = () =>
        page
          .locator('[data-testid^="show-el-"][data-type=text]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-text')).join('|'));
      const before = await shown();
      await expect.poll(shown, { timeout: 30_000 }).not.toBe(before);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    } finally {
      await context.close();
    }
  }, 120_000);
});
