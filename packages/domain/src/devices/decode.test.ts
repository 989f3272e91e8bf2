import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BYTE_ORDERS } from './byte-order';
import { appendCrc } from './crc';
import { decodeFrame, recordsOfFrame } from './decode';
import { parseHex, toHex } from './hex';
import { answerLayout } from './packet';
import {
  checkParserValues,
  crossValueProblems,
  normalizeValue,
  PARSER_VALUE_TYPES,
  type ParserValue,
  valueProblems,
} from './parser';
import { encodeNumber, NUMBER_FORMATS } from './registers';

const withCrc = (hex: string) => toHex(appendCrc(parseHex(hex)!));

/** reads 2 registers from address 1: answers are `01 03 04 <4 bytes> <CRC>` */
const READ2 = { frame: '01 03 00 00 00 02', appendCrc: true, encoding: 'HEX' as const };

function value(patch: Partial<ParserValue>): ParserValue {
  return normalizeValue({
    name: 'v',
    offset: 0,
    length: 4,
    valueType: 'decimal',
    format: 'float',
    order: 'ABCD',
    itemId: 1,
    fieldKey: 'f1',
    ...patch,
  });
}

describe('decodeFrame: the reference vectors in a Modbus answer', () => {
  it.each([
    ['41 20 00 00', 'ABCD', 10],
    ['00 00 41 20', 'CDAB', 10],
    ['20 41 00 00', 'BADC', 10],
    ['00 00 20 41', 'DCBA', 10],
    ['47 F1 20 00', 'ABCD', 123456],
    ['20 00 47 F1', 'CDAB', 123456],
    ['F1 47 00 20', 'BADC', 123456],
    ['00 20 F1 47', 'DCBA', 123456],
  ] as const)('%s in %s is %d', (data, order, expected) => {
    const decoded = decodeFrame(withCrc(`01 03 04 ${data}`), READ2, { values: [value({ order })] });
    expect(decoded.frameError).toBeNull();
    expect(decoded.values).toEqual([
      { index: 0, name: 'v', start: 3, length: 4, ok: true, value: expected, raw: expected },
    ]);
  });

  it('decodes the protocol document example 01 03 04 41 20 00 00 EF C5', () => {
    const decoded = decodeFrame('01 03 04 41 20 00 00 EF C5', READ2, { values: [value({})] });
    expect(decoded.frameError).toBeNull();
    expect(decoded.values[0]).toMatchObject({ ok: true, value: 10 });
  });

  it('decodes every format side by side, overlapping values included', () => {
    const values = [
      value({ name: 'u16', offset: 0, length: 2, valueType: 'integer', format: 'uint' }),
      value({ name: 'i16', offset: 0, length: 2, valueType: 'integer', format: 'int' }),
      value({
        name: 'scaled',
        offset: 0,
        length: 2,
        valueType: 'decimal',
        format: 'int',
        scale: 0.1,
        valueOffset: 1,
      }),
      value({ name: 'bit0', offset: 2, length: 2, valueType: 'integer', format: 'bit', bit: 0 }),
      value({ name: 'bit1', offset: 2, length: 2, valueType: 'integer', format: 'bit', bit: 1 }),
      value({ name: 'hex', offset: 2, length: 2, valueType: 'string', format: 'hex' }),
      value({ name: 'u32', offset: 0, length: 4, valueType: 'integer', format: 'uint' }),
    ];
    const decoded = decodeFrame(withCrc('01 03 04 FF 38 00 A5'), READ2, { values });
    expect(decoded.frameError).toBeNull();
    expect(decoded.values.map((v) => (v.ok ? v.value : v.key))).toEqual([
      65336,
      -200,
      -19,
      1,
      0,
      '00A5',
      0xff3800a5,
    ]);
  });

  it('rounds to the decimals asked for, half away from zero', () => {
    const decoded = decodeFrame(withCrc('01 03 04 42 F6 E9 79'), READ2, {
      values: [value({ decimals: 2 }), value({ name: 'w', decimals: null })],
    });
    expect(decoded.values.map((v) => v.ok && v.value)).toEqual([123.46, 123.456001281738]);
  });

  it('reads a timestamp in seconds since 1970', () => {
    const decoded = decodeFrame(withCrc('01 03 04 6A FE 5C 00'), READ2, {
      values: [value({ valueType: 'timestamp', format: 'uint' })],
    });
    expect(decoded.values[0]).toMatchObject({ ok: true, value: new Date(0x6afe5c00 * 1000).toISOString() });
  });

  it('reads string values as ASCII text when the packet says ASCII', () => {
    const values = [value({ valueType: 'string', format: 'hex', length: 4 })];
    expect(
      decodeFrame(withCrc('01 03 04 53 4E 31 00'), { ...READ2, encoding: 'ASCII' }, { values }).values[0],
    ).toMatchObject({
      ok: true,
      value: 'SN1',
    });
    expect(decodeFrame(withCrc('01 03 04 53 4E 31 00'), READ2, { values }).values[0]).toMatchObject({
      ok: true,
      value: '534E3100',
    });
    expect(
      decodeFrame(withCrc('01 03 04 53 FF 31 00'), { ...READ2, encoding: 'ASCII' }, { values }).values[0],
    ).toMatchObject({
      ok: false,
      key: 'valueNotAscii',
    });
  });

  it('names the value that cannot be decoded', () => {
    const decoded = decodeFrame(withCrc('01 03 04 7F C0 00 00'), READ2, {
      values: [value({ name: 'nan' }), value({ name: 'past', offset: 2 })],
    });
    expect(decoded.frameError).toBeNull();
    expect(decoded.values).toMatchObject([
      { ok: false, key: 'valueNotFinite', params: { value: 'nan' } },
      { ok: false, key: 'parserValuePastEnd', params: { value: 'past', length: 4 }, start: 5 },
    ]);
  });
});

describe('decodeFrame: frames that are refused', () => {
  const values = [value({})];

  it.each([
    ['not hex', '01 03 04 41 20 00 0', 'badHex'],
    ['a bad CRC', '01 03 04 41 20 00 00 EF C6', 'badCrc'],
    ['too short', '01 03', 'wrongLength'],
    ['one register instead of two', withCrc('01 03 02 41 20'), 'wrongLength'],
    ['another slave', withCrc('02 03 04 41 20 00 00'), 'wrongAddress'],
    ['another function', withCrc('01 04 04 41 20 00 00'), 'wrongFunction'],
    ['an exception answer', withCrc('01 83 02'), 'exception'],
  ])('%s', (_label, frame, problem) => {
    const decoded = decodeFrame(frame, READ2, { values });
    expect(decoded.frameError?.problem).toBe(problem);
    expect(recordsOfFrame(decoded, values)).toEqual([]);
  });

  it('checks raw answers against the CRC and the length the parser states', () => {
    const raw = { frame: '68 AA 16', appendCrc: true, encoding: 'HEX' as const };
    const values2 = [value({ offset: 1, length: 2, valueType: 'integer', format: 'uint' })];
    const good = withCrc('68 01 02 16');
    expect(decodeFrame(good, raw, { answerLength: 6, values: values2 })).toMatchObject({
      frameError: null,
      values: [{ ok: true, value: 0x0102, start: 1 }],
    });
    expect(decodeFrame(good, raw, { answerLength: 7, values: values2 }).frameError?.problem).toBe(
      'wrongLength',
    );
    expect(
      decodeFrame('68 01 02 16 00 00', raw, { answerLength: 6, values: values2 }).frameError?.problem,
    ).toBe('badCrc');
    // without a stated length, too short for the values
    expect(decodeFrame(withCrc('68 01'), raw, { values: values2 }).frameError).toMatchObject({
      problem: 'wrongLength',
      params: { length: 4, expected: 5 },
    });
    // no CRC on a raw packet: nothing to check
    expect(decodeFrame('68 01 02', { ...raw, appendCrc: false }, { values: values2 }).frameError).toBeNull();
  });
});

describe('records of a frame', () => {
  it('groups the values per bound item, one record each', () => {
    const values = [
      value({ name: 'a', itemId: 7, fieldKey: 'f1' }),
      value({
        name: 'b',
        offset: 0,
        length: 2,
        valueType: 'integer',
        format: 'uint',
        itemId: 8,
        fieldKey: 'f2',
      }),
      value({
        name: 'c',
        offset: 2,
        length: 2,
        valueType: 'integer',
        format: 'uint',
        itemId: 7,
        fieldKey: 'f3',
      }),
      value({ name: 'bad', offset: 4, itemId: 7, fieldKey: 'f4' }),
    ];
    const decoded = decodeFrame(withCrc('01 03 04 41 20 00 00'), READ2, { values });
    expect(recordsOfFrame(decoded, values)).toEqual([
      { itemId: 7, values: { f1: 10, f3: 0 } },
      { itemId: 8, values: { f2: 0x4120 } },
    ]);
  });
});

describe('parser definitions', () => {
  const layout = answerLayout(READ2);

  it('accepts good values and fills the defaults', () => {
    const checked = checkParserValues(
      [{ name: 'a', offset: 0, length: 4, valueType: 'decimal', format: 'float', itemId: 1, fieldKey: 'f1' }],
      layout,
    );
    expect(checked).toEqual({
      ok: true,
      value: [
        {
          name: 'a',
          offset: 0,
          length: 4,
          valueType: 'decimal',
          format: 'float',
          order: 'ABCD',
          bit: null,
          scale: 1,
          valueOffset: 0,
          decimals: null,
          itemId: 1,
          fieldKey: 'f1',
        },
      ],
    });
  });

  it.each<[Partial<ParserValue>, string, string]>([
    [{ name: '' }, 'values[0].name', 'nameRequired'],
    [{ offset: -1 }, 'values[0].offset', 'validation'],
    [{ offset: 1.5 }, 'values[0].offset', 'validation'],
    [{ offset: 2 }, 'values[0].offset', 'parserValuePastEnd'],
    [{ valueType: 'integer' }, 'values[0].format', 'parserFormatMismatch'],
    [{ format: 'double' }, 'values[0].length', 'parserLengthInvalid'],
    [{ length: 3, format: 'uint' }, 'values[0].length', 'parserLengthInvalid'],
    [{ format: 'bit', valueType: 'integer', length: 2, bit: 16 }, 'values[0].bit', 'parserBitInvalid'],
    [{ scale: 0 }, 'values[0].scale', 'validation'],
    [{ scale: Number.POSITIVE_INFINITY }, 'values[0].scale', 'validation'],
    [{ valueType: 'integer', format: 'uint', scale: 0.1 }, 'values[0].scale', 'parserIntegerScale'],
    [{ decimals: 7 }, 'values[0].decimals', 'decimalsRange'],
    [{ itemId: null }, 'values[0].itemId', 'parserBindingRequired'],
    [{ fieldKey: null }, 'values[0].fieldKey', 'parserBindingRequired'],
  ])('refuses %j naming %s', (patch, field, key) => {
    const checked = checkParserValues([{ ...value({}), ...patch }], layout);
    expect(checked).toMatchObject({ ok: false, field, key });
  });

  it('names the value read past the data', () => {
    const checked = checkParserValues([value({ name: '电压', offset: 2 })], layout);
    expect(checked).toMatchObject({ ok: false, params: { value: '电压', length: 4 } });
  });

  it('refuses two values of one name and two values in one field', () => {
    expect(crossValueProblems([value({ name: 'a' }), value({ name: 'A', fieldKey: 'f2' })])).toMatchObject([
      { index: 1, field: 'name', key: 'parserValueNameTaken' },
    ]);
    expect(checkParserValues([value({ name: 'a' }), value({ name: 'b' })], layout)).toMatchObject({
      ok: false,
      field: 'values[1].fieldKey',
      key: 'parserTargetTaken',
      params: { value: 'b', other: 'a' },
    });
  });

  it('lets values overlap and an unbound value be previewed', () => {
    expect(valueProblems(value({ itemId: null, fieldKey: null }), layout)).toEqual([]);
    expect(
      checkParserValues(
        [value({}), value({ name: 'w', format: 'uint', valueType: 'integer', fieldKey: 'f2' })],
        layout,
      ).ok,
    ).toBe(true);
  });
});

describe('properties', () => {
  const anyValue = fc.record({
    name: fc.oneof(fc.string(), fc.constant('v')),
    offset: fc.oneof(fc.integer({ min: -5, max: 300 }), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER)),
    length: fc.oneof(fc.integer({ min: -1, max: 300 }), fc.double()),
    valueType: fc.oneof(fc.constantFrom(...PARSER_VALUE_TYPES), fc.string()),
    format: fc.oneof(fc.constantFrom(...NUMBER_FORMATS), fc.string()),
    order: fc.oneof(fc.constantFrom(...BYTE_ORDERS), fc.string()),
    bit: fc.oneof(fc.constant(null), fc.integer({ min: -2, max: 70 }), fc.double()),
    scale: fc.oneof(fc.double(), fc.constant(1), fc.constant(0)),
    valueOffset: fc.oneof(fc.double(), fc.constant(0)),
    decimals: fc.oneof(fc.constant(null), fc.integer({ min: -3, max: 30 }), fc.double()),
    itemId: fc.oneof(fc.constant(null), fc.integer()),
    fieldKey: fc.oneof(fc.constant(null), fc.string()),
  }) as fc.Arbitrary<ParserValue>;
  const anyPacket = fc.record({
    frame: fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 12 }).map(toHex),
      fc.constant('01 03 00 00 00 02'),
      fc.string(),
    ),
    appendCrc: fc.boolean(),
    encoding: fc.constantFrom('ASCII' as const, 'HEX' as const),
  });

  it('random frames, packets and definitions: decodeFrame answers, one result per value', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.string(),
          fc.constant(withCrc('01 03 04 41 20 00 00')),
        ),
        anyPacket,
        fc.array(anyValue, { maxLength: 8 }),
        fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 2000 })),
        (frame, packet, values, answerLength) => {
          const decoded = decodeFrame(frame, packet, { answerLength, values });
          expect(decoded.values.length).toBe(decoded.bytes ? values.length : 0);
          for (const v of decoded.values) {
            if (v.ok && typeof v.value === 'number') expect(Number.isFinite(v.value)).toBe(true);
          }
          // a refused frame gives no records
          if (decoded.frameError) expect(recordsOfFrame(decoded, values)).toEqual([]);
          valueProblems(normalizeValue(values[0] ?? {}), { dataLength: 4 });
          checkParserValues(values, null);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    );
  });

  it('a number written by a device in any order and format is read back', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BYTE_ORDERS),
        fc.constantFrom(
          ['uint', 1],
          ['uint', 2],
          ['uint', 4],
          ['int', 1],
          ['int', 2],
          ['int', 4],
          ['int', 8],
        ),
        fc.integer(),
        (order, [format, length], n) => {
          const bits = length * 8;
          const wrapped = Number(
            format === 'uint' ? BigInt.asUintN(bits, BigInt(n)) : BigInt.asIntN(bits, BigInt(n)),
          );
          const data = encodeNumber(wrapped, format as 'uint' | 'int', length, order);
          const layout = { frame: '68', appendCrc: false };
          const decoded = decodeFrame(data, layout, {
            values: [value({ valueType: 'integer', format: format as 'uint', length, order })],
          });
          expect(decoded.values[0]).toMatchObject({ ok: true, value: wrapped });
        },
      ),
    );
  });

  it('floats round-trip through a Modbus answer', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BYTE_ORDERS),
        fc.float({ noNaN: true, noDefaultInfinity: true }),
        (order, x) => {
          const frame = withCrc(`01 03 04 ${toHex(encodeNumber(x, 'float', 4, order))}`);
          const decoded = decodeFrame(frame, READ2, { values: [value({ order })] });
          expect(decoded.values[0]).toMatchObject({ ok: true });
          // === on purpose: -0 comes back as -0, and -0 and 0 are the same reading
          expect((decoded.values[0] as { raw: number }).raw === x).toBe(true);
        },
      ),
    );
  });
});
