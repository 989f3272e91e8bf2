/**
 * Starting points of the node editor: small configurations that pass the check once their
 * data package (and, for the meter, the values' items and fields) are chosen. The DTU route
 * (`device/dtu/config/{deviceId}`) offers `dtu` first.
 */
import type { Lang } from '../errors';
import type { GatewayConfig, GatewayNode } from './config-types';

export const CONFIG_TEMPLATE_IDS = ['modbusMeter', 'dtu', 'remoteCommand'] as const;
export type ConfigTemplateId = (typeof CONFIG_TEMPLATE_IDS)[number];

export interface TemplateOptions {
  lang?: Lang;
  /** the data package polled; left empty (the check asks for it) when not given */
  packetId?: number;
  /** the meter's values: one element each */
  values?: ReadonlyArray<{ name: string; itemId?: number; fieldKey?: string }>;
}

const NAMES = {
  com1: { zh: 'COM1', en: 'COM1' },
  read: { zh: '读取仪表', en: 'Read meter' },
  parse: { zh: '解析应答', en: 'Parse answer' },
  value: { zh: '数值', en: 'Value' },
  time: { zh: '时间戳', en: 'Timestamp' },
  toPlatform: { zh: '上报平台', en: 'To platform' },
  network: { zh: '网络', en: 'Network' },
  debug: { zh: '串口调试', en: 'Serial debug' },
  fromPlatform: { zh: '平台命令', en: 'Platform command' },
  write: { zh: '写入设备', en: 'Write to device' },
} as const;

const COM1 = {
  port: 1,
  baudRate: 9600,
  dataBits: 8,
  stopBits: 1,
  parity: 0,
  role: 'client',
  answerTimeoutMs: 1000,
} as const;

const at = (column: number, row: number) => ({ x: 40 + column * 240, y: 40 + row * 120 });

/** A fresh configuration of the template; node ids are fixed, so two copies are equal. */
export function configTemplate(id: ConfigTemplateId, options: TemplateOptions = {}): GatewayConfig {
  const lang = options.lang ?? 'zh';
  const n = (key: keyof typeof NAMES) => NAMES[key][lang];
  const packetId = options.packetId as number;
  const com: GatewayNode = {
    id: 'com1',
    type: 'com',
    name: n('com1'),
    settings: { ...COM1 },
    position: at(1, 1),
  };
  if (id === 'modbusMeter') {
    const values = options.values?.length ? options.values : [{ name: '' }];
    const elements: GatewayNode[] = values.map((v, i) => ({
      id: `element${i + 1}`,
      type: 'element',
      name: v.name ? v.name.slice(0, 25) : `${n('value')}${i + 1}`,
      settings: { name: v.name, itemId: v.itemId as number, fieldKey: v.fieldKey as string },
      position: at(3, i),
    }));
    return {
      nodes: [
        {
          id: 'packet1',
          type: 'serialPacket',
          name: n('read'),
          settings: { packetId, samplingId: 1 },
          position: at(0, 1),
        },
        com,
        { id: 'parser1', type: 'serialParser', name: n('parse'), settings: { packetId }, position: at(2, 1) },
        ...elements,
        {
          id: 'time1',
          type: 'timestamp',
          name: n('time'),
          settings: { format: 'epochMs' },
          position: at(3, elements.length),
        },
        {
          id: 'publish1',
          type: 'mqttPublish',
          name: n('toPlatform'),
          settings: { target: 'platform', qos: 1, format: 'json' },
          position: at(4, 1),
        },
      ],
      links: [
        { from: 'packet1', to: 'com1' },
        { from: 'com1', to: 'parser1' },
        ...elements.flatMap((e) => [
          { from: 'parser1', to: e.id },
          { from: e.id, to: 'publish1' },
        ]),
        { from: 'time1', to: 'publish1' },
      ],
    };
  }
  if (id === 'dtu') {
    return {
      nodes: [
        {
          id: 'network1',
          type: 'network',
          name: n('network'),
          settings: { mode: 'dhcp' },
          position: at(0, 0),
        },
        {
          id: 'packet1',
          type: 'serialPacket',
          name: n('read'),
          settings: { packetId, samplingId: 1 },
          position: at(0, 1),
        },
        com,
        {
          id: 'passthrough1',
          type: 'passthrough',
          name: n('debug'),
          settings: { port: 1, idleTimeoutS: 300 },
          position: at(0, 2),
        },
        {
          id: 'publish1',
          type: 'mqttPublish',
          name: n('toPlatform'),
          settings: { target: 'platform', qos: 1, format: 'raw' },
          position: at(2, 1),
        },
      ],
      links: [
        { from: 'packet1', to: 'com1' },
        { from: 'passthrough1', to: 'com1' },
        { from: 'com1', to: 'publish1' },
      ],
    };
  }
  return {
    nodes: [
      {
        id: 'subscribe1',
        type: 'mqttSubscribe',
        name: n('fromPlatform'),
        settings: { target: 'platform', qos: 1 },
        position: at(0, 1),
      },
      {
        id: 'command1',
        type: 'command',
        name: n('write'),
        settings: { name: 'write', encoding: 'HEX', payload: '01 06 00 01 00 03 98 0B' },
        position: at(1, 1),
      },
      { ...com, position: at(2, 1) },
    ],
    links: [
      { from: 'subscribe1', to: 'command1' },
      { from: 'command1', to: 'com1' },
    ],
  };
}
