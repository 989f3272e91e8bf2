import { describe, expect, it } from 'vitest';
import {
  ALARM_LOG_COLUMNS,
  ALARM_LOG_STATUS,
  ALARM_LOG_TEXT,
  alarmLogHeader,
  alarmStatusText,
} from './log-export';

describe('the alarm log export texts', () => {
  it('has every text in Chinese and English, distinct per language', () => {
    for (const table of [ALARM_LOG_COLUMNS, ALARM_LOG_STATUS, ALARM_LOG_TEXT]) {
      for (const [key, text] of Object.entries(table)) {
        expect(text.zh.trim(), key).not.toBe('');
        expect(text.en.trim(), key).not.toBe('');
        expect(text.zh, key).not.toBe(text.en);
      }
    }
  });

  it('heads the columns in order, no two alike', () => {
    for (const lang of ['zh', 'en'] as const) {
      const header = alarmLogHeader(lang);
      expect(header).toHaveLength(Object.keys(ALARM_LOG_COLUMNS).length);
      expect(new Set(header).size).toBe(header.length);
    }
    expect(alarmLogHeader('zh').slice(0, 5)).toEqual(['编号', '名称', '数据项', '设备', '等级']);
    expect(alarmLogHeader('en')[8]).toBe('Fired at');
  });

  it('writes a state in the language, an unknown one as stored', () => {
    expect(alarmStatusText('acknowledged', 'zh')).toBe('已确认');
    expect(alarmStatusText('cleared', 'en')).toBe('Cleared');
    expect(alarmStatusText('weird', 'en')).toBe('weird');
  });
});
