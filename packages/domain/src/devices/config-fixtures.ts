/**
 * A configuration using all twelve node types that passes the check, and the lookups it needs:
 * shared by the domain's tests and the server's, never used by the product.
 */
import type { ConfigLookups } from './config-check';
import type { GatewayConfig } from './config-types';

export function fullConfig(): GatewayConfig {
  return {
    nodes: [
      {
        id: 'network1',
        type: 'network',
        name: 'LAN',
        settings: {
          mode: 'static',
          ip: '192.168.1.20',
          netmask: '255.255.255.0',
          gateway: '192.168.1.1',
          dns: '114.114.114.114',
        },
        position: { x: 0, y: 0 },
      },
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
        position: { x: 300, y: 100 },
      },
      {
        id: 'com2',
        type: 'com',
        name: 'COM2',
        settings: {
          port: 2,
          baudRate: 19200,
          dataBits: 8,
          stopBits: 2,
          parity: 2,
          role: 'client',
          answerTimeoutMs: 500,
        },
        position: { x: 300, y: 400 },
      },
      {
        id: 'packet1',
        type: 'serialPacket',
        name: 'Read voltage',
        settings: { packetId: 7, samplingId: 1 },
        position: { x: 0, y: 100 },
      },
      {
        id: 'packet2',
        type: 'serialPacket',
        name: 'Read status',
        settings: { packetId: 8, samplingId: 4, encoding: 'HEX' },
        position: { x: 0, y: 200 },
      },
      { id: 'delay1', type: 'delay', name: 'Settle', settings: { ms: 100 }, position: { x: 150, y: 200 } },
      {
        id: 'parser1',
        type: 'serialParser',
        name: 'Parse voltage',
        settings: { packetId: 7 },
        position: { x: 500, y: 100 },
      },
      {
        id: 'element1',
        type: 'element',
        name: 'Voltage',
        settings: { name: 'voltage', itemId: 5, fieldKey: 'f1' },
        position: { x: 700, y: 100 },
      },
      {
        id: 'time1',
        type: 'timestamp',
        name: 'Time',
        settings: { format: 'epochMs' },
        position: { x: 700, y: 200 },
      },
      {
        id: 'publish1',
        type: 'mqttPublish',
        name: 'To platform',
        settings: { target: 'platform', qos: 1, format: 'json' },
        position: { x: 900, y: 100 },
      },
      {
        id: 'raw1',
        type: 'mqttPublish',
        name: 'Raw to broker',
        settings: {
          target: 'custom',
          url: 'mqtt://broker.example.com:1883',
          topic: 'plant/line1/raw',
          qos: 0,
          format: 'raw',
        },
        position: { x: 500, y: 250 },
      },
      {
        id: 'http1',
        type: 'httpRequest',
        name: 'To MES',
        settings: { method: 'POST', url: 'https://mes.example.com/ingest', intervalS: 60 },
        position: { x: 900, y: 200 },
      },
      {
        id: 'subscribe1',
        type: 'mqttSubscribe',
        name: 'Commands',
        settings: { target: 'platform', qos: 1 },
        position: { x: 0, y: 400 },
      },
      {
        id: 'command1',
        type: 'command',
        name: 'Reset',
        settings: { name: 'reset', encoding: 'HEX', payload: '01 06 00 01 00 03 98 0B' },
        position: { x: 150, y: 400 },
      },
      {
        id: 'passthrough1',
        type: 'passthrough',
        name: 'Debug',
        settings: { port: 2, idleTimeoutS: 300 },
        position: { x: 150, y: 500 },
      },
    ],
    links: [
      { from: 'packet1', to: 'com1' },
      { from: 'packet2', to: 'delay1' },
      { from: 'delay1', to: 'com1' },
      { from: 'com1', to: 'parser1' },
      { from: 'com1', to: 'raw1' },
      { from: 'parser1', to: 'element1' },
      { from: 'element1', to: 'publish1' },
      { from: 'element1', to: 'http1' },
      { from: 'time1', to: 'publish1' },
      { from: 'subscribe1', to: 'command1' },
      { from: 'command1', to: 'com2' },
      { from: 'passthrough1', to: 'com2' },
    ],
  };
}

/** Data package 7 parses `voltage` and `current`; 8 has no parsing; item 5 has f1 and f2. */
export const FULL_LOOKUPS: ConfigLookups = {
  packet: (id) =>
    id === 7 ? { parserValues: ['voltage', 'current'] } : id === 8 ? { parserValues: null } : null,
  field: (itemId, fieldKey) => itemId === 5 && (fieldKey === 'f1' || fieldKey === 'f2'),
};
