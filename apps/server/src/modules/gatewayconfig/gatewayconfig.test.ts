import { createHash } from 'node:crypto';
import { canonicalConfigText, ERROR_CODES, type GatewayConfig } from '@platform/domain';
import { FULL_LOOKUPS, fullConfig } from '@platform/domain/devices/config-fixtures';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { setPermissions } from '../cabin/test-support';
import { makeDevice, operationsOf } from '../devices/test-support';
import { floatValue, makePackage, makeParser } from '../packets/test-support';
import { memberRoles, roles } from '../roles/tables';
import { gatewayConfigPushes, gatewayConfigVersions } from './tables';
import {
  brokenConfig,
  call,
  configFixture,
  type Gateway,
  onlineGateway,
  smallConfig,
  waitFor,
} from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0', CONFIG_CONFIRM_WITHIN_S: '2' });
  a = await makeCompany(t, 'A');
  b = await makeCompany(t, 'B');
});
afterAll(async () => {
  await t?.close();
});

async function versionCount(gatewayId: number): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(gatewayConfigVersions)
    .where(eq(gatewayConfigVersions.gatewayId, gatewayId));
  return Number(row!.n);
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('versions', () => {
  it('a gateway never saved opens empty; saves are versions; moving nodes keeps the version', async () => {
    const { device } = await configFixture(t, a);
    const first = await call(t, a.admin.token, 'GET', `get?id=${device.id}`);
    expect(first.json()).toMatchObject({
      code: 0,
      data: {
        device: {
          id: device.id,
          name: '一号网关',
          serialNumber: device.sn,
          bound: true,
          level: 3,
          online: false,
        },
        head: null,
        config: { nodes: [], links: [] },
        lastPush: null,
        confirmWithin: 2,
      },
    });

    const v1 = await call(t, a.admin.token, 'POST', 'save', {
      id: device.id,
      baseVersion: null,
      config: smallConfig(),
    });
    expect(v1.json()).toMatchObject({ code: 0, data: { version: 1, created: true } });
    expect(v1.json().data.hash).toBe(sha(canonicalConfigText(smallConfig())));

    const moved = smallConfig();
    moved.nodes[0]!.position = { x: 500, y: 300 };
    const same = await call(t, a.admin.token, 'POST', 'save', {
      id: device.id,
      baseVersion: 1,
      config: moved,
    });
    expect(same.json()).toMatchObject({
      code: 0,
      data: { version: 1, created: false, hash: v1.json().data.hash },
    });
    const loaded = await call(t, a.admin.token, 'GET', `get?id=${device.id}`);
    expect(loaded.json().data.config.nodes[0].position).toEqual({ x: 500, y: 300 });
    expect(loaded.json().data.head).toMatchObject({ version: 1, nodeCount: 2, savedBy: { id: a.admin.id } });

    const v2 = await call(t, a.admin.token, 'POST', 'save', {
      id: device.id,
      baseVersion: 1,
      config: smallConfig('2'),
    });
    expect(v2.json()).toMatchObject({ code: 0, data: { version: 2, created: true } });
    expect(await versionCount(device.id)).toBe(2);
  });

  it('a save on a stale base is refused, naming who saved which version; nothing is written', async () => {
    const { device } = await configFixture(t, a);
    await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: null, config: smallConfig() });
    // the limited user (read-write by default) saves version 2 meanwhile
    const theirs = await call(t, a.limited.token, 'POST', 'save', {
      id: device.id,
      baseVersion: 1,
      config: smallConfig('theirs'),
    });
    expect(theirs.json().code).toBe(0);
    const mine = await call(t, a.admin.token, 'POST', 'save', {
      id: device.id,
      baseVersion: 1,
      config: smallConfig('mine'),
    });
    expect(mine.statusCode).toBe(409);
    const body = mine.json();
    expect(body.code).toBe(ERROR_CODES.CONFLICT);
    expect(body.message).toMatch(
      /^Version 2 was saved by A user at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d after you opened/,
    );
    expect(body.data).toMatchObject({ field: 'baseVersion', version: 2, savedBy: { id: a.limited.id } });
    expect(await versionCount(device.id)).toBe(2);
  });

  it('two saves racing on one base: exactly one becomes the next version', async () => {
    const { device } = await configFixture(t, a);
    await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: null, config: smallConfig() });
    const answers = await Promise.all(
      ['x', 'y', 'z'].map((s) =>
        call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: 1, config: smallConfig(s) }),
      ),
    );
    const codes = answers.map((r) => r.json().code).sort();
    expect(codes).toEqual([0, ERROR_CODES.CONFLICT, ERROR_CODES.CONFLICT]);
    expect(await versionCount(device.id)).toBe(2);
  });

  it('history, one version, restore as a new version', async () => {
    const { device } = await configFixture(t, a);
    for (const [base, s] of [
      [null, '1'],
      [1, '2'],
      [2, '3'],
    ] as const) {
      await call(t, a.admin.token, 'POST', 'save', {
        id: device.id,
        baseVersion: base,
        config: smallConfig(s),
      });
    }
    const list = await call(t, a.admin.token, 'GET', `versions?id=${device.id}&pageSize=2`);
    expect(list.json().data).toMatchObject({ total: 3, pageSize: 2 });
    expect(list.json().data.list.map((v: { version: number }) => v.version)).toEqual([3, 2]);

    const one = await call(t, a.admin.token, 'GET', `version?id=${device.id}&version=1`);
    expect(one.json().data.config.nodes[0].name).toBe('Time1');

    const stale = await call(t, a.admin.token, 'POST', 'restore', {
      id: device.id,
      version: 1,
      baseVersion: 2,
    });
    expect(stale.json().code).toBe(ERROR_CODES.CONFLICT);
    const restored = await call(t, a.admin.token, 'POST', 'restore', {
      id: device.id,
      version: 1,
      baseVersion: 3,
    });
    expect(restored.json()).toMatchObject({ code: 0, data: { version: 4, created: true } });
    const head = await call(t, a.admin.token, 'GET', `get?id=${device.id}`);
    expect(head.json().data.head).toMatchObject({
      version: 4,
      restoredFrom: 1,
      hash: one.json().data.meta.hash,
    });

    const missing = await call(t, a.admin.token, 'GET', `version?id=${device.id}&version=99`);
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'version' } });
  });

  it('the node maximum: 65 nodes are refused with the seed message; hostile shapes are refused; nothing is written', async () => {
    const { device } = await configFixture(t, a);
    const many = (n: number): GatewayConfig => ({
      nodes: Array.from({ length: n }, (_, i) => ({
        id: `t${i}`,
        type: 'timestamp' as const,
        name: `T${i}`,
        settings: { format: 'iso' as const },
      })),
      links: [],
    });
    const ok64 = await call(t, a.admin.token, 'POST', 'save', {
      id: device.id,
      baseVersion: null,
      config: many(64),
    });
    expect(ok64.json().code).toBe(0);
    const over = await call(t, a.admin.token, 'POST', 'save', {
      id: device.id,
      baseVersion: 1,
      config: many(65),
    });
    expect(over.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'You have reached the maximum number of nodes created!',
    });
    const checked = await call(t, a.admin.token, 'POST', 'check', { id: device.id, config: many(65) });
    expect(checked.json().data).toMatchObject({
      ok: false,
      problems: [{ key: 'maxNodes', message: 'You have reached the maximum number of nodes created!' }],
    });

    const hostile: unknown[] = [
      many(10_000),
      {
        nodes: [{ id: 'a', type: 'com', name: 'A', settings: { deep: { deeper: { deepest: 1 } } } }],
        links: [],
      },
      { nodes: [{ id: 'a\u0000', type: 'com', name: 'A', settings: {} }], links: [] },
      { nodes: [{ id: 'a', type: 'com', name: 'A', settings: { ['k'.repeat(40)]: 1 } }], links: [] },
      { nodes: 'all of them', links: [] },
      { nodes: [], links: [], extra: true },
    ];
    for (const config of hostile) {
      const res = await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: 1, config });
      expect(res.json().code, JSON.stringify(config).slice(0, 80)).not.toBe(0);
      expect([400, 413]).toContain(res.statusCode);
    }
    expect(await versionCount(device.id)).toBe(1);
  });
});

describe('the check', () => {
  it('returns every problem with its node, field and message in the caller’s language', async () => {
    const { device, item } = await configFixture(t, a);
    const config = fullConfig();
    // the fixture's data packages 7 (parsed: voltage) and 8, and item 5: this company's instead
    const parsed = await makePackage(t, a.id);
    await makeParser(t, a.id, parsed, [floatValue(item.itemId, { name: 'voltage' })], a.admin.id);
    const bare = await makePackage(t, a.id);
    for (const node of config.nodes) {
      if (node.type !== 'serialPacket' && node.type !== 'serialParser') continue;
      node.settings.packetId = node.settings.packetId === 7 ? parsed : bare;
    }
    const element = config.nodes.find((n) => n.id === 'element1')!;
    element.settings = { name: 'voltage', itemId: item.itemId, fieldKey: 'f1' };
    const good = await call(t, a.admin.token, 'POST', 'check', { id: device.id, config });
    expect(good.json().data).toEqual({ ok: true, problems: [] });

    element.settings = { name: 'voltage', itemId: item.itemId, fieldKey: 'f9' };
    const broken = brokenConfig();
    const bad = await call(t, a.admin.token, 'POST', 'check', {
      id: device.id,
      config: {
        nodes: [...config.nodes, ...broken.nodes.map((n) => ({ ...n, id: 'com9', name: 'COM9' }))],
        links: config.links,
      },
    });
    const problems = bad.json().data.problems;
    expect(bad.json().data.ok).toBe(false);
    expect(problems).toContainEqual(
      expect.objectContaining({
        node: 'element1',
        field: 'fieldKey',
        key: 'configItemFieldUnknown',
        message: `No IoT data item ${item.itemId} with the field f9 is in this company`,
      }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ node: 'com9', field: 'port', key: 'configPortTaken', severity: 'error' }),
    );
    const zh = await t.app.inject({
      method: 'POST',
      url: '/general/devicemanagement/gatewayconfig/check',
      payload: { id: device.id, config: brokenConfig() },
      headers: { authorization: `Bearer ${a.admin.token}`, 'accept-language': 'zh' },
    });
    expect(zh.json().data.problems[0]).toMatchObject({
      field: 'baudRate',
      message: expect.stringContaining('请从以下选项中选择'),
    });
    expect(FULL_LOOKUPS.field?.(5, 'f1')).toBe(true);
  });

  it('another company’s item is no item of this company', async () => {
    const { device } = await configFixture(t, a);
    const theirs = await configFixture(t, b);
    const config = fullConfig();
    config.nodes.find((n) => n.id === 'element1')!.settings = {
      name: 'voltage',
      itemId: theirs.item.itemId,
      fieldKey: 'f1',
    };
    const res = await call(t, a.admin.token, 'POST', 'check', { id: device.id, config });
    expect(res.json().data.problems).toContainEqual(
      expect.objectContaining({ key: 'configItemFieldUnknown' }),
    );
  });
});

describe('push', () => {
  async function saved(device: { id: number }, config = smallConfig()) {
    const res = await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: null, config });
    return res.json().data.version as number;
  }
  async function pushState(deviceId: number, pushId: number) {
    return (await call(t, a.admin.token, 'GET', `push?id=${deviceId}&pushId=${pushId}`)).json().data.state;
  }
  async function configSent(gw: Gateway, n = 1) {
    return waitFor(
      () =>
        gw.received.filter((m) => m.kind === 'config').length >= n &&
        gw.received.filter((m) => m.kind === 'config')[n - 1],
      15_000,
      'down/config',
    );
  }

  it('is refused while the gateway is offline, and saves nothing', async () => {
    const { device } = await configFixture(t, a);
    const res = await call(t, a.admin.token, 'POST', 'push', {
      id: device.id,
      baseVersion: null,
      config: smallConfig(),
    });
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'The current gateway is offline and unable to remotely update configuration.',
    });
    expect(await versionCount(device.id)).toBe(0);
  });

  it('is refused once the company unbound the gateway: "The gateway is not bound."', async () => {
    const { device } = await configFixture(t, a);
    await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: null, config: smallConfig() });
    const unbind = await t.app.inject({
      method: 'POST',
      url: '/general/devicemanagement/device/unbind',
      payload: { id: device.id },
      headers: { authorization: `Bearer ${a.admin.token}` },
    });
    expect(unbind.json().code).toBe(0);
    const res = await call(t, a.admin.token, 'POST', 'push', { id: device.id, baseVersion: 1 });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.BUSINESS, message: 'The gateway is not bound.' });
    // another company's gateway stays unknown, bound or not
    const other = await call(t, b.admin.token, 'POST', 'push', { id: device.id, baseVersion: 1 });
    expect(other.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND });
  });

  it('saves first, then refuses a configuration that fails the check, telling to run the check', async () => {
    const { device } = await configFixture(t, a);
    const gw = await onlineGateway(t, device);
    try {
      await waitFor(
        async () => (await call(t, a.admin.token, 'GET', `get?id=${device.id}`)).json().data.device.online,
      );
      const res = await call(t, a.admin.token, 'POST', 'push', {
        id: device.id,
        baseVersion: null,
        config: brokenConfig(),
      });
      expect(res.json()).toMatchObject({
        code: ERROR_CODES.BUSINESS,
        message: 'The configuration failed the check. Please use the configuration check for details.',
      });
      expect(await versionCount(device.id)).toBe(1);
      expect(gw.received).toEqual([]);
    } finally {
      await gw.close();
    }
  });

  it('applied → committed: the gateway gets version, hash and confirmWithin, then the commit; the log says so', async () => {
    const { device } = await configFixture(t, a);
    const gw = await onlineGateway(t, device);
    try {
      await waitFor(
        async () => (await call(t, a.admin.token, 'GET', `get?id=${device.id}`)).json().data.device.online,
      );
      const res = await call(t, a.admin.token, 'POST', 'push', {
        id: device.id,
        baseVersion: null,
        config: smallConfig(),
      });
      expect(res.json()).toMatchObject({
        code: 0,
        data: { saved: { version: 1 }, push: { version: 1, state: 'waiting' } },
      });
      const push = res.json().data.push;
      const sent = (await configSent(gw)).payload;
      expect(sent).toMatchObject({ version: 1, hash: push.hash, confirmWithin: 2 });
      // the gateway can recompute the hash from what it got: no positions in it
      expect(sha(canonicalConfigText(sent.config))).toBe(push.hash);
      expect(JSON.stringify(sent.config)).not.toContain('position');

      const again = await call(t, a.admin.token, 'POST', 'push', { id: device.id, baseVersion: 1 });
      expect(again.json()).toMatchObject({
        code: ERROR_CODES.BUSINESS,
        message: expect.stringContaining('still waiting'),
      });

      // an answer about another hash changes nothing
      await gw.answer({ version: 1, hash: 'f'.repeat(64), result: 'applied' });
      await gw.answer({ version: 1, hash: push.hash, result: 'applied' });
      await waitFor(() => gw.received.some((m) => m.kind === 'config/commit'), 15_000, 'commit');
      expect(gw.received.find((m) => m.kind === 'config/commit')!.payload).toEqual({
        version: 1,
        hash: push.hash,
      });
      await waitFor(async () => (await pushState(device.id, push.id)) === 'committed', 15_000, 'committed');
      expect(gw.received.filter((m) => m.kind === 'config/commit')).toHaveLength(1);

      const log = await operationsOf(t, a.id, device.id);
      expect(log.filter((o) => o.kind === 'config')).toMatchObject([
        {
          actorType: 'user',
          userId: a.admin.id,
          result: 'ok',
          detail: '',
          data: { version: 1, hash: push.hash, state: 'committed' },
        },
      ]);
    } finally {
      await gw.close();
    }
  });

  it('rejected (with the gateway’s errors), unchanged, rolled back', async () => {
    const { device } = await configFixture(t, a);
    const gw = await onlineGateway(t, device);
    try {
      await waitFor(
        async () => (await call(t, a.admin.token, 'GET', `get?id=${device.id}`)).json().data.device.online,
      );
      await saved(device);
      const outcomes: Array<[Record<string, unknown>, string]> = [
        [
          {
            result: 'rejected',
            errors: [{ node: 'publish1', field: 'qos', message: 'QoS 1 is not supported' }],
          },
          'rejected',
        ],
        [{ result: 'unchanged' }, 'unchanged'],
        [{ result: 'rolledBack', runningVersion: 0 }, 'rolledBack'],
      ];
      for (const [i, [answer, state]] of outcomes.entries()) {
        const res = await call(t, a.admin.token, 'POST', 'push', { id: device.id, baseVersion: 1 });
        expect(res.json().code).toBe(0);
        const push = res.json().data.push;
        await configSent(gw, i + 1);
        await gw.answer({ version: 1, hash: push.hash, ...answer });
        await waitFor(async () => (await pushState(device.id, push.id)) === state, 15_000, state);
      }
      const list = await call(t, a.admin.token, 'GET', `pushes?id=${device.id}`);
      expect(list.json().data.list).toMatchObject([
        { state: 'rolledBack', runningVersion: 0 },
        { state: 'unchanged' },
        {
          state: 'rejected',
          errors: [{ node: 'publish1', field: 'qos', message: 'QoS 1 is not supported' }],
        },
      ]);
      expect(gw.received.some((m) => m.kind === 'config/commit')).toBe(false);
      const log = (await operationsOf(t, a.id, device.id)).filter((o) => o.kind === 'config');
      expect(log.map((o) => o.result)).toEqual(['failed', 'ok', 'failed']);
      // the rejection's words are the gateway's; the rollback names the version it went back to
      expect(log[0]).toMatchObject({
        detail: 'publish1.qos: QoS 1 is not supported',
        data: { state: 'rejected' },
      });
      expect(log[2]).toMatchObject({ data: { state: 'rolledBack', runningVersion: 0 } });
    } finally {
      await gw.close();
    }
  });

  it('a gateway that does not answer: no answer after confirmWithin; its late rollback still counts', async () => {
    const { device } = await configFixture(t, a);
    const gw = await onlineGateway(t, device);
    try {
      await waitFor(
        async () => (await call(t, a.admin.token, 'GET', `get?id=${device.id}`)).json().data.device.online,
      );
      await saved(device);
      const res = await call(t, a.admin.token, 'POST', 'push', { id: device.id, baseVersion: 1 });
      const push = res.json().data.push;
      await waitFor(async () => (await pushState(device.id, push.id)) === 'noAnswer', 20_000, 'noAnswer');
      await gw.answer({ version: 1, hash: push.hash, result: 'rolledBack', runningVersion: 0 });
      await waitFor(async () => (await pushState(device.id, push.id)) === 'rolledBack', 15_000, 'rolledBack');
    } finally {
      await gw.close();
    }
  });
});

describe('permissions', () => {
  it('read-only on the device: may look and check, not save or push; no permission: as if absent', async () => {
    const { device } = await configFixture(t, a);
    await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: null, config: smallConfig() });
    await setPermissions(t, device.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    expect((await call(t, a.limited.token, 'GET', `get?id=${device.id}`)).json().data.device.level).toBe(1);
    expect(
      (await call(t, a.limited.token, 'POST', 'check', { id: device.id, config: smallConfig() })).json().code,
    ).toBe(0);
    const save = await call(t, a.limited.token, 'POST', 'save', {
      id: device.id,
      baseVersion: 1,
      config: smallConfig('x'),
    });
    expect(save.json().code).toBe(ERROR_CODES.FORBIDDEN);

    await setPermissions(t, device.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    const hidden = await call(t, a.limited.token, 'GET', `get?id=${device.id}`);
    expect(hidden.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    expect(await versionCount(device.id)).toBe(1);
  });

  it('the push routes need a devices menu’s code (dm_list or cd_device)', async () => {
    const { device } = await configFixture(t, a);
    // the limited role has sd_capsule but neither devices code
    const body = { id: device.id, baseVersion: null, config: smallConfig() };
    const push = await call(t, a.limited.token, 'POST', 'push', body);
    expect(push.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const state = await call(t, a.limited.token, 'GET', `pushState?id=${device.id}`);
    expect(state.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(await versionCount(device.id)).toBe(0);

    // device communication's code is enough: the push now goes as far as the gateway being offline
    const [role] = await t.db
      .insert(roles)
      .values({ companyId: a.id, name: 'devices', menuCodes: ['cd_device'] })
      .returning();
    await t.db.insert(memberRoles).values({ companyId: a.id, userId: a.limited.id, roleId: role!.id });
    const again = await call(t, a.limited.token, 'POST', 'push', body);
    expect(again.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: expect.stringContaining('offline'),
    });
    await t.db.delete(memberRoles).where(eq(memberRoles.roleId, role!.id));
  });

  it('another company’s gateway, bound again by B later, shows B none of A’s versions', async () => {
    const device = await makeDevice(t, a.id, { userId: a.admin.id });
    await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: null, config: smallConfig() });
    const pushes = await t.db
      .select({ n: count() })
      .from(gatewayConfigPushes)
      .where(and(eq(gatewayConfigPushes.gatewayId, device.id), eq(gatewayConfigPushes.companyId, b.id)));
    expect(Number(pushes[0]!.n)).toBe(0);
    const res = await call(t, b.admin.token, 'GET', `versions?id=${device.id}`);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND });
  });
});
