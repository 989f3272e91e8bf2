/** Numbers of the meter pages: energy in kWh, money from integer cents, prices per kWh. */
import { currentLang } from '../../app/i18n';
import { formatYuan } from '../user/format';

const locale = () => (currentLang() === 'en' ? 'en-US' : 'zh-CN');

/** "1,332,920 kWh"; an absent value is a dash. */
export function kWh(value: number | null | undefined, digits = 2): string {
  if (value == null || !Number.isFinite(value)) return '—';
  return `${new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }).format(value)} kWh`;
}

/** A plain number with up to `digits` decimals. */
export function num(value: number | null | undefined, digits = 2): string {
  if (value == null || !Number.isFinite(value)) return '—';
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }).format(value);
}

export function yuan(cents: number | null | undefined): string {
  return cents == null ? '—' : formatYuan(cents, currentLang());
}

/** A price in cents per kWh as "¥0.90/kWh". */
export function pricePerKWh(cents: number | null | undefined): string {
  return cents == null ? '—' : `${formatYuan(cents, currentLang())}/kWh`;
}

/** 7.5 → "07:30", 24 → "24:00" */
export function hourText(hour: number): string {
  const h = Math.floor(hour);
  const m = Math.round((hour - h) * 60);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** The unit a meter point is shown in. */
export function pointUnit(point: string): string {
  if (point === 'energy') return 'kWh';
  if (point.startsWith('powerFactor')) return '';
  if (point.startsWith('power')) return 'kW';
  if (point.startsWith('voltage')) return 'V';
  if (point.startsWith('current')) return 'A';
  return '';
}

export const TOU_COLORS: Record<string, string> = {
  sharp: '#cf1322',
  peak: '#fa8c16',
  flat: '#1677ff',
  valley: '#52c41a',
};

/**
 * A server refusal shown under its field: without the field name the message starts with
 * ("formula: …", "schedule：…"), which the field's place already says.
 */
export function underField(message: string, field: string | undefined): string {
  if (!field) return message;
  for (const sep of [': ', '：', ':'])
    if (message.startsWith(`${field}${sep}`)) return message.slice(field.length + sep.length);
  return message;
}
