/**
 * Messages of configuration screens (issue 13 point 6), part of the one catalogue (errors.ts
 * spreads them in). Validation messages name their field; the envelope carries it in
 * data.field as well.
 */
import { ERROR_CODES } from '../error-codes';
import type { CatalogueEntry } from '../errors';

const V = ERROR_CODES.VALIDATION;

export const SCREEN_CATALOGUE = {
  screenInvalid: {
    code: V,
    en: 'Invalid value for {field} ({reason})',
    zh: '{field} 的值无效（{reason}）',
  },
  screenPointUnknown: {
    code: V,
    en: '{field}: data item {itemId} field {key} is not a point of this device',
    zh: '{field}：数据项 {itemId} 的字段 {key} 不是此设备的数据点',
  },
  screenCommandUnknown: {
    code: V,
    en: '{field}: the device configuration has no command named {name}',
    zh: '{field}：设备配置中没有名为“{name}”的指令',
  },
  screenLeaseHeld: {
    code: ERROR_CODES.CONFLICT,
    en: 'This screen is being edited by {user} (until {until} unless they keep editing); try again later',
    zh: '此组态画面正由 {user} 编辑（若其未继续编辑，至 {until} 释放），请稍后再试',
  },
  screenLeaseLost: {
    code: ERROR_CODES.CONFLICT,
    en: 'You are no longer editing this screen (your editing lease ended); open the editor again. Nothing was saved.',
    zh: '您已不再编辑此组态画面（编辑租约已结束），请重新打开编辑器。未保存任何内容。',
  },
  screenNotFound: {
    code: ERROR_CODES.NOT_FOUND,
    en: 'This device has no configuration screen yet',
    zh: '此设备还没有组态画面',
  },
  screenSwitchUnknown: {
    code: V,
    en: '{field}: the screen has no switch {id}',
    zh: '{field}：画面中没有开关“{id}”',
  },
  screenSwitchNoCommand: {
    code: V,
    en: 'The switch sends nothing for {state}',
    zh: '该开关没有为“{state}”设置指令',
  },
} as const satisfies Record<string, CatalogueEntry>;
