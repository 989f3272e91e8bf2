/**
 * The business lists sort by the column a person clicks (platform/sorting.ts): both ways, the
 * list's own order breaking ties, and a column a list does not sort by refused on `sortField`.
 */
import { ERROR_CODES } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, buildTestApp, makeCompany, ok, type TestApp, type TestCompany } from '../test/helper';

let t: TestApp;
let a: TestCompany;
const call = apiCaller(
  () => t,
  '',
  () => a.admin.token,
);

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Sorting A');
  for (const name of ['Meter B', 'Gateway C', 'Cable A']) {
    ok(await call('POST', '/inventory/category/save', { name, kind: 'own' }));
  }
  for (const [name, main] of [
    ['N2 99.999 %', 'N2'],
    ['CO2 99.995 %', 'CO2'],
    ['Ar 99.999 %', 'Ar'],
  ]) {
    ok(await call('POST', '/gas/pure/save', { name, main, impurities: [] }));
  }
  const { list } = ok(await call('GET', '/inventory/category/list?pageSize=100'));
  const gateway = list.find((c: { name: string }) => c.name === 'Gateway C').id;
  for (const quantity of [5, 50, 20]) {
    ok(
      await call('POST', '/production/schedule/save', {
        categoryId: gateway,
        quantity,
        line: `Line ${quantity}`,
        startOn: '2026-11-27',
        endOn: '2026-11-28',
      }),
    );
  }
}, 120_000);

afterAll(() => t?.close());

/** the values of `key` in the list sorted by `field` one way */
async function sorted(path: string, field: string, order: 'asc' | 'desc', key = field) {
  const page = ok(await call('GET', `${path}?pageSize=100&sortField=${field}&sortOrder=${order}`));
  return page.list.map((row: Record<string, unknown>) => row[key]);
}

describe('sorting the business lists', () => {
  it('sorts by a number column both ways', async () => {
    expect(await sorted('/production/schedule/list', 'quantity', 'asc')).toEqual([5, 20, 50]);
    expect(await sorted('/production/schedule/list', 'quantity', 'desc')).toEqual([50, 20, 5]);
  });

  it('sorts by a text column both ways: one order is the other reversed', async () => {
    for (const path of ['/inventory/category/list', '/gas/pure/list']) {
      const up = await sorted(path, 'name', 'asc');
      expect(up).toHaveLength(3);
      expect(await sorted(path, 'name', 'desc')).toEqual([...up].reverse());
    }
    // names that differ in their first letter sort the same under any collation
    expect(await sorted('/inventory/category/list', 'name', 'asc')).toEqual([
      'Cable A',
      'Gateway C',
      'Meter B',
    ]);
    expect(await sorted('/gas/pure/list', 'name', 'desc')).toEqual([
      'N2 99.999 %',
      'CO2 99.995 %',
      'Ar 99.999 %',
    ]);
  });

  it('without a sort field, each list keeps its own order', async () => {
    const { list } = ok(await call('GET', '/inventory/category/list?pageSize=100'));
    expect(list.map((c: { name: string }) => c.name)).toEqual(['Cable A', 'Gateway C', 'Meter B']);
  });

  it('refuses a column a list does not sort by, naming sortField, and a bad order naming sortOrder', async () => {
    for (const path of [
      '/sales/order/list',
      '/sales/contract/list',
      '/inventory/category/list',
      '/inventory/unit/list',
      '/inventory/log/list',
      '/inventory/order/list?kind=entry',
      '/production/schedule/list',
      '/gas/pure/list',
      '/gas/product/list',
      '/gas/cylinder/list',
      '/gas/reference/list',
    ]) {
      const join = path.includes('?') ? '&' : '?';
      const res = await call('GET', `${path}${join}sortField=password`);
      expect(res, path).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'sortField' } });
      const order = await call('GET', `${path}${join}sortOrder=sideways`);
      expect(order, path).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'sortOrder' } });
    }
  });
});
