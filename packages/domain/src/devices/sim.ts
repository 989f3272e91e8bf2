/**
 * SIM data cards of gateways: identity (ICCID, MSISDN), carriers and states with their ids,
 * usage against the plan, and where a card is (the gateway that last reported it).
 *
 * ICCID, what is accepted and why (ITU-T E.118; GSM 11.11 EF_ICCID, 10 BCD bytes):
 * - Written forms are normalised first: spaces and hyphens go (cards print it in groups of
 *   four or five), letters are taken as upper case, and a 19-digit number followed by the BCD
 *   filler `F` (what a modem's AT+CCID shows for a 19-digit card) loses the filler.
 * - 19 or 20 characters, beginning with `89` (the telecommunication industry identifier);
 *   the first six characters (industry, country and issuer) are digits.
 * - After them digits, or upper-case letters: Chinese carriers put letters in the number
 *   (China Mobile's M position takes A-E; IoT cards of 898604 carry letters), so refusing
 *   letters would refuse real cards.
 * - A Luhn check digit is checked where the number has one: a 19-digit number is 18 digits
 *   plus its check digit (E.118); a 20-digit number is 19 plus a check digit (the GSM form
 *   that China Mobile and China Unicom use); China Telecom (issuers 898603 and 898611) fills
 *   all 20 digits with the number, so there is none to check; a number with letters has none
 *   either (Luhn is defined over digits). The check catches a mistyped digit and most swapped
 *   neighbours, the usual slips of typing a number off a card.
 *
 * MSISDN (the card's number, optional): 11 digits beginning with 1 (a mobile number) or 13
 * digits beginning with 1 (the IoT numbers 1064…, 1440…, 148…); a leading +86, 0086 or 86,
 * spaces and hyphens are dropped.
 *
 * States: the seed's list is "none, normal, suspended, silent period, none, test period,
 * suspended keep-number". Ids are the positions 0-6, so data that used these ids keeps its
 * meaning; "none" appears twice (0 and 4): both mean the carrier told no state, and 4 is read
 * as 0 (`canonicalSimState`), so every list and filter shows one "none".
 */
import type { Lang } from '../errors';

export const ICCID_PATTERN_TEXT = '19-20 characters starting with 89';

/** China's issuer prefixes (89 86 + issuer): what carrier an ICCID's first six digits name. */
const ISSUER_CARRIER: Record<string, SimCarrier> = {
  '898600': 1,
  '898602': 1,
  '898604': 1,
  '898607': 1,
  '898608': 1,
  '898601': 2,
  '898606': 2,
  '898609': 2,
  '898603': 3,
  '898611': 3,
};

/** China Telecom's 20-digit ICCIDs carry no check digit */
const NO_CHECK_DIGIT_ISSUERS = new Set(['898603', '898611']);

export type IccidProblem = 'iccidLength' | 'iccidPrefix' | 'iccidCharacters' | 'iccidCheckDigit';

/** An ICCID as typed, printed or reported, in the one form the platform keeps. */
export function normaliseIccid(text: string): string {
  const compact = text.replace(/[\s-]/g, '').toUpperCase();
  return /^\d{19}F$/.test(compact) ? compact.slice(0, 19) : compact;
}

/** Luhn (mod 10) over a string of digits, the check digit last. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The Luhn check digit that completes `body` (digits). */
export function luhnCheckDigit(body: string): number {
  for (let c = 0; c <= 9; c++) if (luhnValid(`${body}${c}`)) return c;
  throw new Error('unreachable: one of ten digits completes any body');
}

/** Whether a normalised, well-formed ICCID ends in a check digit (see the module's comment). */
export function iccidHasCheckDigit(iccid: string): boolean {
  if (!/^\d+$/.test(iccid)) return false;
  if (iccid.length === 20 && NO_CHECK_DIGIT_ISSUERS.has(iccid.slice(0, 6))) return false;
  return true;
}

/** What is wrong with a normalised ICCID, or null when it is one. */
export function iccidProblem(iccid: string): IccidProblem | null {
  if (iccid.length < 19 || iccid.length > 20) return 'iccidLength';
  if (!iccid.startsWith('89')) return 'iccidPrefix';
  if (!/^\d{6}[0-9A-Z]+$/.test(iccid)) return 'iccidCharacters';
  if (iccidHasCheckDigit(iccid) && !luhnValid(iccid)) return 'iccidCheckDigit';
  return null;
}

export type IccidCheck = { ok: true; iccid: string } | { ok: false; problem: IccidProblem };

/** An ICCID as typed: its normal form, or what is wrong with it. */
export function checkIccid(text: string): IccidCheck {
  const iccid = normaliseIccid(text);
  const problem = iccidProblem(iccid);
  return problem ? { ok: false, problem } : { ok: true, iccid };
}

/** The carrier an ICCID's issuer prefix names, or null for an issuer not known here. */
export function carrierOfIccid(iccid: string): SimCarrier | null {
  return ISSUER_CARRIER[iccid.slice(0, 6)] ?? null;
}

/** An MSISDN as typed: its normal form (digits), or null when it is none. */
export function normaliseMsisdn(text: string): string | null {
  let digits = text.replace(/[\s-]/g, '');
  digits = digits.replace(/^(?:\+86|0086|86)(?=1\d{10}$|1\d{12}$)/, '');
  return /^1\d{10}$/.test(digits) || /^1\d{12}$/.test(digits) ? digits : null;
}

// ---------------------------------------------------------------- carriers and states

export type SimCarrier = 0 | 1 | 2 | 3;

/** Seed point 3: none, mobile, unicom, telecom (China Mobile, China Unicom, China Telecom). */
export const SIM_CARRIERS: ReadonlyArray<{
  id: SimCarrier;
  key: 'none' | 'mobile' | 'unicom' | 'telecom';
  zh: string;
  en: string;
  aliases: readonly string[];
}> = [
  { id: 0, key: 'none', zh: '无', en: 'None', aliases: ['无', 'none', '-'] },
  {
    id: 1,
    key: 'mobile',
    zh: '中国移动',
    en: 'China Mobile',
    aliases: ['中国移动', '移动', 'mobile', 'china mobile', 'cmcc'],
  },
  {
    id: 2,
    key: 'unicom',
    zh: '中国联通',
    en: 'China Unicom',
    aliases: ['中国联通', '联通', 'unicom', 'china unicom', 'cucc'],
  },
  {
    id: 3,
    key: 'telecom',
    zh: '中国电信',
    en: 'China Telecom',
    aliases: ['中国电信', '电信', 'telecom', 'china telecom', 'ctcc'],
  },
];

export type SimState = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** Seed point 3 in its order; id = position. 4 is the list's second "none" (read as 0). */
export const SIM_STATES: ReadonlyArray<{
  id: SimState;
  key: string;
  zh: string;
  en: string;
  aliases: readonly string[];
}> = [
  { id: 0, key: 'none', zh: '无', en: 'None', aliases: ['无', 'none', '-'] },
  { id: 1, key: 'normal', zh: '正常', en: 'Normal', aliases: ['正常', 'normal', 'active'] },
  { id: 2, key: 'suspended', zh: '停机', en: 'Suspended', aliases: ['停机', 'suspended'] },
  { id: 3, key: 'silent', zh: '沉默期', en: 'Silent period', aliases: ['沉默期', 'silent period', 'silent'] },
  { id: 4, key: 'none', zh: '无', en: 'None', aliases: [] },
  { id: 5, key: 'test', zh: '测试期', en: 'Test period', aliases: ['测试期', 'test period', 'test'] },
  {
    id: 6,
    key: 'suspendedKeepNumber',
    zh: '停机保号',
    en: 'Suspended, number kept',
    aliases: ['停机保号', 'suspended, number kept', 'suspended keep-number', 'suspended keep number'],
  },
];

/** The states a list offers: 4 is the same "none" as 0. */
export const SIM_STATE_CHOICES: readonly SimState[] = [0, 1, 2, 3, 5, 6];

export function canonicalSimState(state: number): SimState {
  return (state === 4 ? 0 : state) as SimState;
}

export function isSimCarrier(value: unknown): value is SimCarrier {
  return value === 0 || value === 1 || value === 2 || value === 3;
}

export function isSimState(value: unknown): value is SimState {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 6;
}

export function simCarrierLabel(id: number, lang: Lang): string {
  return SIM_CARRIERS.find((c) => c.id === id)?.[lang] ?? String(id);
}

export function simStateLabel(id: number, lang: Lang): string {
  return SIM_STATES.find((s) => s.id === canonicalSimState(id))?.[lang] ?? String(id);
}

function lookup<T extends { id: number; aliases: readonly string[] }>(
  list: readonly T[],
  text: string,
): T['id'] | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    return list.some((e) => e.id === n) ? (n as T['id']) : null;
  }
  return list.find((e) => e.aliases.includes(t))?.id ?? null;
}

/** A carrier as a spreadsheet cell holds it: its id, or its name in either language. */
export function parseSimCarrier(text: string): SimCarrier | null {
  return lookup(SIM_CARRIERS, text);
}

/** A state as a spreadsheet cell holds it: its id (4 read as 0), or its name in either language. */
export function parseSimState(text: string): SimState | null {
  const id = lookup(SIM_STATES, text);
  return id === null ? null : canonicalSimState(id);
}

// ---------------------------------------------------------------- suspend and resume

export type SimStateAction = 'suspend' | 'resume';

/**
 * What a carrier allows: a card in use (normal, silent or test period) can be suspended; a
 * suspended card (either kind) can be resumed to normal. Anything else is refused.
 */
export function simStateAfter(
  state: number,
  action: SimStateAction,
): { ok: true; state: SimState } | { ok: false } {
  const s = canonicalSimState(state);
  if (action === 'suspend' && (s === 1 || s === 3 || s === 5)) return { ok: true, state: 2 };
  if (action === 'resume' && (s === 2 || s === 6)) return { ok: true, state: 1 };
  return { ok: false };
}

// ---------------------------------------------------------------- usage

export const SIM_PLAN_MB_MAX = 10_000_000;
export const SIM_NOTES_MAX = 200;

/** Usage as a percentage of the plan; null without a plan (none, or 0 MB). */
export function usagePercent(usedMb: number | null, planMb: number | null): number | null {
  if (planMb === null || planMb <= 0 || usedMb === null) return null;
  return (usedMb / planMb) * 100;
}

/** Seed point 9: the percentage colour scale steps at 20/40/60/80/100. */
export const USAGE_STEPS = [20, 40, 60, 80, 100] as const;

/** The scale's colours, one per step: green, lime, gold, orange, red. */
export const USAGE_STEP_COLOURS = ['#52c41a', '#a0d911', '#fadb14', '#fa8c16', '#f5222d'] as const;

/** The step of the colour scale a percentage falls in: 0 (≤ 20 %) to 4 (over 80 %, and over the plan). */
export function usageStep(percent: number): 0 | 1 | 2 | 3 | 4 {
  for (let i = 0; i < 4; i++) if (percent <= USAGE_STEPS[i]!) return i as 0 | 1 | 2 | 3;
  return 4;
}

// ---------------------------------------------------------------- where a card is

/**
 * A gateway reported the card: what it means for the card's holder (the gateway that last
 * reported it). `first`: the card had no holder yet; `same`: still there; `moved`: it is in
 * another gateway than before, which the card's list flags until someone acknowledges it.
 */
export function holderChange(holder: string | null, reportedBy: string): 'first' | 'same' | 'moved' {
  if (holder === null) return 'first';
  return holder === reportedBy ? 'same' : 'moved';
}
