/**
 * The settings form of each node type, as data: which fields, in which order, with which input.
 * Ranges and lists come from the domain (config-settings.ts, config-types.ts), so the form
 * offers exactly what the check accepts; what it still gets wrong is shown under the field by
 * the check itself.
 */
import {
  BAUD_RATES,
  DATA_BITS,
  ENCODINGS,
  type GatewayNodeType,
  HTTP_METHODS,
  MQTT_QOS,
  MQTT_TARGETS,
  NETWORK_MODES,
  PORT_ROLES,
  PUBLISH_FORMATS,
  SETTING_LENGTHS,
  SETTING_RANGES,
  STOP_BITS,
  TIMESTAMP_FORMATS,
} from '@platform/domain';

type Settings = Record<string, unknown>;

/**
 * A field of the form and of the check's problems is a settings key, or `settings.name` for
 * the settings key that shares its name with the node's own (element, command): packages/domain
 * config-check.ts `settingField`.
 */
export function settingKey(field: string): string {
  return field.startsWith('settings.') ? field.slice('settings.'.length) : field;
}

/** The i18n key of a field's label (`settings.name` reads by the node's type). */
export function fieldLabelKey(type: GatewayNodeType | undefined, field: string): string {
  if (field === 'settings.name') return type === 'command' ? 'fields.commandName' : 'fields.elementName';
  return `fields.${field}`;
}

export type FieldSpec =
  | { field: string; kind: 'int'; range: readonly [number, number]; show?: (s: Settings) => boolean }
  | {
      field: string;
      kind: 'select' | 'radio';
      options: ReadonlyArray<string | number>;
      /** i18n key prefix of the option labels; the value itself when absent */
      labels?: string;
      optional?: boolean;
      show?: (s: Settings) => boolean;
    }
  | { field: string; kind: 'text'; max: number; placeholder?: string; show?: (s: Settings) => boolean }
  /** filled from the company's data: packages, parsed values, items and fields, COM ports */
  | { field: string; kind: 'package' | 'parsedPackage' | 'value' | 'item' | 'itemField' | 'comPort' };

const isCustom = (s: Settings) => s.target === 'custom';
const isStatic = (s: Settings) => s.mode === 'static';

export const NODE_FIELDS: Record<GatewayNodeType, readonly FieldSpec[]> = {
  com: [
    { field: 'port', kind: 'int', range: SETTING_RANGES.port },
    { field: 'baudRate', kind: 'select', options: BAUD_RATES },
    { field: 'dataBits', kind: 'select', options: DATA_BITS },
    { field: 'stopBits', kind: 'select', options: STOP_BITS },
    { field: 'parity', kind: 'select', options: [0, 1, 2], labels: 'options.parity' },
    { field: 'role', kind: 'radio', options: PORT_ROLES, labels: 'options.role' },
    { field: 'answerTimeoutMs', kind: 'int', range: SETTING_RANGES.answerTimeoutMs },
  ],
  serialPacket: [
    { field: 'packetId', kind: 'package' },
    { field: 'samplingId', kind: 'select', options: [1, 2, 3, 4], labels: 'options.sampling' },
    { field: 'encoding', kind: 'select', options: ENCODINGS, optional: true },
  ],
  serialParser: [{ field: 'packetId', kind: 'parsedPackage' }],
  network: [
    { field: 'mode', kind: 'radio', options: NETWORK_MODES, labels: 'options.mode' },
    { field: 'ip', kind: 'text', max: 39, placeholder: '192.168.1.20', show: isStatic },
    { field: 'netmask', kind: 'text', max: 39, placeholder: '255.255.255.0', show: isStatic },
    { field: 'gateway', kind: 'text', max: 39, placeholder: '192.168.1.1', show: isStatic },
    { field: 'dns', kind: 'text', max: 39, placeholder: '114.114.114.114', show: isStatic },
  ],
  mqttPublish: [
    { field: 'target', kind: 'radio', options: MQTT_TARGETS, labels: 'options.target' },
    { field: 'format', kind: 'radio', options: PUBLISH_FORMATS, labels: 'options.format' },
    { field: 'qos', kind: 'select', options: MQTT_QOS },
    {
      field: 'url',
      kind: 'text',
      max: SETTING_LENGTHS.url,
      placeholder: 'mqtt://broker:1883',
      show: isCustom,
    },
    {
      field: 'topic',
      kind: 'text',
      max: SETTING_LENGTHS.topic,
      placeholder: 'plant/line1/meter',
      show: isCustom,
    },
  ],
  mqttSubscribe: [
    { field: 'target', kind: 'radio', options: MQTT_TARGETS, labels: 'options.target' },
    { field: 'qos', kind: 'select', options: MQTT_QOS },
    {
      field: 'url',
      kind: 'text',
      max: SETTING_LENGTHS.url,
      placeholder: 'mqtt://broker:1883',
      show: isCustom,
    },
    {
      field: 'topic',
      kind: 'text',
      max: SETTING_LENGTHS.topic,
      placeholder: 'plant/+/command',
      show: isCustom,
    },
  ],
  httpRequest: [
    { field: 'method', kind: 'radio', options: HTTP_METHODS },
    { field: 'url', kind: 'text', max: SETTING_LENGTHS.url, placeholder: 'https://' },
    { field: 'intervalS', kind: 'int', range: SETTING_RANGES.httpIntervalS },
  ],
  delay: [{ field: 'ms', kind: 'int', range: SETTING_RANGES.delayMs }],
  command: [
    { field: 'settings.name', kind: 'text', max: SETTING_LENGTHS.commandName, placeholder: 'reset' },
    { field: 'encoding', kind: 'radio', options: ENCODINGS },
    {
      field: 'payload',
      kind: 'text',
      max: SETTING_LENGTHS.payload * 3 - 1,
      placeholder: '01 06 00 01 00 03 98 0B',
    },
  ],
  element: [
    { field: 'settings.name', kind: 'value' },
    { field: 'itemId', kind: 'item' },
    { field: 'fieldKey', kind: 'itemField' },
  ],
  passthrough: [
    { field: 'port', kind: 'comPort' },
    { field: 'idleTimeoutS', kind: 'int', range: SETTING_RANGES.idleTimeoutS },
  ],
  timestamp: [{ field: 'format', kind: 'radio', options: TIMESTAMP_FORMATS, labels: 'options.timestamp' }],
};
