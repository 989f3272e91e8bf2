/**
 * The meters' answers and requests as the server gives and takes them (docs/energy.md), declared
 * once for the server and the web. A meter is addressed by its data cabin node id; instants are
 * ISO strings, money integer cents, energy kWh. The server's request and response schemas
 * (TypeBox) describe the same shapes for validation and the API documentation.
 */
import type { DataPermission } from '../data/types';
import type { MeterKind, MeterTypeCode } from './meter';
import type { TouEnergy, TouPeriod } from './tou';

/** What a standard meter reads from its item, in the order the form shows them: energy is required, the rest optional. */
export const METER_POINTS = [
  'energy',
  'power',
  'powerA',
  'powerB',
  'powerC',
  'voltageA',
  'voltageB',
  'voltageC',
  'currentA',
  'currentB',
  'currentC',
  'powerFactor',
  'powerFactorA',
  'powerFactorB',
  'powerFactorC',
] as const;
export type MeterPoint = (typeof METER_POINTS)[number];

/** A transformer's two sides and their ratio. */
export interface MeterSides {
  primary: number;
  secondary: number;
  ratio: number;
}

export interface MeterView {
  /** cabin node id: how routes address the meter */
  id: number;
  type: MeterTypeCode;
  kind: MeterKind;
  name: string;
  code: string;
  /** the directory the meter is in */
  parentId: number | null;
  level: DataPermission;
  itemId: number | null;
  itemName: string | null;
  points: Partial<Record<MeterPoint, string>>;
  ct: MeterSides;
  pt: MeterSides;
  /** CT ratio × PT ratio: register units to kWh */
  multiplier: number;
  registerDigits: number | null;
  samplingId: number | null;
  formula: string | null;
  refs: string[];
  /** node id of the parent meter */
  parentMeterId: number | null;
  children: Array<{ id: number; name: string; code: string }>;
  updatedAt: string;
}

export interface MeterInput {
  name: string;
  type: MeterTypeCode;
  code?: string | null;
  itemId?: number | null;
  points?: Partial<Record<MeterPoint, string>>;
  ctPrimary?: number;
  ctSecondary?: number;
  ptPrimary?: number;
  ptSecondary?: number;
  registerDigits?: number | null;
  samplingId?: number | null;
  formula?: string | null;
  /** a ready-made formula over the children of a meter (node id) instead of `formula` */
  preset?: { kind: 'sum' | 'remainder'; meterId: number } | null;
  /** node id of the parent meter, null for none */
  parentMeterId?: number | null;
}

/** A register reading as the API gives it (the domain's MeterReading counts ms). */
export interface MeterReadingAt {
  /** ISO instant */
  at: string;
  value: number;
}

export interface MeterEnergyIssue {
  /** the meter's code */
  meter: string;
  reason:
    | 'decrease'
    | 'outOfRange'
    | 'noReadings'
    | 'missingValue'
    | 'divisionByZero'
    | 'notFinite'
    | 'noSchedule'
    | 'noPrice';
  /** ISO instant of the reading concerned, when there is one */
  at: string | null;
  detail?: string;
}

export interface MeterPeriodEnergy {
  /** 'yyyy-MM-dd' or 'yyyy-MM' */
  label: string;
  from: string;
  to: string;
  /** standard meters: the readings at the period's two boundaries */
  opening: MeterReadingAt | null;
  closing: MeterReadingAt | null;
  /** null when nothing is known (no reading by the period's end, a formula that cannot be evaluated) */
  kWh: number | null;
  /** null without a valid time-of-use schedule */
  tou: TouEnergy | null;
  cents: TouEnergy | null;
  totalCents: number | null;
}

/** A meter's energy per day or per month. */
export interface MeterEnergy {
  id: number;
  code: string;
  type: number;
  timeZone: string;
  periods: MeterPeriodEnergy[];
  total: { kWh: number | null; tou: TouEnergy | null; totalCents: number | null };
  issues: MeterEnergyIssue[];
}

/** The newest value of each bound point of a standard meter, with its time. */
export interface MeterLiveValues {
  id: number;
  points: Array<{ point: MeterPoint; field: string; value: number | null; at: string | null }>;
}

/** A meter's monthly report. */
export interface MeterReport {
  meter: {
    id: number;
    name: string;
    code: string;
    type: number;
    ct: number;
    pt: number;
    multiplier: number;
    formula: string | null;
  };
  year: number;
  month: number;
  timeZone: string;
  from: string;
  to: string;
  opening: MeterReadingAt | null;
  closing: MeterReadingAt | null;
  kWh: number | null;
  tou: Array<{ period: TouPeriod; kWh: number; price: number | null; cents: number | null }> | null;
  totalCents: number | null;
  events: Array<{ kind: string; at: string; details: Record<string, unknown> }>;
  balance: {
    children: Array<{ id: number; name: string; code: string; kWh: number | null }>;
    childrenKWh: number;
    difference: number | null;
    /** difference ÷ the parent's energy × 100, two decimals; null when the parent used nothing */
    percent: number | null;
  } | null;
  issues: MeterEnergyIssue[];
}

/** A row of the meter log: a replacement or a register rollover. */
export interface MeterLogRow {
  id: number;
  meterId: number;
  meterName: string;
  meterCode: string;
  companyId: number;
  kind: 'replacement' | 'rollover';
  at: string;
  details: Record<string, unknown>;
  note: string;
  createdBy: string | null;
  createdAt: string;
}
