/**
 * What a gateway's status is (spec point 3: inactive, running, abnormal), derived from what
 * the platform knows, never stored on its own, so it cannot drift from the facts:
 *
 * - **inactive**: not bound to a company, or bound and not online at any moment since it was
 *   bound (a gateway comes online to be bound, so a bound one is inactive only when the
 *   binding predates its last connection, as after a restart of the embedded broker);
 * - **abnormal**: bound and has been online since, but now either offline (it stopped
 *   running: power, network) or online with a port that reported an error;
 * - **running**: bound, online, every port it reported is ok.
 *
 * Online and offline stay a separate fact beside the status (the list filters both).
 */

export const GATEWAY_STATUSES = ['inactive', 'running', 'abnormal'] as const;
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number];

/** One serial port as the gateway reports it in its status message. */
export interface PortHealth {
  port: number;
  ok: boolean;
  error?: string;
}

export interface GatewayFacts {
  /** when the current binding began; null when not bound */
  boundAt: number | null;
  online: boolean;
  /** when it last came online; null when never */
  onlineAt: number | null;
  /** when it last went offline; null when never */
  offlineAt: number | null;
  ports: readonly PortHealth[];
}

export function gatewayStatus(facts: GatewayFacts): GatewayStatus {
  if (facts.boundAt === null) return 'inactive';
  const onlineSinceBound =
    facts.online ||
    (facts.onlineAt !== null && facts.onlineAt >= facts.boundAt) ||
    (facts.offlineAt !== null && facts.offlineAt >= facts.boundAt);
  if (!onlineSinceBound) return 'inactive';
  if (!facts.online) return 'abnormal';
  return facts.ports.some((p) => !p.ok) ? 'abnormal' : 'running';
}

/** The ports of a status message that a platform can keep: well-formed entries only, at most 32. */
export function readPorts(value: unknown): PortHealth[] | null {
  if (!Array.isArray(value)) return null;
  const ports: PortHealth[] = [];
  for (const entry of value.slice(0, 32)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { port, ok, error } = entry as Record<string, unknown>;
    if (!Number.isSafeInteger(port) || (port as number) < 0 || (port as number) > 255) continue;
    if (typeof ok !== 'boolean') continue;
    const health: PortHealth = { port: port as number, ok };
    if (typeof error === 'string' && error !== '') health.error = error.slice(0, 200);
    ports.push(health);
  }
  return ports;
}

/**
 * Device picture presets (spec point 9): drawings the web shows for a device that has no
 * photo. A device's picture is one of these ids, or a JPG/PNG uploaded for it.
 */
export const DEVICE_PICTURE_PRESETS = [
  'dtu',
  'gateway',
  'meter',
  'plc',
  'sensor',
  'cabinet',
  'boiler',
  'pump',
] as const;
export type DevicePicturePreset = (typeof DEVICE_PICTURE_PRESETS)[number];
/** the picture a device has until someone picks one */
export const DEFAULT_DEVICE_PICTURE: DevicePicturePreset = 'dtu';

export function isDevicePicturePreset(value: unknown): value is DevicePicturePreset {
  return typeof value === 'string' && (DEVICE_PICTURE_PRESETS as readonly string[]).includes(value);
}
