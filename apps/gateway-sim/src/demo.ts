/**
 * The demo's devices: when the embedded default runs (and DEMO_GATEWAYS is not `off`), the
 * server starts a few simulated gateways in its own process, connected to its own broker, so
 * a newcomer sees gateways online, meters and sensors feeding items, and one gateway waiting
 * to be bound.
 *
 * The server's seed registers the demo gateways and writes their secrets to
 * `DATA_DIR/secrets/demo-gateways.json` (mode 0600): a JSON array of
 * `{sn, secret, model, firmware, iccid}`, each optionally with `ports` (what is wired to it;
 * default: demoLayout by position) and `config` (`{version, hash, config}`, a configuration it
 * already runs). This module reads that file and starts the fleet; `control` is what a
 * loopback-only "demo devices" page calls to press a bind button or pull a plug without
 * hardware. When the fleet stops (the server stopping), each gateway's committed configuration
 * is written back to the file's `config`, so a configuration pushed to a demo gateway survives a
 * restart, as it would in a real box's flash.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Fleet, startFleet } from './fleet';
import { type PollingOptions, pollingConfig } from './layouts';
import type { PortSpec } from './modbus/bus';
import { SLAVE_FAULTS, type SlaveFault } from './modbus/slave';
import { type GatewaySpec, type GatewayState, type SimLog, SN_PATTERN, silentLog } from './types';

export const DEMO_GATEWAYS_FILE = path.join('secrets', 'demo-gateways.json');

/** DEMO_GATEWAYS=off turns the demo's devices off. */
export function demoGatewaysEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.DEMO_GATEWAYS !== 'off';
}

/**
 * What is wired to the demo's n-th gateway: a switch room with meters, a boiler room with
 * flow, pressure and temperatures (a cold store among them, for negative values), a workshop
 * with a bit of everything; different word orders and line settings, as sites really are.
 */
export function demoLayout(index: number): PortSpec[] {
  const layouts: PortSpec[][] = [
    [
      {
        port: 1,
        slaves: [
          { kind: 'meter3p', address: 1 },
          { kind: 'meter3p', address: 2, order: 'CDAB' },
        ],
      },
      { port: 2, parity: 2, slaves: [{ kind: 'meter1p', address: 3 }] },
    ],
    [
      {
        port: 1,
        slaves: [
          { kind: 'flowSensor', address: 1 },
          { kind: 'thSensor', address: 2 },
        ],
      },
      { port: 2, baudRate: 19200, slaves: [{ kind: 'thSensor', address: 5, baseTemperature: -18 }] },
    ],
    [
      {
        port: 1,
        slaves: [
          { kind: 'meter3p', address: 1, order: 'DCBA' },
          { kind: 'thSensor', address: 2 },
        ],
      },
      { port: 2, slaves: [{ kind: 'flowSensor', address: 1, order: 'BADC' }] },
    ],
  ];
  return layouts[index % layouts.length]!;
}

/**
 * The configuration of the demo's n-th gateway, as the seed can write it into the secrets file
 * (`config`) or save it on the platform: every slave's measurement block read every minute
 * (sampling id 1) and published as frames; with `telemetry`, decoded into the demo's items.
 */
export function demoConfig(index: number, options: PollingOptions = {}): ReturnType<typeof pollingConfig> {
  return pollingConfig(demoLayout(index), { samplingId: 1, ...options });
}

export const DEMO_CONTROL_ACTIONS = [
  'pressButton',
  'powerCut',
  'powerOn',
  'goOffline',
  'comeOnline',
  'swapSim',
  'slaveFault',
] as const;
export type DemoControlAction = (typeof DEMO_CONTROL_ACTIONS)[number];

export type DemoControlResult =
  | { ok: true; state: GatewayState; detail?: string }
  | { ok: false; error: 'badInput' | 'unknownGateway' | 'unknownAction' | 'refused'; message: string };

export interface DemoFleet {
  readonly fleet: Fleet;
  /** what the demo devices page shows */
  list(): GatewayState[];
  /**
   * Does `action` to the demo gateway `sn`. Input comes from a web page: anything is checked
   * and refused with a reason, never thrown.
   * - pressButton: the bind button (confirms a waiting bind request)
   * - powerCut `{seconds?, how?}`: pulls the plug; back by itself after `seconds` (default: stays
   *   off); `how` kill (the will at once, default) or silent (the will when the keep-alive runs out)
   * - goOffline `{how?}`: kill (default), polite (a goodbye) or silent; powerOn, comeOnline, swapSim
   * - slaveFault `{port, address, fault}`: none | silent | garbage | badCrc
   */
  control(input: unknown): Promise<DemoControlResult>;
  stop(): Promise<void>;
}

interface DemoEntry extends GatewaySpec {
  sn: string;
  secret: string;
}

/** The file's entries that can run; the others are named in the log and left out. */
function readEntries(raw: unknown, log: SimLog): DemoEntry[] {
  if (!Array.isArray(raw)) {
    log.warn({}, 'demo gateways: the file is not a JSON array; no demo gateways');
    return [];
  }
  const entries: DemoEntry[] = [];
  raw.forEach((e: unknown, i: number) => {
    const entry = e as Partial<DemoEntry> | null;
    if (
      !entry ||
      typeof entry.sn !== 'string' ||
      !SN_PATTERN.test(entry.sn.toUpperCase()) ||
      typeof entry.secret !== 'string'
    ) {
      log.warn({ index: i }, 'demo gateways: an entry without a valid sn and secret is left out');
      return;
    }
    entries.push(entry as DemoEntry);
  });
  return entries;
}

export async function startDemoFleet(options: {
  dataDir: string;
  /** the embedded broker, without credentials: each gateway signs in with its own */
  mqttUrl: string;
  log?: SimLog;
  /** upgrade and reboot durations divided by this (default 1: 2-3 minutes, as the spec says) */
  speed?: number;
}): Promise<DemoFleet | null> {
  const log = options.log ?? silentLog;
  const file = path.join(options.dataDir, DEMO_GATEWAYS_FILE);
  let text: string;
  try {
    const info = await stat(file);
    if ((info.mode & 0o077) !== 0)
      log.warn({ file }, 'demo gateways: the secrets file is readable by others (expected mode 0600)');
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      log.info({ file }, 'demo gateways: no secrets file, no demo gateways');
      return null;
    }
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    log.warn({ file }, 'demo gateways: the secrets file is not JSON; no demo gateways');
    return null;
  }
  const entries = readEntries(raw, log);
  if (entries.length === 0) return null;
  const gateways = entries.map((e, i) => ({ ...e, ports: e.ports ?? demoLayout(i) }));
  const fleet = await startFleet({
    url: options.mqttUrl,
    gateways,
    log,
    speed: options.speed ?? 1,
    // a handful: no need to spread them
    connectRate: 50,
  });
  log.info({ gateways: gateways.length }, 'demo gateways started');
  return {
    fleet,
    list: () => fleet.states(),
    control: (input) => control(fleet, input),
    stop: async () => {
      await keepConfigs(file, fleet, log);
      await fleet.stop();
    },
  };
}

/**
 * Writes each gateway's committed configuration into its entry of the secrets file (the rest of
 * the file as it is, mode 0600 kept); nothing is written when nothing changed.
 */
async function keepConfigs(file: string, fleet: Fleet, log: SimLog): Promise<void> {
  try {
    const text = await readFile(file, 'utf8');
    const raw = JSON.parse(text) as unknown;
    if (!Array.isArray(raw)) return;
    for (const entry of raw as Array<Record<string, unknown> | null>) {
      if (!entry || typeof entry.sn !== 'string') continue;
      const gateway = fleet.get(entry.sn);
      if (!gateway) continue;
      const kept = gateway.committedConfig();
      if (kept) entry.config = kept;
      else delete entry.config;
    }
    const next = `${JSON.stringify(raw, null, 2)}\n`;
    if (next !== text) await writeFile(file, next, { mode: 0o600 });
  } catch (error) {
    log.warn({ file, err: error }, 'demo gateways: could not keep their configurations in the secrets file');
  }
}

async function control(fleet: Fleet, input: unknown): Promise<DemoControlResult> {
  const bad = (message: string): DemoControlResult => ({ ok: false, error: 'badInput', message });
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return bad('expected {sn, action}');
  const { sn, action } = input as Record<string, unknown>;
  if (typeof sn !== 'string' || sn.length > 32) return bad('sn');
  if (typeof action !== 'string' || !(DEMO_CONTROL_ACTIONS as readonly string[]).includes(action))
    return {
      ok: false,
      error: 'unknownAction',
      message: `action must be one of ${DEMO_CONTROL_ACTIONS.join(', ')}`,
    };
  const gateway = fleet.get(sn);
  if (!gateway)
    return { ok: false, error: 'unknownGateway', message: 'no demo gateway has this serial number' };
  const args = input as Record<string, unknown>;
  const done = (detail?: string): DemoControlResult => ({
    ok: true,
    state: gateway.state(),
    ...(detail ? { detail } : {}),
  });
  switch (action as DemoControlAction) {
    case 'pressButton': {
      const press = gateway.pressBindButton();
      return press.sent
        ? done(`bind request ${press.requestId} confirmed`)
        : { ok: false, error: 'refused', message: press.reason ?? 'ignored' };
    }
    case 'powerCut': {
      const seconds = args.seconds;
      if (seconds !== undefined && (typeof seconds !== 'number' || !(seconds > 0) || seconds > 3600))
        return bad('seconds: 1-3600');
      const how = args.how ?? 'kill';
      if (how !== 'kill' && how !== 'silent') return bad('how: kill or silent');
      await gateway.powerCut(seconds === undefined ? undefined : seconds * 1000, how);
      return done();
    }
    case 'powerOn':
      gateway.powerOn();
      return done();
    case 'goOffline': {
      const how = args.how ?? 'kill';
      if (how !== 'kill' && how !== 'polite' && how !== 'silent') return bad('how: kill, polite or silent');
      await gateway.goOffline(how);
      return done();
    }
    case 'comeOnline':
      gateway.comeOnline();
      return done();
    case 'swapSim':
      return done(gateway.swapSim());
    case 'slaveFault': {
      const { port, address, fault } = args;
      if (typeof port !== 'number' || typeof address !== 'number') return bad('port and address');
      if (typeof fault !== 'string' || !(SLAVE_FAULTS as readonly string[]).includes(fault))
        return bad(`fault: one of ${SLAVE_FAULTS.join(', ')}`);
      if (!gateway.setSlaveFault(port, address, fault as SlaveFault))
        return { ok: false, error: 'refused', message: `no slave ${address} on port ${port}` };
      return done();
    }
  }
}
