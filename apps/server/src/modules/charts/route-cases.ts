import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { makeRecords } from '../records/test-support';
import { charts } from './tables';

const BASE = '/general/smartdata/chart';
const FROM = '2026-01-01T00:00:00.000Z';
const TO = '2026-01-01T06:00:00.000Z';

/** A line of f1 over a fixed period, as the routes store it. */
export const LINE_CONFIG = {
  type: 'line',
  series: [{ field: 'f1', method: 'raw', range: 'period', from: FROM, to: TO }],
  min: null,
  max: null,
  downsample: 'lttb',
  percentScale: false,
};

/** A chart made straight in the table. */
export async function makeChart(t: TestApp, companyId: number, itemId: number, name = 'SECRET-A chart') {
  const [row] = await t.db
    .insert(charts)
    .values({ companyId, itemId, name, type: 'line', config: LINE_CONFIG as never })
    .returning({ id: charts.id });
  return row!.id;
}

/** Company A's item with records and a chart. */
async function victim(t: TestApp, companyId: number) {
  const { itemId } = await makeItem(t, companyId, { fields: SAMPLE_FIELDS });
  await makeRecords(t, companyId, itemId, [{ ts: '2026-01-01T01:00:00Z', values: { f1: 987.25 } }]);
  const id = await makeChart(t, companyId, itemId);
  return { itemId, id };
}

async function unchanged(t: TestApp, id: number) {
  const [row] = await t.db.select().from(charts).where(eq(charts.id, id));
  expect(row?.name).toBe('SECRET-A chart');
  expect(row?.config).toEqual(LINE_CONFIG);
}

/** B's administrator aims at A's item and chart: 40400 on itemId, nothing of A's in the answer, A's chart as it was. */
function attack(
  method: 'GET' | 'POST',
  path: string,
  query: (v: { itemId: number; id: number }) => Record<string, unknown>,
) {
  return {
    attack: async ({ t, a, b }: TenantContext) => {
      const v = await victim(t, a.id);
      const params = query(v);
      const request =
        method === 'GET'
          ? {
              method,
              url: `${BASE}/${path}?${new URLSearchParams(Object.entries(params).map(([k, x]): [string, string] => [k, String(x)]))}`,
              headers: bearer(b.admin.token),
            }
          : { method, url: `${BASE}/${path}`, payload: params, headers: bearer(b.admin.token) };
      return {
        request,
        verify: async (res: { json(): unknown; body: string }) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
          expect(res.body).not.toContain('SECRET-A');
          expect(res.body).not.toContain('987.25');
          await unchanged(t, v.id);
        },
      };
    },
  };
}

export const chartsRouteCases: RouteCases = {
  [`GET ${BASE}/list`]: attack('GET', 'list', (v) => ({ itemId: v.itemId })),
  [`GET ${BASE}/get`]: attack('GET', 'get', (v) => ({ itemId: v.itemId, id: v.id })),
  [`GET ${BASE}/data`]: attack('GET', 'data', (v) => ({ itemId: v.itemId, id: v.id, width: 100 })),
  [`GET ${BASE}/export`]: attack('GET', 'export', (v) => ({ itemId: v.itemId, id: v.id, format: 'csv' })),
  [`POST ${BASE}/preview`]: attack('POST', 'preview', (v) => ({
    itemId: v.itemId,
    width: 100,
    config: LINE_CONFIG,
  })),
  [`POST ${BASE}/save`]: attack('POST', 'save', (v) => ({
    itemId: v.itemId,
    id: v.id,
    name: 'taken over',
    config: { ...LINE_CONFIG, type: 'bar' },
  })),
  [`POST ${BASE}/delete`]: attack('POST', 'delete', (v) => ({ itemId: v.itemId, id: v.id })),
};
