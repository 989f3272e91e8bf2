import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkForm,
  checkFormSubmission,
  FORM_ELEMENT_FIELD_TYPES,
  joinCheckbox,
  splitCheckbox,
} from './form';
import { FIELD_TYPES, type FieldDef, FORM_ELEMENT_TYPES, type FormElement } from './types';

const FIELDS: FieldDef[] = [
  { key: 'f1', name: '姓名', type: 5 },
  { key: 'f2', name: '年龄', type: 10 },
  { key: 'f3', name: '爱好', type: 5 },
  { key: 'f4', name: '照片', type: 8 },
  { key: 'f5', name: '说明', type: 6 },
  { key: 'f6', name: '日期', type: 4 },
];
const FORM: FormElement[] = [
  { id: 'a', type: 'input', label: '姓名', field: 'f1', required: true },
  { id: 'b', type: 'number', label: '年龄', field: 'f2', required: false, min: 0, max: 150, decimals: 0 },
  {
    id: 'c',
    type: 'checkbox',
    label: '爱好',
    field: 'f3',
    required: false,
    options: ['读书', '跑步', '游泳'],
  },
  {
    id: 'd',
    type: 'upload',
    label: '照片',
    field: 'f4',
    required: false,
    maxCount: 2,
    maxWidth: 800,
    crop: true,
  },
  { id: 'e', type: 'textarea', label: '说明', field: 'f5', required: false },
  { id: 'g', type: 'datetime', label: '日期', field: 'f6', required: false },
];

describe('checkForm', () => {
  it('accepts a well-formed form', () => {
    expect(checkForm(FIELDS, FORM)).toEqual({ ok: true, form: FORM });
    expect(checkForm(FIELDS, [])).toEqual({ ok: true, form: [] });
  });

  it('names the first broken rule', () => {
    const cases: Array<[Partial<FormElement>, string, string]> = [
      [{ label: ' ' }, 'label', 'formLabelRequired'],
      [{ field: 'f99' }, 'field', 'formFieldMissing'],
      [{ field: 'f1' }, 'field', 'formFieldMismatch'], // number on a text field
      [{ min: 5, max: 1 }, 'max', 'minAboveMax'],
      [{ decimals: 7 }, 'decimals', 'decimalsRange'],
      [{ type: 'slider' as never }, 'type', 'validation'],
      [{ id: 'a' }, 'id', 'validation'],
      [{ min: Number.NaN }, 'min', 'validation'],
    ];
    for (const [patch, field, key] of cases) {
      const form = FORM.map((el, i) => (i === 1 ? { ...el, ...patch } : el));
      expect(checkForm(FIELDS, form), JSON.stringify(patch)).toMatchObject({
        ok: false,
        index: 1,
        field,
        key,
      });
    }
    const upload = (patch: Partial<FormElement>) =>
      checkForm(
        FIELDS,
        FORM.map((el) => (el.id === 'd' ? { ...el, ...patch } : el)),
      );
    expect(upload({ maxCount: 0 })).toMatchObject({ index: 3, field: 'maxCount', key: 'maxCountRange' });
    expect(upload({ maxCount: 21 })).toMatchObject({ field: 'maxCount', key: 'maxCountRange' });
    expect(upload({ maxHeight: -1 })).toMatchObject({ field: 'maxHeight' });
    expect(upload({ maxWidth: 0 })).toMatchObject({ field: 'maxWidth' });
    const box = (options: unknown) =>
      checkForm(
        FIELDS,
        FORM.map((el) => (el.id === 'c' ? { ...el, options: options as string[] } : el)),
      );
    expect(box([])).toMatchObject({ index: 2, field: 'options' });
    expect(box(['a', 'a'])).toMatchObject({ field: 'options' });
    expect(box(['a,b'])).toMatchObject({ field: 'options' });
    // two elements writing one field
    expect(checkForm(FIELDS, [...FORM, { ...FORM[0]!, id: 'z' }])).toMatchObject({
      index: 6,
      field: 'field',
    });
  });

  it('names the element and the field it cannot write', () => {
    const form = FORM.map((el, i) => (i === 1 ? { ...el, field: 'f1' } : el));
    const label = FORM[1]!.label;
    const name = FIELDS.find((f) => f.key === 'f1')!.name;
    expect(checkForm(FIELDS, form)).toEqual({
      ok: false,
      index: 1,
      field: 'field',
      key: 'formFieldMismatch',
      params: { element: label, field: name },
    });
  });

  it('property: an element is accepted on exactly the field types that fit it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORM_ELEMENT_TYPES),
        fc.constantFrom(...FIELD_TYPES),
        (type, fieldType) => {
          const el: FormElement = {
            id: 'x',
            type,
            label: 'x',
            field: 'f1',
            required: false,
            ...(type === 'radio' || type === 'checkbox' ? { options: ['a'] } : {}),
          };
          const r = checkForm([{ key: 'f1', name: 'x', type: fieldType }], [el]);
          expect(r.ok).toBe(FORM_ELEMENT_FIELD_TYPES[type].includes(fieldType));
        },
      ),
    );
  });
});

describe('checkFormSubmission', () => {
  it('joins checkbox choices in option order and checks the record', () => {
    expect(checkFormSubmission(FIELDS, FORM, { f1: '张三', f2: '30', f3: ['游泳', '读书'] })).toEqual({
      ok: true,
      values: { f1: '张三', f2: 30, f3: '读书,游泳' },
    });
  });

  it('applies the element rules', () => {
    expect(checkFormSubmission(FIELDS, FORM, { f2: 3 })).toMatchObject({ field: 'f1', key: 'fieldRequired' });
    expect(checkFormSubmission(FIELDS, FORM, { f1: 'x', f2: 151 })).toMatchObject({
      field: 'f2',
      name: '年龄',
    });
    expect(checkFormSubmission(FIELDS, FORM, { f1: 'x', f2: 1.5 })).toMatchObject({ field: 'f2' });
    expect(checkFormSubmission(FIELDS, FORM, { f1: 'x', f3: ['潜水'] })).toMatchObject({ field: 'f3' });
    expect(checkFormSubmission(FIELDS, FORM, { f1: 'x', f9: 1 })).toMatchObject({ key: 'unknownField' });
    const file = { url: '/general/files/a.png', name: 'a.png', size: 1 };
    expect(checkFormSubmission(FIELDS, FORM, { f1: 'x', f4: [file, file, file] })).toMatchObject({
      field: 'f4',
      key: 'tooManyFiles',
    });
    expect(checkFormSubmission(FIELDS, FORM, { f1: 'x', f4: [file, file] }).ok).toBe(true);
    expect(checkFormSubmission(FIELDS, FORM, { f1: 'x', f6: 'soon' })).toMatchObject({ key: 'valueNotDate' });
  });

  it('splits what it joins', () => {
    expect(splitCheckbox(joinCheckbox(['a', 'b']))).toEqual(['a', 'b']);
    expect(splitCheckbox(null)).toEqual([]);
  });
});
