import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRowId, isStorableText } from './validation';

describe('isRowId', () => {
  it('takes the ids an integer identity column holds, and nothing else', () => {
    for (const id of [1, 42, 2 ** 31 - 1]) expect(isRowId(id)).toBe(true);
    for (const id of [0, -1, 1.5, 2 ** 31, 8_640_000_000_000_001, 1e308, Number.NaN, '1', null, undefined])
      expect(isRowId(id)).toBe(false);
  });
});

describe('isStorableText', () => {
  it('refuses NUL and lone surrogates, which PostgreSQL text and jsonb cannot hold', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\ud800y', '\udc00\ud800', 'a\ud83d']) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('keeps every other text, surrogate pairs (emoji) and control characters included', () => {
    for (const good of ['', 'a', '智慧数据', '😀', '\u{10ffff}', '\u0001\u001f\u007f', '\ufeff', 'e\u0301']) {
      expect(isStorableText(good), JSON.stringify(good)).toBe(true);
    }
  });

  it('agrees with a UTF-8 round trip on any mix of surrogate halves, pairs and other text', () => {
    const units = fc.constantFrom(
      'a',
      '智',
      '\u0000',
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\ud83d',
      '\ude00',
    );
    fc.assert(
      fc.property(
        fc.array(units, { maxLength: 8 }).map((parts) => parts.join('')),
        (text) => {
          const roundTrips = Buffer.from(text, 'utf8').toString('utf8') === text;
          expect(isStorableText(text)).toBe(roundTrips && !text.includes('\u0000'));
        },
      ),
    );
  });
});
