/**
 * A fleet: many simulated gateways in one process on one scheduler. Connections are staggered
 * (a rate of connects per second), slave models and identical configurations are shared, and
 * nothing runs per gateway but its MQTT client and its own tasks on the shared scheduler.
 */
import { createHash } from 'node:crypto';
import { type GatewayOptions, SimGateway } from './gateway';
import { DEFAULT_PORTS } from './layouts';
import type { PortSpec } from './modbus/bus';
import { realTimers, Scheduler, type Task } from './scheduler';
import { type GatewaySpec, type GatewayState, SN_PATTERN } from './types';

export interface FleetOptions extends Omit<GatewayOptions, 'scheduler'> {
  /** the gateways, as a fleet file lists them */
  gateways?: GatewaySpec[];
  /** or this many generated ones: `<prefix>000001`, … */
  count?: number;
  prefix?: string;
  /** generated gateways' firmware and model */
  firmware?: string;
  model?: string;
  /** ports of generated gateways, or of listed ones without their own (default: DEFAULT_PORTS, shared) */
  ports?: (sn: string, index: number) => PortSpec[];
  /** a configuration each gateway already runs at start (default: its own, or none) */
  config?: (sn: string, ports: PortSpec[], index: number) => GatewaySpec['config'];
  /** connects per second while starting (default 200) */
  connectRate?: number;
  scheduler?: Scheduler;
}

export interface FleetStats {
  gateways: number;
  powered: number;
  online: number;
  framesPublished: number;
  recordsPublished: number;
  framesDropped: number;
  connects: number;
  connectFailures: number;
  badMessages: number;
}

export interface Fleet {
  readonly gateways: ReadonlyMap<string, SimGateway>;
  readonly scheduler: Scheduler;
  get(sn: string): SimGateway | undefined;
  states(): GatewayState[];
  stats(): FleetStats;
  /** resolves when at least `count` gateways (default: all) are online; rejects after timeoutMs */
  waitOnline(count?: number, timeoutMs?: number): Promise<void>;
  /** every gateway says goodbye and stops */
  stop(): Promise<void>;
}

/** A serial number from a prefix and a number: `SIM` + 7 → `SIM000007`. */
export function generatedSn(prefix: string, n: number): string {
  const sn = `${prefix.toUpperCase()}${String(n).padStart(6, '0')}`;
  if (!SN_PATTERN.test(sn)) throw new RangeError(`${sn} is not a serial number (6-32 of A-Z 0-9)`);
  return sn;
}

/**
 * A secret for a generated gateway: fixed by its serial number. Only a broker without
 * authentication (or a platform told these secrets) lets it in; a real platform issues secrets
 * itself (system maintenance → gateways, downloadable as CSV for a fleet file).
 */
export function generatedSecret(sn: string): string {
  return `gws_${createHash('sha256').update(`gateway-sim:${sn}`).digest('base64url')}`;
}

export function fleetSpecs(options: FleetOptions): GatewaySpec[] {
  const listed = options.gateways ?? [];
  const generated: GatewaySpec[] = [];
  for (let i = 0; i < (options.count ?? 0); i++) {
    const sn = generatedSn(options.prefix ?? 'SIM', i + 1);
    generated.push({
      sn,
      secret: generatedSecret(sn),
      ...(options.model ? { model: options.model } : {}),
      ...(options.firmware ? { firmware: options.firmware } : {}),
    });
  }
  return [...listed, ...generated].map((spec, index) => {
    const sn = spec.sn.toUpperCase();
    if (!SN_PATTERN.test(sn))
      throw new RangeError(`gateway ${index + 1}: ${spec.sn} is not a serial number (6-32 of A-Z 0-9)`);
    const ports = spec.ports ?? options.ports?.(sn, index) ?? (DEFAULT_PORTS as PortSpec[]);
    const config = spec.config ?? options.config?.(sn, ports, index);
    return { ...spec, sn, ports, ...(config ? { config } : {}) };
  });
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const scheduler = options.scheduler ?? new Scheduler(realTimers);
  const specs = fleetSpecs(options);
  const gateways = new Map<string, SimGateway>();
  for (const spec of specs) {
    if (gateways.has(spec.sn)) throw new RangeError(`${spec.sn} is listed twice`);
    gateways.set(spec.sn, new SimGateway(spec, { ...options, scheduler }));
  }
  const rate = options.connectRate && options.connectRate > 0 ? options.connectRate : 200;
  const starts: Task[] = [];
  let i = 0;
  for (const gateway of gateways.values()) {
    starts.push(scheduler.after((i++ * 1000) / rate, () => gateway.start()));
  }
  let stopped = false;
  const all = () => [...gateways.values()];
  const fleet: Fleet = {
    gateways,
    scheduler,
    get: (sn) => gateways.get(sn.toUpperCase()),
    states: () => all().map((g) => g.state()),
    stats: () => {
      const stats: FleetStats = {
        gateways: gateways.size,
        powered: 0,
        online: 0,
        framesPublished: 0,
        recordsPublished: 0,
        framesDropped: 0,
        connects: 0,
        connectFailures: 0,
        badMessages: 0,
      };
      for (const g of all()) {
        const s = g.state();
        if (s.powered) stats.powered += 1;
        if (s.online) stats.online += 1;
        stats.framesPublished += s.counters.framesPublished;
        stats.recordsPublished += s.counters.recordsPublished;
        stats.framesDropped += s.counters.framesDropped;
        stats.connects += s.counters.connects;
        stats.connectFailures += s.counters.connectFailures;
        stats.badMessages += s.counters.badMessages;
      }
      return stats;
    },
    waitOnline: async (count = gateways.size, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const online = all().filter((g) => g.state().online).length;
        if (online >= count) return;
        if (Date.now() > deadline)
          throw new Error(`${online} of ${count} gateways online after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const task of starts) task.cancel();
      // goodbyes in batches, so 10,000 of them do not open 10,000 waits at once
      const list = all();
      for (let k = 0; k < list.length; k += 500)
        await Promise.all(list.slice(k, k + 500).map((g) => g.stop()));
      if (!options.scheduler) scheduler.stop();
    },
  };
  return fleet;
}
