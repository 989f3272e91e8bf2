/**
 * Personal center, user management and company settings as a person uses them: avatar and
 * logo uploads (real PNGs, and files the client refuses with the spec's words), users and
 * roles deciding what another person sees, groups, company names, the invitation flow, my
 * orders; and screenshots of every page at 1440 and 390 px in zh and en.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, DEMO_LIMITED, openBrowser, type RunningServer, shot, startServer } from './harness';
import {
  drawPng,
  type Envelope,
  fileInput,
  modalOk,
  SPEC_FORMAT,
  SPEC_SIZE,
  supportFor,
  topMenuTitles,
} from './support';

let server: RunningServer;
let browser: Browser;
const { acceptTerms, registerUser, openAs, go } = supportFor(() => ({ server, browser }));

/** A PNG drawn on a canvas in the page: real image bytes, as a person's file would be. */
/**
 * Wait for the success message with exactly this text (the server's message). Not support.ts's
 * `success`: that one waits for any success message, these steps check the words too.
 */
async function success(page: Page, text: string): Promise<void> {
  await page
    .locator('.ant-message-notice-success')
    .filter({ hasText: new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) })
    .first()
    .waitFor();
}

async function confirmPopover(page: Page): Promise<void> {
  await page.locator('.ant-popover:visible .ant-popconfirm-buttons button.ant-btn-primary').click();
}

/** Open an antd Select inside `scope`, type, and pick the option whose text contains `option`. */
async function pick(page: Page, select: Locator, search: string | null, option: string): Promise<void> {
  await select.click();
  if (search != null) await page.keyboard.type(search);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
  // a multiple select stays open: close it; Escape on a closed single select would close the modal
  if (await page.locator('.ant-select-dropdown:visible').count()) await page.keyboard.press('Escape');
}

function row(page: Page, scope: string, text: string): Locator {
  return page.getByTestId(scope).locator('tr.ant-table-row', { hasText: text });
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  await acceptTerms(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await acceptTerms(DEMO_LIMITED.phone, DEMO_LIMITED.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('personal center', () => {
  test('avatar: refused files never leave the browser; a real PNG shows in the top bar; removing it brings back the default', async () => {
    const { context, page } = await openAs('en');
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/cos/uploadAvatar')) uploads.push(request.url());
    });
    await go(page, '/user/userinfo', 'userinfo-page');
    await page.getByTestId('profile-avatar-default').waitFor();

    // a text file named .png: the spec's message, word for word
    await fileInput(page, 'avatar-upload').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are my notes, not a picture\n'),
    });
    await page.locator('.ant-message-notice-error', { hasText: SPEC_FORMAT }).waitFor();
    // a real PNG header but over 3 MB
    const big = Buffer.alloc(3 * 1024 * 1024 + 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
    await fileInput(page, 'avatar-upload').setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: big,
    });
    await page.locator('.ant-message-notice-error', { hasText: SPEC_SIZE }).waitFor();
    expect(uploads).toEqual([]);
    await expect.poll(() => page.locator('[data-testid=user-menu] img').count()).toBe(0);

    const png = await drawPng(page, 'E2E', '#1668dc');
    const response = page.waitForResponse((r) => r.url().includes('/cos/uploadAvatar'));
    await fileInput(page, 'avatar-upload').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: png,
    });
    const body = (await (await response).json()) as Envelope<{ headImgUrl: string }>;
    expect(body.code).toBe(0);
    await success(page, body.message);
    expect(uploads).toHaveLength(1);

    // the top bar and the profile card show the new avatar, and it is a loadable image
    const topBar = page.locator('[data-testid=user-menu] img');
    await expect.poll(() => topBar.getAttribute('src')).toBe(body.data.headImgUrl);
    await expect
      .poll(() => topBar.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await page.getByTestId('profile-avatar').locator('img').getAttribute('src')).toBe(
      body.data.headImgUrl,
    );
    await shot(page, 'pages-userinfo-avatar-en-1440');

    // it survives a reload (the server keeps it)
    await page.reload();
    await expect
      .poll(() => page.locator('[data-testid=user-menu] img').getAttribute('src'))
      .toBe(body.data.headImgUrl);

    await page.getByTestId('avatar-remove').click();
    await confirmPopover(page);
    await success(page, 'Delete successfully');
    await page.getByTestId('profile-avatar-default').waitFor();
    await expect.poll(() => page.locator('[data-testid=user-menu] img').count()).toBe(0);

    // and back again, so the screenshots show an avatar
    await fileInput(page, 'avatar-upload').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await page.getByTestId('profile-avatar').waitFor();
    await context.close();
  });

  test('edit name and email; the top bar follows', async () => {
    const { context, page } = await openAs('zh');
    await go(page, '/user/userinfo', 'userinfo-page');
    await page.getByTestId('profile-edit').click();
    const form = page.getByTestId('profile-form');
    await form.locator('#userName').fill('');
    await modalOk(page);
    await form.getByText('请输入名称').waitFor();
    await form.locator('#userName').fill('演示管理员甲');
    await form.locator('#email').fill('admin@example.com');
    await shot(page, 'pages-userinfo-edit-zh-1440');
    await modalOk(page);
    await success(page, '操作成功');
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('演示管理员甲');
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain('演示管理员甲');
    expect(await page.getByTestId('profile-email').textContent()).toBe('admin@example.com');
    await context.close();
  });

  test('my orders shows the demo order with its amount; my assignments explains where they come from', async () => {
    const { context, page } = await openAs('zh');
    await go(page, '/user/myorder', 'myorder-page');
    const order = page.getByTestId('myorder-page').locator('tr.ant-table-row').first();
    await order.waitFor();
    const cells = (await order.locator('td').allInnerTexts()).map((c) => c.trim());
    expect(cells[0]).toMatch(/^DEMO-\d+-0001$/);
    expect(cells[1]).toBe('智慧数据平台 标准版（年付）');
    expect(cells[2]).toMatch(/^\d{4}-\d{2}-\d{2} ~ \d{4}-\d{2}-\d{2}$/);
    expect(cells[3]).toBe('¥9,800.00');
    expect(cells[4]).toBe('已支付');

    await go(page, '/user/myassignmentanze', 'myassignment-page');
    await expect.poll(() => page.getByTestId('assignments-empty').textContent()).toContain('智能任务');
    await context.close();
  });
});

describe('user management', () => {
  const ROLE = '访客角色';
  const VISITOR = { phone: '13900002001', password: 'visitor123' };

  test('create a role with chosen menu codes (parents come along); built-in roles cannot be deleted', async () => {
    const { context, page } = await openAs('zh');
    await go(page, '/userManagement/role', 'role-page');
    await row(page, 'role-page', '内置').first().waitFor();
    const builtinDelete = row(page, 'role-page', '内置')
      .first()
      .getByRole('button', { name: /删\s*除/ });
    expect(await builtinDelete.isDisabled()).toBe(true);

    await page.getByTestId('role-add').click();
    const form = page.getByTestId('role-form');
    await modalOk(page);
    await form.getByText('请输入名称').waitFor();
    await page.getByTestId('role-name').fill('名'.repeat(26));
    await form.getByText('名称长度不能超过 25 个字符').waitFor();
    await page.getByTestId('role-name').fill(ROLE);
    const tree = page.getByTestId('role-code-tree');
    const check = (code: string) =>
      tree
        .locator('.ant-tree-treenode', { has: page.locator(`[data-code="${code}"]`) })
        .locator('.ant-tree-checkbox');
    await check('um_user_group').click();
    await check('pc_my_order').click();
    // the user-group page needs its menu's code too
    await expect
      .poll(() => check('user_management').getAttribute('class'))
      .toContain('ant-tree-checkbox-checked');
    await shot(page, 'pages-role-modal-zh-1440');
    await modalOk(page);
    await success(page, '操作成功');
    const created = row(page, 'role-page', ROLE);
    await created.waitFor();
    expect(await created.locator('td').nth(3).innerText()).toBe('3 项');
    await context.close();
  });

  test('add a user with that role: an invitation; they register their phone, accept, and see only that role’s menus', async () => {
    const { context, page } = await openAs('zh');
    await go(page, '/userManagement/users', 'users-page');
    await page.getByTestId('users-add').click();
    await page.getByTestId('add-user-phone').fill('12345');
    await modalOk(page);
    await page.getByTestId('add-user-form').getByText('请输入正确的手机号码').waitFor();
    // no password: the person chooses their own when they claim the phone
    expect(await page.getByTestId('add-user-form').locator('input[type=password]').count()).toBe(0);
    await page.getByTestId('add-user-phone').fill(VISITOR.phone);
    await page.getByTestId('add-user-name').fill('访客小王');
    await pick(page, page.getByTestId('add-user-roles'), null, ROLE);
    await shot(page, 'pages-users-add-zh-1440');
    await modalOk(page);
    await success(page, '邀请已发送，对方同意后即加入本公司');
    const added = row(page, 'users-page', VISITOR.phone);
    await added.waitFor();
    expect(await added.innerText()).toContain(ROLE);
    expect(await added.innerText()).toContain('邀请中');
    expect(await added.innerText()).toContain('访客小王');

    // search narrows the list
    await page.getByTestId('users-search').locator('input').fill('访客');
    await page.getByTestId('users-search').locator('input').press('Enter');
    await expect.poll(() => page.getByTestId('users-page').locator('tr.ant-table-row').count()).toBe(1);
    await shot(page, 'pages-users-invited-zh-1440');
    await context.close();

    // the phone's owner registers it with an SMS code, choosing their own name and password
    await registerUser(VISITOR.phone, VISITOR.password, '王访客');
    await acceptTerms(VISITOR.phone, VISITOR.password);
    const visitor = await openAs('zh', 1440, VISITOR);
    await go(visitor.page, '/user/userinfo', 'userinfo-page');
    const invitation = visitor.page.getByTestId('my-invitations').locator('tr.ant-table-row');
    await expect.poll(() => invitation.count()).toBe(1);
    await shot(visitor.page, 'pages-userinfo-first-invitation-zh-1440');
    await invitation.getByTestId('invitation-agree').click();
    await success(visitor.page, '操作成功');
    await visitor.page.waitForURL((u) => u.pathname === '/home');
    await visitor.page.getByTestId('sidebar').waitFor();
    await expect.poll(() => topMenuTitles(visitor.page)).toEqual(['首页', '用户组', '个人中心']);
    await go(visitor.page, '/userManagement/group', 'group-page');
    await visitor.page.goto(`${server.url}/userManagement/users`);
    await visitor.page.waitForURL((u) => u.pathname === '/404');
    await visitor.context.close();
  });

  test('edit a user: disable and re-enable; remove from the company with a confirmation', async () => {
    const { context, page } = await openAs('en');
    await go(page, '/userManagement/users', 'users-page');
    // the add dialog in English says what adding does
    await page.getByTestId('users-add').click();
    await page.getByTestId('add-user-hint').getByText('The person is invited').waitFor();
    await shot(page, 'pages-users-add-en-1440');
    await page.locator('.ant-modal-wrap:visible .ant-modal-footer button:not(.ant-btn-primary)').click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    const visitorRow = row(page, 'users-page', VISITOR.phone);
    await visitorRow.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('edit-user-form').locator('button[role=switch]').click();
    await modalOk(page);
    await success(page, 'Operation successful');
    await expect.poll(() => visitorRow.innerText()).toContain('Disabled');

    await visitorRow.getByTestId(`user-remove-${VISITOR.phone}`).click();
    await page.locator('.ant-popover:visible', { hasText: 'Remove "王访客" from this company?' }).waitFor();
    await confirmPopover(page);
    await success(page, 'Delete successfully');
    await expect.poll(() => visitorRow.count()).toBe(0);
    await context.close();
  });

  test('groups: create, add a member, remove them, leave the group, delete it', async () => {
    const { context, page } = await openAs('zh');
    await go(page, '/userManagement/group', 'group-page');
    await page.getByTestId('group-add').click();
    await modalOk(page);
    await page.getByTestId('add-group-form').getByText('请输入名称').waitFor();
    await page.getByTestId('add-group-name').fill('巡检小组');
    await modalOk(page);
    await success(page, '操作成功');
    const group = row(page, 'group-page', '巡检小组');
    await group.waitFor();

    await page.getByTestId('group-members-巡检小组').click();
    const drawer = page.getByTestId('group-members-drawer');
    await drawer.getByText('该组还没有成员').waitFor();
    await pick(page, page.getByTestId('group-member-picker'), '1380000000', DEMO_LIMITED.phone);
    await pick(page, page.getByTestId('group-member-picker'), '1380000000', DEMO_ADMIN.phone);
    await page.getByTestId('group-member-add').click();
    await success(page, '操作成功');
    await expect.poll(() => drawer.locator('tr.ant-table-row').count()).toBe(2);
    await shot(page, 'pages-group-drawer-zh-1440');

    await page.getByTestId(`group-member-remove-${DEMO_LIMITED.phone}`).click();
    await confirmPopover(page);
    await success(page, '操作成功');
    await expect.poll(() => drawer.locator('tr.ant-table-row').count()).toBe(1);

    await page.getByTestId('group-quit').click();
    await confirmPopover(page);
    await drawer.getByText('该组还没有成员').waitFor();
    await page.locator('.ant-drawer-close').click();
    await expect.poll(() => group.locator('td').nth(2).innerText()).toBe('0');

    await page.getByTestId('group-delete-巡检小组').click();
    await confirmPopover(page);
    await success(page, '删除成功');
    await expect.poll(() => group.count()).toBe(0);
    await context.close();
  });
});

describe('company settings', () => {
  test('display name and logo: the sidebar follows; refused files; remove brings back the default', async () => {
    const { context, page } = await openAs('zh');
    await go(page, '/sysSetting/companyManagement', 'company-management-page');
    await page.getByTestId('company-logo-default').waitFor();
    expect(await page.locator('[data-testid=sidebar-logo] img').getAttribute('src')).toBe('/favicon.svg');

    await page.getByTestId('company-display-name').fill('演示科技');
    await page.getByTestId('company-save').click();
    await success(page, '操作成功');
    await expect.poll(() => page.getByTestId('sidebar-logo').innerText()).toContain('演示科技');
    await expect.poll(() => page.getByTestId('company-shown-name').innerText()).toBe('演示科技');

    await fileInput(page, 'logo-upload').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image'),
    });
    await page.locator('.ant-message-notice-error', { hasText: '文件格式不正确' }).waitFor();

    const png = await drawPng(page, 'LOGO', '#389e0d');
    await fileInput(page, 'logo-upload').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await success(page, '操作成功');
    const sidebarLogo = page.locator('[data-testid=sidebar-logo] img');
    await expect.poll(() => sidebarLogo.getAttribute('src')).toContain('/files/public/logos/');
    await expect
      .poll(() => sidebarLogo.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    // the thumbnail is at most 150 px on its longest side
    expect(await sidebarLogo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeLessThanOrEqual(
      150,
    );
    expect(await page.getByTestId('company-logo-default').count()).toBe(0);

    // the demo company is the platform's: it cannot be deleted
    expect(await page.getByTestId('company-delete').isDisabled()).toBe(true);

    await page.getByTestId('logo-remove').click();
    await confirmPopover(page);
    await success(page, '删除成功');
    await page.getByTestId('company-logo-default').waitFor();
    await expect.poll(() => sidebarLogo.getAttribute('src')).toBe('/favicon.svg');

    // upload again for the screenshots
    await fileInput(page, 'logo-upload').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await expect.poll(() => sidebarLogo.getAttribute('src')).toContain('/files/public/logos/');
    await context.close();
  });

  test('alert delegation: add a delegate, then remove them', async () => {
    const { context, page } = await openAs('en');
    await go(page, '/sysSetting/companyManagement', 'company-management-page');
    const card = page.getByTestId('alert-delegation');
    await card.getByText('No delegates yet').waitFor();
    await page.getByTestId('delegate-add').click();
    await pick(page, page.getByTestId('delegate-picker'), '13800000001', DEMO_LIMITED.phone);
    await modalOk(page);
    await success(page, 'Operation successful');
    await expect
      .poll(() => card.locator('tr.ant-table-row', { hasText: DEMO_LIMITED.phone }).count())
      .toBe(1);
    await page.getByTestId(`delegate-delete-${DEMO_LIMITED.phone}`).click();
    await confirmPopover(page);
    await success(page, 'Delete successfully');
    await card.getByText('No delegates yet').waitFor();
    await context.close();
  });
});

describe('invitations', () => {
  const OWNER = { phone: '13900003001', password: 'owner1234' };
  const COMPANY = '协作伙伴公司';

  test('a second company invites the demo limited user, who accepts in their personal center and can switch', async () => {
    await registerUser(OWNER.phone, OWNER.password, '合作方老李');
    await acceptTerms(OWNER.phone, OWNER.password);
    const owner = await openAs('zh', 1440, OWNER);
    await go(owner.page, '/user/userinfo', 'userinfo-page');
    await owner.page.getByTestId('my-companies').getByText('您还没有加入任何公司').waitFor();
    await owner.page.getByTestId('company-create').click();
    await modalOk(owner.page);
    await owner.page.getByTestId('create-company-form').getByText('请输入名称').waitFor();
    await owner.page.getByTestId('create-company-form').locator('input').fill(COMPANY);
    await modalOk(owner.page);
    await success(owner.page, '操作成功');
    // the new company is now the owner's: the routes are rebuilt with its administrator codes
    await owner.page.waitForURL((u) => u.pathname === '/home');
    await expect.poll(() => topMenuTitles(owner.page)).toContain('用户');

    await go(owner.page, '/userManagement/users', 'users-page');
    await owner.page.getByTestId('users-add').click();
    await owner.page.getByTestId('add-user-phone').fill(DEMO_LIMITED.phone);
    await owner.page.getByTestId('add-user-name').fill('老张');
    await modalOk(owner.page);
    await success(owner.page, '邀请已发送，对方同意后即加入本公司');
    // an account of another company: the list shows the name given here, nothing of the account
    await expect
      .poll(() => row(owner.page, 'users-page', DEMO_LIMITED.phone).innerText())
      .toContain('邀请中');
    expect(await row(owner.page, 'users-page', DEMO_LIMITED.phone).innerText()).toContain('老张');

    const invitee = await openAs('zh', 1440, DEMO_LIMITED);
    await go(invitee.page, '/user/userinfo', 'userinfo-page');
    expect(await invitee.page.getByTestId('company-switcher').count()).toBe(0);
    const invitation = invitee.page
      .getByTestId('my-invitations')
      .locator('tr.ant-table-row', { hasText: COMPANY });
    await invitation.waitFor();
    expect(await invitation.innerText()).toContain('合作方老李');
    await shot(invitee.page, 'pages-userinfo-invitation-zh-1440');
    await invitation.getByTestId('invitation-agree').click();
    await success(invitee.page, '操作成功');
    await invitee.page.getByTestId('company-switcher').waitFor();
    await expect
      .poll(() => invitee.page.getByTestId('my-companies').locator('tr.ant-table-row').count())
      .toBe(2);
    await expect.poll(() => row(owner.page, 'users-page', DEMO_LIMITED.phone).count()).toBe(1);

    // switching from the personal center lands on the other company's home
    await invitee.page
      .getByTestId('my-companies')
      .locator('tr.ant-table-row', { hasText: COMPANY })
      .getByRole('button')
      .click();
    await invitee.page.waitForURL((u) => u.pathname === '/home');
    await expect.poll(() => invitee.page.getByTestId('home-company').innerText()).toBe(COMPANY);
    await invitee.context.close();

    // the owner deletes the company after retyping its exact name
    await go(owner.page, '/sysSetting/companyManagement', 'company-management-page');
    await owner.page.getByTestId('company-delete').click();
    const ok = owner.page.getByTestId('company-delete-ok');
    await owner.page.getByTestId('company-delete-confirm').fill('协作伙伴');
    expect(await ok.isDisabled()).toBe(true);
    await owner.page.getByTestId('company-delete-confirm').fill(COMPANY);
    await shot(owner.page, 'pages-company-delete-zh-1440');
    await ok.click();
    await success(owner.page, '删除成功');
    await owner.page.waitForURL((u) => u.pathname === '/home');
    await go(owner.page, '/user/userinfo', 'userinfo-page');
    await owner.page.getByTestId('my-companies').getByText('您还没有加入任何公司').waitFor();
    await owner.context.close();
  });
});

describe('screenshots', () => {
  const PAGES: Array<[string, string, string]> = [
    ['userinfo', '/user/userinfo', 'userinfo-page'],
    ['myorder', '/user/myorder', 'myorder-page'],
    ['myassignment', '/user/myassignmentanze', 'myassignment-page'],
    ['users', '/userManagement/users', 'users-page'],
    ['group', '/userManagement/group', 'group-page'],
    ['role', '/userManagement/role', 'role-page'],
    ['company', '/sysSetting/companyManagement', 'company-management-page'],
  ];

  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`every page at ${width} px in ${lang}`, async () => {
        const { context, page } = await openAs(lang, width);
        for (const [name, path, testId] of PAGES) {
          await go(page, path, testId);
          // wait for the lists to settle
          await expect.poll(() => page.locator('.ant-spin-spinning').count()).toBe(0);
          await shot(page, `pages-${name}-${lang}-${width}`);
        }
        await page.goto(`${server.url}/userManagement/role`);
        await page.getByTestId('role-add').click();
        await page.getByTestId('role-code-tree').waitFor();
        await shot(page, `pages-role-modal-${lang}-${width}`);
        await context.close();
      });
    }
  }
});
