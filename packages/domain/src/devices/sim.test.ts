import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalSimState,
  carrierOfIccid,
  checkIccid,
  holderChange,
  iccidHasCheckDigit,
  luhnCheckDigit,
  luhnValid,
  normaliseIccid,
  normaliseMsisdn,
  parseSimCarrier,
  parseSimState,
  SIM_STATE_CHOICES,
  SIM_STATES,
  simCarrierLabel,
  simStateAfter,
  simStateLabel,
  usagePercent,
  usageStep,
} from './sim';

// A China Mobile card's ICCID as published in the carrier's numbering explanations
// (898600 mobile, 70 → 1370…, 31 Tibet, 01 the year, 1 the maker, 209432 the serial, 0 check).
const MOBILE_20 = '89860070310112094320';
// E.118's 18 + 1 form: the serial 896588081210001114 and its Luhn digit 6.
const E118_19 = '8965880812100011146';

describe('ICCID', () => {
  it('accepts real numbers whose Luhn digit is right', () => {
    expect(checkIccid(MOBILE_20)).toEqual({ ok: true, iccid: MOBILE_20 });
    expect(checkIccid(E118_19)).toEqual({ ok: true, iccid: E118_19 });
    expect(luhnCheckDigit('896588081210001114')).toBe(6);
    expect(luhnCheckDigit('8986007031011209432')).toBe(0);
  });

  it('refuses the same numbers with one digit wrong or two neighbours swapped', () => {
    expect(checkIccid('89860070310112094321')).toEqual({ ok: false, problem: 'iccidCheckDigit' });
    expect(checkIccid('89860070310112094230')).toEqual({ ok: false, problem: 'iccidCheckDigit' });
    expect(checkIccid('8965880812100011140')).toEqual({ ok: false, problem: 'iccidCheckDigit' });
    expect(checkIccid('8965880812100011416')).toEqual({ ok: false, problem: 'iccidCheckDigit' });
  });

  it('reads the number as cards print it and modems report it', () => {
    expect(normaliseIccid('8986 0070 3101 1209 4320')).toBe(MOBILE_20);
    expect(normaliseIccid(' 89860-07031-01120-94320 ')).toBe(MOBILE_20);
    // a 19-digit card read from its 10 BCD bytes ends in the filler F
    expect(normaliseIccid(`${E118_19}F`)).toBe(E118_19);
    expect(normaliseIccid(`${E118_19.slice(0, 10)}f`)).toBe(`${E118_19.slice(0, 10)}F`);
    expect(checkIccid(`${E118_19}f`)).toEqual({ ok: true, iccid: E118_19 });
  });

  it('checks no digit where the number has none: China Telecom 20 digits, letters', () => {
    expect(iccidHasCheckDigit('89860318240212345678')).toBe(false);
    expect(checkIccid('89860318240212345678').ok).toBe(true);
    expect(checkIccid('89861118240212345679').ok).toBe(true);
    // China Telecom's 19-digit numbers do end in a check digit
    expect(checkIccid('8986031824021234567').ok).toBe(luhnValid('8986031824021234567'));
    // China Mobile IoT and China Unicom numbers with letters
    expect(checkIccid('898604a41921c0123456')).toEqual({ ok: true, iccid: '898604A41921C0123456' });
    expect(checkIccid('89860 10110 23117 0983S')).toEqual({ ok: true, iccid: '8986010110231170983S' });
  });

  it('names what is wrong', () => {
    expect(checkIccid('898600703101120943')).toEqual({ ok: false, problem: 'iccidLength' });
    expect(checkIccid('898600703101120943201')).toEqual({ ok: false, problem: 'iccidLength' });
    expect(checkIccid('')).toEqual({ ok: false, problem: 'iccidLength' });
    expect(checkIccid('88860070310112094320')).toEqual({ ok: false, problem: 'iccidPrefix' });
    expect(checkIccid('8986007031011209432!')).toEqual({ ok: false, problem: 'iccidCharacters' });
    expect(checkIccid('89AB0070310112094320')).toEqual({ ok: false, problem: 'iccidCharacters' });
    expect(checkIccid('8986007031011209432\u0000')).toEqual({ ok: false, problem: 'iccidCharacters' });
    // what Excel makes of a 20-digit number it took for a number
    expect(checkIccid('8.98601E+19').ok).toBe(false);
  });

  it('knows the carrier of China’s issuer prefixes', () => {
    expect(carrierOfIccid(MOBILE_20)).toBe(1);
    expect(carrierOfIccid('898604A41921C0123456')).toBe(1);
    expect(carrierOfIccid('89860610230000000000')).toBe(2);
    expect(carrierOfIccid('89860318240212345678')).toBe(3);
    expect(carrierOfIccid(E118_19)).toBeNull();
  });

  const body18 = fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: 16, maxLength: 17 })
    .map((d) => `89${d.join('')}`);

  it('accepts every 19- and 20-digit number completed by its Luhn digit (property)', () => {
    fc.assert(
      fc.property(body18, (body) => {
        const iccid = `${body}${luhnCheckDigit(body)}`;
        if (iccid.length === 20 && ['898603', '898611'].includes(iccid.slice(0, 6))) return;
        expect(checkIccid(iccid)).toEqual({ ok: true, iccid });
      }),
    );
  });

  it('catches every single wrong digit of a checked number (property)', () => {
    fc.assert(
      fc.property(body18, fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, delta) => {
        const iccid = `${body}${luhnCheckDigit(body)}`;
        if (!iccidHasCheckDigit(iccid)) return;
        const i = 2 + (at % (iccid.length - 2));
        const wrong = `${iccid.slice(0, i)}${(Number(iccid[i]) + delta) % 10}${iccid.slice(i + 1)}`;
        expect(checkIccid(wrong)).toEqual({ ok: false, problem: 'iccidCheckDigit' });
      }),
    );
  });

  it('normalises once and for all (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        expect(normaliseIccid(normaliseIccid(text))).toBe(normaliseIccid(text));
      }),
    );
  });
});

describe('MSISDN', () => {
  it('takes mobile and IoT numbers, with or without the country code', () => {
    expect(normaliseMsisdn('13800138000')).toBe('13800138000');
    expect(normaliseMsisdn('+86 138-0013-8000')).toBe('13800138000');
    expect(normaliseMsisdn('008613800138000')).toBe('13800138000');
    expect(normaliseMsisdn('1064812345678')).toBe('1064812345678');
    expect(normaliseMsisdn('861440123456789')).toBe('1440123456789');
  });

  it('refuses anything else', () => {
    for (const text of ['', '1380013800', '23800138000', '138001380001', '1380013800a', '+1 650 555 0100']) {
      expect(normaliseMsisdn(text)).toBeNull();
    }
  });
});

describe('carriers and states', () => {
  it('reads ids and names in either language', () => {
    expect(parseSimCarrier('1')).toBe(1);
    expect(parseSimCarrier('中国联通')).toBe(2);
    expect(parseSimCarrier(' China  Telecom ')).toBe(3);
    expect(parseSimCarrier('移动')).toBe(1);
    expect(parseSimCarrier('CMCC')).toBe(1);
    expect(parseSimCarrier('无')).toBe(0);
    expect(parseSimCarrier('4')).toBeNull();
    expect(parseSimCarrier('vodafone')).toBeNull();
    expect(parseSimState('停机保号')).toBe(6);
    expect(parseSimState('Silent period')).toBe(3);
    expect(parseSimState('5')).toBe(5);
    expect(parseSimState('7')).toBeNull();
    expect(parseSimState('paused')).toBeNull();
  });

  it('keeps the seed’s order as ids and reads its second "none" as the first', () => {
    expect(SIM_STATES.map((s) => s.en)).toEqual([
      'None',
      'Normal',
      'Suspended',
      'Silent period',
      'None',
      'Test period',
      'Suspended, number kept',
    ]);
    expect(parseSimState('4')).toBe(0);
    expect(canonicalSimState(4)).toBe(0);
    expect(simStateLabel(4, 'zh')).toBe('无');
    expect(SIM_STATE_CHOICES).not.toContain(4);
    expect(simCarrierLabel(3, 'zh')).toBe('中国电信');
  });

  it('suspends cards in use and resumes suspended ones, nothing else', () => {
    expect(simStateAfter(1, 'suspend')).toEqual({ ok: true, state: 2 });
    expect(simStateAfter(5, 'suspend')).toEqual({ ok: true, state: 2 });
    expect(simStateAfter(3, 'suspend')).toEqual({ ok: true, state: 2 });
    expect(simStateAfter(2, 'resume')).toEqual({ ok: true, state: 1 });
    expect(simStateAfter(6, 'resume')).toEqual({ ok: true, state: 1 });
    expect(simStateAfter(2, 'suspend')).toEqual({ ok: false });
    expect(simStateAfter(1, 'resume')).toEqual({ ok: false });
    expect(simStateAfter(0, 'suspend')).toEqual({ ok: false });
    expect(simStateAfter(4, 'resume')).toEqual({ ok: false });
  });
});

describe('usage and moves', () => {
  it('is a share of the plan, with no share without a plan', () => {
    expect(usagePercent(512, 1024)).toBe(50);
    expect(usagePercent(1500, 1024)).toBeCloseTo(146.48, 2);
    expect(usagePercent(10, null)).toBeNull();
    expect(usagePercent(10, 0)).toBeNull();
    expect(usagePercent(null, 100)).toBeNull();
  });

  it('falls in the colour steps of 20/40/60/80/100 %', () => {
    expect([0, 20, 20.01, 40, 59.9, 60, 80, 80.5, 100, 250].map(usageStep)).toEqual([
      0, 0, 1, 1, 2, 2, 3, 4, 4, 4,
    ]);
  });

  it('flags a card reported by another gateway than its holder', () => {
    expect(holderChange(null, 'GW001')).toBe('first');
    expect(holderChange('GW001', 'GW001')).toBe('same');
    expect(holderChange('GW001', 'GW002')).toBe('moved');
  });
});
