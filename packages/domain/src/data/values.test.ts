import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldDef } from './types';
import {
  checkRecord,
  coerceValue,
  decimalPlaces,
  formatValue,
  isRecordTime,
  LONG_TEXT_MAX_LENGTH,
  parseCell,
  parseDateText,
  roundTo,
  storedFileRef,
  TEXT_MAX_LENGTH,
} from './values';

const F = {
  int: { key: 'f1', name: '数量', type: 10 },
  dec: { key: 'f2', name: '温度', type: 1, decimals: 1 },
  money: { key: 'f3', name: '金额', type: 2 },
  when: { key: 'f4', name: '时间', type: 4, dateFormat: 'yyyy-MM-dd HH:mm:ss' },
  text: { key: 'f5', name: '备注', type: 5, required: true },
  long: { key: 'f6', name: '说明', type: 6 },
  pics: { key: 'f8', name: '照片', type: 8 },
  day: { key: 'f9', name: '日期', type: 4, dateFormat: 'yyyy-MM-dd' },
  raw: { key: 'f10', name: 'raw', type: 1 },
} satisfies Record<string, FieldDef>;
const FIELDS: FieldDef[] = Object.values(F);
const file = { url: '/general/files/a/b.png', name: 'b.png', size: 10, thumbUrl: '/general/files/a/b_t.png' };

describe('checkRecord', () => {
  it('maps names to keys and coerces every type', () => {
    const r = checkRecord(FIELDS, {
      数量: '42',
      f2: 21.55,
      金额: '12.345',
      时间: '2025-03-01 10:00:00',
      备注: 'ok',
      说明: 7,
      照片: [{ ...file, extra: 1 }],
      f9: '2025-03',
    });
    expect(r).toEqual({
      ok: true,
      values: {
        f1: 42,
        f2: 21.6,
        f3: 12.35,
        f4: '2025-03-01T02:00:00.000Z',
        f5: 'ok',
        f6: '7',
        f8: [file],
        f9: '2025-02-28T16:00:00.000Z',
      },
    });
  });

  it('names unknown keys and missing required fields', () => {
    expect(checkRecord(FIELDS, { 备注: 'x', 湿度: 3 })).toMatchObject({
      ok: false,
      field: '湿度',
      key: 'unknownField',
      message: 'Unknown field: 湿度',
    });
    expect(checkRecord(FIELDS, { f1: 1 })).toMatchObject({
      field: 'f5',
      key: 'fieldRequired',
      name: '备注',
      message: '备注 is required',
    });
    expect(checkRecord(FIELDS, { f5: '  ' })).toMatchObject({ field: 'f5', key: 'fieldRequired' });
    // partial: absent required fields are fine, emptying one is not
    expect(checkRecord(FIELDS, { f1: 1 }, { partial: true })).toEqual({ ok: true, values: { f1: 1 } });
    expect(checkRecord(FIELDS, { f5: null }, { partial: true })).toMatchObject({ key: 'fieldRequired' });
    // the same field twice (key and name)
    expect(checkRecord(FIELDS, { f5: 'a', 备注: 'b' })).toMatchObject({ field: 'f5', key: 'validation' });
  });

  it('stores empty optional values as null', () => {
    expect(checkRecord(FIELDS, { f5: 'x', f1: '', f2: null, f8: [] })).toEqual({
      ok: true,
      values: { f5: 'x', f1: null, f2: null, f8: null },
    });
  });

  it('refuses bad values with a key naming the field', () => {
    const bad: Array<[string, unknown, string]> = [
      ['f1', '1.5', 'valueNotInteger'],
      ['f1', 2 ** 53, 'valueNotInteger'],
      ['f1', 'abc', 'valueNotNumber'],
      ['f1', '1e3', 'valueNotNumber'],
      ['f1', true, 'valueNotNumber'],
      ['f2', Number.NaN, 'valueNotNumber'],
      ['f2', Number.POSITIVE_INFINITY, 'valueNotNumber'],
      ['f2', '+1', 'valueNotNumber'],
      ['f2', '.5', 'valueNotNumber'],
      ['f4', '2025-02-29', 'valueNotDate'],
      ['f4', '2025-13-01', 'valueNotDate'],
      ['f4', '2025-01-01 24:00', 'valueNotDate'],
      ['f4', 'yesterday', 'valueNotDate'],
      ['f4', 1e20, 'valueNotDate'],
      ['f5', 'x'.repeat(TEXT_MAX_LENGTH + 1), 'valueTooLong'],
      ['f5', { a: 1 }, 'valueNotText'],
      ['f6', 'x'.repeat(LONG_TEXT_MAX_LENGTH + 1), 'valueTooLong'],
      ['f8', 'a.png', 'valueNotFiles'],
      ['f8', [{ ...file, url: 'http://evil/a.png' }], 'valueNotFiles'],
      ['f8', [{ ...file, url: '/general/files/../secret' }], 'valueNotFiles'],
      ['f8', [{ ...file, thumbUrl: '/etc/passwd' }], 'valueNotFiles'],
      ['f8', [{ ...file, size: -1 }], 'valueNotFiles'],
      ['f8', [{ ...file, name: '' }], 'valueNotFiles'],
      ['f8', Array.from({ length: 21 }, () => file), 'tooManyFiles'],
    ];
    for (const [field, value, key] of bad) {
      expect(checkRecord(FIELDS, { f5: 'x', [field]: value }), `${field} ${String(value)}`).toMatchObject({
        ok: false,
        field,
        key,
      });
    }
    expect(checkRecord(FIELDS, { f5: '温'.repeat(TEXT_MAX_LENGTH) }).ok).toBe(true);
    expect(checkRecord(FIELDS, { f5: 'x', f8: Array.from({ length: 20 }, () => file) }).ok).toBe(true);
  });

  it('keeps the reference of a record file sent back as a signed link or by its old public address', () => {
    const ref = '/general/files/records/3/7/0a1b.png';
    const signed = `${ref}?exp=1767225600&sig=${'A'.repeat(43)}`;
    const thumb = '/general/files/public/records/3/7/0a1b-thumb.png';
    expect(storedFileRef(signed)).toBe(ref);
    expect(
      checkRecord(FIELDS, { f5: 'x', f8: [{ url: signed, name: 'a.png', size: 3, thumbUrl: thumb }] }),
    ).toEqual({
      ok: true,
      values: {
        f5: 'x',
        f8: [{ url: ref, name: 'a.png', size: 3, thumbUrl: '/general/files/records/3/7/0a1b-thumb.png' }],
      },
    });
    expect(parseCell(F.pics, `${signed}, ${thumb}`)).toEqual({
      ok: true,
      value: [
        { url: ref, name: '0a1b.png', size: 0 },
        { url: '/general/files/records/3/7/0a1b-thumb.png', name: '0a1b-thumb.png', size: 0 },
      ],
    });
    // anything else stays refused
    expect(
      checkRecord(FIELDS, { f5: 'x', f8: [{ ...file, url: '/general/files/records/../x?sig=1' }] }),
    ).toMatchObject({
      ok: false,
      key: 'valueNotFiles',
    });
  });

  it('reads dates with offsets, epoch ms and short forms', () => {
    const v = (raw: unknown, tz?: string) => coerceValue(F.when, raw, tz ? { tz } : {});
    expect(v('2025-03-01T10:00:00Z')).toEqual({ ok: true, value: '2025-03-01T10:00:00.000Z' });
    expect(v('2025-03-01T10:00:00+08:00')).toEqual({ ok: true, value: '2025-03-01T02:00:00.000Z' });
    expect(v('2025-03-01T10:00:00.5-0130')).toEqual({ ok: true, value: '2025-03-01T11:30:00.500Z' });
    expect(v(Date.UTC(2025, 0, 2, 3, 4, 5))).toEqual({ ok: true, value: '2025-01-02T03:04:05.000Z' });
    expect(v('2025')).toEqual({ ok: true, value: '2024-12-31T16:00:00.000Z' });
    expect(v('2025-07-01 12:00', 'Europe/Berlin')).toEqual({ ok: true, value: '2025-07-01T10:00:00.000Z' });
    expect(v('2025-01-01 12:00', 'Europe/Berlin')).toEqual({ ok: true, value: '2025-01-01T11:00:00.000Z' });
  });

  it('property: integers and decimals survive a text round trip', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(coerceValue(F.int, String(n))).toEqual({ ok: true, value: n === 0 ? 0 : n });
      }),
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), (x) => {
        const r = coerceValue(F.raw, x);
        expect(r).toEqual({ ok: true, value: x === 0 ? 0 : x });
      }),
    );
  });
});

describe('decimalPlaces', () => {
  it('counts the places of the number as JSON writes it', () => {
    expect(decimalPlaces(0.1)).toBe(1);
    expect(decimalPlaces(12.5)).toBe(1);
    expect(decimalPlaces(100)).toBe(0);
    expect(decimalPlaces(-3.25)).toBe(2);
    expect(decimalPlaces(12345.678901)).toBe(6);
    expect(decimalPlaces(0.1 + 0.2)).toBe(17); // 0.30000000000000004
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(1.5e-7)).toBe(8);
    expect(decimalPlaces(-2.25e-10)).toBe(12);
    expect(decimalPlaces(1e21)).toBe(0);
    expect(decimalPlaces(1.25e21)).toBe(0);
  });

  it('property: the number rounded to that many places is itself, and to one fewer is not', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }), (x) => {
        const places = decimalPlaces(x);
        // == and !=: toFixed writes -0 as 0
        if (places <= 100) expect(Number(x.toFixed(places)) === x).toBe(true);
        if (places > 0 && places <= 100) expect(Number(x.toFixed(places - 1)) !== x).toBe(true);
      }),
    );
  });
});

describe('roundTo', () => {
  it('rounds half away from zero on the written digits', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(0.0000001, 2)).toBe(0);
    expect(roundTo(123.456, 6)).toBe(123.456);
    expect(roundTo(9.995, 2)).toBe(10);
  });

  it('property: within half a unit of the last place, with at most that many places', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
        fc.integer({ min: 0, max: 6 }),
        (x, d) => {
          const r = roundTo(x, d);
          expect(Math.abs(r - x)).toBeLessThanOrEqual(0.5 * 10 ** -d + Math.abs(x) * 1e-15);
          expect(Number(r.toFixed(d))).toBe(r);
        },
      ),
    );
  });
});

describe('formatValue', () => {
  it('formats per type', () => {
    expect(formatValue(F.money, 3)).toBe('3.00');
    expect(formatValue(F.money, 1.005)).toBe('1.01');
    expect(formatValue(F.dec, 2)).toBe('2.0');
    expect(formatValue(F.raw, 2.125)).toBe('2.125');
    expect(formatValue(F.int, null)).toBe('');
    expect(formatValue(F.when, '2025-03-01T02:00:00.000Z')).toBe('2025-03-01 10:00:00');
    expect(formatValue(F.when, '2025-03-01T02:00:00.000Z', 'en', 'UTC')).toBe('2025-03-01 02:00:00');
    expect(formatValue(F.day, '2025-02-28T16:00:00.000Z')).toBe('2025-03-01');
    expect(formatValue({ ...F.day, dateFormat: 'yyyy-MM' }, '2025-02-28T16:00:00.000Z')).toBe('2025-03');
    expect(formatValue({ ...F.day, dateFormat: 'yyyy' }, '2025-02-28T16:00:00.000Z')).toBe('2025');
    expect(formatValue(F.pics, [file, file])).toBe(`${file.url}, ${file.url}`);
    expect(formatValue(F.text, 'a,b')).toBe('a,b');
  });

  it('property: formatValue then parseCell gives the value back', () => {
    const instant = fc
      .integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) })
      .map((ms) => ms - (ms % 1000));
    fc.assert(
      fc.property(instant, (ms) => {
        const iso = new Date(ms).toISOString();
        expect(parseCell(F.when, formatValue(F.when, iso))).toEqual({ ok: true, value: iso });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), (cents) => {
        const value = cents / 100;
        expect(parseCell(F.money, formatValue(F.money, value))).toEqual({
          ok: true,
          value: value === 0 ? 0 : value,
        });
      }),
    );
  });
});

describe('parseCell', () => {
  it('reads import cells', () => {
    expect(parseCell(F.int, ' 1,234 ')).toEqual({ ok: true, value: 1234 });
    expect(parseCell(F.money, '¥1,234.5')).toEqual({ ok: true, value: 1234.5 });
    expect(parseCell(F.int, 12)).toEqual({ ok: true, value: 12 });
    expect(parseCell(F.int, '1,23')).toMatchObject({ ok: false, key: 'valueNotNumber' });
    expect(parseCell(F.int, '')).toEqual({ ok: true, value: null });
    expect(parseCell(F.when, '2025/3/1 10:00')).toEqual({ ok: true, value: '2025-03-01T02:00:00.000Z' });
    // Excel serial 45717.5 = 2025-03-01 12:00 wall time
    expect(parseCell(F.when, 45717.5)).toEqual({ ok: true, value: '2025-03-01T04:00:00.000Z' });
    expect(parseCell(F.when, Date.UTC(2025, 2, 1))).toEqual({ ok: true, value: '2025-03-01T00:00:00.000Z' });
    expect(parseCell(F.when, new Date(Date.UTC(2025, 2, 1)))).toEqual({
      ok: true,
      value: '2025-03-01T00:00:00.000Z',
    });
    expect(parseCell(F.pics, '/general/files/x/a%20b.png, /general/files/y.jpg')).toEqual({
      ok: true,
      value: [
        { url: '/general/files/x/a%20b.png', name: 'a b.png', size: 0 },
        { url: '/general/files/y.jpg', name: 'y.jpg', size: 0 },
      ],
    });
    expect(parseCell(F.pics, JSON.stringify([file]))).toEqual({ ok: true, value: [file] });
    expect(parseCell(F.pics, 'c:\\a.png')).toMatchObject({ ok: false, key: 'valueNotFiles' });
    expect(parseCell(F.text, true)).toMatchObject({ ok: false });
    expect(parseCell(F.text, 12.5)).toEqual({ ok: true, value: '12.5' });
  });
});

describe('parseDateText', () => {
  it('resolves wall times in a DST gap forward and an overlap to the earlier instant', () => {
    // Berlin 2025-03-30 02:30 does not exist: clocks jump 02:00 → 03:00 at 01:00Z
    expect(parseDateText('2025-03-30 02:30', 'Europe/Berlin')).toBe(
      Date.UTC(2025, 2, 30, 1, 0) + 30 * 60_000,
    );
    // Berlin 2025-10-26 02:30 happens twice; the first is 00:30Z
    expect(parseDateText('2025-10-26 02:30', 'Europe/Berlin')).toBe(Date.UTC(2025, 9, 26, 0, 30));
  });
});

describe('record text and times the database can hold', () => {
  it('refuses text and file names with NUL or a lone surrogate, naming the field', () => {
    expect(checkRecord(FIELDS, { 备注: 'a\u0000b' })).toMatchObject({
      ok: false,
      field: 'f5',
      key: 'validation',
    });
    expect(checkRecord(FIELDS, { 备注: 'ok', 说明: '\ud800' })).toMatchObject({ ok: false, field: 'f6' });
    expect(checkRecord(FIELDS, { 备注: 'ok', 照片: [{ ...file, name: 'a\u0000.png' }] })).toMatchObject({
      ok: false,
      field: 'f8',
    });
    expect(
      checkRecord(FIELDS, { 备注: 'ok', 照片: [{ ...file, url: '/general/files/a\u0000.png' }] }),
    ).toMatchObject({
      ok: false,
      field: 'f8',
    });
    expect(checkRecord(FIELDS, { 备注: '好 😀' })).toMatchObject({ ok: true });
  });

  it('keeps record times from 1970 to the end of 9999', () => {
    expect(isRecordTime(0)).toBe(true);
    expect(isRecordTime(Date.UTC(9999, 11, 31, 23, 59, 59, 999))).toBe(true);
    for (const bad of [-1, -1e15, Date.UTC(10000, 0, 1), 8.64e15, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(isRecordTime(bad), String(bad)).toBe(false);
    }
  });
});
