/** Paths, labels and number formats of the SIM card pages. */
import {
  type Lang,
  SIM_CARRIERS,
  SIM_STATE_CHOICES,
  simCarrierLabel,
  simStateLabel,
  USAGE_STEP_COLOURS,
  usageStep,
} from '@platform/domain';
import type { Side } from './api';

export const simPaths = {
  list: (side: Side) =>
    side === 'company' ? '/devicecommunication/simList' : '/systemMaintenance/systemsim',
  detail: (side: Side, id: number) =>
    side === 'company' ? `/devicecommunication/simDetail/${id}` : `/systemMaintenance/syssimdetail/${id}`,
};

export function langOf(language: string): Lang {
  return language === 'en' ? 'en' : 'zh';
}

export const carrierOptions = (lang: Lang) => SIM_CARRIERS.map((c) => ({ value: c.id, label: c[lang] }));

export const stateOptions = (lang: Lang) =>
  SIM_STATE_CHOICES.map((id) => ({ value: id, label: simStateLabel(id, lang) }));

export { simCarrierLabel, simStateLabel };

/** antd Tag colours of the states: in use green, waiting blue, stopped red */
export const STATE_TAG: Record<number, string> = {
  0: 'default',
  1: 'green',
  2: 'red',
  3: 'blue',
  5: 'cyan',
  6: 'volcano',
};

export const CARRIER_TAG: Record<number, string> = { 0: 'default', 1: 'blue', 2: 'orange', 3: 'geekblue' };

/** "512 MB", "1.5 GB": MB below 1024, GB from there, two decimals at most. */
export function formatMb(mb: number | null | undefined): string {
  if (mb === null || mb === undefined) return '—';
  const round = (n: number) => String(Math.round(n * 100) / 100);
  return mb >= 1024 ? `${round(mb / 1024)} GB` : `${round(mb)} MB`;
}

export function usageColour(percent: number): string {
  return USAGE_STEP_COLOURS[usageStep(percent)];
}

/** "46.5 %" with one decimal below 10 %, whole numbers above */
export function formatPercent(percent: number): string {
  return `${percent < 10 ? Math.round(percent * 10) / 10 : Math.round(percent)}%`;
}
