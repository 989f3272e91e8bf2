import { describe, expect, it } from 'vitest';
import { appendCrc } from './crc';
import { parseHex, toHex } from './hex';
import { checkModbusAnswer, modbusReadOf } from './modbus';
import {
  answerLayout,
  checkPacket,
  crcOfFrame,
  frameEndsInCrc,
  sampleModbusAnswer,
  sentBytes,
} from './packet';

const bytes = (hex: string) => parseHex(hex)!;
const withCrc = (hex: string) => toHex(appendCrc(bytes(hex)));

const GOOD = {
  name: '电表读数',
  frame: '01 03 00 00 00 02',
  appendCrc: true,
  valueType: 'byte',
  encoding: 'HEX',
  samplingId: 1,
};

describe('packet definitions', () => {
  it('accepts a packet and writes its frame in upper case', () => {
    const checked = checkPacket({ ...GOOD, frame: '01 03 00 6b 00 03' });
    expect(checked).toEqual({ ok: true, value: { ...GOOD, frame: '01 03 00 6B 00 03' } });
  });

  it.each([
    [{ name: '' }, 'name', 'nameRequired'],
    [{ name: '   ' }, 'name', 'nameRequired'],
    [{ name: 'x'.repeat(26) }, 'name', 'nameTooLong'],
    [{ frame: '' }, 'frame', 'fieldRequired'],
    [{ frame: ' 01 03' }, 'frame', 'hexPacketInvalid'],
    [{ frame: '01 03 ' }, 'frame', 'hexPacketInvalid'],
    [{ frame: '01  03' }, 'frame', 'hexPacketInvalid'],
    [{ frame: '0103' }, 'frame', 'hexPacketInvalid'],
    [{ frame: '01 0G' }, 'frame', 'hexPacketInvalid'],
    [{ frame: '1 03' }, 'frame', 'hexPacketInvalid'],
    [{ frame: 42 }, 'frame', 'fieldRequired'],
    [{ frame: Array(256).fill('00').join(' ') }, 'frame', 'packetTooLong'],
    [{ valueType: 'word' }, 'valueType', 'validation'],
    [{ encoding: 'UTF8' }, 'encoding', 'validation'],
    [{ samplingId: 5 }, 'samplingId', 'validation'],
    [{ samplingId: 0 }, 'samplingId', 'validation'],
    [{ samplingId: '1' }, 'samplingId', 'validation'],
  ])('refuses %j naming %s', (patch, field, key) => {
    expect(checkPacket({ ...GOOD, ...patch })).toMatchObject({ ok: false, field, key });
  });

  it('fits 256 bytes with the CRC, 254 typed', () => {
    expect(checkPacket({ ...GOOD, frame: Array(254).fill('00').join(' ') }).ok).toBe(true);
    expect(checkPacket({ ...GOOD, frame: Array(256).fill('00').join(' '), appendCrc: false }).ok).toBe(true);
  });

  it('computes the CRC bytes the gateway appends (reference vectors)', () => {
    expect(crcOfFrame('01 03 00 00 00 0A')).toBe('C5 CD');
    expect(crcOfFrame('11 03 00 6B 00 03')).toBe('76 87');
    expect(crcOfFrame('02 07')).toBe('41 12');
    expect(crcOfFrame('nonsense')).toBeNull();
    expect(toHex(sentBytes({ frame: '01 03 00 00 00 01', appendCrc: true })!)).toBe(
      '01 03 00 00 00 01 84 0A',
    );
    expect(toHex(sentBytes({ frame: '01 03 00 00 00 01', appendCrc: false })!)).toBe('01 03 00 00 00 01');
  });

  it('notices a frame typed with its own CRC', () => {
    expect(frameEndsInCrc('01 03 00 85 00 01 95 E3')).toBe(true);
    expect(frameEndsInCrc('01 03 00 85 00 01')).toBe(false);
  });
});

describe('Modbus read requests and answers', () => {
  it('recognises a read of holding registers and the length of its answer (5 + 2N)', () => {
    const read = modbusReadOf(bytes(withCrc('11 03 00 6B 00 03')));
    expect(read).toEqual({ address: 17, fn: 3, start: 0x6b, quantity: 3, dataLength: 6, answerLength: 11 });
  });

  it('counts coils in bytes: 37 coils are 5 bytes of data', () => {
    expect(modbusReadOf(bytes(withCrc('11 01 00 13 00 25')))).toMatchObject({
      fn: 1,
      quantity: 37,
      dataLength: 5,
      answerLength: 10,
    });
  });

  it.each([
    ['a write', withCrc('11 06 00 01 00 03')],
    ['a broadcast', withCrc('00 03 00 00 00 01')],
    ['zero registers', withCrc('01 03 00 00 00 00')],
    ['126 registers', withCrc('01 03 00 00 00 7E')],
    ['a bad CRC', '01 03 00 6B 00 03 76 87'],
    ['no CRC', '01 03 00 00 00 01'],
  ])('is not a read request: %s', (_label, hex) => {
    expect(modbusReadOf(bytes(hex))).toBeNull();
  });

  const read = modbusReadOf(bytes(withCrc('11 03 00 6B 00 03')))!;

  it('accepts the reference answer 11 03 06 AE 41 56 52 43 40 49 AD', () => {
    expect(checkModbusAnswer(bytes('11 03 06 AE 41 56 52 43 40 49 AD'), read)).toEqual({
      ok: true,
      dataStart: 3,
      dataLength: 6,
    });
  });

  it.each([
    ['too short', '11 03', 'wrongLength'],
    ['a bad CRC', '11 03 06 AE 41 56 52 43 40 49 AE', 'badCrc'],
    ['another address', withCrc('12 03 06 AE 41 56 52 43 40'), 'wrongAddress'],
    ['another function', withCrc('11 04 06 AE 41 56 52 43 40'), 'wrongFunction'],
    ['a byte count that is not the frame', withCrc('11 03 08 AE 41 56 52 43 40'), 'wrongLength'],
    ['fewer registers than asked', withCrc('11 03 04 AE 41 56 52'), 'wrongLength'],
    ['an exception', withCrc('11 83 02'), 'exception'],
  ])('refuses %s', (_label, hex, problem) => {
    expect(checkModbusAnswer(bytes(hex), read)).toMatchObject({ ok: false, problem });
  });

  it('names the exception code', () => {
    expect(checkModbusAnswer(bytes(withCrc('11 83 02')), read)).toMatchObject({
      params: { code: 2, meaning: 'illegal data address' },
    });
  });

  it('lays out the answer of a read packet and builds a sample of it', () => {
    const layout = answerLayout({ frame: '01 03 00 00 00 02', appendCrc: true });
    expect(layout).toMatchObject({ kind: 'modbus', dataStart: 3, dataLength: 4, answerLength: 9 });
    // a packet typed with its CRC and no CRC appended is the same request
    expect(answerLayout({ frame: '01 03 00 00 00 02 C4 0B', appendCrc: false })).toMatchObject({
      kind: 'modbus',
    });
    if (layout.kind !== 'modbus') throw new Error('not modbus');
    const sample = sampleModbusAnswer(layout.read, [0x41, 0x20]);
    expect(sample).toBe(withCrc('01 03 04 41 20 00 00'));
    expect(checkModbusAnswer(bytes(sample), layout.read).ok).toBe(true);
  });

  it('lays out other packets as raw answers, with the CRC when the packet has one', () => {
    expect(answerLayout({ frame: '68 11 11', appendCrc: false }, 12)).toEqual({
      kind: 'raw',
      crc: false,
      dataStart: 0,
      answerLength: 12,
      dataLength: 12,
    });
    expect(answerLayout({ frame: '01 06 00 01 00 03', appendCrc: true }, 8)).toMatchObject({
      kind: 'raw',
      crc: true,
      dataLength: 6,
    });
    expect(answerLayout({ frame: '01 06 00 01 00 03', appendCrc: true })).toMatchObject({ dataLength: null });
  });
});
