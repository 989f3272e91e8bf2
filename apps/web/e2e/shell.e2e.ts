/**
 * The application shell as a person meets it: access rules, sidebar, tab strip, language,
 * mobile mode, session loss (70006), the expiry notice and the terms dialog.
 */
import { ASYNC_ROUTES, BASE_ROUTES, flattenRoutes, formatInstant } from '@platform/domain';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  allowPageErrors,
  DEMO_ADMIN,
  DEMO_LIMITED,
  loginAs,
  newPage,
  openBrowser,
  type RunningServer,
  refused,
  shot,
  startServer,
  takePageErrors,
} from './harness';
import { pathOf, supportFor, topMenuTitles } from './support';

let server: RunningServer;
let browser: Browser;
const { api, tokenOf, acceptTerms, registerUser } = supportFor(() => ({ server, browser }));

async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

async function tabTitles(page: Page): Promise<string[]> {
  return (await page.getByTestId('tag').allInnerTexts()).map((text) => text.trim());
}

async function tabMenu(page: Page, title: string, item: string): Promise<void> {
  const openMenu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  await page.getByTestId('tag').filter({ hasText: title }).click({ button: 'right' });
  // the menu opens over the tab and takes no clicks while it animates in: wait for it to settle
  await expect
    .poll(() =>
      openMenu.evaluate(
        (el) => /-(appear|enter)/.test(el.className) || getComputedStyle(el).pointerEvents === 'none',
      ),
    )
    .toBe(false);
  await openMenu.getByRole('menuitem', { name: item, exact: true }).click();
  // the menu has closed (its fade-out done) before the next step looks at the tabs
  await openMenu.waitFor({ state: 'detached' });
}

/** Marks the visible view's element; a re-mounted view loses the mark. */
async function markView(page: Page, mark: string): Promise<void> {
  await page.locator('.app-view:visible').evaluate((el, value) => {
    (el as HTMLElement).dataset.mark = value;
  }, mark);
}

async function visibleViewMark(page: Page): Promise<string | undefined> {
  return page.locator('.app-view:visible').evaluate((el) => (el as HTMLElement).dataset.mark);
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

describe('page registry', () => {
  test('every page a feature registers names a route of the table (else it never shows)', () => {
    const features = import.meta.glob<{ pages?: Record<string, unknown> }>('../src/features/*/routes.tsx', {
      eager: true,
    });
    const names = new Set(flattenRoutes([...BASE_ROUTES, ...ASYNC_ROUTES]).map((route) => route.name));
    const unknown: string[] = [];
    for (const [file, module] of Object.entries(features)) {
      for (const name of Object.keys(module.pages ?? {})) {
        if (!names.has(name)) unknown.push(`${file}: ${name}`);
      }
    }
    expect(Object.keys(features).length).toBeGreaterThan(0);
    expect(unknown).toEqual([]);
  });
});

/** What the guard recorded from now until `marker`, logged by the page last, has arrived (the marker left out). */
async function errorsUntilMarker(page: Page, marker: string): Promise<string[]> {
  await page.evaluate((text) => console.error(text), marker);
  const seen: string[] = [];
  await expect
    .poll(() => {
      seen.push(...takePageErrors());
      return seen.some((entry) => entry.includes(marker));
    })
    .toBe(true);
  return seen.filter((entry) => !entry.includes(marker));
}

describe('page-error guard', () => {
  test('reports a thrown error, an unhandled rejection and a console error; lets an allowed one pass', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-phone').waitFor();
    allowPageErrors(/guard probe: allowed/);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('guard probe: thrown');
      });
      void Promise.reject(new Error('guard probe: rejected'));
      console.error('guard probe: logged');
      console.error('guard probe: allowed');
    });
    // the timer's throw comes after the evaluation: wait for it before the marker
    const seen: string[] = [];
    await expect
      .poll(() => {
        seen.push(...takePageErrors());
        return seen.length;
      })
      .toBe(3);
    expect(seen.find((entry) => entry.includes('guard probe: thrown'))).toMatch(/^pageerror at /);
    expect(seen.find((entry) => entry.includes('guard probe: rejected'))).toMatch(/^pageerror at /);
    expect(seen.find((entry) => entry.includes('guard probe: logged'))).toMatch(/^console error at /);
    expect(await errorsUntilMarker(page, 'guard marker')).toEqual([]);
    await page.context().close();
  });

  test('a request refused with an error status is reported unless allowed by its path and status', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-phone').waitFor();
    const fetchRefused = () =>
      page.evaluate(async () => {
        await fetch('/general/user/getUser');
      });
    await fetchRefused();
    const reported = await errorsUntilMarker(page, 'marker one');
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatch(refused(401, '/general/user/getUser'));
    // an allowance for another path or status does not cover it
    allowPageErrors(refused(401, '/general/user/getCompany'), refused(403, '/general/user/getUser'));
    await fetchRefused();
    expect(await errorsUntilMarker(page, 'marker two')).toHaveLength(1);
    // provoked on purpose: this test asks without a token
    allowPageErrors(refused(401, '/general/user/getUser'));
    await fetchRefused();
    expect(await errorsUntilMarker(page, 'marker three')).toEqual([]);
    await page.context().close();
  });

  test('a form refused by its rules shows why beside the fields and logs no error', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const page = await newPage(browser, { lang });
      await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
      await page.goto(`${server.url}/user/userinfo`);
      await page.getByTestId('profile-password').click();
      const dialog = page.locator('.ant-modal-wrap').filter({ has: page.getByTestId('password-form') });
      await dialog.getByTestId('password-form').waitFor();
      await dialog.locator('.ant-modal-footer button.ant-btn-primary').click();
      await expect.poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBe(3);
      // submitted again while still invalid
      await dialog.locator('.ant-modal-footer button.ant-btn-primary').click();
      await dialog.locator('.ant-modal-footer button:not(.ant-btn-primary)').click();

      await page.getByTestId('profile-edit').click();
      const profile = page.locator('.ant-modal-wrap').filter({ has: page.getByTestId('profile-form') });
      await profile.getByTestId('profile-form').locator('input').first().fill('');
      await profile.locator('.ant-modal-footer button.ant-btn-primary').click();
      await profile.locator('.ant-form-item-explain-error').first().waitFor();
      await shot(page, `shell-invalid-form-${lang}`);
      expect(await errorsUntilMarker(page, `marker ${lang}`)).toEqual([]);
      await page.context().close();
    }
  });
});

describe('access rules', () => {
  test('without a token every path leads to /login?redirect=…, and back there after login', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await page.goto(`${server.url}/smartdata/datacapsule?view=list`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/smartdata/datacapsule?view=list');

    // /404 itself needs a token too
    await page.goto(`${server.url}/404`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/404');

    await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/smartdata/datacapsule?view=list')}`);
    await page.getByTestId('login-phone').fill(DEMO_ADMIN.phone);
    await page.getByTestId('login-password').fill(DEMO_ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname === '/smartdata/datacapsule');
    expect(new URL(page.url()).search).toBe('?view=list');
    await expect.poll(() => page.title()).toBe('数据舱 - 智慧数据平台');
    await page.context().close();
  });

  test('with a token: /login → home, / → /home, unknown → /404 with a way home', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);

    await page.goto(`${server.url}/login`);
    await page.waitForURL((u) => u.pathname === '/home');
    await expect.poll(() => page.title()).toBe('首页 - 智慧数据平台');

    await page.goto(`${server.url}/`);
    await page.waitForURL((u) => u.pathname === '/home');

    await page.goto(`${server.url}/no/such/page`);
    await page.waitForURL((u) => u.pathname === '/404');
    await expect.poll(() => page.title()).toBe('页面不存在 - 智慧数据平台');
    await page.getByTestId('not-found-home').click();
    await page.waitForURL((u) => u.pathname === '/home');
    await page.context().close();
  });

  test('a limited user sees only permitted entries; a table path without permission is /404', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_LIMITED.phone, DEMO_LIMITED.password);
    await page.getByTestId('sidebar').waitFor();
    expect(await topMenuTitles(page)).toEqual(['首页', '智慧数据', '个人中心']);

    await page.locator('.ant-menu-submenu-title', { hasText: '智慧数据' }).click();
    const smartData = page.locator('.ant-menu-submenu', { hasText: '智慧数据' }).locator('li.ant-menu-item');
    // only built pages: 内容模板, not built yet, is not offered (its path still says so)
    await expect.poll(() => smartData.allInnerTexts()).toEqual(['数据舱', '文档模板']);

    // home lists the same modules
    await expect
      .poll(() => page.getByTestId('home-module').locator('.home-module-title').allInnerTexts())
      .toEqual(['智慧数据', '个人中心']);

    for (const path of ['/userManagement/users', '/smartdata/dashboard3', '/sysSetting/companyManagement']) {
      await page.goto(`${server.url}${path}`);
      await page.waitForURL((u) => u.pathname === '/404');
    }
    // permitted ones open, with their title
    await page.goto(`${server.url}/smartdata/Doctemplate`);
    await expect.poll(() => page.title()).toBe('文档模板 - 智慧数据平台');
    expect(pathOf(page)).toBe('/smartdata/Doctemplate');
    await page.context().close();
  });

  test('the administrator sees every module, the system area too', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await page.getByTestId('sidebar').waitFor();
    const titles = await topMenuTitles(page);
    expect(titles[0]).toBe('首页');
    // the system area: its module, or its one working entry (the data-management hub) standing
    // for it while the hub is the only page of the module that is built
    expect(titles.filter((title) => title === '系统维护' || title === '数据管理')).toHaveLength(1);
    expect(titles).toContain('用户');
    expect(titles.length).toBeGreaterThan(12);
    await page.context().close();
  });
});

describe('layout', () => {
  test('the sidebar collapse is remembered in a cookie across a reload', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    const layout = page.getByTestId('app-layout');
    await expect.poll(() => layout.getAttribute('data-sidebar')).toBe('opened');
    expect(await page.locator('.sidebar-container').evaluate((el) => el.getBoundingClientRect().width)).toBe(
      240,
    );

    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(() => layout.getAttribute('data-sidebar')).toBe('closed');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'sidebarStatus')?.value).toBe('0');

    await page.reload();
    await expect.poll(() => page.getByTestId('app-layout').getAttribute('data-sidebar')).toBe('closed');
    await expect
      .poll(() => page.locator('.sidebar-container').evaluate((el) => el.getBoundingClientRect().width))
      .toBeLessThan(100);

    await page.getByTestId('sidebar-toggle').click();
    await page.reload();
    await expect.poll(() => page.getByTestId('app-layout').getAttribute('data-sidebar')).toBe('opened');
    await page.context().close();
  });

  test('tab strip: deduped by path, kept alive, context menu refresh / close / close others / close all', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await page.getByTestId('tags-view').waitFor();
    expect(await tabTitles(page)).toEqual(['首页']);
    // home is not closable
    expect(await page.getByTestId('tag').first().getByTestId('tag-close').count()).toBe(0);

    // open a data-cabin page from the sidebar and wait for its tab
    const open = async (title: string, path: string, group = '智慧数据') => {
      const item = page.locator('li.ant-menu-item', { hasText: title });
      if (!(await item.isVisible()))
        await page.locator('.ant-menu-submenu-title', { hasText: group }).click();
      await item.click();
      await page.waitForURL((u) => u.pathname === path);
      await page.locator(`[data-testid=tag][data-path="${path}"].active`).waitFor();
    };
    await open('数据舱', '/smartdata/datacapsule');
    await markView(page, 'capsule');
    await open('文档模板', '/smartdata/Doctemplate');
    await open('数据舱', '/smartdata/datacapsule');
    expect(await tabTitles(page)).toEqual(['首页', '数据舱', '文档模板']);
    // the capsule view stayed mounted while another tab was shown
    expect(await visibleViewMark(page)).toBe('capsule');

    // refresh re-mounts the view and stays on it
    await tabMenu(page, '数据舱', '刷新');
    await page.waitForURL((u) => u.pathname === '/smartdata/datacapsule');
    await expect.poll(() => visibleViewMark(page)).toBeUndefined();
    await page.locator('.app-view:visible [data-testid=cabin-new-directory]').waitFor();

    // close the active tab → the last remaining tab
    await markView(page, 'capsule again');
    await tabMenu(page, '数据舱', '关闭');
    await page.waitForURL((u) => u.pathname === '/smartdata/Doctemplate');
    await expect.poll(() => tabTitles(page)).toEqual(['首页', '文档模板']);

    // a closed view is dropped from the keep-alive cache: reopening mounts it afresh
    await page.getByTestId('tag').filter({ hasText: '首页' }).click();
    await page.waitForURL((u) => u.pathname === '/home');
    await open('角色管理', '/userManagement/role', '用户');
    await open('数据舱', '/smartdata/datacapsule');
    expect(await tabTitles(page)).toEqual(['首页', '文档模板', '角色管理', '数据舱']);
    expect(await visibleViewMark(page)).toBeUndefined();

    await tabMenu(page, '角色管理', '关闭其他');
    await page.waitForURL((u) => u.pathname === '/userManagement/role');
    await expect.poll(() => tabTitles(page)).toEqual(['首页', '角色管理']);

    await tabMenu(page, '角色管理', '关闭所有');
    await page.waitForURL((u) => u.pathname === '/home');
    await expect.poll(() => tabTitles(page)).toEqual(['首页']);

    // the close icon closes a tab too
    await open('数据舱', '/smartdata/datacapsule');
    await page.getByTestId('tag').filter({ hasText: '数据舱' }).getByTestId('tag-close').click();
    await page.waitForURL((u) => u.pathname === '/home');
    await expect.poll(() => tabTitles(page)).toEqual(['首页']);
    await page.context().close();
  });

  test('views under project/projectMenu/ replace each other in place', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await page.goto(`${server.url}/smartdata/datacapsule`);
    await page.getByTestId('tags-view').waitFor();
    await page.evaluate(() => {
      window.history.pushState({}, '', '/project/projectMenu/7/overview');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => tabTitles(page)).toEqual(['首页', '数据舱', '概览']);
    await page.evaluate(() => {
      window.history.pushState({}, '', '/project/projectMenu/7/task');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => tabTitles(page)).toEqual(['首页', '数据舱', '任务']);
    // a project-menu group path goes to its first page, keeping the project id
    await page.goto(`${server.url}/project/projectMenu/9`);
    await page.waitForURL((u) => u.pathname === '/project/projectMenu/9/home');
    await page.context().close();
  });

  test('language switch to English is remembered, antd follows', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-en').click();
    await expect.poll(() => topMenuTitles(page).then((t) => t[0])).toBe('Home');
    await expect.poll(() => page.title()).toBe('Home - Smart Data Platform');
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('en');

    await page.reload();
    await expect.poll(() => topMenuTitles(page).then((t) => t[0])).toBe('Home');
    await expect
      .poll(() => page.getByTestId('home-modules').locator('.ant-card-head-title').textContent())
      .toBe('My modules');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    // antd's own texts follow: the page-size changer of a paged table
    await page.goto(`${server.url}/user/myorder`);
    const sizeChanger = page.locator('.ant-pagination-options').first();
    await sizeChanger.waitFor();
    expect(await text(sizeChanger)).toContain('/ page');
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-zh').click();
    await expect.poll(() => text(sizeChanger)).toContain('条/页');
    await page.context().close();
  });

  test('below 992 px the sidebar is a drawer that closes after navigation', async () => {
    const page = await newPage(browser, { width: 390, lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    const layout = page.getByTestId('app-layout');
    await expect.poll(() => layout.getAttribute('data-device')).toBe('mobile');
    expect(await page.locator('.sidebar-container').count()).toBe(0);
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);

    await page.getByTestId('sidebar-toggle').click();
    const drawer = page.locator('.sidebar-drawer');
    await drawer.getByTestId('sidebar').waitFor({ state: 'visible' });
    // the drawer has slid fully in
    await expect
      .poll(() => drawer.getByTestId('sidebar').evaluate((el) => el.getBoundingClientRect().left))
      .toBe(0);
    await page.waitForTimeout(300);
    await shot(page, 'shell-mobile-drawer-zh');
    await drawer.locator('.ant-menu-submenu-title', { hasText: '智慧数据' }).click();
    await drawer.locator('li.ant-menu-item', { hasText: '数据舱' }).click();
    await page.waitForURL((u) => u.pathname === '/smartdata/datacapsule');
    await drawer.getByTestId('sidebar').waitFor({ state: 'hidden' });
    await page.context().close();
  });
});

/** Top of the page content (the first element inside the view area), in px from the window's top. */
function contentTop(page: Page): Promise<number> {
  return page
    .locator('.app-main .app-view:visible')
    .first()
    .evaluate((el) => {
      const first = (el.firstElementChild as HTMLElement | null) ?? (el as HTMLElement);
      return first.getBoundingClientRect().top;
    });
}

describe('compact header below 992 px', () => {
  // A phone shows content at once: one top bar of 48 px (the height of its touch targets) and
  // the page's 12 px margin, so content starts within 64 px; while the expiry notice shows it
  // adds one line (≤ 28 px). Before, top bar, notice and tab strip took about 150 px.
  const BAR_AND_MARGIN = 64;
  const NOTICE_LINE = 28;

  test('at 390 px: one slim top bar with the view title, notice on one line, content at once', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const page = await newPage(browser, { width: 390, lang });
      await loginAs(page, server.url, DEMO_LIMITED.phone, DEMO_LIMITED.password);
      await page.getByTestId('home-module').first().waitFor();
      const notice = page.getByTestId('expiry-notice');
      await notice.waitFor();
      expect(await page.getByTestId('tags-view').isVisible()).toBe(false);
      expect((await notice.boundingBox())!.height).toBeLessThanOrEqual(NOTICE_LINE);
      expect(await contentTop(page)).toBeLessThanOrEqual(BAR_AND_MARGIN + NOTICE_LINE);
      // the notice still says when and leads to the orders
      expect(await text(notice)).toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(await notice.getByTestId('expiry-notice-link').isVisible()).toBe(true);
      await shot(page, `shell-compact-header-390-${lang}`);

      // the tab strip's views are in the title's menu
      await page.goto(`${server.url}/smartdata/datacapsule`);
      const switcher = page.getByTestId('view-switcher');
      await expect.poll(() => text(switcher)).toBe(lang === 'zh' ? '数据舱' : 'Data Cabin');
      await switcher.click();
      await expect
        .poll(() => page.getByTestId('view-switcher-item').allInnerTexts())
        .toEqual(lang === 'zh' ? ['首页', '数据舱'] : ['Home', 'Data Cabin']);
      await page
        .getByTestId('view-switcher-item')
        .filter({ hasText: lang === 'zh' ? '首页' : 'Home' })
        .click();
      await page.waitForURL((u) => u.pathname === '/home');
      await page.getByTestId('home-module').first().waitFor();

      // dismissed, the content starts right below the bar
      await notice.getByRole('button').last().click();
      await notice.waitFor({ state: 'detached' });
      expect(await contentTop(page)).toBeLessThanOrEqual(BAR_AND_MARGIN);
      await shot(page, `shell-compact-header-390-${lang}-dismissed`);
      await page.context().close();
    }
  });

  test('at 1440 px the full header stays: breadcrumb, notice in full, tab strip', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const page = await newPage(browser, { width: 1440, lang });
      await loginAs(page, server.url, DEMO_LIMITED.phone, DEMO_LIMITED.password);
      await page.getByTestId('home-module').first().waitFor();
      await page.getByTestId('expiry-notice').waitFor();
      expect(await page.getByTestId('tags-view').isVisible()).toBe(true);
      expect(await page.getByTestId('breadcrumb').isVisible()).toBe(true);
      expect(await page.getByTestId('view-switcher').count()).toBe(0);
      expect(await text(page.getByTestId('expiry-notice'))).toContain(
        lang === 'zh' ? '您订阅的服务将于' : 'Your subscribed service expires on',
      );
      await shot(page, `shell-compact-header-1440-${lang}`);
      await page.context().close();
    }
  });
});

/** Header cells of the visible tables whose text takes more than one line or is cut. */
function brokenHeaders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const th of document.querySelectorAll<HTMLElement>('.ant-table-thead th')) {
      if (!th.offsetParent || !th.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(th);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (tops.size > 1) broken.push(`${th.textContent.trim()} (${tops.size} lines)`);
      else if (th.scrollWidth > th.clientWidth) broken.push(`${th.textContent.trim()} (cut)`);
    }
    return broken;
  });
}

describe('labels in English', () => {
  test('list headers keep to one line; cut sidebar entries carry their full text as a tooltip', async () => {
    const page = await newPage(browser, { width: 1440, lang: 'en' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    const pages: [string, string][] = [
      ['/userManagement/role', 'role-page'],
      ['/userManagement/users', 'users-page'],
      ['/userManagement/group', 'group-page'],
      ['/user/myorder', 'myorder-page'],
      ['/user/myassignmentanze', 'myassignment-page'],
      ['/sysSetting/companyManagement', 'company-management-page'],
      ['/smartdata/Doctemplate', 'doctemplate-page'],
    ];
    const broken: string[] = [];
    for (const [path, testId] of pages) {
      await page.goto(`${server.url}${path}`);
      await page.getByTestId(testId).waitFor();
      await page
        .locator('.ant-table-thead th:visible')
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => {
          throw new Error(`no table header on ${path}`);
        });
      broken.push(...(await brokenHeaders(page)).map((header) => `${path}: ${header}`));
    }
    expect(broken).toEqual([]);

    // the roles table: "Menu permissions" as tall as its one-line neighbour
    await page.goto(`${server.url}/userManagement/role`);
    const header = page.locator('.ant-table-thead th', { hasText: 'Menu permissions' });
    const neighbour = page.locator('.ant-table-thead th', { hasText: 'Role type' });
    const textHeight = (cell: Locator) =>
      cell.evaluate((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return range.getBoundingClientRect().height;
      });
    expect(await textHeight(header)).toBe(await textHeight(neighbour));
    await shot(page, 'shell-labels-roles-1440-en');

    // every submenu open: each entry the sidebar's width cuts has its full text as a tooltip
    const sidebar = page.getByTestId('sidebar');
    for (;;) {
      const closed = sidebar.locator(
        'li.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title',
      );
      if ((await closed.count()) === 0) break;
      await closed.first().click();
    }
    const labels = await sidebar.locator('.ant-menu-title-content').evaluateAll((elements) =>
      elements.map((el) => ({
        text: (el.textContent ?? '').trim(),
        cut: el.scrollWidth > el.clientWidth,
        title: el.querySelector('[title]')?.getAttribute('title') ?? el.getAttribute('title'),
      })),
    );
    // English names such as "Data Update Monitoring" are wider than the sidebar
    const cut = labels.filter((label) => label.cut);
    expect(cut.length).toBeGreaterThan(0);
    for (const label of cut) expect(label.title).toBe(label.text);
    await sidebar.locator('.ant-menu-title-content', { hasText: cut[0]!.text }).scrollIntoViewIfNeeded();
    await shot(page, 'shell-labels-sidebar-1440-en');

    // a home card's list of pages, cut by the card's width, shows in full on hover
    await page.goto(`${server.url}/home`);
    const items = page.getByTestId('home-module').locator('.home-module-items');
    await items.first().waitFor();
    const cutItems = await items.evaluateAll((elements) =>
      elements.map((el) => el.scrollWidth > el.clientWidth),
    );
    const index = cutItems.indexOf(true);
    expect(index).toBeGreaterThanOrEqual(0);
    const full = ((await items.nth(index).textContent()) ?? '').trim();
    await items.nth(index).hover();
    const tooltip = page.locator(
      '.ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-container, .ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-inner',
    );
    await expect.poll(() => tooltip.first().textContent(), { timeout: 10_000 }).toBe(full);
    await shot(page, 'shell-labels-home-card-1440-en');
    await page.context().close();
  });
});

describe('screenshots', () => {
  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`home with the layout at ${width} px in ${lang}`, async () => {
        const page = await newPage(browser, { width, lang });
        await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
        await page.getByTestId('home-page').waitFor();
        await page.getByTestId('home-module').first().waitFor();
        await page.waitForTimeout(300);
        const file = await shot(page, `shell-home-${width}-${lang}`);
        expect(file).toMatch(/\.png$/);
        await page.context().close();
      });
    }
  }
});

describe('session and notices', () => {
  test('70006: a token revoked elsewhere → notification, storage cleared, /login after the reload', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await page.getByTestId('home-page').waitFor();
    const stored = await page.evaluate(() => localStorage.getItem('token'));
    const token = (JSON.parse(stored ?? '{}') as { v?: string }).v;
    expect(token).toBeTruthy();
    expect((await api('/user/access/logout', { token })).code).toBe(0);
    // the test revoked the token: every call the page makes after it (the home view's, the
    // layout's polls, a live socket opening; which ones depends on timing) is refused with 401
    // on purpose; any other error still fails the test
    allowPageErrors(
      /Failed to load resource: the server responded with a status of 401 /,
      // Chromium's words for a WebSocket handshake refused with 401
      /WebSocket connection to '[^']*' failed: HTTP Authentication failed; no valid credentials available/,
    );

    // an action that calls the server: refresh the home view (it reloads what it shows)
    await page.getByTestId('refresh-view').click();
    const notice = page.locator('.ant-notification-notice');
    await notice.waitFor();
    expect(await text(notice.locator('.ant-notification-notice-title'))).toBe('提示');
    expect((await text(notice.locator('.ant-notification-notice-description'))).length).toBeGreaterThan(0);
    // the page reloads to /login right after the notice: read the storage once it has landed
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
    await page.getByTestId('login-submit').waitFor();
    const storedAfter = await page.evaluate(() => [
      localStorage.getItem('token'),
      localStorage.getItem('user'),
      localStorage.getItem('company'),
    ]);
    expect(storedAfter).toEqual([null, null, null]);
    await page.context().close();
  });

  test('logout: server token revoked, session, tabs and routes cleared, then /login', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    // the view has loaded, its tree too (a slow machine takes longer than the poll's second): a
    // logout while the tree is still on its way has the server refuse it, the token revoked
    const tree = page.waitForResponse((r) => r.url().includes('/general/smartdata/cabin/tree'));
    await page.goto(`${server.url}/smartdata/datacapsule`);
    await tree;
    await page.getByTestId('tag').nth(1).waitFor();
    await expect.poll(() => tabTitles(page)).toEqual(['首页', '数据舱']);
    const token = (
      JSON.parse((await page.evaluate(() => localStorage.getItem('token'))) ?? '{}') as { v?: string }
    ).v;

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).search).toBe('');
    const stored = await page.evaluate(() =>
      ['token', 'user', 'company'].map((k) => localStorage.getItem(k)),
    );
    expect(stored).toEqual([null, null, null]);
    expect((await api('/user/getUser', { token })).code).toBe(70006);

    // same page, another person: their own menu, no tabs of the one before
    await page.getByTestId('login-phone').fill(DEMO_LIMITED.phone);
    await page.getByTestId('login-password').fill(DEMO_LIMITED.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname === '/home');
    await expect.poll(() => topMenuTitles(page)).toEqual(['首页', '智慧数据', '个人中心']);
    expect(await tabTitles(page)).toEqual(['首页']);
    await page.context().close();
  });

  test('logout with a call still on its way: its refusal is old news, no notice and no reload', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await page.getByTestId('home-page').waitFor();
    // the data cabin's tree is held on its way until the person has logged out
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    await page.route('**/general/smartdata/cabin/tree*', async (route) => {
      held = true;
      await released;
      await route.continue();
    });
    await page.goto(`${server.url}/smartdata/datacapsule`);
    await expect.poll(() => held).toBe(true);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByTestId('login-phone').fill(DEMO_LIMITED.phone);

    // the tree now reaches the server with the revoked token: refused, on purpose
    allowPageErrors(refused(401, '/general/smartdata/cabin/tree'));
    const refusal = page.waitForResponse((r) => r.url().includes('/general/smartdata/cabin/tree'));
    release();
    const answer = await refusal;
    expect(answer.status()).toBe(401);
    expect(((await answer.json()) as { code: number }).code).toBe(70006);
    // no "logged out elsewhere" notice, and no reload wiping what the person has typed
    await page.waitForTimeout(1_500);
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);
    expect(await page.getByTestId('login-phone').inputValue()).toBe(DEMO_LIMITED.phone);
    await page.context().close();
  });

  test('http errors: envelope on any status, 50001 shows data, no response, time-out', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await page.getByTestId('home-page').waitFor();
    const notice = page.locator('.ant-notification-notice').last();
    const expectNotice = async (description: string) => {
      await expect.poll(() => text(notice.locator('.ant-notification-notice-description'))).toBe(description);
      expect(await text(notice.locator('.ant-notification-notice-title'))).toBe('提示');
      await page.evaluate(() => {
        for (const button of document.querySelectorAll('.ant-notification-notice-close')) {
          (button as HTMLElement).click();
        }
      });
      await notice.waitFor({ state: 'detached' });
    };
    const answer = async (handler: Parameters<Page['route']>[1], { once = false } = {}) => {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.route('**/general/company/getCompany', handler);
      await page.getByTestId('refresh-view').click();
      if (once) return;
      // on a loaded machine a refresh clicked while the view still remounts from the last one
      // was seen to ask nothing (twice in CI, cause not found): click again until the call goes
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const shown = await notice
          .locator('.ant-notification-notice-description')
          .waitFor({ timeout: 10_000 })
          .then(() => true)
          .catch(() => false);
        if (shown) return;
        await page.getByTestId('refresh-view').click();
      }
    };

    // the answers below are the test's own: a 400 and a refused connection
    allowPageErrors(
      refused(400, '/general/company/getCompany'),
      /Failed to load resource: net::ERR_CONNECTION_REFUSED \[[^\]]*\/general\/company\/getCompany\]/,
    );
    // 50001 with data: the data is the text, whatever the HTTP status
    await answer((route) =>
      route.fulfill({ status: 400, json: { code: 50001, message: '业务错误', data: '库存不足，无法出库' } }),
    );
    await expectNotice('库存不足，无法出库');
    // another code: the message
    await answer((route) =>
      route.fulfill({ status: 200, json: { code: 40300, message: '没有权限', data: null } }),
    );
    await expectNotice('没有权限');
    // no answer at all
    await answer((route) => route.abort('connectionrefused'));
    await expectNotice('请求无响应：');
    // no answer within 15 s
    const started = Date.now();
    await answer(() => undefined, { once: true });
    // the notice comes after the client's 15 s: the 30 s of a locator alone left a loaded
    // machine too little room (seen twice in CI)
    await notice.locator('.ant-notification-notice-description').waitFor({ timeout: 90_000 });
    await expectNotice('请求无响应： 请求超时！');
    expect(Date.now() - started).toBeGreaterThanOrEqual(15_000);
    // none of these touched the session
    expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
    await page.context().close();
  });

  test('expiry notice: demo service ends in 20 days; link to my orders; dismiss remembered', async () => {
    const token = await tokenOf(DEMO_LIMITED.phone, DEMO_LIMITED.password);
    const company = await api<{ serviceExpiresAt: string }>('/company/getCompany', { token });
    // the company's date (its zone, the default Asia/Shanghai), whatever the browser's zone
    const date = formatInstant(Date.parse(company.data.serviceExpiresAt), 'yyyy-MM-dd', 'Asia/Shanghai');

    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_ADMIN.phone, DEMO_ADMIN.password);
    const notice = page.getByTestId('expiry-notice');
    await notice.waitFor();
    expect(await text(notice)).toContain(`您订阅的服务将于 ${date} 到期`);

    await page.getByTestId('expiry-notice-link').click();
    await page.waitForURL((u) => u.pathname === '/user/myorder');

    await notice.getByRole('button', { name: '关闭提醒' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('tags-view').waitFor();
    expect(await page.getByTestId('expiry-notice').count()).toBe(0);

    // the dismissal is per person: the colleague still sees it, in English here
    const other = await newPage(browser, { lang: 'en' });
    await loginAs(other, server.url, DEMO_LIMITED.phone, DEMO_LIMITED.password);
    await other.getByTestId('expiry-notice').waitFor();
    expect(await text(other.getByTestId('expiry-notice'))).toContain(
      `Your subscribed service expires on ${date}`,
    );
    await page.context().close();
    await other.context().close();
  });

  test('terms dialog: confirm only after ticking; log out instead; accepted state survives reload', async () => {
    // a new account: no company, terms not yet accepted
    const person = { phone: '13900001000', password: 'newuser123' };
    await registerUser(person.phone, person.password);
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, person.phone, person.password);
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('terms-body') });
    await dialog.waitFor();
    for (const section of ['隐私保护', '用户数据规则', '责任限制', '服务终止']) {
      expect(await text(dialog)).toContain(section);
    }
    const confirm = page.getByTestId('terms-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    // clicking outside does not close it
    await page.mouse.click(10, 10);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);

    // log out instead
    await page.getByTestId('terms-logout').click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await loginAs(page, server.url, person.phone, person.password);
    await dialog.waitFor();
    await page.getByTestId('terms-agree').click();
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByTestId('home-page').waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('terms-body').count()).toBe(0);
    await page.context().close();
  });

  test('company switcher: only with several companies; a switch rebuilds the menu and goes home', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await loginAs(page, server.url, DEMO_LIMITED.phone, DEMO_LIMITED.password);
    await page.getByTestId('home-page').waitFor();
    expect(await page.getByTestId('company-switcher').count()).toBe(0);

    // the limited user founds a company of their own (owner: every company code, no system area)
    const token = await tokenOf(DEMO_LIMITED.phone, DEMO_LIMITED.password);
    const created = await api<{ id: number }>('/company/addCompany', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: '操作员工作室' }),
    });
    expect(created.code).toBe(0);
    // the record the page holds is from before: a new login sees both companies
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL((u) => u.pathname === '/login');
    await loginAs(page, server.url, DEMO_LIMITED.phone, DEMO_LIMITED.password);
    await page.goto(`${server.url}/smartdata/datacapsule`);
    const switcher = page.getByTestId('company-switcher');
    await switcher.waitFor();
    expect(await text(switcher)).toContain('演示公司');

    await switcher.click();
    await page.getByRole('menuitem', { name: '操作员工作室' }).click();
    await page.waitForURL((u) => u.pathname === '/home');
    await expect.poll(() => text(page.getByTestId('company-switcher'))).toContain('操作员工作室');
    await expect.poll(() => topMenuTitles(page).then((t) => t.length)).toBeGreaterThan(10);
    const titles = await topMenuTitles(page);
    expect(titles).toContain('用户');
    // no system area in a company that is not the platform's, neither the module nor its hub
    expect(titles).not.toContain('系统维护');
    expect(titles).not.toContain('数据管理');
    expect(await tabTitles(page)).toEqual(['首页']);
    expect(await text(page.getByTestId('sidebar-logo'))).toBe('操作员工作室');

    // and back
    await page.getByTestId('company-switcher').click();
    await page.getByRole('menuitem', { name: '演示公司' }).click();
    await expect.poll(() => topMenuTitles(page)).toEqual(['首页', '智慧数据', '个人中心']);
    await page.context().close();
  });
});
