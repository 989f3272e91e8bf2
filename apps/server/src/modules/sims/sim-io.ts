/**
 * SIM cards as a spreadsheet: the columns ICCID, carrier, state, plan (MB), MSISDN and notes,
 * headed in either language (or by their usual other names), in any order; ICCID is the one
 * column a file must have. The export adds read-only columns (usage, as-of time, gateway,
 * moved, company) that an import of the exported file passes over, so an export can be edited
 * and imported again. The template's second row says what each column takes, and the import
 * skips it.
 *
 * A cell left empty leaves the card's value as it is (a new card: no plan, no number, state
 * none, carrier read from the ICCID's issuer). Every cell is checked by the domain's rules; a
 * row with a bad cell is rejected with its row number, column and reason, and writes nothing.
 */
import {
  carrierOfIccid,
  checkIccid,
  type ErrorKey,
  type ImportCell,
  isStorableText,
  type Lang,
  messageFor,
  normaliseMsisdn,
  parseSimCarrier,
  parseSimState,
  SIM_NOTES_MAX,
  SIM_PLAN_MB_MAX,
  type SimCarrier,
  type SimState,
  simCarrierLabel,
  simStateLabel,
} from '@platform/domain';
import type { OutCell, SheetRow } from '../records/spreadsheet';
import type { CardRow } from './service';

export const SIM_COLUMNS = ['iccid', 'carrier', 'state', 'planMb', 'msisdn', 'notes'] as const;
export type SimColumn = (typeof SIM_COLUMNS)[number];

export const COLUMN_LABELS: Record<SimColumn, Record<Lang, string>> = {
  iccid: { zh: 'ICCID', en: 'ICCID' },
  carrier: { zh: '运营商', en: 'Carrier' },
  state: { zh: '状态', en: 'State' },
  planMb: { zh: '套餐(MB)', en: 'Plan (MB)' },
  msisdn: { zh: '号码', en: 'MSISDN' },
  notes: { zh: '备注', en: 'Notes' },
};

const ALIASES: Record<SimColumn, readonly string[]> = {
  iccid: ['iccid', '卡号', 'iccid号', 'sim卡号', 'sim 卡号'],
  carrier: ['运营商', 'carrier', 'operator'],
  state: ['状态', '卡状态', 'state', 'status'],
  planMb: ['套餐(mb)', '套餐', '套餐流量(mb)', 'plan (mb)', 'plan(mb)', 'plan', 'plan mb'],
  msisdn: ['号码', '接入号', 'msisdn', 'number'],
  notes: ['备注', 'notes', 'note', 'remark', 'remarks'],
};

const EXPORT_ONLY = {
  usedMb: { zh: '已用(MB)', en: 'Used (MB)' },
  usagePercent: { zh: '用量(%)', en: 'Usage (%)' },
  usageAsOf: { zh: '用量截至', en: 'Usage as of' },
  holder: { zh: '所在网关', en: 'Gateway' },
  moved: { zh: '已移动', en: 'Moved' },
  company: { zh: '公司', en: 'Company' },
} as const;

const NOTES: Record<SimColumn, Record<Lang, string>> = {
  iccid: {
    zh: '19 或 20 位，以 89 开头；请保持文本格式，必填',
    en: '19 or 20 characters starting with 89; keep the column as text; required',
  },
  carrier: {
    zh: '无、中国移动、中国联通、中国电信或 0-3；留空时按 ICCID 识别',
    en: 'none, China Mobile, China Unicom, China Telecom or 0-3; empty: read from the ICCID',
  },
  state: {
    zh: '无、正常、停机、沉默期、测试期、停机保号或 0-6；可留空',
    en: 'none, normal, suspended, silent period, test period, suspended, number kept or 0-6; may be empty',
  },
  planMb: { zh: '每月流量 MB，0 至 10000000；可留空', en: 'monthly data in MB, 0 to 10000000; may be empty' },
  msisdn: {
    zh: '11 位手机号或 13 位物联网号码；可留空',
    en: '11-digit mobile or 13-digit IoT number; may be empty',
  },
  notes: { zh: '最多 200 个字符；可留空', en: 'at most 200 characters; may be empty' },
};

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ').replace(/（/g, '(').replace(/）/g, ')').toLowerCase();
}

const BY_LABEL = new Map<string, SimColumn>();
for (const column of SIM_COLUMNS) {
  for (const label of [...ALIASES[column], COLUMN_LABELS[column].zh, COLUMN_LABELS[column].en]) {
    BY_LABEL.set(normalise(label), column);
  }
}
const PASSED_OVER = new Set(Object.values(EXPORT_ONLY).flatMap((l) => [normalise(l.zh), normalise(l.en)]));

export type HeaderProblem = { key: ErrorKey; column: string };

/** Column index → SIM column; a column not known, or known twice, is a problem of the whole file. */
export function mapSimHeader(cells: ImportCell[]): Map<number, SimColumn> | HeaderProblem {
  const map = new Map<number, SimColumn>();
  const taken = new Set<SimColumn>();
  for (const [index, cell] of cells.entries()) {
    const label = cell === null || cell === undefined ? '' : String(cell).trim();
    if (label === '') continue;
    const n = normalise(label);
    if (PASSED_OVER.has(n)) continue;
    const column = BY_LABEL.get(n);
    if (!column) return { key: 'simUnknownColumn', column: label.slice(0, 40) };
    if (taken.has(column)) return { key: 'importDuplicateColumn', column: label.slice(0, 40) };
    taken.add(column);
    map.set(index, column);
  }
  if (!taken.has('iccid')) return { key: 'simImportNoIccid', column: '' };
  return map;
}

export function templateHeader(lang: Lang): string[] {
  return SIM_COLUMNS.map((c) => COLUMN_LABELS[c][lang]);
}

export function templateNotes(lang: Lang): string[] {
  return SIM_COLUMNS.map((c) => NOTES[c][lang]);
}

function cellText(cell: ImportCell): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

/** The template's note row (in either language) is not data. */
export function isNoteRow(cells: ImportCell[], map: Map<number, SimColumn>): boolean {
  let seen = false;
  for (const [index, cell] of cells.entries()) {
    const text = cellText(cell);
    if (text === '') continue;
    const column = map.get(index);
    if (!column || (text !== NOTES[column].zh && text !== NOTES[column].en)) return false;
    seen = true;
  }
  return seen;
}

/** A row that passed every check; an undefined value is an empty cell (leave the card's value). */
export interface CheckedSim {
  row: number;
  iccid: string;
  carrier?: SimCarrier;
  state?: SimState;
  planMb?: number | null;
  msisdn?: string | null;
  notes?: string;
}

export interface Rejected {
  row: number;
  column: SimColumn;
  message: string;
}

class CellError {
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
  ) {}
}

/** what a spreadsheet shows of a long number it took for a number: 8.98601E+19 */
const SCIENTIFIC = /^\d(?:\.\d+)?e\+?\d+$/i;

function iccidOf(cell: ImportCell): string {
  // no ICCID fits a double: a number cell is a rounded one
  if (typeof cell === 'number') throw new CellError('iccidExcelNumber');
  const text = cellText(cell);
  if (text === '') throw new CellError('fieldRequired', { field: 'ICCID' });
  if (SCIENTIFIC.test(text)) throw new CellError('iccidExcelNumber');
  const checked = checkIccid(text);
  if (!checked.ok) throw new CellError(checked.problem);
  return checked.iccid;
}

function planOf(cell: ImportCell): number {
  let n: number;
  if (typeof cell === 'number') n = cell;
  else {
    const match = /^(\d+(?:\.\d+)?)\s*(?:mb|m)?$/i.exec(cellText(cell));
    if (typeof cell !== 'string' || !match) throw new CellError('simPlanInvalid');
    n = Number(match[1]);
  }
  if (!Number.isFinite(n) || n < 0 || n > SIM_PLAN_MB_MAX) throw new CellError('simPlanInvalid');
  return Math.round(n * 100) / 100;
}

function msisdnOf(cell: ImportCell): string {
  const text = typeof cell === 'number' && Number.isSafeInteger(cell) ? String(cell) : cellText(cell);
  if (typeof cell !== 'string' && typeof cell !== 'number') throw new CellError('msisdnInvalid');
  const msisdn = normaliseMsisdn(text);
  if (!msisdn) throw new CellError('msisdnInvalid');
  return msisdn;
}

/** Every data row through the rules: good ones to write, bad ones with their reason. */
export function checkSimRows(
  rows: SheetRow[],
  map: Map<number, SimColumn>,
  lang: Lang,
): { good: CheckedSim[]; rejected: Rejected[] } {
  const good: CheckedSim[] = [];
  const rejected: Rejected[] = [];
  const firstRowOf = new Map<string, number>();
  const columns = [...map.entries()].sort((x, y) => SIM_COLUMNS.indexOf(x[1]) - SIM_COLUMNS.indexOf(y[1]));
  for (const { row, cells } of rows) {
    const sim: Partial<CheckedSim> = { row };
    let failed: Rejected | null = null;
    for (const [index, column] of columns) {
      const cell = cells[index];
      try {
        if (typeof cell === 'string' && !isStorableText(cell)) throw new CellError('cellUnstorable');
        if (typeof cell === 'boolean' || cell instanceof Date) {
          if (column !== 'notes')
            throw new CellError(column === 'iccid' ? 'iccidCharacters' : invalidKey(column));
        }
        const blank = cellText(cell) === '';
        switch (column) {
          case 'iccid':
            sim.iccid = iccidOf(cell);
            break;
          case 'carrier': {
            if (blank) break;
            const carrier = parseSimCarrier(cellText(cell));
            if (carrier === null) throw new CellError('simCarrierInvalid');
            const issuer = carrierOfIccid(sim.iccid!);
            if (carrier !== 0 && issuer !== null && carrier !== issuer) {
              throw new CellError('simCarrierMismatch', { carrier: simCarrierLabel(issuer, lang) });
            }
            if (carrier !== 0) sim.carrier = carrier;
            break;
          }
          case 'state': {
            if (blank) break;
            const state = parseSimState(cellText(cell));
            if (state === null) throw new CellError('simStateInvalid');
            sim.state = state;
            break;
          }
          case 'planMb':
            if (!blank) sim.planMb = planOf(cell);
            break;
          case 'msisdn':
            if (!blank) sim.msisdn = msisdnOf(cell);
            break;
          case 'notes': {
            if (blank) break;
            const notes = cellText(cell);
            if ([...notes].length > SIM_NOTES_MAX) throw new CellError('simNotesTooLong');
            sim.notes = notes;
            break;
          }
        }
      } catch (error) {
        if (!(error instanceof CellError)) throw error;
        failed = { row, column, message: messageFor(error.key, lang, error.params) };
        break;
      }
    }
    if (failed) {
      rejected.push(failed);
      continue;
    }
    const earlier = firstRowOf.get(sim.iccid!);
    if (earlier !== undefined) {
      rejected.push({
        row,
        column: 'iccid',
        message: messageFor('simDuplicateInFile', lang, { row: earlier }),
      });
      continue;
    }
    firstRowOf.set(sim.iccid!, row);
    good.push(sim as CheckedSim);
  }
  return { good, rejected };
}

function invalidKey(column: Exclude<SimColumn, 'iccid' | 'notes'>): ErrorKey {
  return (
    {
      carrier: 'simCarrierInvalid',
      state: 'simStateInvalid',
      planMb: 'simPlanInvalid',
      msisdn: 'msisdnInvalid',
    } as const
  )[column];
}

// ---------------------------------------------------------------- export

export function exportHeader(lang: Lang, withCompany: boolean): string[] {
  return [
    ...templateHeader(lang),
    EXPORT_ONLY.usedMb[lang],
    EXPORT_ONLY.usagePercent[lang],
    EXPORT_ONLY.usageAsOf[lang],
    EXPORT_ONLY.holder[lang],
    EXPORT_ONLY.moved[lang],
    ...(withCompany ? [EXPORT_ONLY.company[lang]] : []),
  ];
}

const YES = { zh: '是', en: 'yes' } as const;

export function exportRow(
  card: CardRow,
  companyName: string | null,
  lang: Lang,
  format: (d: Date) => string,
  withCompany: boolean,
): OutCell[] {
  const percent =
    card.planMb && card.planMb > 0 && card.usedMb !== null ? (card.usedMb / card.planMb) * 100 : null;
  const num = (n: number | null, decimals: number): OutCell => (n === null ? '' : { number: n, decimals });
  return [
    // text, never a number: a spreadsheet would round it
    card.iccid,
    simCarrierLabel(card.carrier, lang),
    simStateLabel(card.state, lang),
    num(card.planMb, card.planMb !== null && Number.isInteger(card.planMb) ? 0 : 2),
    card.msisdn ?? '',
    card.notes,
    num(card.usedMb, 2),
    num(percent === null ? null : Math.round(percent * 10) / 10, 1),
    card.usageAsOf ? format(card.usageAsOf) : '',
    card.holderSn ?? '',
    card.moved ? YES[lang] : '',
    ...(withCompany ? [companyName ?? ''] : []),
  ];
}
