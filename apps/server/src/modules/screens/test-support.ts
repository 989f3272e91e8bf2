/**
 * Fixtures of configuration screens: a company's device running a configuration whose parser
 * feeds `meter` f1 (电压) and `status` f2 (状态), and whose MQTT subscribe on the platform's
 * `down/command` triggers the commands pumpOn and pumpOff. Not imported by production code.
 */
import type { GatewayConfig } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { viewFixture } from '../deviceviews/test-support';
import { gatewayConfigVersions } from '../gatewayconfig/tables';

export function withCommands(config: GatewayConfig): GatewayConfig {
  return {
    nodes: [
      ...config.nodes,
      { id: 'sub1', type: 'mqttSubscribe', name: 'Platform', settings: { target: 'platform', qos: 1 } },
      {
        id: 'cmdOn',
        type: 'command',
        name: 'Pump on',
        settings: { name: 'pumpOn', encoding: 'HEX', payload: '01 05 00 00 FF 00' },
      },
      {
        id: 'cmdOff',
        type: 'command',
        name: 'Pump off',
        settings: { name: 'pumpOff', encoding: 'HEX', payload: '01 05 00 00 00 00' },
      },
    ],
    links: [
      ...config.links,
      { from: 'sub1', to: 'cmdOn' },
      { from: 'sub1', to: 'cmdOff' },
      { from: 'cmdOn', to: 'com1' },
      { from: 'cmdOff', to: 'com1' },
    ],
  } as GatewayConfig;
}

export async function screenFixture(t: TestApp, companyId: number, saverId: number, name = '组态网关') {
  const v = await viewFixture(t, companyId, saverId, name);
  const config = withCommands(v.config);
  await t.db
    .update(gatewayConfigVersions)
    .set({ config, nodeCount: config.nodes.length })
    .where(
      and(eq(gatewayConfigVersions.companyId, companyId), eq(gatewayConfigVersions.gatewayId, v.device.id)),
    );
  return { ...v, config };
}

/** A screen body binding the fixture's points: a tank on meter f1, a pump and a switch on status f2. */
export function screenBody(meterId: number, statusId: number) {
  return {
    width: 1280,
    height: 720,
    background: '#001529',
    staleSeconds: 30,
    elements: [
      {
        id: 'tank1',
        type: 'tank',
        x: 100,
        y: 100,
        w: 120,
        h: 200,
        binding: { itemId: meterId, field: 'f1' },
        config: { min: 0, max: 400 },
        rules: [{ op: '>', value: 250, effects: { fill: '#ff4d4f', blink: true } }],
      },
      {
        id: 'pump1',
        type: 'pump',
        x: 300,
        y: 100,
        w: 100,
        h: 100,
        binding: { itemId: statusId, field: 'f2' },
      },
      {
        id: 'sw1',
        type: 'switch',
        x: 450,
        y: 100,
        w: 120,
        h: 48,
        binding: { itemId: statusId, field: 'f2' },
        config: { label: '泵', onCommand: 'pumpOn', offCommand: 'pumpOff', confirm: '确定切换泵？' },
      },
      { id: 'title', type: 'text', x: 100, y: 20, w: 400, h: 40, config: { text: 'SECRET-SCREEN' } },
    ],
  };
}
