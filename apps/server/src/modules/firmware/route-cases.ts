import { createHash } from 'node:crypto';
import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { makeDevice } from '../devices/test-support';
import { firmwareBatches, firmwareUpgrades, firmwareVersions } from './tables';
import { BASE, image, SYSTEM_BASE, uploadRequest } from './test-support';

/**
 * Company A's device with a version (SECRET-A in its notes), an upgrade to it in a batch.
 * Company B's administrator targets them: devices are 40400 as if absent, the operator's
 * routes 40300 (system_gateway counts only in the platform operator's company), and nothing
 * of A's is returned or changed.
 */
async function victim({ t, a }: TenantContext) {
  const device = await makeDevice(t, a.id, { userId: a.admin.id });
  const bytes = image();
  const [version] = await t.db
    .insert(firmwareVersions)
    .values({
      model: 'SDG-200',
      version: `8.${device.id}.0`,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      storageKey: `firmware/case-${device.id}.bin`,
      fileName: 'fw.bin',
      notesEn: 'SECRET-A',
    })
    .returning();
  const [batch] = await t.db
    .insert(firmwareBatches)
    .values({ companyId: a.id, versionId: version!.id, version: version!.version, createdBy: a.admin.id })
    .returning();
  const [upgrade] = await t.db
    .insert(firmwareUpgrades)
    .values({
      companyId: a.id,
      gatewayId: device.id,
      versionId: version!.id,
      batchId: batch!.id,
      version: version!.version,
      state: 'failed',
      reason: 'verify',
      detail: 'SECRET-A detail',
      timeouts: { ack: 30, progress: 60, total: 300 },
      linkBase: 'http://127.0.0.1',
      createdBy: a.admin.id,
    })
    .returning();
  return { device, version: version!, batch: batch!, upgrade: upgrade! };
}

type Victim = Awaited<ReturnType<typeof victim>>;

async function unchanged(t: TestApp, v: Victim) {
  expect(await t.db.select().from(firmwareVersions).where(eq(firmwareVersions.id, v.version.id))).toEqual([
    v.version,
  ]);
  expect(
    await t.db.select().from(firmwareUpgrades).where(eq(firmwareUpgrades.gatewayId, v.device.id)),
  ).toEqual([v.upgrade]);
}

function refused(code: number, field: string | null) {
  return (res: { json(): { code: number; data: unknown }; body: string }) => {
    expect(res.json().code).toBe(code);
    if (field) expect(res.json().data).toMatchObject({ field });
    expect(res.body).not.toContain('SECRET-A');
    expect(res.body).not.toContain('"state":"failed"');
  };
}

function attack(
  method: 'GET' | 'POST',
  url: (v: Victim) => string,
  body: ((v: Victim) => Record<string, unknown>) | null,
  code: number,
  field: string | null,
) {
  return {
    attack: async (ctx: TenantContext) => {
      const v = await victim(ctx);
      return {
        request: {
          method,
          url: url(v),
          ...(body ? { payload: body(v) } : {}),
          headers: bearer(ctx.b.admin.token),
        },
        verify: async (res: { json(): { code: number; data: unknown }; body: string }) => {
          refused(code, field)(res);
          await unchanged(ctx.t, v);
        },
      };
    },
  };
}

const NF = ERROR_CODES.NOT_FOUND;
const FORBIDDEN = ERROR_CODES.FORBIDDEN;

export const firmwareRouteCases: RouteCases = {
  [`POST ${SYSTEM_BASE}/upload`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: uploadRequest(
          ctx.b.admin.token,
          { model: 'SDG-200', version: v.version.version },
          { bytes: image() },
        ),
        verify: async (res) => {
          refused(FORBIDDEN, null)(res);
          await unchanged(ctx.t, v);
        },
      };
    },
  },
  [`GET ${SYSTEM_BASE}/list`]: attack('GET', () => `${SYSTEM_BASE}/list`, null, FORBIDDEN, null),
  [`POST ${SYSTEM_BASE}/update`]: attack(
    'POST',
    () => `${SYSTEM_BASE}/update`,
    (v) => ({ id: v.version.id, notesZh: 'x', notesEn: 'x' }),
    FORBIDDEN,
    null,
  ),
  [`POST ${SYSTEM_BASE}/delete`]: attack(
    'POST',
    () => `${SYSTEM_BASE}/delete`,
    (v) => ({ id: v.version.id }),
    FORBIDDEN,
    null,
  ),
  [`GET ${BASE}/device`]: attack('GET', (v) => `${BASE}/device?id=${v.device.id}`, null, NF, 'id'),
  [`GET ${BASE}/releaseNote`]: {
    ownScope:
      'release notes belong to the platform’s firmware versions, the same for every company (no company data); a version is read by its model and version only',
  },
  [`POST ${BASE}/upgrade`]: attack(
    'POST',
    () => `${BASE}/upgrade`,
    (v) => ({ id: v.device.id, versionId: v.version.id }),
    NF,
    'id',
  ),
  [`POST ${BASE}/retry`]: attack(
    'POST',
    () => `${BASE}/retry`,
    (v) => ({ id: v.device.id, upgradeId: v.upgrade.id }),
    NF,
    'id',
  ),
  [`GET ${BASE}/upgrade`]: attack(
    'GET',
    (v) => `${BASE}/upgrade?id=${v.device.id}&upgradeId=${v.upgrade.id}`,
    null,
    NF,
    'id',
  ),
  [`GET ${BASE}/upgrades`]: attack('GET', (v) => `${BASE}/upgrades?id=${v.device.id}`, null, NF, 'id'),
  [`POST ${BASE}/batch`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST',
          url: `${BASE}/batch`,
          payload: { ids: [v.device.id], versionId: v.version.id },
          headers: bearer(ctx.b.admin.token),
        },
        verify: async (res) => {
          // the batch is B's own (empty of A's devices): A's device is named not found
          expect(res.json().code).toBe(0);
          expect(res.json().data.results).toEqual([
            { id: v.device.id, upgrade: null, error: { code: NF, message: expect.any(String) } },
          ]);
          expect(res.body).not.toContain('SECRET-A');
          await unchanged(ctx.t, v);
        },
      };
    },
  },
  [`GET ${BASE}/batch`]: attack('GET', (v) => `${BASE}/batch?batchId=${v.batch.id}`, null, NF, 'batchId'),
  'GET /general/firmware/download/:upgradeId': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'GET',
          url: `/general/firmware/download/${v.upgrade.id}?exp=9999999999&sig=${'A'.repeat(43)}`,
          headers: bearer(ctx.b.admin.token),
        },
        verify: async (res) => {
          refused(NF, null)(res);
          await unchanged(ctx.t, v);
        },
      };
    },
  },
};
