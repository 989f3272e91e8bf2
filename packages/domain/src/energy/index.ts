/** Electricity meters and energy data (issue 13): meters and registers, time-of-use, virtual meter formulas, coal equivalent. */
export * from './coal';
export * from './energy-data';
export * from './energy-fill';
export * from './formula';
export * from './meter';
export * from './meter-types';
export * from './tou';
