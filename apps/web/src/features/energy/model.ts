/**
 * What the energy pages work out themselves: the kind of a path, the company's days and the
 * ranges offered, the months of a range for the chart, numbers as shown, a refusal's field.
 */
import { ENERGY_DATA_KIND_INFO, ENERGY_DATA_KINDS, type EnergyDataKind, type Lang } from '@platform/domain';
import type { FormInstance } from 'antd';
import dayjs from 'dayjs';
import { formatTime } from '../../shared/time';

export const DAY = 'YYYY-MM-DD';

/** The page's kind from its path (/energy/coal, /energy/steamoutput …). */
export function kindOfPath(pathname: string): EnergyDataKind {
  const last = pathname.replace(/\/+$/, '').split('/').pop()?.toLowerCase();
  return ENERGY_DATA_KINDS.find((k) => ENERGY_DATA_KIND_INFO[k].path === last) ?? 'coal';
}

export function langOf(language: string): Lang {
  return language === 'en' ? 'en' : 'zh';
}

/** Today in the company's zone, YYYY-MM-DD. */
export function companyToday(): string {
  return formatTime(Date.now(), 'yyyy-MM-dd');
}

/** The `months` whole months up to the month of `today`: [first day, last day]. */
export function lastMonths(months: number, today: string = companyToday()): [string, string] {
  const end = dayjs(today).endOf('month');
  return [
    end
      .subtract(months - 1, 'month')
      .startOf('month')
      .format(DAY),
    end.format(DAY),
  ];
}

/** Every month (YYYY-MM) from `from` to `to`, for a chart that shows empty months too. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (
    let m = dayjs(from).startOf('month');
    !m.isAfter(dayjs(to), 'month') && months.length < 240;
    m = m.add(1, 'month')
  )
    months.push(m.format('YYYY-MM'));
  return months;
}

/** A figure as the pages show it: grouped, at most `decimals` decimals. */
export function formatNumber(value: number, lang: Lang, decimals = 3): string {
  return new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: decimals }).format(
    value,
  );
}

/** The server's refusal beside the field it names, when the form has that field. */
export function placeFieldError(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  const data = (error as { data?: { field?: unknown } } | null)?.data;
  const field = typeof data?.field === 'string' ? data.field : null;
  if (!field || !fields.includes(field)) return false;
  form.setFields([{ name: field, errors: [error instanceof Error ? error.message : String(error)] }]);
  return true;
}
