import { describe, expect, it } from 'vitest';
import { messageFor } from '../errors';
import { cellReason, isBlankValue, isTemplateNoteRow, templateNote } from './import-template';
import type { FieldDef } from './types';

const PRESSURE: FieldDef = { key: 'f1', name: '压力', unit: 'MPa', type: 1, decimals: 3, required: true };
const NOTE: FieldDef = { key: 'f2', name: '备注', type: 5 };

describe('templateNote', () => {
  it('says type, decimals, unit and required in either language', () => {
    expect(templateNote(PRESSURE, 'zh')).toBe('小数，3 位小数，单位 MPa，必填');
    expect(templateNote(PRESSURE, 'en')).toBe('Decimal; 3 decimal places; unit MPa; required');
    expect(templateNote({ key: 'f3', name: '金额', type: 2 }, 'zh')).toBe('货币，2 位小数');
    expect(templateNote({ key: 'f4', name: '日期', type: 4, dateFormat: 'yyyy-MM' }, 'en')).toBe(
      'Date and time; format yyyy-MM',
    );
    expect(templateNote(NOTE, 'zh')).toBe('文本');
    expect(templateNote('time', 'zh')).toContain('留空为导入时间');
  });
});

describe('isTemplateNoteRow', () => {
  const columns = ['time', PRESSURE, NOTE] as const;
  it("knows the note row in either language, cell by cell in its column's place", () => {
    expect(isTemplateNoteRow([templateNote('time', 'en'), templateNote(PRESSURE, 'zh'), ''], columns)).toBe(
      true,
    );
    expect(isTemplateNoteRow(['', '', templateNote(NOTE, 'en')], columns)).toBe(true);
  });
  it('takes anything else for data: a note in another column, a value, an empty row, an unmapped column', () => {
    expect(isTemplateNoteRow(['', templateNote(NOTE, 'zh'), ''], columns)).toBe(false);
    expect(isTemplateNoteRow(['', '1.5', templateNote(NOTE, 'zh')], columns)).toBe(false);
    expect(isTemplateNoteRow(['', null, undefined], columns)).toBe(false);
    expect(isTemplateNoteRow(['', '', '', 'x'], columns)).toBe(false);
  });
});

describe('cellReason', () => {
  it('drops the field name of value messages, keeps it where a message has no short form', () => {
    expect(cellReason('valueNotNumber', 'zh', '产量')).toBe('必须是数字');
    expect(cellReason('valueNotNumber', 'en', '产量')).toBe('must be a number');
    expect(cellReason('fieldRequired', 'zh', '产量')).toBe('不能为空');
    expect(cellReason('unknownField', 'en', 'x')).toBe(messageFor('unknownField', 'en', { field: 'x' }));
  });
});

describe('isBlankValue', () => {
  it('is true for nothing, blank text and no files only', () => {
    expect([null, undefined, '', '  ', []].every((v) => isBlankValue(v))).toBe(true);
    expect([0, 'a', [{ url: 'u', name: 'n', size: 1 }]].some((v) => isBlankValue(v))).toBe(false);
  });
});
