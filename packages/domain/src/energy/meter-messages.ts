/**
 * Messages of electricity meters, time-of-use and meter reports (issue 13 points 1-3), part of
 * the one catalogue (errors.ts spreads them in). Each validation message names its field; the
 * envelope carries the field in data.field as well.
 */
import { ERROR_CODES } from '../error-codes';
import type { CatalogueEntry } from '../errors';

const V = ERROR_CODES.VALIDATION;

export const METER_CATALOGUE = {
  notAMeter: {
    code: ERROR_CODES.NOT_FOUND,
    en: 'This entry is not an electricity meter',
    zh: '该条目不是电表',
  },
  meterCodeInvalid: {
    code: V,
    en: '{field}: a meter code is 1 to 25 characters that a formula can name',
    zh: '{field}：电表编码为 1 到 25 个字符，且能在公式中引用',
  },
  meterCodeTaken: {
    code: ERROR_CODES.CONFLICT,
    en: 'Another meter already has the code {code}',
    zh: '已有电表使用编码“{code}”',
  },
  meterItemRequired: {
    code: V,
    en: '{field}: a standard meter reads a data item: choose one',
    zh: '{field}：标准电表需要绑定一个数据项',
  },
  meterFieldMissing: {
    code: V,
    en: '{field}: the data item has no field {name}',
    zh: '{field}：数据项中没有字段“{name}”',
  },
  meterFieldNotNumeric: {
    code: V,
    en: '{field}: field {name} of the data item is not a number field',
    zh: '{field}：数据项的字段“{name}”不是数值字段',
  },
  meterRatioInvalid: {
    code: V,
    en: '{field}: a transformer side is a number greater than 0',
    zh: '{field}：互感器的一次侧和二次侧必须是大于 0 的数',
  },
  meterParentInvalid: {
    code: V,
    en: '{field}: a meter cannot be below itself or below one of its own child meters',
    zh: '{field}：电表不能挂在自身或其下级电表之下',
  },
  meterNoChildren: {
    code: V,
    en: '{field}: meter {name} has no child meters',
    zh: '{field}：电表“{name}”没有下级电表',
  },
  meterInUse: {
    code: ERROR_CODES.CONFLICT,
    en: 'Meter {name} is used by the formula of {user}: change that formula first',
    zh: '电表“{name}”被“{user}”的公式引用，请先修改该公式',
  },
  formulaSyntax: {
    code: V,
    en: '{field}: the formula cannot be read at position {at} ({detail})',
    zh: '{field}：公式在第 {at} 个字符处无法识别（{detail}）',
  },
  formulaUnsupported: {
    code: V,
    en: '{field}: {name} is not allowed in a formula (position {at}); use numbers, meters, + - * / ( ) and abs',
    zh: '{field}：公式中不能使用“{name}”（第 {at} 个字符）；只能使用数字、电表、+ - * / ( ) 和 abs',
  },
  formulaUnknownMeter: {
    code: V,
    en: '{field}: there is no meter {name} (position {at})',
    zh: '{field}：没有电表“{name}”（第 {at} 个字符）',
  },
  formulaCycle: {
    code: V,
    en: '{field}: the formula comes back to itself: {path}',
    zh: '{field}：公式循环引用：{path}',
  },
  touRangeInvalid: {
    code: V,
    en: '{field}: range {index} of the {period} period is not hours of the day (0 to 24, whole minutes, from ≠ to)',
    zh: '{field}：{period}时段的第 {index} 个区间不是一天中的时间（0 到 24 点，整分钟，起止不同）',
  },
  touGap: {
    code: V,
    en: '{field}: no period covers {from} to {to}',
    zh: '{field}：{from} 至 {to} 不属于任何时段',
  },
  touOverlap: {
    code: V,
    en: '{field}: {from} to {to} is in both {a} and {b}',
    zh: '{field}：{from} 至 {to} 同时属于{a}和{b}',
  },
  meterReplacementFinal: {
    code: V,
    en: '{field}: the old meter’s final reading is below its last reading {value}',
    zh: '{field}：旧表的最终读数小于其最后一次读数 {value}',
  },
  meterReplacementInitial: {
    code: V,
    en: '{field}: the new meter’s start reading is above its first reading {value}',
    zh: '{field}：新表的起始读数大于其第一次读数 {value}',
  },
  meterReplacementOrder: {
    code: V,
    en: '{field}: a replacement is already recorded after this time; replacements are recorded in the order they happen',
    zh: '{field}：此时间之后已登记过换表；换表须按发生的先后登记',
  },
  meterReplacementTaken: {
    code: ERROR_CODES.CONFLICT,
    en: 'A replacement is already recorded at this time',
    zh: '该时间已登记过换表',
  },
} as const satisfies Record<string, CatalogueEntry>;
