/**
 * Fixtures of the device views: a company's device with an applied configuration (COM1 → a
 * serial packet, its answers → a parser whose values feed two IoT items). Made straight in the
 * tables (no route, no permission check). Not imported by production code.
 */
import { appendCrc, encodeNumber, type GatewayConfig, parseHex, toHex } from '@platform/domain';
import type { TestApp } from '../../test/helper';
import { makeDevice } from '../devices/test-support';
import { gatewayConfigPushes, gatewayConfigVersions } from '../gatewayconfig/tables';
import { floatValue, makeIotItem, makePackage, makeParser } from '../packets/test-support';

export function flowConfig(packetId: number): GatewayConfig {
  return {
    nodes: [
      {
        id: 'com1',
        type: 'com',
        name: 'COM1',
        settings: {
          port: 1,
          baudRate: 9600,
          dataBits: 8,
          stopBits: 1,
          parity: 0,
          role: 'client',
          answerTimeoutMs: 1000,
        },
        position: { x: 300, y: 0 },
      },
      {
        id: 'packet1',
        type: 'serialPacket',
        name: 'Read meter',
        settings: { packetId, samplingId: 1 },
        position: { x: 0, y: 0 },
      },
      {
        id: 'parser1',
        type: 'serialParser',
        name: 'Meter parser',
        settings: { packetId },
        position: { x: 600, y: 0 },
      },
    ],
    links: [
      { from: 'packet1', to: 'com1' },
      { from: 'com1', to: 'parser1' },
    ],
  };
}

/** the answer to "read 2 registers from address 1" carrying `value` as a float (ABCD) */
export function floatAnswer(value: number): string {
  const data = toHex(encodeNumber(value, 'float', 4, 'ABCD'));
  return toHex(appendCrc(parseHex(`01 03 04 ${data}`)!));
}

/**
 * Company's device running version 1 of a configuration: packet → COM1 → parser, whose values
 * are 电压 (float, into `meter` f1) and 状态 (the first word, into `status` f2).
 */
export async function viewFixture(t: TestApp, companyId: number, saverId: number, name = '视图网关') {
  const device = await makeDevice(t, companyId, { userId: saverId, name });
  const meter = await makeIotItem(t, companyId, '电表');
  const status = await makeIotItem(t, companyId, '状态表');
  const packetId = await makePackage(t, companyId);
  await makeParser(
    t,
    companyId,
    packetId,
    [
      floatValue(meter.itemId, { decimals: 2 }),
      floatValue(status.itemId, {
        name: '字0',
        offset: 0,
        length: 2,
        valueType: 'integer',
        format: 'uint',
        fieldKey: 'f2',
      }),
    ],
    saverId,
  );
  const config = flowConfig(packetId);
  await t.db.insert(gatewayConfigVersions).values({
    companyId,
    gatewayId: device.id,
    version: 1,
    config,
    hash: 'c'.repeat(64),
    nodeCount: config.nodes.length,
    savedBy: saverId,
  });
  await t.db.insert(gatewayConfigPushes).values({
    companyId,
    gatewayId: device.id,
    version: 1,
    hash: 'd'.repeat(64),
    state: 'committed',
    confirmWithin: 60,
    pushedBy: saverId,
    deadline: new Date(Date.now() + 60_000),
  });
  return { device, meter, status, packetId, config };
}
