/**
 * Messages of device-family flow charts (issue 13 point 7), part of the one catalogue (errors.ts
 * spreads them in). Validation messages name their field; the envelope carries it in data.field.
 */
import { ERROR_CODES } from '../error-codes';
import type { CatalogueEntry } from '../errors';

const V = ERROR_CODES.VALIDATION;

export const FAMILY_CATALOGUE = {
  familyInvalid: {
    code: V,
    en: 'Invalid value for {field} ({reason})',
    zh: '{field} 的值无效（{reason}）',
  },
  familyCodeTaken: {
    code: ERROR_CODES.CONFLICT,
    en: 'Another device-family template already has the code {code}',
    zh: '已有设备族模板使用编码“{code}”',
  },
  familyNotFound: {
    code: ERROR_CODES.NOT_FOUND,
    en: 'This device-family template does not exist',
    zh: '该设备族模板不存在',
  },
  familyChanged: {
    code: ERROR_CODES.CONFLICT,
    en: 'Someone saved this template after you opened it (now version {version}): open it again to see their changes',
    zh: '您打开此模板后已有人保存过（当前版本 {version}），请重新打开查看其修改',
  },
  familyInUse: {
    code: ERROR_CODES.CONFLICT,
    en: 'The template is the flow chart of {count} device(s): choose another template for them first',
    zh: '该模板正被 {count} 台设备用作流程图，请先为这些设备改选其他模板',
  },
  familyRoleInUse: {
    code: V,
    en: '{field}: the drawing still binds role {role}; unbind it before removing the role',
    zh: '{field}：画面中仍有元素绑定角色“{role}”，请先解除绑定再删除该角色',
  },
  familyInverterKept: {
    code: ERROR_CODES.CONFLICT,
    en: 'The PV inverter template is what the inverter dashboard reads: it can be edited, not deleted',
    zh: '“光伏逆变器”模板是逆变器看板读取的依据，只能编辑，不能删除',
  },
  flowChartNotSet: {
    code: ERROR_CODES.NOT_FOUND,
    en: 'This device has no flow chart yet: choose its device family',
    zh: '此设备还没有流程图，请先选择其设备族',
  },
  flowChartCommandUnmapped: {
    code: V,
    en: 'This device has no command mapped for the switch’s {command} ({state}): map it on the flow chart',
    zh: '此设备没有为开关的“{command}”（{state}）对应指令，请在流程图中设置指令对应',
  },
  notAnInverter: {
    code: ERROR_CODES.NOT_FOUND,
    en: 'This device is not a PV inverter: choose the PV inverter family for it on its flow chart',
    zh: '此设备不是光伏逆变器：请在其流程图中为其选择“光伏逆变器”设备族',
  },
} as const satisfies Record<string, CatalogueEntry>;
