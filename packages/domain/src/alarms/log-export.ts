/**
 * The words of the alarm log's CSV/XLSX export (cs_info), Chinese and English, beside the
 * product's other texts: the columns in their order, the states, who cleared an alarm the
 * engine cleared, and the sheet's title. The words are the alarm pages' own where they overlap.
 */
import type { Lang } from '../errors';

type Text = { zh: string; en: string };

/** the columns of the export, in order */
export const ALARM_LOG_COLUMNS = {
  id: { zh: '编号', en: 'ID' },
  name: { zh: '名称', en: 'Name' },
  item: { zh: '数据项', en: 'Data item' },
  device: { zh: '设备', en: 'Device' },
  level: { zh: '等级', en: 'Level' },
  peakLevel: { zh: '最高等级', en: 'Highest level' },
  value: { zh: '数值', en: 'Value' },
  status: { zh: '状态', en: 'Status' },
  firedAt: { zh: '触发时间', en: 'Fired at' },
  acknowledgedAt: { zh: '确认时间', en: 'Acknowledged at' },
  acknowledgedBy: { zh: '确认人', en: 'Acknowledged by' },
  ackComment: { zh: '确认说明', en: 'Comment' },
  clearedAt: { zh: '清除时间', en: 'Cleared at' },
  clearedBy: { zh: '清除人', en: 'Cleared by' },
  clearValue: { zh: '清除时数值', en: 'Value at clear' },
} as const satisfies Record<string, Text>;

export type AlarmLogColumn = keyof typeof ALARM_LOG_COLUMNS;

/** the states of an alarm as the export writes them */
export const ALARM_LOG_STATUS = {
  active: { zh: '告警中', en: 'Active' },
  acknowledged: { zh: '已确认', en: 'Acknowledged' },
  cleared: { zh: '已清除', en: 'Cleared' },
} as const satisfies Record<string, Text>;

/** who cleared an alarm the engine cleared, and the sheet's (and file's) title */
export const ALARM_LOG_TEXT = {
  automatic: { zh: '自动恢复', en: 'Automatically' },
  title: { zh: '告警记录', en: 'Alarm log' },
} as const satisfies Record<string, Text>;

/** The header row of the export in `lang`. */
export function alarmLogHeader(lang: Lang): string[] {
  return Object.values(ALARM_LOG_COLUMNS).map((column) => column[lang]);
}

/** A state as the export writes it (an unknown one as stored). */
export function alarmStatusText(status: string, lang: Lang): string {
  return (ALARM_LOG_STATUS as Record<string, Text>)[status]?.[lang] ?? status;
}
