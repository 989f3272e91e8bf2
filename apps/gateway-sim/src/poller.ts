/**
 * A gateway's serial side: it polls the packets of its configuration on the fleet's shared
 * scheduler (one task per distinct interval, not one timer per packet), publishes what the
 * slaves answer, watches each port's health, and runs passthrough sessions (which pause the
 * port's own polling while they last).
 */
import { hasValidCrc, parseHex, toHex } from '@platform/domain';
import type { PacketPlan, RunPlan } from './config/plan';
import { DEFAULT_PASSTHROUGH_IDLE_MS, telemetryRecords } from './config/plan';
import { DEFAULT_LINE, describeLine, type SerialBus, sameLine } from './modbus/bus';
import { seedOf } from './modbus/signals';
import type { Scheduler, Task } from './scheduler';
import type { GatewayCounters, PortStatus } from './types';

export interface PollerHost {
  readonly sn: string;
  readonly scheduler: Scheduler;
  readonly counters: GatewayCounters;
  /** publishes on `up/<sub>` when online; false when it could not */
  publish(sub: string, message: unknown, qos: 0 | 1): boolean;
  /** a port went bad or came back */
  portsChanged(ports: PortStatus[], failed: PortStatus[]): void;
  /** why a port answers nothing, for the simulator's log (a real gateway cannot know) */
  hint(port: number, text: string): void;
}

interface Session {
  id: string;
  idleMs: number;
  task: Task;
}

export class Poller {
  private plan: RunPlan | null = null;
  private tasks: Task[] = [];
  private status = new Map<number, PortStatus>();
  private sessions = new Map<number, Session>();

  constructor(
    private readonly host: PollerHost,
    readonly buses: Map<number, SerialBus>,
  ) {
    for (const port of buses.keys()) this.status.set(port, { port, ok: true });
  }

  ports(): PortStatus[] {
    return [...this.status.values()].map((s) => ({ ...s }));
  }

  /** Starts polling `plan` (stops what ran before); null stops polling. */
  run(plan: RunPlan | null): void {
    this.stop();
    this.plan = plan;
    if (!plan) return;
    const groups = new Map<number, PacketPlan[]>();
    for (const packet of plan.packets) {
      if (!plan.ports.get(packet.port)?.polled) continue;
      const group = groups.get(packet.intervalMs) ?? [];
      group.push(packet);
      groups.set(packet.intervalMs, group);
    }
    // a gateway's first poll falls somewhere in its first period, fixed by its serial number,
    // so a fleet given one configuration does not read all its meters in the same millisecond
    const seed = seedOf(this.host.sn);
    for (const [intervalMs, packets] of groups) {
      const first = ((seed % 1000) / 1000) * intervalMs;
      this.tasks.push(this.host.scheduler.every(intervalMs, () => this.poll(packets), first));
    }
  }

  /** Stops polling and closes passthrough sessions (power off). */
  stop(): void {
    for (const task of this.tasks) task.cancel();
    this.tasks = [];
    for (const session of this.sessions.values()) session.task.cancel();
    this.sessions.clear();
  }

  /** Reads every packet now (`down/command` readNow). */
  pollAll(): void {
    if (this.plan) this.poll(this.plan.packets.filter((p) => this.plan!.ports.get(p.port)?.polled));
  }

  private poll(packets: PacketPlan[]): void {
    const plan = this.plan;
    if (!plan) return;
    const now = this.host.scheduler.now();
    const frames: Array<{ port: number; packetId: number; frame: string; ts: number }> = [];
    const records: Array<Record<string, unknown>> = [];
    const results = new Map<number, string | null>();
    for (const packet of packets) {
      if (this.sessions.has(packet.port)) continue; // a passthrough session holds the port
      const port = plan.ports.get(packet.port)!;
      const bus = this.buses.get(packet.port);
      const answer = bus ? bus.transact(packet.frame, port.line, now) : null;
      let error: string | null = null;
      if (!answer) {
        error = 'no answer';
        if (bus && !sameLine(port.line, bus.line))
          this.host.hint(
            packet.port,
            `port set to ${describeLine(port.line)}, the bus runs ${describeLine(bus.line)}`,
          );
      } else if (hasValidCrc(packet.frame) && !hasValidCrc(answer)) {
        error = 'bad CRC';
      }
      if (error !== null || !results.has(packet.port)) results.set(packet.port, error);
      if (!answer) continue;
      frames.push({ port: packet.port, packetId: packet.packetId, frame: toHex(answer), ts: now });
      if (plan.json && error === null)
        records.push(
          ...telemetryRecords(packet, answer, plan.tsFormat === 'iso' ? new Date(now).toISOString() : now),
        );
    }
    this.note(results);
    if (plan.raw && frames.length > 0) {
      if (this.host.publish('frame', frames.length === 1 ? frames[0] : { frames }, plan.qos))
        this.host.counters.framesPublished += frames.length;
      else this.host.counters.framesDropped += frames.length;
    }
    if (plan.json && records.length > 0) {
      if (this.host.publish('telemetry', records.length === 1 ? records[0] : records, plan.qos))
        this.host.counters.recordsPublished += records.length;
      else if (!plan.raw) this.host.counters.framesDropped += frames.length;
    }
  }

  /** Records each port's health after a poll; reports the changes. */
  private note(results: Map<number, string | null>): void {
    const failed: PortStatus[] = [];
    let changed = false;
    for (const [port, error] of results) {
      const before = this.status.get(port);
      const now: PortStatus = error === null ? { port, ok: true } : { port, ok: false, error };
      if (before?.ok === now.ok && before?.error === now.error) continue;
      changed = true;
      this.status.set(port, now);
      if (!now.ok) failed.push(now);
    }
    if (changed) this.host.portsChanged(this.ports(), failed);
  }

  /**
   * A `down/passthrough` message: writes its bytes on the port's bus as they are and publishes
   * what came back. Ill-formed messages are dropped (counted by the caller).
   */
  passthrough(message: Record<string, unknown>): boolean {
    const { session, port, data } = message;
    if (typeof session !== 'string' || session.length === 0 || session.length > 128) return false;
    if (typeof port !== 'number' || !this.buses.has(port)) return false;
    if (typeof data !== 'string' || data.length > 256 * 3) return false;
    const bytes = parseHex(data);
    if (!bytes) return false;
    const bus = this.buses.get(port)!;
    const line = this.plan?.ports.get(port)?.line ?? DEFAULT_LINE;
    this.holdPort(port, session);
    const answer = bus.transact(bytes, line, this.host.scheduler.now());
    if (answer) this.host.publish('passthrough', { session, port, data: toHex(answer) }, 0);
    return true;
  }

  /**
   * A `down/command` naming a command node of the running configuration: its bytes written on
   * its port as they are. Null when the configuration has no such command (or no such port).
   */
  command(name: string): { port: number; answer: Uint8Array | null } | null {
    const command = this.plan?.commands.get(name);
    const bus = command ? this.buses.get(command.port) : undefined;
    if (!command || !bus) return null;
    const line = this.plan?.ports.get(command.port)?.line ?? DEFAULT_LINE;
    return { port: command.port, answer: bus.transact(command.bytes, line, this.host.scheduler.now()) };
  }

  /** Opens or prolongs the session on `port`: polling there waits until it is idle. */
  private holdPort(port: number, id: string): void {
    const idleMs = this.plan?.passthroughIdleMs.get(port) ?? DEFAULT_PASSTHROUGH_IDLE_MS;
    this.sessions.get(port)?.task.cancel();
    const task = this.host.scheduler.after(idleMs, () => {
      if (this.sessions.get(port)?.task === task) this.sessions.delete(port);
    });
    this.sessions.set(port, { id, idleMs, task });
  }

  /** The session holding `port`, if any. */
  session(port: number): string | null {
    return this.sessions.get(port)?.id ?? null;
  }
}
