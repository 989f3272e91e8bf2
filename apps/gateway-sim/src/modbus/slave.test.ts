import { appendCrc, hasValidCrc, parseHex, toHex } from '@platform/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SerialBus } from './bus';
import { SLAVE_KINDS, slaveModel } from './models';
import { decodeValue, encodeValue } from './registers';
import { ModbusSlave } from './slave';

const T = Date.UTC(2026, 10, 27, 6, 0, 0); // 14:00 in China
const req = (hex: string) => parseHex(hex)!;
const frame = (hex: string) => appendCrc(parseHex(hex)!);
const meter = (address = 1, order: 'ABCD' | 'CDAB' | 'BADC' | 'DCBA' = 'ABCD', seed = 42) =>
  new ModbusSlave(slaveModel('meter3p', order), { address, seed });

describe('Modbus RTU slave: the reference frames', () => {
  it('answers `01 03 00 00 00 02 C4 0B` with phase L1 voltage as float32', () => {
    const slave = meter();
    const answer = slave.answer(req('01 03 00 00 00 02 C4 0B'), T)!;
    const value = slave.valueAt('voltageL1', T);
    expect(toHex(answer)).toBe(toHex(appendCrc([0x01, 0x03, 0x04, ...encodeValue('float32', value)])));
    expect(hasValidCrc(answer)).toBe(true);
    expect(decodeValue('float32', answer.subarray(3, 7))).toBeCloseTo(value, 3);
    expect(value).toBeGreaterThan(205);
    expect(value).toBeLessThan(235);
  });

  it('answers `01 03 00 00 00 0A C5 CD` with the first ten registers (five floats)', () => {
    const slave = meter();
    const answer = slave.answer(req('01 03 00 00 00 0A C5 CD'), T)!;
    expect(answer.length).toBe(3 + 20 + 2);
    expect(answer[2]).toBe(20);
    const names = ['voltageL1', 'voltageL2', 'voltageL3', 'currentL1', 'currentL2'];
    names.forEach((name, i) => {
      expect(decodeValue('float32', answer.subarray(3 + 4 * i, 7 + 4 * i))).toBeCloseTo(
        slave.valueAt(name, T),
        3,
      );
    });
  });

  it('answers `01 03 00 00 00 01 84 0A` with half a float (the high word)', () => {
    const slave = meter();
    const answer = slave.answer(req('01 03 00 00 00 01 84 0A'), T)!;
    expect(Array.from(answer.subarray(0, 5))).toEqual([
      1,
      3,
      2,
      ...encodeValue('float32', slave.valueAt('voltageL1', T)).slice(0, 2),
    ]);
  });

  it('answers a register it does not have with exception 02 (`01 03 00 85 00 01 95 E3`, `11 03 00 6B 00 03 76 87`)', () => {
    expect(toHex(meter().answer(req('01 03 00 85 00 01 95 E3'), T)!)).toBe(toHex(frame('01 83 02')));
    expect(toHex(meter(0x11).answer(req('11 03 00 6B 00 03 76 87'), T)!)).toBe(toHex(frame('11 83 02')));
    expect(toHex(meter(0x11).answer(req('11 01 00 13 00 25 0E 84'), T)!)).toBe(toHex(frame('11 81 02')));
  });

  it('answers a function it does not have with exception 01 (`02 07 41 12`)', () => {
    expect(toHex(meter(2).answer(req('02 07 41 12'), T)!)).toBe(toHex(frame('02 87 01')));
    expect(toHex(meter(1).answer(frame('01 10 00 00 00 01 02 00 01'), T)!)).toBe(toHex(frame('01 90 01')));
  });

  it('stays silent for another address, a bad CRC, a cut frame, or a response on the bus', () => {
    const slave = meter(1);
    expect(slave.answer(req('02 03 00 00 00 0A C5 FE'), T)).toBeNull();
    expect(slave.answer(req('03 03 00 00 00 0A C4 2F'), T)).toBeNull();
    // published with a wrong CRC (the right one is 74 17)
    expect(slave.answer(req('01 03 00 6B 00 03 76 87'), T)).toBeNull();
    expect(toHex(slave.answer(req('01 03 00 6B 00 03 74 17'), T)!)).toBe(toHex(frame('01 83 02')));
    expect(slave.answer(req('01 03 00 00'), T)).toBeNull();
    expect(slave.answer(new Uint8Array(), T)).toBeNull();
    expect(
      new ModbusSlave(slaveModel('meter3p'), { address: 0x11, seed: 1 }).answer(
        req('11 03 06 AE 41 56 52 43 40 49 AD'),
        T,
      ),
    ).toBeNull();
  });

  it('writes a setting with 06 and echoes the request (`01 06 00 01 00 03 98 0B` is refused: a measurement)', () => {
    const th = new ModbusSlave(slaveModel('thSensor'), { address: 1, seed: 7 });
    expect(toHex(th.answer(req('01 06 00 01 00 03 98 0B'), T)!)).toBe(toHex(frame('01 86 02')));
    const th17 = new ModbusSlave(slaveModel('thSensor'), { address: 0x11, seed: 7 });
    expect(toHex(th17.answer(req('11 06 00 01 00 03 9A 9B'), T)!)).toBe(toHex(frame('11 86 02')));
    // alarmHigh := 25.5 °C (255 = 00 FF)
    const write = frame('01 06 01 00 00 FF');
    expect(toHex(th.answer(write, T)!)).toBe(toHex(write));
    expect(th.valueAt('alarmHigh', T)).toBe(25.5);
    expect(toHex(th.answer(frame('01 03 01 00 00 01'), T)!)).toBe(toHex(frame('01 03 02 00 FF')));
    // negative thresholds are int16: -25.0 °C = FF 06
    th.answer(frame('01 06 01 01 FF 06'), T);
    expect(th.valueAt('alarmLow', T)).toBe(-25);
    // the address register is read only
    expect(toHex(th.answer(frame('01 03 01 02 00 01'), T)!)).toBe(toHex(frame('01 03 02 00 01')));
    expect(toHex(th.answer(frame('01 06 01 02 00 05'), T)!)).toBe(toHex(frame('01 86 02')));
  });

  it('reads coils with 01 and switches the relay with 05', () => {
    const slave = meter();
    const first = slave.answer(frame('01 01 00 00 00 02'), T)!;
    expect(first.length).toBe(6);
    expect(first[3]! & 1).toBe(1); // relay closed
    expect(toHex(slave.answer(frame('01 05 00 00 00 00'), T)!)).toBe(toHex(frame('01 05 00 00 00 00')));
    expect(slave.answer(frame('01 01 00 00 00 01'), T)![3]).toBe(0);
    expect(toHex(slave.answer(frame('01 05 00 00 12 34'), T)!)).toBe(toHex(frame('01 85 03')));
    // the alarm coil is read only
    expect(toHex(slave.answer(frame('01 05 00 01 FF 00'), T)!)).toBe(toHex(frame('01 85 02')));
  });

  it('answers a quantity out of range with exception 03, and input registers hold measurements only', () => {
    const slave = meter();
    expect(toHex(slave.answer(frame('01 03 00 00 00 00'), T)!)).toBe(toHex(frame('01 83 03')));
    expect(toHex(slave.answer(frame('01 03 00 00 00 7E'), T)!)).toBe(toHex(frame('01 83 03')));
    expect(toHex(slave.answer(frame('01 04 01 00 00 01'), T)!)).toBe(toHex(frame('01 84 02')));
    const input = slave.answer(frame('01 04 00 18 00 02'), T)!;
    expect(decodeValue('float32', input.subarray(3, 7))).toBeCloseTo(slave.valueAt('energyTotal', T), 0);
  });

  it('carries out a broadcast write without answering', () => {
    const bus = new SerialBus(
      {
        port: 1,
        slaves: [
          { kind: 'meter3p', address: 1 },
          { kind: 'meter1p', address: 2 },
        ],
      },
      'GW1',
    );
    expect(bus.transact(frame('00 06 01 00 00 28'), bus.line, T)).toBeNull();
    expect(bus.slave(1)!.valueAt('ctRatio', T)).toBe(40);
    expect(bus.slave(2)!.valueAt('ctRatio', T)).toBe(40);
  });

  it('sends every 32-bit value in the meter’s word order', () => {
    for (const order of ['ABCD', 'CDAB', 'BADC', 'DCBA'] as const) {
      const slave = meter(1, order);
      const answer = slave.answer(frame('01 03 00 14 00 02'), T)!;
      expect(decodeValue('float32', answer.subarray(3, 7), order)).toBeCloseTo(
        slave.valueAt('powerFactor', T),
        5,
      );
    }
    const abcd = meter(1, 'ABCD').answer(frame('01 03 00 16 00 02'), T)!;
    const cdab = meter(1, 'CDAB').answer(frame('01 03 00 16 00 02'), T)!;
    expect(Array.from(cdab.subarray(3, 7))).toEqual([abcd[5], abcd[6], abcd[3], abcd[4]]);
  });
});

describe('slave faults', () => {
  it('silent: no answer; badCrc: the answer with a broken CRC; garbage: noise of the same length', () => {
    const slave = meter();
    const good = slave.answer(frame('01 03 00 00 00 02'), T)!;
    slave.fault = 'silent';
    expect(slave.answer(frame('01 03 00 00 00 02'), T)).toBeNull();
    slave.fault = 'badCrc';
    const bad = slave.answer(frame('01 03 00 00 00 02'), T)!;
    expect(hasValidCrc(bad)).toBe(false);
    expect(Array.from(bad.subarray(0, 7))).toEqual(Array.from(good.subarray(0, 7)));
    slave.fault = 'garbage';
    const noise = slave.answer(frame('01 03 00 00 00 02'), T)!;
    expect(noise.length).toBe(good.length);
    expect(toHex(noise)).not.toBe(toHex(good));
    // noise only where the slave is addressed
    expect(slave.answer(frame('02 03 00 00 00 02'), T)).toBeNull();
  });
});

describe('the bus', () => {
  it('gets no answer when the port is set to other line settings than the slaves', () => {
    const bus = new SerialBus(
      { port: 1, baudRate: 19200, parity: 2, slaves: [{ kind: 'meter1p', address: 3 }] },
      'GW1',
    );
    const request = frame('03 03 00 00 00 02');
    expect(bus.transact(request, { baudRate: 9600, dataBits: 8, stopBits: 1, parity: 2 }, T)).toBeNull();
    expect(bus.transact(request, { baudRate: 19200, dataBits: 8, stopBits: 1, parity: 0 }, T)).toBeNull();
    expect(bus.transact(request, { baudRate: 19200, dataBits: 8, stopBits: 1, parity: 2 }, T)).not.toBeNull();
  });
});

describe('slave models: values that move like the real thing', () => {
  const times = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) });

  it('a meter’s cumulative energy never goes back, even as sent in float32', () => {
    fc.assert(
      fc.property(times, fc.integer({ min: 1, max: 30 * 86_400_000 }), fc.nat(), (t, dt, seed) => {
        for (const kind of ['meter3p', 'meter1p'] as const) {
          const slave = new ModbusSlave(slaveModel(kind), { address: 1, seed });
          const a = slave.valueAt('energyTotal', t);
          const b = slave.valueAt('energyTotal', t + dt);
          expect(b).toBeGreaterThan(a);
          expect(Math.fround(b)).toBeGreaterThanOrEqual(Math.fround(a));
        }
        const flow = new ModbusSlave(slaveModel('flowSensor'), { address: 1, seed });
        expect(flow.valueAt('totalVolume', t + dt)).toBeGreaterThan(flow.valueAt('totalVolume', t));
      }),
    );
  });

  it('keeps every value in a realistic range', () => {
    fc.assert(
      fc.property(times, fc.nat(), (t, seed) => {
        const m = new ModbusSlave(slaveModel('meter3p'), { address: 1, seed });
        for (const k of [1, 2, 3]) {
          expect(m.valueAt(`voltageL${k}`, t)).toBeGreaterThan(210);
          expect(m.valueAt(`voltageL${k}`, t)).toBeLessThan(230);
          expect(m.valueAt(`currentL${k}`, t)).toBeGreaterThan(0);
          expect(m.valueAt(`currentL${k}`, t)).toBeLessThan(70);
        }
        const sum = m.valueAt('powerL1', t) + m.valueAt('powerL2', t) + m.valueAt('powerL3', t);
        expect(m.valueAt('powerTotal', t)).toBeCloseTo(sum, 9);
        expect(m.valueAt('powerFactor', t)).toBeGreaterThan(0.85);
        expect(m.valueAt('powerFactor', t)).toBeLessThanOrEqual(1);
        expect(Math.abs(m.valueAt('frequency', t) - 50)).toBeLessThan(0.05);
        const th = new ModbusSlave(slaveModel('thSensor'), { address: 1, seed });
        expect(th.valueAt('temperature', t)).toBeGreaterThan(14);
        expect(th.valueAt('temperature', t)).toBeLessThan(30);
        expect(th.valueAt('humidity', t)).toBeGreaterThanOrEqual(5);
        expect(th.valueAt('humidity', t)).toBeLessThanOrEqual(98);
        expect(th.valueAt('dewPoint', t)).toBeLessThan(th.valueAt('temperature', t));
        const flow = new ModbusSlave(slaveModel('flowSensor'), { address: 1, seed });
        expect(flow.valueAt('flow', t)).toBeGreaterThan(0);
        expect(flow.valueAt('pressure', t)).toBeGreaterThan(0.3);
        expect(flow.valueAt('pressure', t)).toBeLessThan(0.9);
      }),
    );
  });

  it('is a function of seed and time: the same seed agrees, another seed differs', () => {
    const a = new ModbusSlave(slaveModel('meter1p'), { address: 1, seed: 5 });
    const b = new ModbusSlave(slaveModel('meter1p'), { address: 9, seed: 5 });
    const c = new ModbusSlave(slaveModel('meter1p'), { address: 1, seed: 6 });
    expect(a.valueAt('current', T)).toBe(b.valueAt('current', T));
    expect(a.valueAt('current', T)).not.toBe(c.valueAt('current', T));
    // and it moves: a value read a minute later is another value
    expect(a.valueAt('current', T + 60_000)).not.toBe(a.valueAt('current', T));
  });

  it('holds a cold store’s negative temperature in int16 ×10', () => {
    const cold = new ModbusSlave(slaveModel('thSensor'), { address: 4, seed: 3, baseTemperature: -18 });
    const answer = cold.answer(frame('04 04 00 00 00 01'), T)!;
    const raw = decodeValue('int16', answer.subarray(3, 5));
    expect(raw).toBe(Math.round(cold.valueAt('temperature', T) * 10));
    expect(raw).toBeLessThan(-100);
  });

  it('answers a full read of each kind’s measurement block with a valid frame', () => {
    for (const kind of SLAVE_KINDS) {
      const model = slaveModel(kind);
      const measurements = model.registers.filter((r) => r.table === 'both');
      const last = measurements.at(-1)!;
      const count = last.address + (last.type.endsWith('32') ? 2 : 1);
      const slave = new ModbusSlave(model, { address: 1, seed: 1 });
      const answer = slave.answer(
        frame(`01 03 00 00 00 ${count.toString(16).padStart(2, '0').toUpperCase()}`),
        T,
      )!;
      expect(hasValidCrc(answer)).toBe(true);
      expect(answer[2]).toBe(count * 2);
    }
  });
});
