import { hasValidCrc, parseHex } from '@platform/domain';
import { describe, expect, it } from 'vitest';
import { readParserValue } from './config/plan';
import { demoLayout } from './demo';
import { configHash, defaultIccid, defaultPorts, luhnDigit, packetCatalogue, pollingConfig } from './layouts';
import { SerialBus } from './modbus/bus';
import { WORD_ORDERS } from './modbus/registers';

const T = Date.UTC(2026, 10, 27, 2, 30);

describe('the packet catalogue', () => {
  it('decodes every value of every kind and word order to what the slave holds', () => {
    const ports = WORD_ORDERS.map((order, i) => ({
      port: i + 1,
      slaves: [
        { kind: 'meter3p' as const, address: 1, order },
        { kind: 'meter1p' as const, address: 2, order },
        { kind: 'thSensor' as const, address: 3, order },
        { kind: 'flowSensor' as const, address: 4, order },
      ],
    }));
    const catalogue = packetCatalogue(ports);
    expect(catalogue).toHaveLength(16);
    for (const packet of catalogue) {
      const request = parseHex(packet.frame)!;
      expect(hasValidCrc(request)).toBe(true);
      const bus = new SerialBus(ports[packet.port - 1]!, 'GW');
      const answer = bus.transact(request, bus.line, T)!;
      expect(hasValidCrc(answer)).toBe(true);
      const slave = bus.slave(packet.address)!;
      for (const value of packet.values) {
        const decoded = readParserValue(answer, value)!;
        const actual = slave.valueAt(value.name, T);
        // float32 keeps ~7 digits; int16 ×10 keeps 0.1; uint32 ×10 keeps 0.1
        const tolerance = value.format === 'float32' ? Math.abs(actual) * 1e-6 + 1e-6 : 0.051;
        expect(Math.abs(decoded - actual), `${packet.kind} ${value.name} ${value.order ?? ''}`).toBeLessThan(
          tolerance,
        );
      }
    }
  });

  it('reads each kind’s block with one request (the meter: 26 registers from 0)', () => {
    const [meter] = packetCatalogue([{ port: 1, slaves: [{ kind: 'meter3p', address: 1 }] }]);
    expect(meter!.frame.startsWith('01 03 00 00 00 1A')).toBe(true);
    expect(meter!.packetId).toBe(101);
    expect(meter!.values.find((v) => v.name === 'energyTotal')).toMatchObject({
      offset: 3 + 48,
      format: 'float32',
      unit: 'kWh',
    });
  });
});

describe('polling configurations', () => {
  it('reads only as many slaves as asked (one frame per gateway for a benchmark)', () => {
    const one = pollingConfig(defaultPorts(), { slaves: 1, intervalS: 10 });
    expect(one.config.nodes.filter((n) => n.type === 'serialPacket')).toHaveLength(1);
    expect(one.config.nodes.filter((n) => n.type === 'com')).toHaveLength(1);
  });

  it('hashes the same configuration the same way, whatever the order of keys', () => {
    expect(configHash({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(configHash({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(configHash({ a: 1 })).not.toBe(configHash({ a: 2 }));
    expect(pollingConfig(defaultPorts()).hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sets each COM node to its bus’s line settings', () => {
    const config = pollingConfig(demoLayout(1)).config;
    const com2 = config.nodes.find((n) => n.id === 'com2')!;
    expect(com2.settings).toMatchObject({ port: 2, baudRate: 19200, parity: 0 });
  });
});

describe('ICCIDs', () => {
  it('are 20 digits starting 8986 with a valid Luhn check digit, fixed by the seed', () => {
    for (const seed of ['A', 'GW000001', 'GW000002']) {
      const iccid = defaultIccid(seed);
      expect(iccid).toMatch(/^8986\d{16}$/);
      expect(luhnDigit(iccid.slice(0, 19))).toBe(Number(iccid[19]));
      expect(defaultIccid(seed)).toBe(iccid);
    }
    expect(defaultIccid('A')).not.toBe(defaultIccid('B'));
    // a known Luhn case: 7992739871 → 3
    expect(luhnDigit('7992739871')).toBe(3);
  });
});
