import { describe, expect, test } from 'vitest';
import {
  certifiedValue,
  compositionText,
  cylinderValuesText,
  fieldPath,
  formatAmount,
  formatImpurity,
  formatMolarMass,
  formatPurity,
  formTarget,
  inlineMessage,
  placeFieldError,
  referenceValuesText,
  today,
  toFraction,
  toUnit,
  twoSignificant,
  unitFor,
} from './model';

class Refused extends Error {
  constructor(
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

describe('units', () => {
  test('below 0.1 % an amount reads in µmol/mol', () => {
    expect(unitFor(0.1)).toBe('percent');
    expect(unitFor(0.001)).toBe('percent');
    expect(unitFor(0.000999)).toBe('umol');
    expect(unitFor(0.000009)).toBe('umol');
    // nothing at all reads as 0 %, not 0 µmol/mol
    expect(unitFor(0)).toBe('percent');
  });

  test('typed amounts become fractions and back without a float tail', () => {
    expect(toFraction(10, 'percent')).toBe(0.1);
    expect(toFraction(7, 'percent')).toBe(0.07);
    expect(toFraction(50, 'umol')).toBe(0.00005);
    expect(toUnit(0.07, 'percent')).toBe(7);
    expect(toUnit(0.00005, 'umol')).toBe(50);
  });
});

describe('formats', () => {
  test('a recipe amount, a purity, an impurity and a molar mass', () => {
    expect(formatAmount(0.1)).toBe('10 %');
    expect(formatAmount(0.00005)).toBe('50 µmol/mol');
    expect(formatPurity(0.99995)).toBe('99.9950 %');
    expect(formatPurity(0.99999)).toBe('99.9990 %');
    expect(formatPurity(0.9999995)).toBe('99.99995 %');
    expect(formatImpurity({ component: 'N2', umolPerMol: 50 })).toBe('N2 50 µmol/mol');
    expect(formatImpurity({ component: 'O2', umolPerMol: 10, uUmolPerMol: 1.5 })).toBe(
      'O2 10 ± 1.5 µmol/mol',
    );
    expect(formatMolarMass(44.009)).toBe('44.009');
    expect(formatMolarMass(4.0026)).toBe('4.0026');
  });

  test('certified values of the worked example', () => {
    expect(certifiedValue(0.0999982, 'percent')).toBe('9.9998');
    expect(certifiedValue(0.8999931, 'percent')).toBe('89.9993');
    expect(certifiedValue(0.00000899, 'umol')).toBe('9.0');
    expect(certifiedValue(0.0000004, 'umol')).toBe('0.400');
    expect(twoSignificant(0.000483)).toBe('0.00048');
    expect(twoSignificant(0)).toBe('0');
  });

  test('a day is the browser’s local date, not the UTC one', () => {
    // a minute after local midnight and a minute before it: the same local day in any zone
    expect(today(new Date(2026, 0, 5, 0, 1))).toBe('2026-01-05');
    expect(today(new Date(2026, 11, 31, 23, 59))).toBe('2026-12-31');
  });
});

describe('field errors', () => {
  test('both ways the server writes a field become one name path', () => {
    expect(fieldPath('parents[1].massG')).toEqual(['parents', 1, 'massG']);
    expect(fieldPath('parents.1.massG')).toEqual(['parents', 1, 'massG']);
    expect(fieldPath('volumeL')).toEqual(['volumeL']);
  });

  test('the raw field name in the message becomes its label', () => {
    expect(inlineMessage('parents[1].massG must be greater than 0', 'parents[1].massG', 'Mass')).toBe(
      'Mass must be greater than 0',
    );
    expect(
      inlineMessage(
        'components[0].fraction: an amount fraction is greater than 0 and less than 1 (100 %)',
        'components[0].fraction',
      ),
    ).toBe('an amount fraction is greater than 0 and less than 1 (100 %)');
    expect(inlineMessage('Invalid value for volumeL', 'volumeL', '钢瓶容积')).toBe(
      'Invalid value for 钢瓶容积',
    );
    expect(inlineMessage('Something else', 'z')).toBe('Something else');
  });

  test('a row field is placed under the form’s own name, a list-wide one on the list', () => {
    const target = formTarget(['name', 'balance'], {
      components: { component: 'component', fraction: 'amount' },
    });
    expect(target.place(['components', 1, 'fraction'])).toEqual(['components', 1, 'amount']);
    expect(target.place(['components'])).toBe('components');
    expect(target.place(['balance'])).toBe('balance');
    expect(target.place(['id'])).toBeNull();
    expect(target.place(['components', 1, 'other'])).toBeNull();
  });

  test('placeFieldError sets the message on the field, and leaves what it cannot place', () => {
    const set: unknown[] = [];
    const form = { setFields: (fields: unknown[]) => set.push(...fields) };
    const target = formTarget([], { parents: { massG: 'massG' } }, (n) =>
      n === 'massG' ? '称量质量' : undefined,
    );
    const refused = new Refused('parents[1].massG 必须大于 0', { field: 'parents[1].massG' });
    expect(placeFieldError(form, refused, target)).toBe(true);
    expect(set).toEqual([{ name: ['parents', 1, 'massG'], errors: ['称量质量 必须大于 0'] }]);
    expect(placeFieldError(form, new Refused('x', { field: 'id' }), target)).toBe(false);
    expect(placeFieldError(form, new Error('no envelope'), target)).toBe(false);
  });
});

describe('the gas exports’ text cells', () => {
  test('a recipe as the list shows it, the balance gas last', () => {
    expect(compositionText([{ component: 'CO2', fraction: 0.1 }], 'N2', '平衡气')).toBe(
      'CO2 10 % · 平衡气 N2',
    );
    expect(compositionText([{ component: 'CO', fraction: 50e-6 }], 'N2', 'balance')).toBe(
      'CO 50 µmol/mol · balance N2',
    );
  });

  test("a reference material's values with their expanded uncertainty in the value's unit", () => {
    expect(
      referenceValuesText(
        { balance: 'N2', components: [{ component: 'CO2', fraction: 0.1001, expanded: 0.0002 }] },
        'balance',
      ),
    ).toBe('CO2 10.01 % ± 0.02 % · balance N2');
  });

  test("a cylinder's gravimetric values, without the balance gas's own", () => {
    const values = [
      { component: 'CO2', fraction: 0.099998, standard: 0, expanded: 0 },
      { component: 'O2', fraction: 9e-6, standard: 0, expanded: 0 },
      { component: 'N2', fraction: 0.9, standard: 0, expanded: 0 },
    ];
    expect(cylinderValuesText({ balance: 'N2', values }, '平衡气')).toBe(
      'CO2 9.9998 % · O2 9.0 µmol/mol · 平衡气 N2',
    );
  });
});
