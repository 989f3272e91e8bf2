/**
 * One simulated gateway (DTU) speaking docs/device-protocol.md over MQTT: identity and last
 * will, birth message, reconnection with backoff, bind confirmation by its button, firmware
 * upgrades, configurations applied with commit or rollback, passthrough, events; plus the
 * faults a controller (a test, the CLI, the demo page) can cause.
 *
 * Power and network are separate, as on a real box: with the power on and the link down it
 * keeps polling (and drops what it reads), keeps counting down a configuration's commit
 * deadline, and reports what happened once it is connected again. A power cut loses what was
 * in memory (a bind request, an upgrade in progress, a configuration not committed yet).
 */
import { toHex } from '@platform/domain';
import type { IClientOptions } from 'mqtt';
import { planConfig, type RunPlan } from './config/plan';
import { ConfigStore, type StoredConfig } from './config/store';
import {
  type FailureReason,
  REAL_TIMING,
  runUpgrade,
  scaleTiming,
  type UpgradeFaults,
  type UpgradeMessage,
  type UpgradeStep,
  type UpgradeTiming,
} from './firmware';
import { defaultIccid, defaultPorts } from './layouts';
import { type DropHow, MqttLink, TOPIC_ROOT } from './link';
import { SerialBus } from './modbus/bus';
import type { SlaveFault } from './modbus/slave';
import { Poller } from './poller';
import { realTimers, Scheduler, type Task } from './scheduler';
import type { GatewayCounters, GatewaySpec, GatewayState, PortStatus, SimLog, UpgradeState } from './types';
import { silentLog } from './types';

export { type DropHow, TOPIC_ROOT };
export const DEFAULT_MODEL = 'SDG-200';
export const DEFAULT_FIRMWARE = '1.0.0';
/** The largest down message read (a configuration of 500 nodes is well under it). */
const MAX_DOWN_BYTES = 1024 * 1024;
/** A bind light never blinks longer than this, whatever `expiresAt` says. */
const MAX_BLINK_MS = 15 * 60_000;
/** Messages kept for the platform while offline (events, reports); older ones are dropped. */
const MAX_OWED = 100;

export interface GatewayOptions {
  /** the broker: mqtt://host:port or mqtts://… */
  url: string;
  /** shared by a fleet; one of its own otherwise */
  scheduler?: Scheduler;
  /** divides the device's own durations (upgrade steps, reboot, power-off): 1 is real time */
  speed?: number;
  /** MQTT keep-alive, seconds (30 recommended by the protocol) */
  keepalive?: number;
  /** reconnection waits: doubling from minMs up to maxMs, with jitter */
  backoff?: { minMs?: number; maxMs?: number };
  /** the upgrade's step durations at speed 1 */
  timing?: Partial<UpgradeTiming>;
  log?: SimLog;
  fetch?: typeof fetch;
  /** extra MQTT client options (tests) */
  mqtt?: Partial<IClientOptions>;
}

export class SimGateway {
  readonly sn: string;
  readonly secret: string;
  readonly model: string;
  firmware: string;
  iccid: string;
  readonly scheduler: Scheduler;
  readonly counters: GatewayCounters = {
    connects: 0,
    connectFailures: 0,
    framesPublished: 0,
    recordsPublished: 0,
    framesDropped: 0,
    messagesReceived: 0,
    badMessages: 0,
  };
  readonly buses: Map<number, SerialBus>;
  private readonly poller: Poller;
  private readonly configs: ConfigStore;
  readonly log: SimLog;
  private readonly timing: UpgradeTiming;
  private readonly speed: number;

  private powered = false;
  private linkUp = true;
  private stopped = false;
  private readonly link: MqttLink;

  private bound: boolean | null = null;
  private blinking: GatewayState['blinking'] = null;
  private blinkTask: Task | null = null;

  private upgrade: UpgradeState | null = null;
  private upgradeAbort: AbortController | null = null;
  private upgradeFaults: UpgradeFaults = {};
  private powerOffMs = 10_000;

  private rejectNext: string | null = null;
  private loseLinkAfterNext = false;
  private restoreLinkOnRollback = false;
  private rollbackTask: Task | null = null;

  /** messages owed to the platform, sent right after the next birth message */
  private outbox: Array<{ sub: string; message: unknown; qos: 0 | 1 }> = [];

  constructor(
    spec: GatewaySpec,
    private readonly options: GatewayOptions,
  ) {
    this.sn = spec.sn.toUpperCase();
    this.secret = spec.secret;
    this.model = spec.model ?? DEFAULT_MODEL;
    this.firmware = spec.firmware ?? DEFAULT_FIRMWARE;
    this.iccid = spec.iccid ?? defaultIccid(this.sn);
    this.scheduler = options.scheduler ?? new Scheduler(realTimers);
    this.log = options.log ?? silentLog;
    this.speed = options.speed && options.speed > 0 ? options.speed : 1;
    this.timing = scaleTiming({ ...REAL_TIMING, ...options.timing }, this.speed);
    this.buses = new Map((spec.ports ?? defaultPorts()).map((p) => [p.port, new SerialBus(p, this.sn)]));
    this.configs = new ConfigStore((spec.config as StoredConfig | undefined) ?? null);
    this.link = new MqttLink(
      {
        sn: this.sn,
        secret: this.secret,
        scheduler: this.scheduler,
        counters: this.counters,
        log: this.log,
        wanted: () => this.powered && this.linkUp && !this.stopped,
        opened: () => this.opened(),
        message: (topic, payload) => this.onMessage(topic, payload),
      },
      options,
    );
    this.poller = new Poller(
      {
        sn: this.sn,
        scheduler: this.scheduler,
        counters: this.counters,
        publish: (sub, message, qos) => this.publish(sub, message, qos),
        portsChanged: (ports, failed) => this.portsChanged(ports, failed),
        hint: (port, text) => this.log.debug?.({ sn: this.sn, port }, `no answer: ${text}`),
      },
      this.buses,
    );
  }

  // ---- life --------------------------------------------------------------------------

  /** Powers the gateway on: it starts polling and connects. */
  start(): void {
    if (this.powered || this.stopped) return;
    this.boot(null);
  }

  /** Says goodbye (if online) and stops for good. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.link.drop('polite');
    this.link.closeHalfOpen();
    this.shutDown();
  }

  private boot(reason: string | null): void {
    this.powered = true;
    if (this.configs.powerCycle() && this.restoreLinkOnRollback) {
      // the configuration that cut the network off is gone with the power
      this.restoreLinkOnRollback = false;
      this.linkUp = true;
    }
    this.runConfig();
    if (reason) this.owe('event', { event: 'reboot', detail: reason });
    this.link.connect();
  }

  /** Everything in memory goes: timers, the bind light, an upgrade in progress. */
  private shutDown(): void {
    this.powered = false;
    if (this.upgradeAbort && this.upgrade)
      this.upgrade = { ...this.upgrade, state: 'interrupted', detail: `power lost at ${this.upgrade.state}` };
    this.upgradeAbort?.abort(new Error('power lost'));
    this.upgradeAbort = null;
    this.poller.stop();
    this.blinkTask?.cancel();
    this.blinking = null;
    this.rollbackTask?.cancel();
    this.rollbackTask = null;
    this.link.cancelReconnect();
  }

  /** Runs what the configuration store says is running now. */
  private runConfig(): void {
    const running = this.configs.running;
    let plan: RunPlan | null = null;
    if (running) plan = planFor(running.config);
    this.poller.run(plan);
    const pending = this.configs.pending;
    this.rollbackTask?.cancel();
    this.rollbackTask = pending ? this.scheduler.at(pending.deadline, () => this.rollbackIfDue()) : null;
  }

  // ---- connection --------------------------------------------------------------------

  /** The session is open: the birth message, then what the gateway owes the platform. */
  private opened(): void {
    this.publish('status', this.birth(), 1);
    for (const report of this.configs.reports.splice(0)) this.publish('config', report, 1);
    for (const item of this.outbox.splice(0)) this.publish(item.sub, item.message, item.qos);
  }

  /** Publishes on `up/<sub>` when online; false when not (the message is dropped). */
  private publish(sub: string, message: unknown, qos: 0 | 1): boolean {
    return this.link.publish(`up/${sub}`, message, qos);
  }

  /** Sends now when online, or right after the next birth message (the latest 100 kept). */
  private owe(sub: string, message: unknown, qos: 0 | 1 = 1): void {
    if (this.publish(sub, message, qos)) return;
    this.outbox.push({ sub, message, qos });
    if (this.outbox.length > MAX_OWED) this.outbox.splice(0, this.outbox.length - MAX_OWED);
  }

  private birth(): Record<string, unknown> {
    const running = this.configs.running;
    return {
      online: true,
      model: this.model,
      firmware: this.firmware,
      iccid: this.iccid,
      ...(running ? { configVersion: running.version, configHash: running.hash } : {}),
      ports: this.poller.ports(),
    };
  }

  private portsChanged(ports: PortStatus[], failed: PortStatus[]): void {
    // offline, the next birth message carries the ports
    this.publish('status', { ports }, 1);
    for (const port of failed) this.owe('event', { event: 'portError', port: port.port, detail: port.error });
  }

  // ---- down messages -----------------------------------------------------------------

  private onMessage(topic: string, payload: Buffer): void {
    this.counters.messagesReceived += 1;
    const prefix = `${TOPIC_ROOT}/${this.sn}/down/`;
    let message: unknown;
    try {
      if (!topic.startsWith(prefix) || payload.length > MAX_DOWN_BYTES) throw new Error('not ours');
      message = JSON.parse(payload.toString('utf8'));
      if (typeof message !== 'object' || message === null || Array.isArray(message))
        throw new Error('not an object');
    } catch {
      this.counters.badMessages += 1;
      return;
    }
    const m = message as Record<string, unknown>;
    try {
      switch (topic.slice(prefix.length)) {
        case 'bind':
          this.onBind(m);
          break;
        case 'firmware':
          this.onFirmware(m);
          break;
        case 'config':
          this.onConfig(m).catch((error) => this.messageFailed(topic, error));
          break;
        case 'config/commit':
          this.onCommit(m);
          break;
        case 'passthrough':
          if (!this.poller.passthrough(m)) this.counters.badMessages += 1;
          break;
        case 'command':
          this.onCommand(m);
          break;
        default:
          this.counters.badMessages += 1;
      }
    } catch (error) {
      this.messageFailed(topic, error);
    }
  }

  /** A message the code did not foresee never takes the gateway down. */
  private messageFailed(topic: string, error: unknown): void {
    this.counters.badMessages += 1;
    this.log.warn({ sn: this.sn, topic, err: (error as Error).message }, 'gateway: message failed');
  }

  private onBind(m: Record<string, unknown>): void {
    const requestId = typeof m.requestId === 'string' && m.requestId.length <= 128 ? m.requestId : null;
    if (typeof m.result === 'string') {
      if (m.result === 'unbound') {
        this.bound = false;
        this.stopBlinking();
        return;
      }
      if (m.result === 'bound') this.bound = true;
      if (requestId && this.blinking?.requestId === requestId) this.stopBlinking();
      return;
    }
    if (!requestId) {
      this.counters.badMessages += 1;
      return;
    }
    const now = this.scheduler.now();
    const expires = typeof m.expiresAt === 'number' ? m.expiresAt : Date.parse(String(m.expiresAt));
    if (!Number.isFinite(expires) || expires <= now) {
      this.counters.badMessages += 1;
      return;
    }
    this.blinkTask?.cancel();
    this.blinking = {
      requestId,
      company: typeof m.company === 'string' ? m.company.slice(0, 200) : '',
      expiresAt: new Date(expires).toISOString(),
    };
    this.blinkTask = this.scheduler.after(Math.min(expires - now, MAX_BLINK_MS), () => this.stopBlinking());
  }

  private stopBlinking(): void {
    this.blinkTask?.cancel();
    this.blinkTask = null;
    this.blinking = null;
  }

  private onFirmware(m: Record<string, unknown>): void {
    const id = m.upgradeId;
    if ((typeof id !== 'number' && typeof id !== 'string') || String(id).length > 64) {
      this.counters.badMessages += 1;
      return;
    }
    // one upgrade at a time; the same order delivered twice (QoS 1) is the one running
    if (this.upgradeAbort) {
      if (this.upgrade?.upgradeId !== id)
        this.log.warn(
          { sn: this.sn, upgradeId: id },
          'gateway: an upgrade is already running, order ignored',
        );
      return;
    }
    const faults = this.upgradeFaults;
    this.upgradeFaults = {};
    const abort = new AbortController();
    this.upgradeAbort = abort;
    this.upgrade = { upgradeId: id, version: String(m.version ?? ''), state: 'ordered' };
    // the last report reaches the broker before a power cut the fault causes
    let lastReport: Promise<boolean> = Promise.resolve(true);
    void runUpgrade({
      order: m as never,
      timing: this.timing,
      faults,
      scheduler: this.scheduler,
      signal: abort.signal,
      fetch: this.options.fetch,
      report: (message: UpgradeMessage) => {
        const { upgradeId: _, ...rest } = message;
        this.upgrade = { upgradeId: id, version: this.upgrade?.version ?? '', ...rest };
        lastReport = this.link.publishConfirmed('up/firmware', message);
      },
    }).then(async (result) => {
      if (this.upgradeAbort === abort) this.upgradeAbort = null;
      if (result.outcome === 'installed') {
        void this.reboot(`firmware ${this.firmware} → ${result.version}`, result.version);
      } else if (result.outcome === 'powerLost') {
        // a cut caused by the fault (a cut from outside has shut everything down already)
        if (this.powered) {
          if (this.upgrade)
            this.upgrade = { ...this.upgrade, state: 'interrupted', detail: `power lost at ${result.step}` };
          await lastReport;
          await this.powerCut(this.powerOffMs);
        }
      }
    });
  }

  private async onConfig(m: Record<string, unknown>): Promise<void> {
    const now = this.scheduler.now();
    const reject = this.rejectNext ?? undefined;
    const { answer, changed } = this.configs.receive(m, [...this.buses.keys()], now, reject);
    if (reject !== undefined && answer.result === 'rejected') this.rejectNext = null;
    if (changed) this.runConfig();
    if (changed && this.loseLinkAfterNext) {
      this.loseLinkAfterNext = false;
      // the new configuration "cuts the gateway off": the answer gets out, the commit never comes in
      await this.link.publishConfirmed('up/config', answer);
      this.restoreLinkOnRollback = true;
      await this.goOffline('kill');
      return;
    }
    this.publish('config', answer, 1);
    if (changed) this.publish('status', this.configStatus(), 1);
  }

  private onCommit(m: Record<string, unknown>): void {
    if (!this.configs.commit(m)) return;
    this.rollbackTask?.cancel();
    this.rollbackTask = null;
  }

  private rollbackIfDue(): void {
    this.rollbackTask = null;
    if (!this.configs.expire(this.scheduler.now())) return;
    this.runConfig();
    for (const report of this.configs.reports.splice(0)) this.owe('config', report);
    this.owe('status', this.configStatus());
    if (this.restoreLinkOnRollback) {
      this.restoreLinkOnRollback = false;
      this.comeOnline();
    }
  }

  private configStatus(): Record<string, unknown> {
    const running = this.configs.running;
    return running ? { configVersion: running.version, configHash: running.hash } : { configVersion: null };
  }

  private onCommand(m: Record<string, unknown>): void {
    if (m.command === 'reboot') void this.reboot('command');
    else if (m.command === 'readNow') this.poller.pollAll();
    else {
      // a command node of the running configuration: written on its port, the answer reported
      const done = typeof m.command === 'string' ? this.poller.command(m.command) : null;
      if (!done) this.counters.badMessages += 1;
      else
        this.owe('event', {
          event: 'command',
          port: done.port,
          detail: `${m.command}: ${done.answer ? `answered ${toHex(done.answer)}` : 'no answer'}`,
        });
    }
  }

  /** Goodbye, everything in memory gone, back after the reboot time with `firmware`. */
  private async reboot(reason: string, firmware?: string): Promise<void> {
    if (!this.powered) return;
    await this.link.drop('polite');
    this.shutDown();
    this.scheduler.after(this.timing.rebootMs, () => {
      if (this.stopped || this.powered) return;
      if (firmware) {
        this.firmware = firmware;
        if (this.upgrade) this.upgrade = { ...this.upgrade, state: 'rebooted' };
      }
      this.boot(reason);
    });
  }

  // ---- the controller: what a person or a test can do to the gateway -----------------

  /** A snapshot of everything the gateway shows. */
  state(): GatewayState {
    const running = this.configs.running;
    const pending = this.configs.pending;
    return {
      sn: this.sn,
      model: this.model,
      firmware: this.firmware,
      iccid: this.iccid,
      powered: this.powered,
      linkUp: this.linkUp,
      online: this.link.online,
      bound: this.bound,
      blinking: this.blinking ? { ...this.blinking } : null,
      upgrade: this.upgrade ? { ...this.upgrade } : null,
      config: running ? { version: running.version, hash: running.hash } : null,
      pendingConfig: pending
        ? {
            version: pending.config.version,
            hash: pending.config.hash,
            deadline: new Date(pending.deadline).toISOString(),
          }
        : null,
      ports: this.poller.ports(),
      counters: { ...this.counters },
    };
  }

  /**
   * The person presses the bind button: `up/bind` with the waiting request's id, and a
   * `button` event. Without a waiting request (or offline) the press changes nothing.
   */
  pressBindButton(): { sent: boolean; requestId?: string; reason?: string } {
    if (!this.powered) return { sent: false, reason: 'the power is off' };
    this.owe('event', { event: 'button', detail: this.blinking ? 'bind' : 'no bind request waiting' });
    if (!this.blinking) return { sent: false, reason: 'no bind request waiting' };
    const { requestId } = this.blinking;
    if (!this.publish('bind', { requestId }, 1)) return { sent: false, reason: 'offline' };
    return { sent: true, requestId };
  }

  /**
   * Cuts the power: no goodbye, memory is lost. `kill` (default): the socket closes and the
   * broker publishes the will at once; `silent`: the socket is left hanging, so the broker
   * notices only when the keep-alive runs out. With `forMs` the power comes back by itself
   * (default: it stays off until powerOn).
   */
  async powerCut(forMs?: number, how: Exclude<DropHow, 'polite'> = 'kill'): Promise<void> {
    if (!this.powered) return;
    await this.link.drop(how);
    this.shutDown();
    if (forMs !== undefined)
      this.scheduler.after(forMs, () => {
        if (!this.stopped && !this.powered) this.boot('power restored');
      });
  }

  /** The power comes back: boots (rolling back an uncommitted configuration) and connects. */
  powerOn(): void {
    if (this.stopped || this.powered) return;
    this.boot('power restored');
  }

  /** The next upgrade loses power right after reporting `step`; the power returns after `offForMs` (default 10 s / speed). */
  losePowerDuringNextUpgrade(step: Exclude<UpgradeStep, 'rebooting'>, offForMs = 10_000 / this.speed): void {
    this.upgradeFaults = { ...this.upgradeFaults, losePowerAt: step };
    this.powerOffMs = offForMs;
  }

  /** The next upgrade fails at its download, verify or install step. */
  failNextUpgrade(reason: FailureReason): void {
    this.upgradeFaults = { ...this.upgradeFaults, fail: reason };
  }

  /** The configuration it keeps (committed): what the box would still run after a restart. */
  committedConfig(): StoredConfig | null {
    return this.configs.committed;
  }

  /** The next configuration (not one it already runs) is rejected with `message`. */
  rejectNextConfig(message = 'rejected by the device (simulated fault)'): void {
    this.rejectNext = message;
  }

  /** The next configuration is applied, then the network goes, so no commit arrives: it must roll back by itself. */
  loseNetworkAfterNextConfig(): void {
    this.loseLinkAfterNext = true;
  }

  /**
   * The network goes; the power stays on. `polite` says goodbye first, `kill` just closes the
   * socket (the will follows at once), `silent` leaves it hanging (the will follows when the
   * broker's keep-alive runs out).
   */
  async goOffline(how: DropHow = 'kill'): Promise<void> {
    this.linkUp = false;
    await this.link.drop(how);
  }

  /** The network comes back; the gateway connects. */
  comeOnline(): void {
    this.linkUp = true;
    this.link.reconnectNow();
  }

  /** A new SIM card (a new ICCID, generated when not given): status update and a simChanged event. */
  swapSim(iccid?: string): string {
    const before = this.iccid;
    this.iccid = iccid ?? defaultIccid(`${this.sn}/${before}/${this.scheduler.now()}`);
    this.owe('status', { iccid: this.iccid });
    this.owe('event', { event: 'simChanged', detail: `${before} → ${this.iccid}` });
    return this.iccid;
  }

  /** Makes the slave at `address` on `port` stop answering, answer garbage or with a bad CRC ('none' heals it). */
  setSlaveFault(port: number, address: number, fault: SlaveFault): boolean {
    const slave = this.buses.get(port)?.slave(address);
    if (!slave) return false;
    slave.fault = fault;
    return true;
  }

  /** The passthrough session holding `port`, if any (polling waits meanwhile). */
  passthroughSession(port: number): string | null {
    return this.poller.session(port);
  }
}

/** Plans are shared by every gateway given the same configuration object (a fleet's default). */
const plans = new WeakMap<object, RunPlan>();
function planFor(config: StoredConfig['config']): RunPlan {
  let plan = plans.get(config);
  if (!plan) {
    plan = planConfig(config);
    plans.set(config, plan);
  }
  return plan;
}
