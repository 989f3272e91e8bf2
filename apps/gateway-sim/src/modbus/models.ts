/**
 * The kinds of simulated slaves and their register maps (apps/gateway-sim/README.md lists them
 * for people writing packets and parsers). A model is shared by every slave of its kind and
 * word order: it holds the map and the value functions; a slave adds its address and seed.
 *
 * Measurements are readable with both function 03 (holding registers) and 04 (input
 * registers), as most meters sold in China answer either; settings from 0x0100 are holding
 * registers only, some writable with function 06. Values are physical (volts, °C…); a
 * register holds `round(value × scale)` for integer types and the value itself for float32.
 */

import { PV_STATUS, pvValue } from './pv-inverter';
import type { PointType, WordOrder } from './registers';
import { daily, dailyIntegral, HOUR, noise, SECOND_MS, seeded } from './signals';

export const SLAVE_KINDS = ['meter3p', 'meter1p', 'thSensor', 'flowSensor', 'pvInverter'] as const;
export type SlaveKind = (typeof SLAVE_KINDS)[number];

export interface RegisterPoint {
  name: string;
  address: number;
  type: PointType;
  /** the register holds round(value × scale) (integer types only) */
  scale: number;
  unit: string;
  description: string;
  /** measurements: readable with 03 and 04; settings: 03 only */
  table: 'both' | 'holding';
  /** writable with function 06 (settings), with this value until written */
  initial?: number;
}

export interface CoilPoint {
  name: string;
  address: number;
  description: string;
  /** writable with function 05, with this state until written */
  initial?: boolean;
}

/** What a slave adds to its model. */
export interface SlaveParams {
  address: number;
  seed: number;
  /** the temperature sensor's mean (°C); drawn from the seed (18-26 °C) when absent */
  baseTemperature?: number;
}

/** A slave's current state: what was written with 05/06 (settings and coils), by name. */
export type Lookup = (name: string) => number;

export interface SlaveModel {
  kind: SlaveKind;
  title: string;
  /** the order of 32-bit values (int16 points have none) */
  order: WordOrder;
  registers: readonly RegisterPoint[];
  coils: readonly CoilPoint[];
  /** the physical value of a measurement at `t` (ms since 1970); settings come from the slave */
  value(name: string, t: number, params: SlaveParams, get: Lookup): number;
  coil(name: string, t: number, params: SlaveParams, get: Lookup): boolean;
  /**
   * What else a write at `t` leaves behind (a pump stopped keeps the time it stopped): names and
   * values the slave keeps beside the written value, read back through `get`.
   */
  written?(name: string, value: number, t: number, params: SlaveParams, get: Lookup): Record<string, number>;
}

/** Where cumulative registers start counting from: 2024-01-01 UTC. */
const EPOCH = Date.UTC(2024, 0, 1);

const f32 = (name: string, address: number, unit: string, description: string): RegisterPoint => ({
  name,
  address,
  type: 'float32',
  scale: 1,
  unit,
  description,
  table: 'both',
});

const setting = (
  name: string,
  address: number,
  type: PointType,
  scale: number,
  unit: string,
  description: string,
  initial?: number,
): RegisterPoint => ({
  name,
  address,
  type,
  scale,
  unit,
  description,
  table: 'holding',
  ...(initial === undefined ? {} : { initial }),
});

const addressPoint = setting('address', 0x0102, 'uint16', 1, '', 'the slave address (read only)');

// ---- electricity meters ----------------------------------------------------------------

/** Load shape of a working day: 30 % at night, 100 % at 14:00. */
const LOAD_MEAN = 0.65;
const LOAD_SWING = 0.35;
const LOAD_PEAK_HOUR = 14;
const PF_MEAN = 0.93;
const NOMINAL_V = 220;

function meterValue(phases: 1 | 3) {
  return (name: string, t: number, p: SlaveParams, _get?: Lookup): number => {
    const s = p.seed;
    // per-phase peak current: a small workshop to a large one
    const peak = phases === 3 ? seeded(s, 1, 8, 60) : seeded(s, 1, 2, 30);
    const load = LOAD_MEAN + LOAD_SWING * daily(t, LOAD_PEAK_HOUR);
    const phase = (k: number) => {
      const imbalance = phases === 3 ? 1 + 0.08 * (seeded(s, 10 + k, 0, 1) - 0.5) : 1;
      const current = peak * imbalance * load * (1 + 0.03 * noise(s + k, t, 10 * SECOND_MS));
      // the line sags a little under the afternoon load
      const voltage = NOMINAL_V - 4 * daily(t, LOAD_PEAK_HOUR) + 1.5 * noise(s + 10 + k, t, 5 * SECOND_MS);
      return { current, voltage };
    };
    const pf = PF_MEAN + 0.03 * daily(t, 3) + 0.01 * noise(s + 20, t, 30 * SECOND_MS);
    const power = (k: number) => {
      const { current, voltage } = phase(k);
      return (voltage * current * pf) / 1000;
    };
    const match = /^(voltage|current|power)(L[123])?$/.exec(name);
    if (match) {
      const k = match[2] ? Number(match[2][1]) : 1;
      if (match[1] === 'voltage') return phase(k).voltage;
      if (match[1] === 'current') return phase(k).current;
      return power(k);
    }
    switch (name) {
      case 'powerTotal':
        return phases === 3 ? power(1) + power(2) + power(3) : power(1);
      case 'powerFactor':
        return pf;
      case 'frequency':
        return 50 + 0.02 * noise(s + 30, t, 20 * SECOND_MS);
      case 'energyTotal': {
        // grows with the load's smooth shape, so it never goes back (the noise is left out)
        const meanKw = (phases * NOMINAL_V * peak * PF_MEAN) / 1000;
        const start = seeded(s, 2, 1_000, 80_000);
        return start + (meanKw * dailyIntegral(EPOCH, t, LOAD_MEAN, LOAD_SWING, LOAD_PEAK_HOUR)) / HOUR;
      }
      default:
        return Number.NaN;
    }
  };
}

const meterCoils: CoilPoint[] = [
  {
    name: 'relayClosed',
    address: 0x0000,
    description: 'the load relay is closed (write with 05)',
    initial: true,
  },
  { name: 'loadAlarm', address: 0x0001, description: 'total active power above 90 % of the day’s peak' },
];

function meterCoil(phases: 1 | 3) {
  const value = meterValue(phases);
  return (name: string, t: number, p: SlaveParams, get: Lookup): boolean => {
    if (name === 'relayClosed') return get('relayClosed') !== 0;
    if (name === 'loadAlarm') {
      const peakKw = value('powerTotal', Date.UTC(2024, 0, 1, 6), p, get); // 14:00 UTC+8
      return value('powerTotal', t, p, get) > 0.9 * peakKw;
    }
    return false;
  };
}

const meterSettings: RegisterPoint[] = [
  setting('ctRatio', 0x0100, 'uint16', 1, '', 'current transformer ratio (write with 06)', 1),
  setting('ptRatio', 0x0101, 'uint16', 1, '', 'voltage transformer ratio (write with 06)', 1),
  addressPoint,
];

function meter3p(order: WordOrder): SlaveModel {
  return {
    kind: 'meter3p',
    title: 'three-phase electricity meter',
    order,
    registers: [
      f32('voltageL1', 0x0000, 'V', 'phase L1 voltage'),
      f32('voltageL2', 0x0002, 'V', 'phase L2 voltage'),
      f32('voltageL3', 0x0004, 'V', 'phase L3 voltage'),
      f32('currentL1', 0x0006, 'A', 'phase L1 current'),
      f32('currentL2', 0x0008, 'A', 'phase L2 current'),
      f32('currentL3', 0x000a, 'A', 'phase L3 current'),
      f32('powerL1', 0x000c, 'kW', 'phase L1 active power'),
      f32('powerL2', 0x000e, 'kW', 'phase L2 active power'),
      f32('powerL3', 0x0010, 'kW', 'phase L3 active power'),
      f32('powerTotal', 0x0012, 'kW', 'total active power'),
      f32('powerFactor', 0x0014, '', 'total power factor'),
      f32('frequency', 0x0016, 'Hz', 'frequency'),
      f32('energyTotal', 0x0018, 'kWh', 'cumulative active energy (only grows)'),
      ...meterSettings,
    ],
    coils: meterCoils,
    value: meterValue(3),
    coil: meterCoil(3),
  };
}

function meter1p(order: WordOrder): SlaveModel {
  return {
    kind: 'meter1p',
    title: 'single-phase electricity meter',
    order,
    registers: [
      f32('voltage', 0x0000, 'V', 'voltage'),
      f32('current', 0x0002, 'A', 'current'),
      f32('power', 0x0004, 'kW', 'active power'),
      f32('powerFactor', 0x0006, '', 'power factor'),
      f32('frequency', 0x0008, 'Hz', 'frequency'),
      f32('energyTotal', 0x000a, 'kWh', 'cumulative active energy (only grows)'),
      ...meterSettings,
    ],
    coils: meterCoils,
    value: (name, t, p, get) => meterValue(1)(name === 'power' ? 'powerTotal' : name, t, p, get),
    coil: meterCoil(1),
  };
}

// ---- temperature and humidity ----------------------------------------------------------

function thValue(name: string, t: number, p: SlaveParams, get: Lookup): number {
  const s = p.seed;
  const base = p.baseTemperature ?? seeded(s, 1, 18, 26);
  const temperature = base + 3 * daily(t, 15) + 0.4 * noise(s, t, 2 * 60 * SECOND_MS);
  const humidity = Math.min(
    98,
    Math.max(5, 55 + seeded(s, 2, -10, 10) - 12 * daily(t, 15) + 2 * noise(s + 1, t, 3 * 60 * SECOND_MS)),
  );
  switch (name) {
    case 'temperature':
      return temperature;
    case 'humidity':
      return humidity;
    case 'dewPoint': {
      // Magnus formula (Sonntag 1990 constants)
      const g = Math.log(humidity / 100) + (17.62 * temperature) / (243.12 + temperature);
      return (243.12 * g) / (17.62 - g);
    }
    default:
      return get(name);
  }
}

function thSensor(order: WordOrder): SlaveModel {
  return {
    kind: 'thSensor',
    title: 'temperature and humidity sensor',
    order,
    registers: [
      {
        name: 'temperature',
        address: 0x0000,
        type: 'int16',
        scale: 10,
        unit: '°C',
        description: 'temperature',
        table: 'both',
      },
      {
        name: 'humidity',
        address: 0x0001,
        type: 'uint16',
        scale: 10,
        unit: '%RH',
        description: 'relative humidity',
        table: 'both',
      },
      {
        name: 'dewPoint',
        address: 0x0002,
        type: 'int16',
        scale: 10,
        unit: '°C',
        description: 'dew point',
        table: 'both',
      },
      setting('alarmHigh', 0x0100, 'int16', 10, '°C', 'high temperature alarm threshold (write with 06)', 30),
      setting('alarmLow', 0x0101, 'int16', 10, '°C', 'low temperature alarm threshold (write with 06)', -20),
      addressPoint,
    ],
    coils: [
      { name: 'highAlarm', address: 0x0000, description: 'temperature above alarmHigh' },
      { name: 'lowAlarm', address: 0x0001, description: 'temperature below alarmLow' },
    ],
    value: thValue,
    coil: (name, t, p, get) => {
      const temperature = thValue('temperature', t, p, get);
      if (name === 'highAlarm') return temperature > get('alarmHigh');
      if (name === 'lowAlarm') return temperature < get('alarmLow');
      return false;
    },
  };
}

// ---- flow and pressure -----------------------------------------------------------------

/** m³ the pump moved from EPOCH to `t` had it never stopped */
const pumpedSinceEpoch = (nominal: number, t: number) =>
  (nominal * dailyIntegral(EPOCH, t, 0.7, 0.3, 10)) / HOUR;

/**
 * The feed pump behind the transmitter runs until its coil `pumpRunning` is written 0 (05): then
 * the flow is 0, the pressure rises to the line's standing pressure and the total stops where it
 * was; written 1 again, it carries on from there (the volume not pumped meanwhile is kept in
 * `pumpMissed`).
 */
function flowValue(name: string, t: number, p: SlaveParams, get: Lookup): number {
  const s = p.seed;
  const nominal = seeded(s, 1, 5, 120);
  const running = get('pumpRunning') !== 0;
  switch (name) {
    case 'flow':
      if (!running) return 0;
      return nominal * (0.7 + 0.3 * daily(t, 10)) * (1 + 0.04 * noise(s, t, 15 * SECOND_MS));
    case 'pressure':
      if (!running) return 0.45 + seeded(s, 2, 0, 0.4) + 0.002 * noise(s + 1, t, 10 * SECOND_MS);
      // pressure drops a little when the flow is high
      return 0.4 + seeded(s, 2, 0, 0.4) - 0.03 * daily(t, 10) + 0.01 * noise(s + 1, t, 10 * SECOND_MS);
    case 'totalVolume': {
      const until = running ? t : Math.min(t, get('pumpStoppedAt'));
      const missed = get('pumpMissed');
      return (
        seeded(s, 3, 1_000, 500_000) + pumpedSinceEpoch(nominal, until) - (Number.isNaN(missed) ? 0 : missed)
      );
    }
    case 'temperature':
      return 60 + 5 * daily(t, 10) + 0.5 * noise(s + 2, t, 60 * SECOND_MS);
    default:
      return get(name);
  }
}

function flowSensor(order: WordOrder): SlaveModel {
  return {
    kind: 'flowSensor',
    title: 'flow and pressure transmitter',
    order,
    registers: [
      f32('flow', 0x0000, 'm³/h', 'instantaneous flow'),
      f32('pressure', 0x0002, 'MPa', 'pressure'),
      {
        name: 'totalVolume',
        address: 0x0004,
        type: 'uint32',
        scale: 10,
        unit: 'm³',
        description: 'cumulative volume in 0.1 m³ (only grows)',
        table: 'both',
      },
      {
        name: 'temperature',
        address: 0x0006,
        type: 'int16',
        scale: 10,
        unit: '°C',
        description: 'medium temperature',
        table: 'both',
      },
      setting('damping', 0x0100, 'uint16', 1, 's', 'damping time (write with 06)', 3),
      setting(
        'pressureLow',
        0x0101,
        'uint16',
        1000,
        'MPa',
        'low pressure alarm threshold, in kPa (write with 06)',
        0.45,
      ),
      addressPoint,
    ],
    coils: [
      { name: 'lowPressure', address: 0x0000, description: 'pressure below pressureLow' },
      {
        name: 'pumpRunning',
        address: 0x0001,
        description: 'the feed pump runs (write with 05: FF00 starts it, 0000 stops it)',
        initial: true,
      },
    ],
    value: flowValue,
    coil: (name, t, p, get) =>
      name === 'pumpRunning'
        ? get('pumpRunning') !== 0
        : name === 'lowPressure' && flowValue('pressure', t, p, get) < get('pressureLow'),
    written: (name, value, t, p, get): Record<string, number> => {
      if (name !== 'pumpRunning') return {};
      const running = get('pumpRunning') !== 0;
      if (running && value === 0) return { pumpStoppedAt: t };
      if (!running && value !== 0) {
        const nominal = seeded(p.seed, 1, 5, 120);
        const stoppedAt = get('pumpStoppedAt');
        const missed = Number.isNaN(get('pumpMissed')) ? 0 : get('pumpMissed');
        return {
          pumpMissed: missed + pumpedSinceEpoch(nominal, t) - pumpedSinceEpoch(nominal, stoppedAt),
          pumpStoppedAt: Number.NaN,
        };
      }
      return {};
    },
  };
}

// ---- photovoltaic inverter -------------------------------------------------------------

/** A measurement held as an integer: round(value × scale). */
const scaled = (
  name: string,
  address: number,
  type: PointType,
  scale: number,
  unit: string,
  description: string,
): RegisterPoint => ({ name, address, type, scale, unit, description, table: 'both' });

/**
 * A grid-tied string inverter of 25 kW, its map laid out as Huawei's and SunSpec's are:
 * powers in int32 of watts (kW × 1000), yields in uint32 of 0.01 kWh, the rest in 16-bit
 * registers ×10 or ×100 (pv-inverter.ts says how the values move with the sun).
 */
function pvInverter(order: WordOrder): SlaveModel {
  return {
    kind: 'pvInverter',
    title: 'photovoltaic string inverter',
    order,
    registers: [
      scaled('acPower', 0x0000, 'int32', 1000, 'kW', 'AC active power output'),
      scaled('dcPower', 0x0002, 'int32', 1000, 'kW', 'DC input power (the strings)'),
      scaled('dailyYield', 0x0004, 'uint32', 100, 'kWh', 'energy fed since local midnight, 0.01 kWh'),
      scaled('totalYield', 0x0006, 'uint32', 100, 'kWh', 'lifetime energy fed, 0.01 kWh (only grows)'),
      scaled('dcVoltage', 0x0008, 'uint16', 10, 'V', 'string (DC input) voltage'),
      scaled('temperature', 0x0009, 'int16', 10, '°C', 'internal temperature'),
      scaled(
        'status',
        0x000a,
        'uint16',
        1,
        '',
        'state: 0 standby, 1 generating (grid-connected), 2 fault, 3 shut down',
      ),
      scaled('efficiency', 0x000b, 'uint16', 100, '%', 'conversion efficiency (0 in standby)'),
      setting(
        'powerLimit',
        0x0100,
        'uint16',
        10,
        '%',
        'active power limit, % of the rating (write with 06; stored only)',
        100,
      ),
      setting(
        'startVoltage',
        0x0101,
        'uint16',
        1,
        'V',
        'start-up string voltage (write with 06; stored only)',
        200,
      ),
      addressPoint,
    ],
    coils: [{ name: 'generating', address: 0x0000, description: 'grid-connected and generating (status 1)' }],
    value: pvValue,
    coil: (name, t, p, get) => name === 'generating' && pvValue('status', t, p, get) === PV_STATUS.generating,
  };
}

const builders: Record<SlaveKind, (order: WordOrder) => SlaveModel> = {
  meter3p,
  meter1p,
  thSensor,
  flowSensor,
  pvInverter,
};

const cache = new Map<string, SlaveModel>();

/** The model of a kind in a word order: one object shared by every slave of that kind and order. */
export function slaveModel(kind: SlaveKind, order: WordOrder = 'ABCD'): SlaveModel {
  const key = `${kind}/${order}`;
  let model = cache.get(key);
  if (!model) {
    const build = builders[kind];
    if (!build) throw new RangeError(`unknown slave kind ${kind}`);
    model = build(order);
    cache.set(key, model);
  }
  return model;
}
