/**
 * The one error and message catalogue (seed point 8). Server handlers throw by key; the
 * envelope carries the numeric code and the text in the caller's language. The spec's
 * English messages are kept word for word.
 */
export type Lang = 'zh' | 'en';

export interface CatalogueEntry {
  /** Envelope code. Several keys may share a code (all validation errors are 40000). */
  code: number;
  en: string;
  zh: string;
}

import { CONFIG_CATALOGUE } from './devices/config-messages';
import { METER_CATALOGUE } from './energy/meter-messages';
import { ERROR_CODES } from './error-codes';
import { FAMILY_CATALOGUE } from './scada/family-messages';
import { SCREEN_CATALOGUE } from './scada/screen-messages';

export { ERROR_CODES };

const C = ERROR_CODES;

export const CATALOGUE = {
  // envelope-level
  internal: { code: C.INTERNAL, en: 'Server error, please try again later', zh: '服务器错误，请稍后再试' },
  notFound: { code: C.NOT_FOUND, en: 'The requested resource does not exist', zh: '请求的资源不存在' },
  routeNotFound: { code: C.NOT_FOUND, en: 'No such interface', zh: '接口不存在' },
  forbidden: {
    code: C.FORBIDDEN,
    en: 'You do not have permission for this operation',
    zh: '您没有执行此操作的权限',
  },
  noCompany: {
    code: C.FORBIDDEN,
    en: 'You are not a member of any company yet',
    zh: '您还不属于任何公司',
  },
  tokenMissing: { code: C.TOKEN_INVALID, en: 'Please log in first', zh: '请先登录' },
  tokenInvalid: {
    code: C.TOKEN_INVALID,
    en: 'Your login is no longer valid, please log in again',
    zh: '登录状态已失效，请重新登录',
  },
  tokenExpired: {
    code: C.TOKEN_EXPIRED,
    en: 'Your login has expired, please log in again',
    zh: '登录已过期，请重新登录',
  },
  rateLimited: {
    code: C.RATE_LIMITED,
    en: 'Too many attempts, please try again later',
    zh: '尝试次数过多，请稍后再试',
  },
  validation: { code: C.VALIDATION, en: 'Invalid value for {field}', zh: '{field} 的值无效' },
  requestTooLarge: { code: C.TOO_LARGE, en: 'The request is too large', zh: '请求内容过大' },
  fieldRequired: { code: C.VALIDATION, en: '{field} is required', zh: '{field} 不能为空' },

  // accounts
  loginFailed: {
    code: C.LOGIN_FAILED,
    en: 'Wrong phone number or password',
    zh: '手机号或密码错误',
  },
  phoneInvalid: {
    code: C.VALIDATION,
    en: 'Please enter a valid mobile phone number',
    zh: '请输入正确的手机号码',
  },
  passwordWeak: {
    code: C.VALIDATION,
    en: 'The password must be 8 to 64 characters and contain letters and digits',
    zh: '密码须为8至64位，且包含字母和数字',
  },
  smsCodeInvalid: {
    code: C.VALIDATION,
    en: 'The verification code is wrong or has expired',
    zh: '验证码错误或已过期',
  },
  smsTooFrequent: {
    code: C.RATE_LIMITED,
    en: 'A code was sent recently, please wait a minute',
    zh: '验证码已发送，请一分钟后再试',
  },
  phoneTaken: { code: C.CONFLICT, en: 'This phone number is already registered', zh: '该手机号已注册' },
  phoneNotRegistered: {
    code: C.VALIDATION,
    en: 'This phone number is not registered',
    zh: '该手机号尚未注册',
  },
  tooManyAttempts: {
    code: C.RATE_LIMITED,
    en: 'Too many attempts for this phone number, please try again in {minutes} min',
    zh: '该手机号尝试次数过多，请{minutes}分钟后再试',
  },
  scanExpired: {
    code: C.VALIDATION,
    en: 'The QR code has expired, please refresh it',
    zh: '二维码已过期，请刷新',
  },
  wxAlreadyBound: {
    code: C.CONFLICT,
    en: 'This phone number or scan identity is already bound to another account',
    zh: '该手机号或扫码身份已绑定其他账号',
  },
  scanNotConfigured: {
    code: C.NOT_FOUND,
    en: 'Scan-code login is not configured on this platform',
    zh: '本平台未配置扫码登录',
  },
  scanIdentityMissing: {
    code: C.VALIDATION,
    en: 'This browser has no scan identity yet: open the link of the QR code again',
    zh: '此浏览器尚无扫码身份，请重新打开二维码中的链接',
  },
  scanProviderFailed: {
    code: C.BUSINESS,
    en: 'The messaging app could not confirm the login, please refresh the QR code and scan again',
    zh: '社交通讯应用未能确认登录，请刷新二维码后重新扫码',
  },
  userDisabled: { code: C.FORBIDDEN, en: 'This account is disabled', zh: '该账号已停用' },
  termsNotAccepted: {
    code: C.VALIDATION,
    en: 'Please read and tick the terms of use before confirming',
    zh: '请阅读并勾选同意使用条款后再确认',
  },
  emailInvalid: {
    code: C.VALIDATION,
    en: 'Please enter a valid email address',
    zh: '请输入有效的电子邮箱地址',
  },
  oldPasswordWrong: { code: C.VALIDATION, en: 'The old password is incorrect', zh: '原密码不正确' },

  // companies, members, groups
  companyNameTaken: {
    code: C.CONFLICT,
    en: 'A company with this name already exists',
    zh: '该公司名称已存在',
  },
  alreadyMember: { code: C.CONFLICT, en: 'This user is already a member', zh: '该用户已是成员' },
  notMember: {
    code: C.VALIDATION,
    en: 'This user is not a member of the company',
    zh: '该用户不是本公司成员',
  },
  lastAdmin: {
    code: C.BUSINESS,
    en: 'The company must keep at least one administrator',
    zh: '公司至少需要保留一名管理员',
  },
  invitationNotFound: {
    code: C.NOT_FOUND,
    en: 'The invitation does not exist or has been handled',
    zh: '邀请不存在或已处理',
  },
  groupNameTaken: { code: C.CONFLICT, en: 'A group with this name already exists', zh: '该分组名称已存在' },
  roleNameTaken: { code: C.CONFLICT, en: 'A role with this name already exists', zh: '该角色名称已存在' },
  roleInUse: {
    code: C.BUSINESS,
    en: 'This role is still assigned to users',
    zh: '该角色仍有用户在使用',
  },
  builtinRoleUndeletable: {
    code: C.BUSINESS,
    en: 'Built-in roles cannot be deleted',
    zh: '内置角色不能删除',
  },
  adminRoleLocked: {
    code: C.BUSINESS,
    en: 'The built-in administrator role cannot lose permissions or its administrator type',
    zh: '内置管理员角色不能减少权限或更改管理员类型',
  },
  grantNotHeld: {
    code: C.VALIDATION,
    en: 'You cannot grant, revoke or manage permissions you do not hold yourself',
    zh: '不能授予、收回或管理超出您自身权限的权限',
  },
  membershipRaisesRights: {
    code: C.VALIDATION,
    en: 'This change would give data permissions beyond those you hold yourself; an administrator can make it',
    zh: '此操作会使数据权限超出您自身拥有的权限，请由管理员操作',
  },
  accountNotManaged: {
    code: C.BUSINESS,
    en: 'This account also belongs to other companies; only its owner can change its name or status',
    zh: '该账号同时属于其他公司，只有本人可以修改其名称或状态',
  },
  disableSelf: { code: C.BUSINESS, en: 'You cannot disable your own account', zh: '不能停用自己的账号' },
  delegateSelf: {
    code: C.VALIDATION,
    en: 'You cannot delegate alerts to yourself',
    zh: '不能将告警委托给自己',
  },
  delegationExists: {
    code: C.CONFLICT,
    en: 'Alerts are already delegated to this user',
    zh: '已将告警委托给该用户',
  },
  companyConfirmMismatch: {
    code: C.VALIDATION,
    en: 'The name you typed does not match the company name',
    zh: '输入的名称与公司名称不一致',
  },

  // spec point 5 and 8, word for word in English
  nameRequired: { code: C.VALIDATION, en: 'Please enter a name', zh: '请输入名称' },
  nameTooLong: {
    code: C.VALIDATION,
    en: 'The length of the name cannot exceed 25 characters',
    zh: '名称长度不能超过25个字符',
  },
  nameNoPercent: {
    code: C.VALIDATION,
    en: 'The name cannot contain the percent sign (%)',
    zh: '名称不能包含百分号（%）',
  },
  nameNoSpecial: {
    code: C.VALIDATION,
    en: 'The data item name cannot contain special characters',
    zh: '数据项名称不能包含特殊字符',
  },
  parentRequired: { code: C.VALIDATION, en: 'Please select a parent directory', zh: '请选择上级目录' },
  typeRequired: { code: C.VALIDATION, en: 'Please select a type', zh: '请选择类型' },
  destinationTypeRequired: {
    code: C.VALIDATION,
    en: 'Please select a destination type',
    zh: '请选择目标类型',
  },
  dataNameRequired: { code: C.VALIDATION, en: 'Data name cannot be empty', zh: '数据名称不能为空' },
  typeEntriesIncomplete: {
    code: C.VALIDATION,
    en: 'All type entries must be completed',
    zh: '请完善所有类型项',
  },
  jumpIncomplete: {
    code: C.VALIDATION,
    en: 'A jump needs a filter name, complete conditions and a destination data item',
    zh: '跳转需要筛选名称、完整的条件和目标数据项',
  },
  jumpSelf: {
    code: C.VALIDATION,
    en: 'Cannot set its own data item as the destination data item',
    zh: '不能将自身数据项设为目标数据项',
  },
  imageFormat: {
    code: C.VALIDATION,
    en: 'The file format is incorrect. Please upload the image type, such as JPG or PNG files with suffixes.',
    zh: '文件格式不正确，请上传图片类型，如JPG、PNG后缀的文件。',
  },
  imageTooLarge: { code: C.VALIDATION, en: 'The image size exceeds 3M', zh: '图片大小超过3M' },
  imageTooManyPixels: {
    code: C.VALIDATION,
    en: 'The image dimensions are too large: at most 40 megapixels (for example 8000 × 5000)',
    zh: '图片尺寸过大，最多4000万像素（例如8000×5000）',
  },
  fileLinkExpired: {
    code: C.FORBIDDEN,
    en: 'This link has expired, please reload the page to get a new one',
    zh: '链接已过期，请刷新页面后重新打开',
  },
  imageBusy: {
    code: C.RATE_LIMITED,
    en: 'The server is busy processing images, please try again in a moment',
    zh: '服务器正忙于处理图片，请稍后再试',
  },
  clearNameMismatch: {
    code: C.VALIDATION,
    en: 'The name you typed does not match the data item name',
    zh: '输入的名称与数据项名称不一致',
  },
  maxNodes: {
    code: C.BUSINESS,
    en: 'You have reached the maximum number of nodes created!',
    zh: '已达到可创建节点数量的上限！',
  },
  copyOnlyDirAndItem: {
    code: C.VALIDATION,
    en: 'Only directories and data items can be copied',
    zh: '只能复制目录和数据项',
  },
  selectMoveObjects: {
    code: C.VALIDATION,
    en: 'Please select the objects to move',
    zh: '请选择要移动的对象',
  },
  selectCopyObjects: {
    code: C.VALIDATION,
    en: 'Please select the directories or data items to copy',
    zh: '请选择要复制的目录或数据项',
  },
  selectDeleteObjects: {
    code: C.VALIDATION,
    en: 'Please select the objects to delete',
    zh: '请选择要删除的对象',
  },
  selectDirectory: { code: C.VALIDATION, en: 'Please select a directory', zh: '请选择目录' },
  hexPacketInvalid: {
    code: C.VALIDATION,
    en: 'Hex data must be groups of two hex digits separated by single spaces',
    zh: '十六进制数据须为两位一组、以单个空格分隔的十六进制数字',
  },
  ipInvalid: {
    code: C.VALIDATION,
    en: 'Please enter a valid IPv4 or full IPv6 address',
    zh: '请输入有效的IPv4或完整的IPv6地址',
  },
  numberInvalid: { code: C.VALIDATION, en: 'Please enter a number', zh: '请输入数字' },
  gatewayNotBound: { code: C.BUSINESS, en: 'The gateway is not bound.', zh: '网关未绑定。' },
  gatewayOfflineUpgrade: {
    code: C.BUSINESS,
    en: 'The current gateway is offline and cannot upgrade firmware.',
    zh: '当前网关离线，无法升级固件。',
  },
  gatewayOfflineConfig: {
    code: C.BUSINESS,
    en: 'The current gateway is offline and unable to remotely update configuration.',
    zh: '当前网关离线，无法远程更新配置。',
  },
  firmwareFailed: {
    code: C.BUSINESS,
    en: 'Firmware update failed, please try again later.',
    zh: '固件更新失败，请稍后再试。',
  },
  downloadInfoFailed: {
    code: C.BUSINESS,
    en: 'Download information acquisition failed!',
    zh: '下载信息获取失败！',
  },
  upgradeLive: {
    code: C.CONFLICT,
    en: 'An upgrade of this gateway is already in progress',
    zh: '该网关正在升级中',
  },
  firmwareVersionExists: {
    code: C.CONFLICT,
    en: 'Version {version} of model {model} has already been uploaded',
    zh: '型号 {model} 的版本 {version} 已上传过',
  },
  firmwareInUse: {
    code: C.CONFLICT,
    en: 'This version is being installed on a gateway and cannot be deleted now',
    zh: '该版本正在安装到网关，暂时不能删除',
  },
  firmwareVersionInvalid: {
    code: C.VALIDATION,
    en: 'The version must be numbers separated by dots, such as 1.3.0 (a suffix such as -rc1 is allowed)',
    zh: '版本号须为以点分隔的数字，例如 1.3.0（可带 -rc1 等后缀）',
  },
  firmwareImageInvalid: {
    code: C.VALIDATION,
    en: 'This file is not a firmware image (it is a picture, document, archive or text)',
    zh: '该文件不是固件镜像（它是图片、文档、压缩包或文本）',
  },
  firmwareTooLarge: {
    code: C.TOO_LARGE,
    en: 'The firmware image exceeds {max} MB',
    zh: '固件镜像超过 {max} MB',
  },
  firmwareWrongModel: {
    code: C.BUSINESS,
    en: 'This version is for model {model}, not this gateway',
    zh: '该版本适用于型号 {model}，不适用于此网关',
  },
  gatewayOfflinePassthrough: {
    code: C.BUSINESS,
    en: 'The current gateway is offline: its ports cannot be debugged.',
    zh: '当前网关离线，无法调试其串口。',
  },
  gatewayOfflineCommand: {
    code: C.BUSINESS,
    en: 'The current gateway is offline and cannot receive commands.',
    zh: '当前网关离线，无法接收指令。',
  },
  passthroughPortUnknown: {
    code: C.VALIDATION,
    en: 'The gateway has no port {port}',
    zh: '网关没有端口 {port}',
  },
  passthroughPortInUse: {
    code: C.CONFLICT,
    en: 'Port {port} of this gateway is in use by {name} in the serial debug assistant',
    zh: '该网关的端口 {port} 正被 {name} 在串口调试助手中使用',
  },
  passthroughTooLong: {
    code: C.VALIDATION,
    en: 'At most {max} bytes can be sent at once',
    zh: '一次最多发送 {max} 个字节',
  },
  passthroughTooFast: {
    code: C.RATE_LIMITED,
    en: 'Sending too fast: at most {max} sends a second',
    zh: '发送过于频繁，每秒最多发送 {max} 次',
  },
  passthroughEmpty: {
    code: C.VALIDATION,
    en: 'Please enter the data to send',
    zh: '请输入要发送的数据',
  },
  configCheckFailed: {
    code: C.BUSINESS,
    en: 'The configuration failed the check. Please use the configuration check for details.',
    zh: '配置未通过检查，请使用配置检查查看详情。',
  },
  // gateways and devices (packages/domain/src/devices)
  serialNumberInvalid: {
    code: C.VALIDATION,
    en: 'The serial number must be 6 to 32 letters (A-Z) or digits',
    zh: '序列号须为6至32位字母（A-Z）或数字',
  },
  serialNumberTaken: {
    code: C.CONFLICT,
    en: 'A gateway with the serial number {sn} is already registered',
    zh: '序列号为 {sn} 的网关已登记',
  },
  serialNumberRepeated: {
    code: C.VALIDATION,
    en: 'The serial number {sn} appears more than once',
    zh: '序列号 {sn} 重复出现',
  },
  gatewayUnknown: {
    code: C.BUSINESS,
    en: 'No gateway has this serial number: check the number on the gateway’s label',
    zh: '没有该序列号的网关，请核对网关铭牌上的序列号',
  },
  gatewayBoundElsewhere: {
    code: C.BUSINESS,
    en: 'This gateway is already bound to another company',
    zh: '该网关已被其他公司绑定',
  },
  gatewayAlreadyBound: {
    code: C.BUSINESS,
    en: 'This gateway is already bound to your company',
    zh: '该网关已绑定到本公司',
  },
  gatewayOfflineBind: {
    code: C.BUSINESS,
    en: 'The gateway is offline: power it on and connect it to the network, then bind it',
    zh: '网关离线，请接通电源并联网后再绑定',
  },
  gatewayBindPending: {
    code: C.BUSINESS,
    en: 'A bind request of another company is waiting for confirmation on this gateway, please try again later',
    zh: '其他公司对该网关的绑定请求正在等待设备确认，请稍后再试',
  },
  bindRequestExpired: {
    code: C.BUSINESS,
    en: 'The bind request has expired, please bind again',
    zh: '绑定请求已过期，请重新绑定',
  },
  bindRequestUnknown: {
    code: C.BUSINESS,
    en: 'This bind request does not exist or has been replaced by a newer one',
    zh: '该绑定请求不存在或已被新的请求取代',
  },
  gatewayRemoveBound: {
    code: C.BUSINESS,
    en: 'A bound gateway cannot be removed: the company must unbind it first',
    zh: '已绑定的网关不能删除，请先由公司解绑',
  },
  gatewayRemoveHistory: {
    code: C.BUSINESS,
    en: 'This gateway has been bound before: its registration stays for the records companies keep of it',
    zh: '该网关曾被绑定，其登记须保留，以便公司保留其记录',
  },
  mqttBrokerUnavailableGateway: {
    code: C.INTERNAL,
    en: 'The MQTT broker could not be reached, nothing was changed, please try again later',
    zh: '无法连接 MQTT 服务器，未做任何更改，请稍后再试',
  },
  deviceNodeByBinding: {
    code: C.VALIDATION,
    en: 'Devices join the data cabin by binding a gateway in device management',
    zh: '设备须在设备管理中绑定网关后加入数据舱',
  },
  meterNodeByMeterPage: {
    code: C.VALIDATION,
    en: 'Meters are created as meters (new meter in the data cabin), with their kind and readings',
    zh: '电表须以“新建电表”创建，并填写其类型与读数来源',
  },
  cabinHoldsDevices: {
    code: C.BUSINESS,
    en: 'The selection holds bound devices: unbind them in device management, or move them elsewhere first',
    zh: '所选内容包含已绑定的设备，请先在设备管理中解绑，或将其移到别处',
  },
  planAssigneeInvalid: {
    code: C.VALIDATION,
    en: 'The person in charge must be a member of the company',
    zh: '负责人必须是本公司成员',
  },
  // serial packets and parsers (packages/domain/src/devices)
  packageNameTaken: {
    code: C.VALIDATION,
    en: 'A data package with this name already exists',
    zh: '已存在同名的数据包',
  },
  packetTooLong: {
    code: C.VALIDATION,
    en: 'A packet can hold at most {max} bytes, CRC included',
    zh: '数据包最多 {max} 个字节（含CRC）',
  },
  packageInUse: {
    code: C.BUSINESS,
    en: 'This data package is used by {where}: remove it there first',
    zh: '该数据包正被 {where} 使用，请先从中移除',
  },
  parserFormatMismatch: {
    code: C.VALIDATION,
    en: 'The value "{value}": this number format cannot give this value type',
    zh: '值“{value}”：该数值格式不能得到此值类型',
  },
  parserLengthInvalid: {
    code: C.VALIDATION,
    en: 'The value "{value}": this number format reads {lengths} bytes',
    zh: '值“{value}”：该数值格式读取 {lengths} 个字节',
  },
  parserBitInvalid: {
    code: C.VALIDATION,
    en: 'The value "{value}": the bit index must be between 0 and {max}',
    zh: '值“{value}”：位序号须在 0 到 {max} 之间',
  },
  parserIntegerScale: {
    code: C.VALIDATION,
    en: 'The value "{value}" is an integer: its scale and offset must be whole numbers (or choose decimal)',
    zh: '值“{value}”为整数：倍率和数值偏移须为整数（或改选小数）',
  },
  parserValuePastEnd: {
    code: C.VALIDATION,
    en: 'The value "{value}" reads past the end of the answer\'s data ({length} bytes)',
    zh: '值“{value}”超出了应答数据的末尾（数据共 {length} 个字节）',
  },
  parserBindingRequired: {
    code: C.VALIDATION,
    en: 'Choose the data item and field that the value "{value}" is stored in',
    zh: '请选择值“{value}”存入的数据项和字段',
  },
  parserValueNameTaken: {
    code: C.VALIDATION,
    en: 'Two values are named "{value}"',
    zh: '有两个值都名为“{value}”',
  },
  parserTargetTaken: {
    code: C.VALIDATION,
    en: 'The values "{other}" and "{value}" are stored in the same field',
    zh: '值“{other}”和“{value}”存入了同一个字段',
  },
  parserItemNotIot: {
    code: C.VALIDATION,
    en: 'The value "{value}" must be stored in an IoT data list',
    zh: '值“{value}”须存入物联网数据列表',
  },
  parserFieldMismatch: {
    code: C.VALIDATION,
    en: 'The value "{value}" cannot be stored in the field "{fieldName}": the field\'s type cannot hold it',
    zh: '值“{value}”不能存入字段“{fieldName}”：字段类型与值类型不匹配',
  },
  parserItemNotWritable: {
    code: C.FORBIDDEN,
    en: 'You may not write into the data item of the value "{value}"',
    zh: '您没有写入值“{value}”所选数据项的权限',
  },
  parserFieldMissing: {
    code: C.VALIDATION,
    en: 'The field chosen for the value "{value}" does not exist in its data item',
    zh: '值“{value}”所选的字段在其数据项中不存在',
  },
  frameWrongLength: {
    code: C.VALIDATION,
    en: 'Wrong length: the answer has {length} bytes, {expected} expected',
    zh: '长度错误：应答有 {length} 个字节，应为 {expected} 个',
  },
  frameBadCrc: {
    code: C.VALIDATION,
    en: 'The CRC-16/Modbus check of the answer failed',
    zh: '应答的 CRC-16/Modbus 校验失败',
  },
  frameWrongAddress: {
    code: C.VALIDATION,
    en: 'The answer comes from address {address}, not {expected}',
    zh: '应答来自地址 {address}，而不是 {expected}',
  },
  frameWrongFunction: {
    code: C.VALIDATION,
    en: 'The answer is for function {fn}, not {expected}',
    zh: '应答的功能码为 {fn}，而不是 {expected}',
  },
  frameException: {
    code: C.VALIDATION,
    en: 'The device answered with exception code {code}',
    zh: '设备返回了异常码 {code}',
  },
  valueNotFinite: {
    code: C.VALIDATION,
    en: 'The value "{value}" is not a finite number',
    zh: '值“{value}”不是有限的数值',
  },
  valueTooLarge: {
    code: C.VALIDATION,
    en: 'The value "{value}" is too large to be kept exactly',
    zh: '值“{value}”过大，无法精确保存',
  },
  valueNotAscii: {
    code: C.VALIDATION,
    en: 'The value "{value}" holds bytes that are not ASCII text',
    zh: '值“{value}”含有不是ASCII文本的字节',
  },
  valueNotTime: {
    code: C.VALIDATION,
    en: 'The value "{value}" is not a time between 1970 and 9999',
    zh: '值“{value}”不是 1970 至 9999 年之间的时间',
  },
  // data engine: fields, values, forms, jumps, schedules (packages/domain/src/data)
  fieldNameTaken: {
    code: C.VALIDATION,
    en: 'A field with this name already exists',
    zh: '该字段名称已存在',
  },
  fieldNameReserved: {
    code: C.VALIDATION,
    en: 'This field name is reserved, please choose another',
    zh: '该字段名称为保留名称，请更换',
  },
  decimalsRange: {
    code: C.VALIDATION,
    en: 'Decimal places must be between 0 and 6',
    zh: '小数位数须在0到6之间',
  },
  unknownField: { code: C.VALIDATION, en: 'Unknown field: {field}', zh: '未知字段：{field}' },
  valueNotNumber: { code: C.VALIDATION, en: '{field} must be a number', zh: '{field} 必须是数字' },
  valueNotInteger: { code: C.VALIDATION, en: '{field} must be an integer', zh: '{field} 必须是整数' },
  valueNotDate: {
    code: C.VALIDATION,
    en: '{field} must be a valid date and time',
    zh: '{field} 必须是有效的日期时间',
  },
  valueNotText: { code: C.VALIDATION, en: '{field} must be text', zh: '{field} 必须是文本' },
  valueTooLong: { code: C.VALIDATION, en: '{field} is too long', zh: '{field} 内容过长' },
  valueNotFiles: {
    code: C.VALIDATION,
    en: '{field} must be a list of uploaded files',
    zh: '{field} 必须是已上传文件的列表',
  },
  recordEmpty: {
    code: C.VALIDATION,
    en: 'Nothing was entered: fill in at least one field',
    zh: '没有填写任何内容，请至少填写一项',
  },
  tooManyFiles: {
    code: C.VALIDATION,
    en: '{field} has too many files',
    zh: '{field} 的文件数量过多',
  },
  formFieldMismatch: {
    code: C.VALIDATION,
    en: 'The form element "{element}" cannot be bound to the field "{field}": the field\'s type cannot hold what the element produces',
    zh: '表单元素“{element}”不能绑定字段“{field}”：字段类型与元素不匹配',
  },
  formFieldMissing: {
    code: C.VALIDATION,
    en: 'Choose the field that the form element "{element}" writes',
    zh: '请为表单元素“{element}”选择绑定字段',
  },
  formLabelRequired: { code: C.VALIDATION, en: 'Please enter a label', zh: '请输入标签' },
  minAboveMax: {
    code: C.VALIDATION,
    en: 'The minimum cannot be greater than the maximum',
    zh: '最小值不能大于最大值',
  },
  maxCountRange: {
    code: C.VALIDATION,
    en: 'The number of files must be between 1 and 20',
    zh: '文件数量须在1到20之间',
  },
  timeZoneInvalid: {
    code: C.VALIDATION,
    en: 'The time zone must be an IANA time zone name, such as Asia/Shanghai or Europe/Berlin',
    zh: '时区必须是 IANA 时区名称，例如 Asia/Shanghai 或 Europe/Berlin',
  },
  timeRangeInvalid: {
    code: C.VALIDATION,
    en: 'The start time must be before the end time',
    zh: '开始时间必须早于结束时间',
  },
  seriesRangeTooLong: {
    code: C.VALIDATION,
    en: 'The time range of a chart may be at most {days} days',
    zh: '曲线的时间范围最长为 {days} 天',
  },
  seriesTooManyPoints: {
    code: C.VALIDATION,
    en: 'Choose between 1 and {max} points to chart',
    zh: '请选择 1 到 {max} 个数据点绘制曲线',
  },
  seriesPointUnknown: {
    code: C.VALIDATION,
    en: '{point} is not a data point of this device',
    zh: '{point} 不是该设备的数据点',
  },
  chartTypeInvalid: {
    code: C.VALIDATION,
    en: 'Choose a chart type: line, bar, area, pie, gauge, number card, table, scatter or calendar',
    zh: '请选择图表类型：折线图、柱状图、面积图、饼图、仪表盘、数字卡片、表格、散点图或日历热力图',
  },
  chartSeriesCount: {
    code: C.VALIDATION,
    en: 'A chart needs between 1 and {max} series',
    zh: '图表需要 1 到 {max} 个数据系列',
  },
  chartSeriesOne: {
    code: C.VALIDATION,
    en: 'A gauge or a number card shows exactly one series',
    zh: '仪表盘或数字卡片只能显示一个数据系列',
  },
  chartFieldUnknown: {
    code: C.VALIDATION,
    en: 'Choose a field of this data item',
    zh: '请选择该数据项的字段',
  },
  chartFieldNotNumeric: {
    code: C.VALIDATION,
    en: 'The field {name} is not a number field and cannot be charted',
    zh: '字段 {name} 不是数值字段，无法绘制图表',
  },
  chartMethodForType: {
    code: C.VALIDATION,
    en: 'This chart type cannot show this acquisition method: curves, areas, scatter and calendar charts take the raw series; pie, gauge and card take one value',
    zh: '该图表类型不支持此取值方式：折线、面积、散点和日历图使用原始数据；饼图、仪表盘和卡片使用单个取值',
  },
  chartMethodsMixed: {
    code: C.VALIDATION,
    en: 'The series of one chart are either all raw series or all single values',
    zh: '同一图表的数据系列须全部为原始数据或全部为单个取值',
  },
  chartMinMax: {
    code: C.VALIDATION,
    en: 'The maximum must be greater than the minimum',
    zh: '最大值必须大于最小值',
  },
  cronInvalid: {
    code: C.VALIDATION,
    en: 'Invalid cron expression: use seconds minutes hours day-of-month month day-of-week [year], with ? in exactly one of day-of-month and day-of-week',
    zh: 'Cron 表达式无效：格式为 秒 分 时 日 月 周 [年]，且日与周中恰有一个为 ?',
  },
  cronUnsupported: {
    code: C.VALIDATION,
    en: 'This cron expression uses L-n or a bare L in day-of-week, which are not supported',
    zh: '该 Cron 表达式使用了 L-n 或在周字段中单独使用 L，暂不支持',
  },
  // outside submission (HTTP and MQTT keys)
  submitKeyInvalid: {
    code: C.TOKEN_INVALID,
    en: 'The submission key is invalid or has been revoked',
    zh: '提交密钥无效或已被撤销',
  },
  submitTooMany: {
    code: C.VALIDATION,
    en: 'At most {max} records can be submitted at once',
    zh: '一次最多提交 {max} 条数据',
  },
  submitBusy: {
    code: C.RATE_LIMITED,
    en: 'The server is busy and did not store this submission, please send it again later',
    zh: '服务器繁忙，本次提交未保存，请稍后重新发送',
  },
  mqttBrokerUnavailable: {
    code: C.INTERNAL,
    en: 'The MQTT broker could not be reached, the key was not created, please try again later',
    zh: '无法连接 MQTT 服务器，密钥未创建，请稍后再试',
  },
  // record import and upload
  fileTooLarge: { code: C.VALIDATION, en: 'The file size exceeds 20M', zh: '文件大小超过20M' },
  importFileFormat: {
    code: C.VALIDATION,
    en: 'Please upload a CSV file saved as UTF-8 or an XLSX file',
    zh: '请上传UTF-8编码的CSV文件或XLSX文件',
  },
  importTooLarge: { code: C.VALIDATION, en: 'The import file exceeds 10M', zh: '导入文件大小超过10M' },
  importTooManyRows: {
    code: C.VALIDATION,
    en: 'At most {max} rows can be imported at once',
    zh: '一次最多导入 {max} 行',
  },
  importNoColumns: {
    code: C.VALIDATION,
    en: 'The first row must name the columns: the time and field names of this data item',
    zh: '第一行须为列名：时间及该数据项的字段名称',
  },
  importUnknownColumn: {
    code: C.VALIDATION,
    en: 'The column "{column}" matches no field of this data item',
    zh: '列“{column}”与该数据项的字段不对应',
  },
  importDuplicateColumn: {
    code: C.VALIDATION,
    en: 'The column "{column}" appears more than once',
    zh: '列“{column}”重复出现',
  },
  uploadFieldType: {
    code: C.VALIDATION,
    en: 'Files can only be uploaded to picture or file fields',
    zh: '只能向图片或文件字段上传文件',
  },
  importBusy: {
    code: C.RATE_LIMITED,
    en: 'The server is reading other import files, please try again in a moment',
    zh: '服务器正在处理其他导入文件，请稍后再试',
  },
  importUnpackedTooLarge: {
    code: C.VALIDATION,
    en: 'The XLSX file unpacks to more than {max} MB: please split it',
    zh: 'XLSX 文件解压后超过 {max} MB，请拆分后再导入',
  },
  // SIM data cards (packages/domain devices/sim.ts)
  iccidLength: {
    code: C.VALIDATION,
    en: 'The ICCID must be 19 or 20 characters',
    zh: 'ICCID 须为 19 或 20 位',
  },
  iccidPrefix: { code: C.VALIDATION, en: 'An ICCID begins with 89', zh: 'ICCID 须以 89 开头' },
  iccidCharacters: {
    code: C.VALIDATION,
    en: 'An ICCID holds only digits and letters, its first six characters digits',
    zh: 'ICCID 只能包含数字和字母，且前 6 位须为数字',
  },
  iccidCheckDigit: {
    code: C.VALIDATION,
    en: 'The check digit of the ICCID does not match: please check the number',
    zh: 'ICCID 校验位不符，请核对卡号',
  },
  iccidExcelNumber: {
    code: C.VALIDATION,
    en: 'The ICCID was kept as a number and the spreadsheet rounded it: format the column as text and enter it again',
    zh: 'ICCID 被存为数字，表格软件已将其舍入：请将该列设为文本格式后重新填写',
  },
  msisdnInvalid: {
    code: C.VALIDATION,
    en: 'The number must be 11 digits (mobile) or 13 digits (IoT) starting with 1',
    zh: '号码须为以 1 开头的 11 位（手机号）或 13 位（物联网号码）数字',
  },
  simCarrierInvalid: {
    code: C.VALIDATION,
    en: 'Unknown carrier: none, China Mobile, China Unicom or China Telecom (or 0-3)',
    zh: '运营商无法识别：无、中国移动、中国联通或中国电信（或 0-3）',
  },
  simCarrierMismatch: {
    code: C.VALIDATION,
    en: 'The ICCID is a card of {carrier}',
    zh: '该 ICCID 属于{carrier}',
  },
  simStateInvalid: {
    code: C.VALIDATION,
    en: 'Unknown state: none, normal, suspended, silent period, test period or suspended, number kept (or 0-6)',
    zh: '状态无法识别：无、正常、停机、沉默期、测试期或停机保号（或 0-6）',
  },
  simPlanInvalid: {
    code: C.VALIDATION,
    en: 'The plan is a number of MB from 0 to 10000000',
    zh: '套餐须为 0 至 10000000 之间的 MB 数',
  },
  simNotesTooLong: {
    code: C.VALIDATION,
    en: 'Notes can be at most 200 characters',
    zh: '备注不能超过 200 个字符',
  },
  cellUnstorable: {
    code: C.VALIDATION,
    en: 'The cell holds characters that cannot be stored (such as NUL)',
    zh: '单元格包含无法保存的字符（如 NUL）',
  },
  simDuplicateInFile: {
    code: C.VALIDATION,
    en: 'The same ICCID is in row {row} already',
    zh: '该 ICCID 已在第 {row} 行出现',
  },
  simOwnedElsewhere: {
    code: C.CONFLICT,
    en: 'This card is registered on the platform but not to this company: please ask the platform operator',
    zh: '该卡已在平台登记，但不属于本公司，请联系平台运营方',
  },
  simImportNoIccid: {
    code: C.VALIDATION,
    en: 'The first row must name the columns, ICCID among them',
    zh: '第一行须为列名，且包含 ICCID 列',
  },
  simUnknownColumn: {
    code: C.VALIDATION,
    en: 'The column "{column}" is not one of ICCID, carrier, state, plan (MB), MSISDN, notes',
    zh: '列“{column}”不是 ICCID、运营商、状态、套餐(MB)、号码、备注之一',
  },
  simStateChangeRefused: {
    code: C.BUSINESS,
    en: 'The carrier does not allow this for a card in the state "{state}"',
    zh: '运营商不允许对状态为“{state}”的卡执行此操作',
  },
  simCarrierUnavailable: {
    code: C.BUSINESS,
    en: 'No connection to {carrier} is set up on the platform',
    zh: '平台未配置与{carrier}的连接',
  },
  simNoCarrier: {
    code: C.BUSINESS,
    en: 'The card has no carrier: import it again with its carrier first',
    zh: '该卡未设置运营商，请先导入其运营商',
  },
  simCarrierFailed: {
    code: C.BUSINESS,
    en: 'The carrier did not answer, please try again later',
    zh: '运营商未响应，请稍后再试',
  },
  // document and rich-text templates
  templateNotBound: {
    code: C.VALIDATION,
    en: 'This template is not bound to this data item',
    zh: '该模板未绑定到此数据项',
  },
  // boards and carousels (boards/board.ts, boards/play.ts)
  boardInvalid: {
    code: C.VALIDATION,
    en: 'Invalid value for {field} ({reason})',
    zh: '{field} 的值无效（{reason}）',
  },
  boardStale: {
    code: C.CONFLICT,
    en: 'This board was changed by someone else after you opened it (now version {version}); your changes were not saved. Reload the board to see theirs.',
    zh: '此看板在您打开后已被他人修改（当前版本 {version}），您的修改未保存。请重新加载看板后再编辑。',
  },
  notABoard: {
    code: C.NOT_FOUND,
    en: 'This entry is not a board',
    zh: '该条目不是看板',
  },
  // gateway configuration: the check, versions and push (devices/config-messages.ts)
  ...CONFIG_CATALOGUE,
  ...METER_CATALOGUE,
  // configuration screens (scada/screen-messages.ts)
  ...SCREEN_CATALOGUE,
  // device-family flow charts (scada/family-messages.ts)
  ...FAMILY_CATALOGUE,
  // alarms (issue 11 points 5 and 6)
  alarmLevelsOrder: {
    code: C.VALIDATION,
    en: 'Each higher alarm level must be at or beyond the threshold of the level below it',
    zh: '更高的告警等级的阈值必须不低于下一等级的阈值',
  },
  alarmNotNumeric: {
    code: C.VALIDATION,
    en: 'Alarm rules watch numeric fields only: {field}',
    zh: '告警规则只能监测数值字段：{field}',
  },
  alarmAlreadyAcknowledged: {
    code: C.CONFLICT,
    en: 'This alarm has already been acknowledged',
    zh: '该告警已被确认',
  },
  alarmAlreadyCleared: {
    code: C.CONFLICT,
    en: 'This alarm has already been cleared',
    zh: '该告警已被清除',
  },
  // inventory and production (issue 12 point 1; packages/domain/src/business/stock.ts)
  stockUnitInOrder: {
    code: C.CONFLICT,
    en: 'Serial number {sn} is already in an open order ({orderId})',
    zh: '序列号 {sn} 已在未完成的单据（{orderId}）中',
  },
  stockUnitNotInOrder: {
    code: C.BUSINESS,
    en: 'Serial number {sn} is not in this order',
    zh: '序列号 {sn} 不在此单据中',
  },
  stockUnitDisabled: {
    code: C.BUSINESS,
    en: 'Serial number {sn} is disabled',
    zh: '序列号 {sn} 已停用',
  },
  stockTransitionRefused: {
    code: C.BUSINESS,
    en: 'Serial number {sn} is {status}: it cannot be {action}',
    zh: '序列号 {sn} 当前为“{status}”，不能{action}',
  },
  stockOrderClosed: {
    code: C.CONFLICT,
    en: 'This order is already {state} and can no longer be changed',
    zh: '该单据已{state}，不能再修改',
  },
  stockOrderEmpty: {
    code: C.VALIDATION,
    en: 'An order needs at least one item before it is confirmed',
    zh: '单据至少需要一件货品才能确认',
  },
  stockUnitUnknown: {
    code: C.BUSINESS,
    en: 'Serial number {sn} is not in the inventory',
    zh: '序列号 {sn} 不在库存中',
  },
  stockUnitWrongKind: {
    code: C.BUSINESS,
    en: 'Serial number {sn} belongs to {category}, which this order does not take',
    zh: '序列号 {sn} 属于“{category}”，不能加入此单据',
  },
  stockSerialTaken: {
    code: C.CONFLICT,
    en: 'Serial number {sn} already exists',
    zh: '序列号 {sn} 已存在',
  },
  stockNotEnough: {
    code: C.BUSINESS,
    en: '{name}: {available} in stock in {warehouse}, {wanted} wanted',
    zh: '“{name}”在{warehouse}的库存为 {available}，出库需要 {wanted}',
  },
  stockSalesOrderCancelled: {
    code: C.BUSINESS,
    en: 'Sales order {order} is cancelled: nothing is delivered for it',
    zh: '销售订单 {order} 已取消，不能为其出库',
  },
  stockCategoryTaken: {
    code: C.CONFLICT,
    en: 'A category named {name} already exists',
    zh: '名为“{name}”的分类已存在',
  },
  stockCategoryInUse: {
    code: C.CONFLICT,
    en: '{name} still holds goods, order lines or production plans: it cannot be deleted',
    zh: '“{name}”下仍有货品、单据明细或生产计划，不能删除',
  },
  stockCategoryKindFixed: {
    code: C.CONFLICT,
    en: '{name} already holds goods: its kind cannot change',
    zh: '“{name}”下已有货品，不能修改类型',
  },
  productionScheduleState: {
    code: C.BUSINESS,
    en: 'This plan is {status}: it cannot be {action}',
    zh: '该生产计划当前为“{status}”，不能{action}',
  },
  productionUnitsUnfinished: {
    code: C.BUSINESS,
    en: '{count} units of this plan are still in production',
    zh: '该计划还有 {count} 件产品在生产中',
  },
  productionQuantityExceeded: {
    code: C.BUSINESS,
    en: 'The plan makes {quantity}: {count} would be recorded',
    zh: '该计划数量为 {quantity}，登记后将达到 {count}',
  },
  productionQuantityBelow: {
    code: C.VALIDATION,
    en: '{count} units are already recorded: the quantity cannot be less',
    zh: '已登记 {count} 件产品，数量不能少于此数',
  },
  productionUnitNotInPlan: {
    code: C.BUSINESS,
    en: 'Serial number {sn} was not made by plan {number}',
    zh: '序列号 {sn} 不属于生产计划 {number}',
  },
  productionScheduleInUse: {
    code: C.CONFLICT,
    en: '{count} units are recorded against this plan: it can be finished, not cancelled or deleted',
    zh: '该计划已登记 {count} 件产品，只能完成，不能取消或删除',
  },
  // sales (issue 12 point 2; apps/server/src/modules/sales)
  salesOrderState: {
    code: C.BUSINESS,
    en: 'This order is {status}: it cannot be {action}',
    zh: '该订单当前为“{status}”，不能{action}',
  },
  salesServiceNeedsCompany: {
    code: C.VALIDATION,
    en: 'A service subscription is sold to a company of the platform: choose the customer company',
    zh: '服务订阅只能销售给平台上的企业：请选择客户企业',
  },
  salesContractTemplateTaken: {
    code: C.CONFLICT,
    en: 'A contract template named {name} already exists',
    zh: '名为“{name}”的合同模板已存在',
  },
  salesContractExists: {
    code: C.CONFLICT,
    en: 'Order {order} already has contract {number}',
    zh: '订单 {order} 已有合同 {number}',
  },
  salesContractOrderCancelled: {
    code: C.BUSINESS,
    en: 'Order {order} is cancelled: it cannot be put in a contract',
    zh: '订单 {order} 已取消，不能生成合同',
  },
  salesContractState: {
    code: C.BUSINESS,
    en: 'This contract is signed: it cannot be {action}',
    zh: '该合同已签订，不能{action}',
  },
  // gas blending (issue 12 point 4; apps/server/src/modules/gas)
  gasComponentTaken: {
    code: C.CONFLICT,
    en: 'A component with the formula {formula} already exists',
    zh: '化学式为 {formula} 的组分已存在',
  },
  gasComponentInUse: {
    code: C.CONFLICT,
    en: '{formula} is used by {name}: take it out there first',
    zh: '{formula} 正被“{name}”使用，请先在那里移除',
  },
  gasUnknownComponent: {
    code: C.VALIDATION,
    en: '{field}: unknown component {component}; add it in gas properties first',
    zh: '{field}：未知组分 {component}，请先在气体属性中添加',
  },
  gasComponentTwice: {
    code: C.VALIDATION,
    en: '{field}: {component} is listed twice',
    zh: '{field}：{component} 重复出现',
  },
  gasFractionRange: {
    code: C.VALIDATION,
    en: '{field}: an amount fraction is greater than 0 and less than 1 (100 %)',
    zh: '{field}：摩尔分数必须大于 0 且小于 1（100 %）',
  },
  gasCompositionOver: {
    code: C.VALIDATION,
    en: 'The components add up to {percent} %: nothing is left for the balance gas',
    zh: '各组分合计 {percent} %，平衡气已无余量',
  },
  gasNotPositive: {
    code: C.VALIDATION,
    en: '{field} must be greater than 0',
    zh: '{field} 必须大于 0',
  },
  gasNameTaken: {
    code: C.CONFLICT,
    en: 'The name {name} is already used',
    zh: '名称 {name} 已被使用',
  },
  gasCylinderTaken: {
    code: C.CONFLICT,
    en: 'Cylinder {sn} already exists',
    zh: '气瓶 {sn} 已存在',
  },
  gasCylinderCertified: {
    code: C.CONFLICT,
    en: 'Cylinder {sn} is certified: its record can no longer be changed',
    zh: '气瓶 {sn} 已出具证书，记录不能再修改',
  },
  gasNotInCylinder: {
    code: C.VALIDATION,
    en: '{field}: {component} is not in this cylinder',
    zh: '{field}：该气瓶不含 {component}',
  },
  gasAnalysisMissing: {
    code: C.VALIDATION,
    en: '{field}: {component} of {name} has no analysis result',
    zh: '{field}：{name} 的组分 {component} 缺少分析结果',
  },
  gasNotVerified: {
    code: C.CONFLICT,
    en: 'Cylinder {sn} has not passed quality control',
    zh: '气瓶 {sn} 尚未通过质量控制',
  },
  gasReferenceInUse: {
    code: C.CONFLICT,
    en: '{name} is named by cylinder {sn}: it cannot be deleted',
    zh: '“{name}”已被气瓶 {sn} 引用，不能删除',
  },
  gasNotCertified: {
    code: C.CONFLICT,
    en: 'Cylinder {sn} has no certificate yet',
    zh: '气瓶 {sn} 尚未出具证书',
  },
  // energy data platform (issue 13 point 5; apps/server/src/modules/energydata)
  energyQuantity: {
    code: C.VALIDATION,
    en: '{field} must be a number greater than 0 (at most 1,000,000,000)',
    zh: '{field} 必须是大于 0 的数（不超过 1,000,000,000）',
  },
  energyPeriodFuture: {
    code: C.VALIDATION,
    en: '{field}: the period has not begun yet',
    zh: '{field}：该期间尚未开始',
  },
  energyRecordTaken: {
    code: C.CONFLICT,
    en: '{site} already has a record for {period}: change that one',
    zh: '“{site}”在 {period} 已有记录，请修改原记录',
  },
  energyPeriodMixed: {
    code: C.CONFLICT,
    en: '{site} already has {other} records in {month}: a month is recorded by day or as a whole, not both',
    zh: '“{site}”在 {month} 已有按{other}的记录：同一月份只能按日或按月记录，不能同时',
  },
  energySiteTaken: {
    code: C.CONFLICT,
    en: 'A site named {name} already exists',
    zh: '名为“{name}”的站点已存在',
  },
  energySiteInUse: {
    code: C.CONFLICT,
    en: '{name} has {count} records: delete them first',
    zh: '“{name}”还有 {count} 条记录，请先删除',
  },
  energyFactor: {
    code: C.VALIDATION,
    en: '{field}: a coal factor is a number greater than 0',
    zh: '{field}：折标系数必须是大于 0 的数',
  },
  energyImportColumns: {
    code: C.VALIDATION,
    en: 'The first row must name the columns: {columns}',
    zh: '第一行须为列名：{columns}',
  },
  energyImportRejected: {
    code: C.VALIDATION,
    en: '{count} lines of the file are wrong, nothing was imported; the first: line {row}, {message}',
    zh: '文件中有 {count} 行有误，未导入任何记录；第一处：第 {row} 行，{message}',
  },
  energyFillRange: {
    code: C.VALIDATION,
    en: '{field}: a fill covers 1 to {max} days, from a day to the same or a later one',
    zh: '{field}：一次生成 1 到 {max} 天，结束日期不能早于开始日期',
  },
  energyFillFactor: {
    code: C.VALIDATION,
    en: '{field}: the unit factor is a number greater than 0',
    zh: '{field}：单位换算系数必须是大于 0 的数',
  },
  energyFillItemHidden: {
    code: C.FORBIDDEN,
    en: '{field}: you may not read the records of this data item',
    zh: '{field}：您没有读取该数据项记录的权限',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorKey = keyof typeof CATALOGUE;

/** Success messages of seed point 8, and the few the product adds. */
export const SUCCESS_MESSAGES = {
  bound: { en: 'Bound successfully', zh: '绑定成功' },
  deleted: { en: 'Delete successfully', zh: '删除成功' },
  operation: { en: 'Operation successful', zh: '操作成功' },
  submitted: { en: 'Data Submission Successful', zh: '数据提交成功' },
  firmwareUpdated: { en: 'Firmware update succeeded', zh: '固件更新成功' },
  /** a bind request now waits for the button on the gateway */
  bindRequested: {
    en: 'Bind request sent: press the bind button on the gateway to confirm',
    zh: '绑定请求已发送，请按下网关上的绑定按钮确认',
  },
  unbound: { en: 'Unbound successfully', zh: '解绑成功' },
  /** the same answer whether or not the phone has an account */
  invitationSent: {
    en: 'Invitation sent: the person joins when they accept it',
    zh: '邀请已发送，对方同意后即加入本公司',
  },
} as const;

export type SuccessKey = keyof typeof SUCCESS_MESSAGES;

/** Fills `{name}` placeholders. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function messageFor(key: ErrorKey, lang: Lang, params?: Record<string, string | number>): string {
  return formatMessage(CATALOGUE[key][lang], params);
}

export function parseLang(value: string | undefined | null): Lang {
  return value?.toLowerCase().startsWith('en') ? 'en' : 'zh';
}
