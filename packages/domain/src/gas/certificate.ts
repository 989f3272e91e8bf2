/**
 * How a certificate of analysis states a certified value (GUM 7.2.6, ISO 6141): the expanded
 * uncertainty with at most two significant digits, the value rounded to the same decimal place,
 * both in the unit that suits the size of the fraction: % mol/mol from 0.1 % up, µmol/mol below.
 */

export type CertificateUnit = '%' | 'µmol/mol';

export interface StatedValue {
  unit: CertificateUnit;
  value: string;
  /** the expanded uncertainty (k = 2), or '' when none was propagated */
  uncertainty: string;
}

/** 0.1 % mol/mol: from here a fraction is stated in percent */
const PERCENT_FROM = 1e-3;

/** The value and its expanded uncertainty as a certificate prints them. */
export function statedValue(fraction: number, expanded: number): StatedValue {
  const unit: CertificateUnit = fraction >= PERCENT_FROM ? '%' : 'µmol/mol';
  const scale = unit === '%' ? 100 : 1e6;
  const value = fraction * scale;
  const u = expanded * scale;
  if (!(u > 0)) return { unit, value: String(Number(value.toPrecision(6))), uncertainty: '' };
  const rounded = Number(u.toPrecision(2));
  const decimals = Math.max(0, 1 - Math.floor(Math.log10(rounded)));
  return { unit, value: value.toFixed(decimals), uncertainty: rounded.toFixed(decimals) };
}
