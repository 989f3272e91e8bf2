import { appendCrc, hasValidCrc, parseHex, toHex } from '@platform/domain';
import { describe, expect, it } from 'vitest';
import { measurementPacket } from '../layouts';
import { slaveModel } from './models';
import { PV_EFFICIENCY, PV_STATUS, PV_TOTAL_FROM, PV_TOTAL_START } from './pv-inverter';
import { decodeValue, type WordOrder } from './registers';
import { ModbusSlave } from './slave';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Local midnight (UTC+8) of a day of June 2026 and of November 2026. */
const JUNE = Date.UTC(2026, 5, 14, 16);
const NOVEMBER = Date.UTC(2026, 10, 26, 16);
const at = (midnight: number, hour: number) => midnight + hour * HOUR;
const frame = (hex: string) => appendCrc(parseHex(hex)!);
const inverter = (seed = 7, order: WordOrder = 'ABCD') =>
  new ModbusSlave(slaveModel('pvInverter', order), { address: 1, seed });
const SEEDS = [1, 7, 42, 2024, 0x5eed];
/** 20 days in a row from a midnight */
const days = (from: number, n = 20) => Array.from({ length: n }, (_, i) => from + i * 24 * HOUR);

describe('the PV inverter: power follows the sun', () => {
  it('at night: no power, standby, a few volts on the strings', () => {
    for (const seed of SEEDS)
      for (const midnight of [JUNE, NOVEMBER])
        for (const hour of [0, 2.5, 5, 5.9, 18.6, 20, 23.9]) {
          const pv = inverter(seed);
          const t = at(midnight, hour);
          expect(pv.valueAt('acPower', t), `${seed} ${hour}`).toBe(0);
          expect(pv.valueAt('dcPower', t)).toBe(0);
          expect(pv.valueAt('status', t)).toBe(PV_STATUS.standby);
          expect(pv.coilAt('generating', t)).toBe(false);
          expect(pv.valueAt('dcVoltage', t)).toBeLessThan(10);
          expect(pv.valueAt('efficiency', t)).toBe(0);
        }
  });

  it('at noon: near its 20 kW peak on a 25 kW inverter, generating, the strings at 550-720 V', () => {
    for (const seed of SEEDS) {
      const pv = inverter(seed);
      const noons = days(JUNE).map((d) => pv.valueAt('acPower', at(d, 12.25)));
      for (const kw of noons) {
        expect(kw).toBeGreaterThan(16);
        expect(kw).toBeLessThan(22);
      }
      const mean = noons.reduce((a, b) => a + b, 0) / noons.length;
      expect(mean).toBeGreaterThan(18);
      expect(mean).toBeLessThan(21);
      const t = at(JUNE, 12);
      expect(pv.valueAt('status', t)).toBe(PV_STATUS.generating);
      expect(pv.coilAt('generating', t)).toBe(true);
      // whenever it generates, from the first light to the last
      for (let t = at(JUNE, 6); t <= at(JUNE, 18.5); t += 10_000)
        if (pv.valueAt('status', t) === PV_STATUS.generating)
          expect(pv.valueAt('dcVoltage', t), new Date(t).toISOString()).toBeGreaterThan(555);
      for (let hour = 8; hour <= 17; hour += 0.5) {
        expect(pv.valueAt('dcVoltage', at(JUNE, hour))).toBeGreaterThan(550);
        expect(pv.valueAt('dcVoltage', at(JUNE, hour))).toBeLessThan(720);
      }
    }
  });

  it('draws a bell: rising all morning, falling all afternoon (clouds aside), zero before 06:00 and after 18:30', () => {
    const pv = inverter(42);
    const kw = (hour: number) => pv.valueAt('acPower', at(NOVEMBER, hour));
    expect(kw(6)).toBe(0);
    expect(kw(18.5)).toBe(0);
    expect(kw(6.5)).toBeGreaterThan(0);
    expect(kw(18)).toBeGreaterThan(0);
    expect(kw(7)).toBeLessThan(kw(9));
    expect(kw(9)).toBeLessThan(kw(12.25));
    expect(kw(15.5)).toBeLessThan(kw(12.25));
    expect(kw(17.5)).toBeLessThan(kw(15.5));
    // one hour after sunrise: sin(π / 12.5) of the noon's power, about a quarter
    expect(kw(7) / kw(12.25)).toBeGreaterThan(0.2);
    expect(kw(7) / kw(12.25)).toBeLessThan(0.32);
  });

  it('converts at 96-98.5 %, best at part load: acPower = dcPower × efficiency', () => {
    for (const seed of SEEDS) {
      const pv = inverter(seed);
      for (let t = at(JUNE, 6); t < at(JUNE, 18.5); t += 7 * MINUTE) {
        const dc = pv.valueAt('dcPower', t);
        if (dc === 0) continue;
        const ac = pv.valueAt('acPower', t);
        expect(ac / dc).toBeGreaterThanOrEqual(PV_EFFICIENCY.min);
        expect(ac / dc).toBeLessThanOrEqual(PV_EFFICIENCY.max);
        expect(pv.valueAt('efficiency', t)).toBeCloseTo((100 * ac) / dc, 9);
      }
    }
    // a morning's light load converts worse than the noon's
    const pv = inverter(7);
    const eff = (hour: number) => pv.valueAt('efficiency', at(JUNE, hour));
    expect(eff(6.05)).toBeLessThan(eff(9));
    expect(eff(6.05)).toBeGreaterThanOrEqual(96);
  });

  it('runs warmer with load', () => {
    for (const seed of SEEDS) {
      const pv = inverter(seed);
      const night = pv.valueAt('temperature', at(JUNE, 3));
      const noon = pv.valueAt('temperature', at(JUNE, 12.25));
      expect(night).toBeGreaterThan(15);
      expect(night).toBeLessThan(30);
      expect(noon - night).toBeGreaterThan(8);
      expect(noon).toBeLessThan(55);
    }
  });

  it('is a function of seed and time: the same seed agrees, another seed differs, and clouds move it', () => {
    const t = at(JUNE, 11);
    expect(inverter(5).valueAt('acPower', t)).toBe(inverter(5).valueAt('acPower', t));
    expect(inverter(5).valueAt('acPower', t)).not.toBe(inverter(6).valueAt('acPower', t));
    expect(inverter(5).valueAt('acPower', t + 10 * MINUTE)).not.toBe(inverter(5).valueAt('acPower', t));
  });
});

describe('the PV inverter: yields', () => {
  it('the daily yield grows through the day, is the integral of the AC power, and is back to 0 at midnight', () => {
    for (const seed of SEEDS) {
      const pv = inverter(seed);
      expect(pv.valueAt('dailyYield', JUNE)).toBe(0);
      let before = 0;
      let integral = 0;
      let kwBefore = 0;
      for (let t = JUNE + 30_000; t < JUNE + 24 * HOUR; t += 30_000) {
        const y = pv.valueAt('dailyYield', t);
        expect(y).toBeGreaterThanOrEqual(before);
        before = y;
        const kw = pv.valueAt('acPower', t);
        integral += ((kwBefore + kw) / 2) * (30_000 / HOUR);
        kwBefore = kw;
      }
      // nothing before sunrise, nothing more after sunset
      expect(pv.valueAt('dailyYield', at(JUNE, 5.9))).toBe(0);
      expect(pv.valueAt('dailyYield', at(JUNE, 23))).toBe(pv.valueAt('dailyYield', at(JUNE, 19)));
      // a sunny day on 25 kW: about 150 kWh, as the AC power adds up
      expect(before).toBeGreaterThan(125);
      expect(before).toBeLessThan(170);
      expect(Math.abs(before - integral) / integral).toBeLessThan(0.005);
      // midnight: a new day begins at 0
      expect(pv.valueAt('dailyYield', JUNE + 24 * HOUR)).toBe(0);
      expect(pv.valueAt('dailyYield', JUNE + 24 * HOUR - 1)).toBeCloseTo(before, 6);
    }
  });

  it('the total yield starts at 18 650.4 kWh with 2024 and grows by exactly the daily yield, never back', () => {
    const pv = inverter(42);
    expect(pv.valueAt('totalYield', PV_TOTAL_FROM)).toBe(PV_TOTAL_START);
    expect(pv.valueAt('totalYield', PV_TOTAL_FROM + 3 * HOUR)).toBe(PV_TOTAL_START);
    for (const midnight of days(NOVEMBER, 3)) {
      const start = pv.valueAt('totalYield', midnight);
      for (let t = midnight; t <= midnight + 24 * HOUR; t += 15 * MINUTE) {
        const total = pv.valueAt('totalYield', t);
        const daily =
          t === midnight + 24 * HOUR ? pv.valueAt('dailyYield', t - 1) : pv.valueAt('dailyYield', t);
        expect(total - start).toBeCloseTo(daily, 6);
      }
    }
    // almost three years of sunny days on top of the start: 150 kWh a day or so
    const now = pv.valueAt('totalYield', at(NOVEMBER, 12));
    const daysRun = (NOVEMBER - PV_TOTAL_FROM) / (24 * HOUR);
    expect((now - PV_TOTAL_START) / daysRun).toBeGreaterThan(125);
    expect((now - PV_TOTAL_START) / daysRun).toBeLessThan(170);
    // never back, across midnights and as sent (0.01 kWh)
    let before = 0;
    for (let t = NOVEMBER - 2 * HOUR; t < NOVEMBER + 2 * HOUR; t += 10 * MINUTE) {
      const total = Math.round(pv.valueAt('totalYield', t) * 100);
      expect(total).toBeGreaterThanOrEqual(before);
      before = total;
    }
  });
});

describe('the PV inverter: its registers', () => {
  it('reads its measurement block `01 03 00 00 00 0C 45 CF` (12 registers) as the catalogue says', () => {
    const packet = measurementPacket({ kind: 'pvInverter', address: 1 }, 1);
    expect(packet.frame).toBe('01 03 00 00 00 0C 45 CF');
    expect(packet.values.map((v) => `${v.name} ${v.offset} ${v.format} ${v.scale ?? 1} ${v.unit}`)).toEqual([
      'acPower 3 int32 0.001 kW',
      'dcPower 7 int32 0.001 kW',
      'dailyYield 11 uint32 0.01 kWh',
      'totalYield 15 uint32 0.01 kWh',
      'dcVoltage 19 uint16 0.1 V',
      'temperature 21 int16 0.1 °C',
      'status 23 uint16 1 ',
      'efficiency 25 uint16 0.01 %',
    ]);
  });

  it('holds 18 650.4 kWh as uint32 ×100 in each word order', () => {
    // 1 865 040 = 0x001C7550, at 03:00 of 2024-01-01 in China (nothing yet that day)
    const t = PV_TOTAL_FROM + 3 * HOUR;
    const expected: Array<[WordOrder, string]> = [
      ['ABCD', '00 1C 75 50'],
      ['CDAB', '75 50 00 1C'],
      ['BADC', '1C 00 50 75'],
      ['DCBA', '50 75 1C 00'],
    ];
    for (const [order, hex] of expected) {
      const answer = inverter(7, order).answer(frame('01 04 00 06 00 02'), t)!;
      expect(hasValidCrc(answer)).toBe(true);
      expect(toHex(answer.subarray(3, 7))).toBe(hex);
      expect(decodeValue('uint32', answer.subarray(3, 7), order)).toBe(1_865_040);
    }
  });

  it('answers the block with every value decoded as valueAt says, in each word order', () => {
    for (const order of ['ABCD', 'CDAB', 'BADC', 'DCBA'] as const) {
      for (const t of [at(JUNE, 12), at(JUNE, 15.5), at(NOVEMBER, 2)]) {
        const pv = inverter(2024, order);
        const answer = pv.answer(frame('01 03 00 00 00 0C'), t)!;
        expect(hasValidCrc(answer)).toBe(true);
        expect(answer[2]).toBe(24);
        const packet = measurementPacket({ kind: 'pvInverter', address: 1, order }, 1);
        for (const v of packet.values) {
          const bytes = answer.subarray(v.offset, v.offset + (v.format.endsWith('32') ? 4 : 2));
          const decoded = decodeValue(v.format as 'int32', bytes, order) * (v.scale ?? 1);
          const step = v.scale ?? 1;
          expect(Math.abs(decoded - pv.valueAt(v.name, t)), `${order} ${v.name}`).toBeLessThanOrEqual(
            step / 2 + 1e-9,
          );
        }
      }
    }
    // at noon: real figures, e.g. about 20 kW as int32 watts
    const pv = inverter(2024);
    const answer = pv.answer(frame('01 03 00 00 00 04'), at(JUNE, 12.25))!;
    const acW = decodeValue('int32', answer.subarray(3, 7));
    const dcW = decodeValue('int32', answer.subarray(7, 11));
    expect(acW).toBeGreaterThan(16_000);
    expect(acW).toBeLessThan(22_000);
    expect(acW / dcW).toBeGreaterThan(0.96);
    expect(acW / dcW).toBeLessThan(0.986);
  });

  it('keeps its settings at 0x0100: the power limit written with 06, the start voltage, its address', () => {
    const pv = inverter();
    const read = () => pv.answer(frame('01 03 01 00 00 03'), JUNE)!;
    expect(toHex(read().subarray(3, 9))).toBe('03 E8 00 C8 00 01');
    // 80.0 % written
    expect(toHex(pv.answer(frame('01 06 01 00 03 20'), JUNE)!)).toBe(toHex(frame('01 06 01 00 03 20')));
    expect(toHex(read().subarray(3, 5))).toBe('03 20');
    // the measurements are not writable, nor the settings readable with 04
    expect(toHex(pv.answer(frame('01 06 00 00 00 01'), JUNE)!.subarray(1, 3))).toBe('86 02');
    expect(toHex(pv.answer(frame('01 04 01 00 00 01'), JUNE)!.subarray(1, 3))).toBe('84 02');
    // coil 0x0000: generating
    expect(toHex(pv.answer(frame('01 01 00 00 00 01'), at(JUNE, 12))!.subarray(0, 4))).toBe('01 01 01 01');
    expect(toHex(pv.answer(frame('01 01 00 00 00 01'), at(JUNE, 2))!.subarray(0, 4))).toBe('01 01 01 00');
  });
});
