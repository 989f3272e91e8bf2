/**
 * Every list page of the business modules (inventory, production, sales, gas blending) on the
 * demo company, in the two combinations their own browser tests do not shoot: Chinese on a phone
 * (390 px, where nothing may scroll sideways) and English at 1440 px. Each page must open with
 * its card and settle without an error; the screenshots are looked at by a person.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { noSideways, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
const { openAs, acceptTerms } = supportFor(() => ({ server, browser }));

const PAGES: ReadonlyArray<[name: string, path: string]> = [
  ['inventory-list', '/inventoryManagement/inventoryList'],
  ['inventory-entries', '/inventoryManagement/entryList'],
  ['inventory-exits', '/inventoryManagement/exitList'],
  ['inventory-categories', '/inventoryManagement/categoryList'],
  ['production-scheduling', '/productionManagement/scheduling'],
  ['production-process', '/productionManagement/process'],
  ['production-reports', '/productionManagement/reports'],
  ['sales-submit', '/smartSale/submitorder'],
  ['sales-orders', '/smartSale/ordermanagement'],
  ['sales-contracts', '/smartSale/salecontract'],
  ['sales-templates', '/smartSale/saletemplate'],
  ['gas-products', '/setgas/productlist'],
  ['gas-pure', '/setgas/puregas'],
  ['gas-quality', '/setgas/qualityctrl'],
  ['gas-certificates', '/setgas/certandreport'],
  ['gas-properties', '/setgas/gaspropertieslist'],
  ['gas-references', '/setgas/referencematerial'],
];

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  await acceptTerms(DEMO_ADMIN.phone, DEMO_ADMIN.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('business pages', () => {
  for (const [lang, width] of [
    ['zh', 390],
    ['en', 1440],
  ] as const) {
    test(`every list page in ${lang} at ${width} px`, async () => {
      const { context, page } = await openAs(lang, width);
      try {
        for (const [name, path] of PAGES) {
          // within the app, as the menu goes (the app boots once, not once a page)
          await page.evaluate((to) => {
            window.history.pushState(null, '', to);
            window.dispatchEvent(new PopStateEvent('popstate'));
          }, path);
          await page.waitForURL((url) => url.pathname === path);
          const view = page.locator(`.app-view[data-path="${path}"]:visible`);
          await view.locator('.ant-card').first().waitFor();
          // the lists have loaded: no spinner, no skeleton left
          await expect.poll(() => view.locator('.ant-spin-spinning, .ant-skeleton').count()).toBe(0);
          expect(await view.locator('.ant-alert-error').count(), `${path} shows an error`).toBe(0);
          expect(await page.locator('.ant-modal-wrap:visible').count(), `${path} is covered`).toBe(0);
          if (width === 390) await noSideways(page);
          await shot(page, `business-${name}-${lang}-${width}`);
        }
      } finally {
        await context.close();
      }
    });
  }
});
