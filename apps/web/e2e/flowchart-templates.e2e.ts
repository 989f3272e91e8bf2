/**
 * System maintenance's device-family flow chart templates (/systemMaintenance/systemnss3dfw,
 * system_nss3dfw) as the platform operator uses them: the four built-in templates listed; the
 * meter cabinet copied, a role added and a tank drawn over it in the configuration screen
 * editor, saved and found again; a duplicate role key and a code already taken refused on their
 * fields with nothing saved; a role moved up taking the tank's binding with it; the copy
 * deleted. A company administrator of a company that is not the platform's has no such page and
 * is refused by the API. Screenshots: the list zh and en 1440, the editor zh 1440, the list and
 * the editor's "wider screen" on a phone.
 */
import { describe, expect, test } from 'vitest';
import { allowPageErrors, refused, shot } from './harness';
import { demoAdminRun, noSideways, numberInput, pickOption, success, topMenuTitles } from './support';

const { api, openAs, go, registerUser, acceptTerms, tokenOf } = demoAdminRun();

const PATH = '/systemMaintenance/systemnss3dfw';
const BUILTIN = ['光伏逆变器', '锅炉给水系统', '计量柜', '配气撬'];

interface Summary {
  id: number;
  code: string;
  name: { zh: string; en: string };
  roles: Array<{ key: string }>;
  devices: number;
  builtin: boolean;
}
interface Full extends Summary {
  version: number;
  body: { elements: Array<{ id: string; type: string; binding: { itemId: number; field: string } | null }> };
}

const templates = async () => (await api<Summary[]>('/system/flowchart/template/list')).data;

describe('device-family templates (system maintenance)', () => {
  test('the list; a copy of the meter cabinet with a new role drawn as a tank, refusals on their fields, a role moved, the copy deleted (zh 1440)', async () => {
    const { context, page } = await openAs('zh', 1440);
    try {
      await go(page, PATH, 'template-list');
      const list = page.getByTestId('template-list');
      await expect.poll(() => list.locator('tbody tr.ant-table-row').count(), { timeout: 15_000 }).toBe(4);
      const listed = await list.innerText();
      for (const name of BUILTIN) expect(listed).toContain(name);
      expect(await page.getByTestId('template-row-meter-cabinet').innerText()).toContain('内置');
      await shot(page, 'flowchart-templates-list-zh-1440');
      const before = await templates();
      expect(before.map((t) => t.name.zh).sort()).toEqual([...BUILTIN].sort());
      const cabinet = before.find((t) => t.code === 'meter-cabinet')!;

      // the copy opens in the editor, unsaved, with -copy and （副本）
      await page.getByTestId('template-copy-meter-cabinet').click();
      await page.getByTestId('template-editor').waitFor();
      await page.getByTestId('screen-editor').waitFor();
      expect(await page.getByTestId('template-code').inputValue()).toBe('meter-cabinet-copy');
      expect(await page.getByTestId('template-name-zh').inputValue()).toBe('计量柜（副本）');
      expect(await page.getByTestId('template-name-en').inputValue()).toBe('Meter cabinet (copy)');
      expect(await page.getByTestId('screen-unsaved').count()).toBe(1);
      const n = cabinet.roles.length;

      // a new role, first with a key an earlier row has: refused on that field, nothing sent
      await page.getByTestId('role-add').click();
      await page.getByTestId(`role-${n}-key`).fill('voltage');
      await page.getByTestId(`role-${n}-zh`).fill('频率');
      await page.getByTestId(`role-${n}-en`).fill('Frequency');
      await page.getByTestId(`role-${n}-unit`).fill('Hz');
      await page.getByTestId('screen-save').click();
      const keyItem = page.getByTestId(`role-${n}-key-item`);
      await expect.poll(() => keyItem.innerText()).toContain('与上面的角色键重复');
      expect((await templates()).length).toBe(4);
      await page.getByTestId(`role-${n}-key`).fill('frequency');
      expect(await keyItem.innerText()).not.toContain('重复');

      // a tank bound to the new role, in the free space on the right
      await page.getByTestId('add-tank').click();
      await pickOption(page, page.getByTestId('binding'), '计量柜（副本） · 频率 (Hz)');
      for (const [k, v] of [
        ['x', '1080'],
        ['y', '250'],
      ] as const) {
        await numberInput(page, `geom-${k}`).fill(v);
        await numberInput(page, `geom-${k}`).press('Enter');
      }

      // a code another template has: the server's refusal shows on the code
      await page.getByTestId('template-code').fill('boiler-feedwater');
      // the server refuses the code (409) on purpose
      allowPageErrors(refused(409, '/system/flowchart/template/save'));
      await page.getByTestId('screen-save').click();
      await expect
        .poll(() => page.getByTestId('template-code-item').innerText())
        .toContain('已有设备族模板使用编码');
      expect((await templates()).length).toBe(4);
      await shot(page, 'flowchart-templates-refused-zh-1440');
      await page.getByTestId('template-code').fill('meter-cabinet-copy');

      await page.getByTestId('screen-save').click();
      await success(page);
      await expect.poll(() => new URL(page.url()).searchParams.get('id')).toMatch(/^\d+$/);
      const id = Number(new URL(page.url()).searchParams.get('id'));
      const saved = (await api<Full>(`/system/flowchart/template?id=${id}`)).data;
      expect(saved).toMatchObject({
        code: 'meter-cabinet-copy',
        name: { zh: '计量柜（副本）' },
        builtin: false,
      });
      expect(saved.roles.map((r) => r.key)).toEqual([...cabinet.roles.map((r) => r.key), 'frequency']);
      const tanks = saved.body.elements.filter((e) => e.type === 'tank');
      expect(tanks.map((e) => e.binding)).toEqual([{ itemId: n + 1, field: 'f1' }]);
      await page.getByTestId('template-version').waitFor();
      expect(await page.getByTestId('screen-unsaved').count()).toBe(0);

      // the tank selected, for the editor's screenshot (the messages gone)
      await page.locator('[data-testid^="screen-el-"][data-type=tank]').click({ position: { x: 10, y: 10 } });
      await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 15_000 }).toBe(0);
      await shot(page, 'flowchart-templates-editor-zh-1440');

      // back to the list, the copy is there; reopened it has its role and its tank
      await page.getByTestId('template-back').click();
      await page.getByTestId('template-row-meter-cabinet-copy').waitFor();
      expect(await page.getByTestId('template-row-meter-cabinet-copy').innerText()).toContain('自定义');
      await page.getByTestId('template-edit-meter-cabinet-copy').click();
      await page.getByTestId('screen-editor').waitFor();
      // a template being redrawn opens with its details folded
      expect(await page.getByTestId('template-roles').count()).toBe(0);
      await page.getByTestId('template-form-toggle').click();
      expect(await page.getByTestId(`role-${n}-key`).inputValue()).toBe('frequency');
      expect(await page.locator('[data-testid^="screen-el-"][data-type=tank]').count()).toBe(1);

      // the new role moved up a row: the tank follows it to its new number
      await page.getByTestId(`role-${n}-up`).click();
      expect(await page.getByTestId(`role-${n - 1}-key`).inputValue()).toBe('frequency');
      await page.getByTestId('screen-save').click();
      await expect
        .poll(async () => (await api<Full>(`/system/flowchart/template?id=${id}`)).data.version)
        .toBe(saved.version + 1);
      const moved = (await api<Full>(`/system/flowchart/template?id=${id}`)).data;
      expect(moved.roles[n - 1]!.key).toBe('frequency');
      expect(moved.body.elements.filter((e) => e.type === 'tank').map((e) => e.binding)).toEqual([
        { itemId: n, field: 'f1' },
      ]);
      // the role it swapped with is still drawn where it was (now one number down)
      const energy = saved.body.elements.filter((e) => e.binding?.itemId === n).length;
      expect(moved.body.elements.filter((e) => e.binding?.itemId === n + 1).length).toBe(energy);

      // unsaved changes: leaving asks first
      await page.getByTestId('template-name-en').fill('Meter cabinet copy');
      await page.getByTestId('template-back').click();
      await page.getByTestId('leave-ok').click();

      // deleted after a confirmation
      await page.getByTestId('template-delete-meter-cabinet-copy').click();
      await page.getByTestId('template-delete-ok').click();
      await success(page);
      await expect
        .poll(() => page.getByTestId('template-row-meter-cabinet-copy').count(), { timeout: 10_000 })
        .toBe(0);
      const after = await templates();
      expect(after.map((t) => t.code).sort()).toEqual(before.map((t) => t.code).sort());

      // a template devices use is kept: the server's refusal is shown
      const used = after.find((t) => t.devices > 0 && t.code !== 'pv-inverter');
      if (used) {
        allowPageErrors(refused(409, '/system/flowchart/template/delete'));
        await page.getByTestId(`template-delete-${used.code}`).click();
        await page.getByTestId('template-delete-ok').click();
        await page.locator('.ant-message-error').filter({ hasText: '请先为这些设备改选其他模板' }).waitFor();
        expect((await templates()).length).toBe(4);
      }
      // the PV inverter's cannot be deleted
      expect(await page.getByTestId('template-delete-pv-inverter').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  test('English at 1440; on a phone the list fits and the editor asks for a wider screen', async () => {
    const en = await openAs('en', 1440);
    try {
      await go(en.page, PATH, 'template-list');
      await expect
        .poll(() => en.page.getByTestId('template-list').locator('tbody tr.ant-table-row').count(), {
          timeout: 15_000,
        })
        .toBe(4);
      const listed = await en.page.getByTestId('template-list').innerText();
      for (const name of ['PV inverter', 'Boiler feedwater', 'Meter cabinet', 'Gas-blending skid'])
        expect(listed).toContain(name);
      expect(listed).toContain('Device-family flow chart templates');
      await shot(en.page, 'flowchart-templates-list-en-1440');
      // a new template opens with its details to fill in and one empty role; leaving asks first
      await en.page.getByTestId('template-new').click();
      await en.page.getByTestId('screen-editor').waitFor();
      expect(await en.page.getByTestId('template-code').inputValue()).toBe('');
      expect(await en.page.getByTestId('role-0-key').inputValue()).toBe('');
      expect(await en.page.getByText('New template', { exact: true }).count()).toBeGreaterThan(0);
      await en.page.getByTestId('template-back').click();
      await en.page.getByTestId('leave-ok').click();
      await en.page.getByTestId('template-list').waitFor();
      // the boiler's switch names the family's commands, typed freely (each device maps them)
      await en.page.getByTestId('template-edit-boiler-feedwater').click();
      await en.page.getByTestId('screen-editor').waitFor();
      const boiler = (await templates()).find((x) => x.code === 'boiler-feedwater')!;
      const full = (await api<Full>(`/system/flowchart/template?id=${boiler.id}`)).data;
      const sw = full.body.elements.find((e) => e.type === 'switch')!;
      await en.page.getByTestId(`screen-el-${sw.id}`).click();
      await en.page.getByTestId('family-commands').waitFor();
      expect(await en.page.getByTestId('config-onCommand').inputValue()).toBe('pumpStart');
      expect(await en.page.getByTestId('config-offCommand').inputValue()).toBe('pumpStop');
      await shot(en.page, 'flowchart-template-switch-en-1440');
    } finally {
      await en.context.close();
    }
    const phone = await openAs('zh', 390);
    try {
      await go(phone.page, PATH, 'template-list');
      await phone.page.getByTestId('template-row-meter-cabinet').waitFor({ timeout: 15_000 });
      await noSideways(phone.page);
      await shot(phone.page, 'flowchart-templates-list-zh-390');
      await phone.page.getByTestId('template-edit-meter-cabinet').click();
      await phone.page.getByTestId('template-edit-narrow').waitFor();
      await noSideways(phone.page);
    } finally {
      await phone.context.close();
    }
  }, 120_000);

  test('a company administrator outside the platform company has no such page and is refused by the API', async () => {
    const owner = { phone: '13900007001', password: 'owner1234' };
    await registerUser(owner.phone, owner.password, '别家管理员');
    await acceptTerms(owner.phone, owner.password);
    let token = await tokenOf(owner.phone, owner.password);
    const company = await api<{ id: number }>('/company/addCompany', {
      token,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: '别家公司' }),
    });
    expect(company.code, company.message).toBe(0);
    token = await tokenOf(owner.phone, owner.password);
    const listed = await api('/system/flowchart/template/list', { token });
    expect(listed.code).not.toBe(0);
    const saved = await api('/system/flowchart/template/save', {
      token,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: 'intruder', name: { zh: '闯入', en: 'Intruder' }, roles: [], body: {} }),
    });
    expect(saved.code).not.toBe(0);
    expect((await templates()).map((t) => t.code)).not.toContain('intruder');

    const { context, page } = await openAs('zh', 1440, owner);
    try {
      await expect.poll(() => topMenuTitles(page).then((t) => t.length)).toBeGreaterThan(3);
      expect(await topMenuTitles(page)).not.toContain('系统维护');
      await page.goto(`${new URL(page.url()).origin}${PATH}`);
      await page.getByTestId('not-found-home').waitFor();
      expect(await page.getByTestId('template-list').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
