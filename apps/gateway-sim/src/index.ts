/**
 * @platform/gateway-sim: simulated gateways (DTUs) with Modbus RTU meters and sensors behind
 * their serial ports, speaking docs/device-protocol.md over MQTT. See README.md.
 */
export { type ConfigError, checkConfig } from './config/check';
export { type ParserValue, planConfig, type RunPlan, readParserValue, telemetryRecords } from './config/plan';
export { ConfigStore, type StoredConfig } from './config/store';
export {
  DEMO_CONTROL_ACTIONS,
  type DemoControlAction,
  type DemoFleet,
  demoGatewaysEnabled,
  demoLayout,
  startDemoFleet,
} from './demo';
export {
  FAILURE_REASONS,
  type FailureReason,
  type FirmwareOrder,
  REAL_TIMING,
  runUpgrade,
  UPGRADE_STEPS,
  type UpgradeStep,
  type UpgradeTiming,
} from './firmware';
export {
  type Fleet,
  type FleetOptions,
  type FleetStats,
  fleetSpecs,
  generatedSecret,
  generatedSn,
  startFleet,
} from './fleet';
export { DEFAULT_FIRMWARE, DEFAULT_MODEL, type GatewayOptions, SimGateway, TOPIC_ROOT } from './gateway';
export {
  type CataloguePacket,
  configHash,
  defaultIccid,
  defaultPacketId,
  defaultPorts,
  measurementPacket,
  PACKET_ID_BASE,
  type PollingOptions,
  packetCatalogue,
  pollingConfig,
  sharedPollingConfig,
} from './layouts';
export { DEFAULT_LINE, type LineSettings, type PortSpec, SerialBus, type SlaveSpec } from './modbus/bus';
export {
  type RegisterPoint,
  SLAVE_KINDS,
  type SlaveKind,
  type SlaveModel,
  slaveModel,
} from './modbus/models';
export { decodeValue, encodeValue, WORD_ORDERS, type WordOrder } from './modbus/registers';
export { ModbusSlave, SLAVE_FAULTS, type SlaveFault } from './modbus/slave';
export { realTimers, Scheduler, type Task, type TimerHost } from './scheduler';
export type { GatewaySpec, GatewayState, PortStatus, SimLog } from './types';
