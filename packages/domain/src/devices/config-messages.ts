/**
 * The configuration check's messages and the editor's, part of the one catalogue (errors.ts
 * spreads them in). A problem is shown after its node and field ("COM1 · Baud rate: …"), so
 * most messages do not repeat them.
 */
import { ERROR_CODES } from '../error-codes';
import type { CatalogueEntry } from '../errors';

const V = ERROR_CODES.VALIDATION;

export const CONFIG_CATALOGUE = {
  // settings
  configShapeInvalid: {
    code: V,
    en: 'This is not a gateway configuration: nodes and links must be lists of objects',
    zh: '这不是网关配置：节点和连线必须是对象列表',
  },
  configEmpty: {
    code: V,
    en: 'The configuration has no nodes: pushing it clears the gateway’s configuration',
    zh: '配置中没有节点：推送后网关的配置将被清空',
  },
  configNodeIdInvalid: {
    code: V,
    en: 'A node id is 1 to 32 letters, digits, "_" or "-", starting with a letter',
    zh: '节点编号为1至32位字母、数字、“_”或“-”，且以字母开头',
  },
  configNodeIdTaken: { code: V, en: 'Another node has the id {id}', zh: '另一个节点的编号也是 {id}' },
  configNodeTypeUnknown: { code: V, en: 'Unknown node type', zh: '未知的节点类型' },
  configNodeNameTaken: {
    code: V,
    en: 'Another node is already called "{name}"',
    zh: '已有节点名为“{name}”',
  },
  configRequired: { code: V, en: 'This value is required', zh: '此项必填' },
  configIntRange: {
    code: V,
    en: 'Enter a whole number from {min} to {max}',
    zh: '请输入 {min} 到 {max} 之间的整数',
  },
  configChoice: { code: V, en: 'Choose one of: {options}', zh: '请从以下选项中选择：{options}' },
  configTextTooLong: { code: V, en: 'At most {max} characters', zh: '最多 {max} 个字符' },
  configTopicInvalid: {
    code: V,
    en: 'A topic to publish to: no wildcards (+ or #), not starting with $, no control characters',
    zh: '发布主题不能含通配符（+ 或 #），不能以 $ 开头，不能含控制字符',
  },
  configFilterInvalid: {
    code: V,
    en: 'A topic filter: + stands for a whole level, # only as the whole last level, not starting with $',
    zh: '订阅主题中 + 须单独占一级，# 只能单独作为最后一级，且不能以 $ 开头',
  },
  configUrlInvalid: {
    code: V,
    en: 'Enter an address starting with http:// or https://',
    zh: '请输入以 http:// 或 https:// 开头的地址',
  },
  configBrokerUrlInvalid: {
    code: V,
    en: 'Enter a broker address as mqtt://host:port or mqtts://host:port',
    zh: '请按 mqtt://主机:端口 或 mqtts://主机:端口 填写服务器地址',
  },
  configNetmaskInvalid: {
    code: V,
    en: 'Enter a subnet mask such as 255.255.255.0 (IPv4), or a prefix length from 1 to 128 (IPv6)',
    zh: '请输入子网掩码，如 255.255.255.0（IPv4），或1至128的前缀长度（IPv6）',
  },
  configGatewayOutsideSubnet: {
    code: V,
    en: 'The default gateway must be in the same subnet as the IP address',
    zh: '默认网关必须与IP地址处于同一子网',
  },
  configGatewayIsSelf: {
    code: V,
    en: 'The default gateway cannot be the gateway’s own IP address',
    zh: '默认网关不能是本机IP地址',
  },
  configAsciiInvalid: {
    code: V,
    en: 'ASCII text: printable characters only (letters, digits, punctuation, spaces)',
    zh: 'ASCII 文本只能含可打印字符（字母、数字、标点、空格）',
  },
  configFieldKeyInvalid: {
    code: V,
    en: 'Choose a field of the data item',
    zh: '请选择数据项的字段',
  },
  configPortTaken: {
    code: V,
    en: 'Another COM node already uses port {port}',
    zh: '已有COM节点使用端口 {port}',
  },
  configPortMissing: {
    code: V,
    en: 'No COM node has port {port}: add one first',
    zh: '没有使用端口 {port} 的COM节点，请先添加',
  },
  configPassthroughPortTaken: {
    code: V,
    en: 'Another passthrough node already uses port {port}',
    zh: '已有透传节点使用端口 {port}',
  },
  configNetworkTwice: {
    code: V,
    en: 'A gateway has one network setting: remove this node',
    zh: '网关只有一个网络设置，请删除此节点',
  },
  configTooManyLinks: {
    code: V,
    en: 'A configuration holds at most {max} links',
    zh: '一个配置最多有 {max} 条连线',
  },
  // links: the table of config-links.ts
  configLinkUnknownNode: {
    code: V,
    en: 'A link names a node that does not exist ({id})',
    zh: '连线指向不存在的节点（{id}）',
  },
  linkSelf: { code: V, en: 'A node cannot be linked to itself', zh: '节点不能连接到自身' },
  linkDuplicate: { code: V, en: 'These two nodes are already linked', zh: '这两个节点已经连接' },
  linkOutSerialPacket: {
    code: V,
    en: 'A serial packet goes to a COM port (it is sent there) or a delay',
    zh: '串口数据包只能连接到COM端口（在该端口发送）或延时',
  },
  linkOutCommand: {
    code: V,
    en: 'A command goes to a COM port (it is written there) or a delay',
    zh: '命令只能连接到COM端口（写入该端口）或延时',
  },
  linkOutDelay: {
    code: V,
    en: 'A delay goes to a COM port or another delay',
    zh: '延时只能连接到COM端口或另一个延时',
  },
  linkOutCom: {
    code: V,
    en: 'A COM port’s answers go to a serial parser, a passthrough or an MQTT publish of raw frames',
    zh: 'COM端口的应答只能连接到串口解析、透传数据或发布原始帧的MQTT发布',
  },
  linkOutPassthrough: {
    code: V,
    en: 'A passthrough goes to the COM port of its own port number',
    zh: '透传数据只能连接到其端口号对应的COM端口',
  },
  linkOutSerialParser: {
    code: V,
    en: 'A serial parser’s values go to elements',
    zh: '串口解析的值只能连接到元素',
  },
  linkOutElement: {
    code: V,
    en: 'An element goes to an MQTT publish (JSON) or an HTTP request',
    zh: '元素只能连接到MQTT发布（JSON）或HTTP请求',
  },
  linkOutTimestamp: {
    code: V,
    en: 'A timestamp goes to an MQTT publish (JSON) or an HTTP request',
    zh: '时间戳只能连接到MQTT发布（JSON）或HTTP请求',
  },
  linkOutMqttSubscribe: {
    code: V,
    en: 'An MQTT subscribe triggers commands: link it to a command',
    zh: 'MQTT订阅用于触发命令，只能连接到命令',
  },
  linkOutNetwork: {
    code: V,
    en: 'The network node is the gateway’s own address: it takes no links',
    zh: '网络节点是网关自身的地址设置，不能连线',
  },
  linkOutSink: {
    code: V,
    en: 'MQTT publish and HTTP request nodes send out what reaches them: nothing follows them',
    zh: 'MQTT发布和HTTP请求节点将收到的内容发送出去，其后不能再连接节点',
  },
  linkPublishNeedsRaw: {
    code: V,
    en: 'A COM port feeds only an MQTT publish whose format is raw frames',
    zh: 'COM端口只能连接到格式为原始帧的MQTT发布',
  },
  linkPublishNeedsJson: {
    code: V,
    en: 'An MQTT publish of raw frames takes COM ports only: set its format to JSON for values',
    zh: '发布原始帧的MQTT发布只能连接COM端口，发布数值请将格式设为JSON',
  },
  linkPassthroughPort: {
    code: V,
    en: 'A passthrough links only to the COM node of the same port number',
    zh: '透传数据只能与相同端口号的COM节点连接',
  },
  linkOneOutput: {
    code: V,
    en: 'This node already goes somewhere: a packet, command or delay has one way out',
    zh: '该节点已有去向：数据包、命令或延时只能有一个输出',
  },
  linkOneInput: {
    code: V,
    en: 'This node already has its input: a parser listens to one port, an element reads one parser',
    zh: '该节点已有输入：解析只接收一个端口，元素只读取一个解析',
  },
  // the graph
  configCycle: {
    code: V,
    en: 'These delays form a loop: {nodes}',
    zh: '这些延时构成了循环：{nodes}',
  },
  configPacketNoPort: {
    code: V,
    en: 'The packet is sent on no COM port: link it to one (directly or through delays)',
    zh: '该数据包没有发送端口：请将其连接到COM端口（直接或经延时）',
  },
  configPortRoleServer: {
    code: V,
    en: 'Port {port} answers as a server: packets are sent only on ports whose role is client',
    zh: '端口 {port} 的角色为服务端：数据包只能在角色为客户端的端口上发送',
  },
  configCommandNoPort: {
    code: V,
    en: 'The command is written to no COM port: link it to one (directly or through delays)',
    zh: '该命令没有写入端口：请将其连接到COM端口（直接或经延时）',
  },
  configCommandNoTrigger: {
    code: V,
    en: 'Nothing triggers this command: link an MQTT subscribe to it',
    zh: '没有节点触发该命令：请将MQTT订阅连接到它',
  },
  configDelayDangling: {
    code: V,
    en: 'A delay sits between a packet or command and a COM port: link both sides',
    zh: '延时应位于数据包或命令与COM端口之间：请连接两端',
  },
  configCommandNameTaken: {
    code: V,
    en: 'Another command is already called "{name}"',
    zh: '已有命令名为“{name}”',
  },
  configParserNoPort: {
    code: V,
    en: 'The parser receives nothing: link the COM port its packet is sent on to it',
    zh: '该解析没有输入：请将其数据包所用的COM端口连接到它',
  },
  configParserNoPacket: {
    code: V,
    en: 'No serial packet of data package {id} is sent on the port this parser listens to',
    zh: '该解析所接收的端口上没有发送数据包 {id} 的串口数据包节点',
  },
  configParserTwice: {
    code: V,
    en: 'Another parser already parses data package {id} on this port',
    zh: '该端口上已有解析在解析数据包 {id}',
  },
  configElementNoParser: {
    code: V,
    en: 'The element takes its value from a serial parser: link one to it',
    zh: '元素的值来自串口解析：请将解析连接到它',
  },
  configNodeUnused: {
    code: V,
    en: 'This node goes nowhere: what it produces is not sent',
    zh: '该节点没有去向：其产生的内容不会被发送',
  },
  configElementValueUnknown: {
    code: V,
    en: 'The parsing of data package {id} has no value called "{value}"',
    zh: '数据包 {id} 的解析中没有名为“{value}”的值',
  },
  configItemFieldUnknown: {
    code: V,
    en: 'No IoT data item {itemId} with the field {field} is in this company',
    zh: '本公司没有含字段 {field} 的物联网数据项 {itemId}',
  },
  configSinkNoInput: {
    code: V,
    en: 'Nothing reaches this node: link elements, timestamps or (for raw frames) a COM port to it',
    zh: '没有内容到达该节点：请连接元素、时间戳或（原始帧时）COM端口',
  },
  configPortIdle: {
    code: V,
    en: 'Nothing is sent on this port: link a serial packet, a command or a passthrough to it',
    zh: '该端口上没有发送任何内容：请连接串口数据包、命令或透传数据',
  },
  configPacketUnknown: {
    code: V,
    en: 'This company has no data package {id}',
    zh: '本公司没有数据包 {id}',
  },
  configPacketNoParser: {
    code: V,
    en: 'Data package {id} has no parsing definition: add one under device communication → parsing',
    zh: '数据包 {id} 没有解析定义：请在设备通讯 → 解析中添加',
  },
  // versions and push
  configSaveConflict: {
    code: ERROR_CODES.CONFLICT,
    en: 'Version {version} was saved by {name} at {at} after you opened this configuration: reload it to see their changes, then make yours again',
    zh: '在您打开此配置后，{name} 于 {at} 保存了版本 {version}：请重新加载查看其更改，再重新修改',
  },
  configVersionUnknown: {
    code: ERROR_CODES.NOT_FOUND,
    en: 'This configuration has no version {version}',
    zh: '此配置没有版本 {version}',
  },
  configNothingSaved: {
    code: ERROR_CODES.BUSINESS,
    en: 'No configuration has been saved for this gateway yet: edit and save one first',
    zh: '该网关还没有保存过配置，请先编辑并保存',
  },
  configPushWaiting: {
    code: ERROR_CODES.BUSINESS,
    en: 'A push of version {version} is still waiting for the gateway: wait for its answer',
    zh: '版本 {version} 的推送仍在等待网关应答，请等待其结果',
  },
} as const satisfies Record<string, CatalogueEntry>;
