import { describe, expect, it } from 'vitest';
import { statedValue } from './certificate';

describe('statedValue', () => {
  it('states the worked example CO2 in percent, U with two significant digits', () => {
    // x(CO2) = 0.099998, U = 0.0000204 (2.04e-3 %): U 0.0020 %, value to the same place
    expect(statedValue(0.099998, 0.0000204)).toEqual({ unit: '%', value: '9.9998', uncertainty: '0.0020' });
  });
  it('states a trace component in µmol/mol', () => {
    expect(statedValue(9.0e-6, 7.3e-7)).toEqual({ unit: 'µmol/mol', value: '9.00', uncertainty: '0.73' });
    expect(statedValue(50e-6, 0.5e-6)).toEqual({ unit: 'µmol/mol', value: '50.00', uncertainty: '0.50' });
  });
  it('switches to percent at 0.1 %', () => {
    expect(statedValue(0.000999, 1e-6).unit).toBe('µmol/mol');
    expect(statedValue(0.001, 1e-6).unit).toBe('%');
  });
  it('keeps two digits when rounding the uncertainty carries into the next decade', () => {
    // 0.0996 % rounds to 0.10 %: two decimals, not three
    expect(statedValue(0.5, 0.000996)).toEqual({ unit: '%', value: '50.00', uncertainty: '0.10' });
  });
  it('large uncertainties keep no decimals', () => {
    expect(statedValue(0.5, 0.123)).toEqual({ unit: '%', value: '50', uncertainty: '12' });
  });
  it('without an uncertainty states six significant digits and no U', () => {
    expect(statedValue(0.899993, 0)).toEqual({ unit: '%', value: '89.9993', uncertainty: '' });
  });
});
