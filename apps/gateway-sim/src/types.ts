/** What describes a simulated gateway, and what it shows of itself. */
import type { GatewayConfig } from '@platform/domain';
import type { PortSpec } from './modbus/bus';

/** A gateway as a fleet file lists it (the platform's factory list gives sn and secret). */
export interface GatewaySpec {
  /** 6-32 characters A-Z 0-9 */
  sn: string;
  /** MQTT password: `gws_…` from system maintenance → gateways */
  secret: string;
  model?: string;
  firmware?: string;
  /** the SIM card's ICCID (19-20 digits) */
  iccid?: string;
  /** ports and the slaves on them (default: defaultPorts) */
  ports?: PortSpec[];
  /** a configuration it already runs (as if pushed and committed before) */
  config?: { version: number; hash: string; config: GatewayConfig };
}

export interface PortStatus {
  port: number;
  ok: boolean;
  error?: string;
}

export interface UpgradeState {
  upgradeId: number | string;
  version: string;
  state: string;
  progress?: number;
  reason?: string;
  detail?: string;
}

/** A snapshot of a gateway for the controller, the CLI and the demo page. */
export interface GatewayState {
  sn: string;
  model: string;
  firmware: string;
  iccid: string;
  /** the power is on */
  powered: boolean;
  /** its network link is up (goOffline takes it down) */
  linkUp: boolean;
  /** an MQTT session is open and the birth message was sent */
  online: boolean;
  /** what the platform last said: bound, unbound, or not known yet */
  bound: boolean | null;
  /** a bind request waiting for the button: the bind light blinks */
  blinking: { requestId: string; company: string; expiresAt: string } | null;
  upgrade: UpgradeState | null;
  config: { version: number; hash: string } | null;
  pendingConfig: { version: number; hash: string; deadline: string } | null;
  ports: PortStatus[];
  counters: GatewayCounters;
}

export interface GatewayCounters {
  connects: number;
  connectFailures: number;
  framesPublished: number;
  recordsPublished: number;
  /** frames read while offline (not buffered, like most DTUs) */
  framesDropped: number;
  messagesReceived: number;
  /** down messages that were not JSON objects or were malformed */
  badMessages: number;
}

/** Loggers of pino's shape (the server's) fit. */
export interface SimLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

export const silentLog: SimLog = { info: () => {}, warn: () => {} };

/** How serial numbers look (docs/device-protocol.md). */
export const SN_PATTERN = /^[A-Z0-9]{6,32}$/;
