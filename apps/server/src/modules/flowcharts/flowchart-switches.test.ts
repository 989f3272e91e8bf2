/**
 * Switches of device-family flow charts through the real app and its embedded broker: a
 * template's switch names the family's commands (the boiler's pumpStart and pumpStop), each
 * device maps them onto commands of its own configuration (matched by name when not chosen), and
 * working the switch sends the mapped command on down/command and logs it. Attacks: a read-only
 * user, a role without dm_list, another company, no token, an element that is no switch, a
 * command the device has none mapped for, a device without a chart, an offline device.
 */
import { ERROR_CODES, gatewayDownTopic } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { setPermissions } from '../cabin/test-support';
import {
  birth,
  brokerUrl,
  connectGateway,
  gatewayRow,
  operationsOf,
  publishUp,
  waitFor,
} from '../devices/test-support';
import { screenFixture } from '../screens/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { deviceFlowcharts, familyTemplates } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let fx: Awaited<ReturnType<typeof screenFixture>>;
let bare: Awaited<ReturnType<typeof screenFixture>>;
let boilerId: number;
let switchId: string;
/** the template's title: an element that is no switch */
let titleId: string;
let gw: MqttClient;
const down: Array<{ topic: string; body: Record<string, unknown> }> = [];

const call = async (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  (
    await t.app.inject({
      method,
      url: `/general/devicemanagement/flowchart${url}`,
      headers: { ...bearer(token), 'accept-language': 'en' },
      ...(payload ? { payload: payload as object } : {}),
    })
  ).json();

const commandsSent = () =>
  down.filter((m) => m.topic === gatewayDownTopic(fx.device.sn, 'command')).map((m) => m.body);

async function storedChart(gatewayId: number) {
  const [row] = await t.db.select().from(deviceFlowcharts).where(eq(deviceFlowcharts.gatewayId, gatewayId));
  return row ?? null;
}

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  editor = await makeMember(t, a, [await makeRole(t, a.id, ['dm_list'])], 'editor');
  viewer = await makeMember(t, a, [await makeRole(t, a.id, ['dm_list'])], 'viewer');
  outsider = await makeMember(t, a, [await makeRole(t, a.id, ['sd_board'])], 'outsider');
  // a device whose configuration has the commands pumpOn and pumpOff
  fx = await screenFixture(t, a.id, a.admin.id, '锅炉网关');
  bare = await screenFixture(t, a.id, a.admin.id, '无流程图网关');
  for (const device of [fx.device, bare.device])
    await setPermissions(t, device.nodeId, [
      { scope: 'company', subjectId: null, level: 2 },
      { scope: 'user', subjectId: viewer.id, level: 1 },
    ]);
  const [boiler] = await t.db
    .select()
    .from(familyTemplates)
    .where(eq(familyTemplates.code, 'boiler-feedwater'));
  boilerId = boiler!.id;
  switchId = boiler!.body.elements.find((e) => e.type === 'switch')!.id;
  titleId = boiler!.body.elements.find((e) => e.type === 'text')!.id;
  gw = await connectGateway(brokerUrl(t), fx.device);
  gw.on('message', (topic, payload) => down.push({ topic, body: JSON.parse(payload.toString()) }));
  await gw.subscribeAsync(`smartdata/gw/${fx.device.sn}/down/#`, { qos: 1 });
  await publishUp(gw, fx.device.sn, 'status', birth({ ports: [{ port: 1, ok: true }] }));
  await waitFor(async () => (await gatewayRow(t, fx.device.id)).online, 15_000, 'online');
});
afterAll(async () => {
  gw?.end(true);
  await t?.close();
});

describe('mapping the commands of a template’s switches', () => {
  it('offers the device’s commands and the template’s, matches them by name, and takes a chosen map', async () => {
    const opened = await call(editor.token, 'GET', `?id=${fx.device.id}`);
    expect(opened.data.commands.sort()).toEqual(['pumpOff', 'pumpOn']);
    const boiler = opened.data.templates.find((x: { code: string }) => x.code === 'boiler-feedwater');
    expect(boiler.commands).toEqual(['pumpStart', 'pumpStop']);
    const gas = opened.data.templates.find((x: { code: string }) => x.code === 'gas-blending-skid');
    expect(gas.commands).toEqual(['valveOpen', 'valveClose']);

    // left out: matched by name, and this device calls them otherwise
    const auto = await call(editor.token, 'POST', '/set', {
      id: fx.device.id,
      templateId: boilerId,
      map: {},
    });
    expect(auto.code).toBe(0);
    expect((await storedChart(fx.device.id))!.commands).toEqual({ pumpStart: null, pumpStop: null });
    const unmapped = await call(editor.token, 'GET', `?id=${fx.device.id}`);
    const placed = unmapped.data.chart.body.elements.find((e: { id: string }) => e.id === switchId);
    expect(placed.config).toMatchObject({ onCommand: '', offCommand: '', label: 'Boiler feedwater' });

    const chosen = await call(editor.token, 'POST', '/set', {
      id: fx.device.id,
      templateId: boilerId,
      map: { flow: { itemId: fx.status.itemId, field: 'f2' } },
      commands: { pumpStart: 'pumpOn', pumpStop: 'pumpOff' },
    });
    expect(chosen.code).toBe(0);
    const zh = await t.app.inject({
      method: 'GET',
      url: `/general/devicemanagement/flowchart?id=${fx.device.id}&lang=zh`,
      headers: bearer(viewer.token),
    });
    const chart = zh.json().data.chart;
    expect(chart.commands).toEqual({ pumpStart: 'pumpOn', pumpStop: 'pumpOff' });
    const sw = chart.body.elements.find((e: { id: string }) => e.id === switchId);
    expect(sw.config).toMatchObject({ onCommand: 'pumpOn', offCommand: 'pumpOff', label: '锅炉给水系统' });
    expect(sw.binding).toEqual({ itemId: fx.status.itemId, field: 'f2' });
  });

  it('refuses a command the device lacks or the template does not name, writing nothing', async () => {
    const before = await storedChart(fx.device.id);
    const lacking = await call(editor.token, 'POST', '/set', {
      id: fx.device.id,
      templateId: boilerId,
      map: {},
      commands: { pumpStart: 'reboot' },
    });
    expect(lacking).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'commands.pumpStart' } });
    expect(lacking.message).toContain('not a command of this device');
    const stranger = await call(editor.token, 'POST', '/set', {
      id: fx.device.id,
      templateId: boilerId,
      map: {},
      commands: { formatDisk: 'pumpOn' },
    });
    expect(stranger).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'commands.formatDisk' } });
    expect(await storedChart(fx.device.id)).toEqual(before);
  });
});

describe('working a switch of a flow chart', () => {
  it('sends the command the switch is mapped onto and logs it', async () => {
    const res = await call(editor.token, 'POST', '/switch', {
      id: fx.device.id,
      elementId: switchId,
      state: 'off',
    });
    expect(res).toMatchObject({ code: 0, data: { command: 'pumpOff' } });
    await waitFor(() => commandsSent().some((c) => c.command === 'pumpOff'), 15_000, 'pumpOff down');
    const log = (await operationsOf(t, a.id, fx.device.id)).filter((r) => r.kind === 'command');
    expect(log.at(-1)).toMatchObject({
      userId: editor.id,
      result: 'ok',
      detail: 'pumpOff',
      data: { command: 'pumpOff', flowChart: 'boiler-feedwater', elementId: switchId, state: 'off' },
    });
  });

  it('refuses read-only users, no dm_list, other companies, no token, no switch, an unmapped command and a device without a chart', async () => {
    const sent = commandsSent().length;
    const logged = (await operationsOf(t, a.id, fx.device.id)).length;
    const body = { id: fx.device.id, elementId: switchId, state: 'on' };
    expect((await call(viewer.token, 'POST', '/switch', body)).code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await call(outsider.token, 'POST', '/switch', body)).code).toBe(ERROR_CODES.FORBIDDEN);
    expect(await call(b.admin.token, 'POST', '/switch', body)).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/general/devicemanagement/flowchart/switch',
      payload: body,
    });
    expect(noToken.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    const pump = (await storedChart(fx.device.id))!;
    expect(await call(editor.token, 'POST', '/switch', { ...body, elementId: titleId })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'elementId' },
    });
    expect(await call(editor.token, 'POST', '/switch', { ...body, id: bare.device.id })).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    // the device has nothing mapped for the switch's "on"
    await t.db
      .update(deviceFlowcharts)
      .set({ commands: { pumpStart: null, pumpStop: 'pumpOff' } })
      .where(eq(deviceFlowcharts.id, pump.id));
    const unmapped = await call(editor.token, 'POST', '/switch', body);
    expect(unmapped).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'state' } });
    expect(unmapped.message).toBe(
      'This device has no command mapped for the switch’s pumpStart (on): map it on the flow chart',
    );
    await t.db
      .update(deviceFlowcharts)
      .set({ commands: pump.commands })
      .where(eq(deviceFlowcharts.id, pump.id));
    expect(commandsSent().length).toBe(sent);
    expect((await operationsOf(t, a.id, fx.device.id)).length).toBe(logged);
  });

  it('refuses an offline device, logging the attempt, and sends nothing', async () => {
    const sent = commandsSent().length;
    (gw.stream as { destroy(): void }).destroy();
    await waitFor(async () => !(await gatewayRow(t, fx.device.id)).online, 15_000, 'offline');
    const offline = await call(editor.token, 'POST', '/switch', {
      id: fx.device.id,
      elementId: switchId,
      state: 'on',
    });
    expect(offline).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'The current gateway is offline and cannot receive commands.',
    });
    const log = (await operationsOf(t, a.id, fx.device.id)).filter((r) => r.kind === 'command');
    expect(log.at(-1)).toMatchObject({ result: 'failed', data: { command: 'pumpOn', reason: 'offline' } });
    expect(commandsSent().length).toBe(sent);
  });
});
